"""Revokes seen from the public history alone (pure).

The hub does not see hands, so it cannot stop a player from not following the led colour.
It can prove it afterwards: hands only shrink during a round (Catwoman's exchange happens
before the first trick), so a player who once did not follow colour C and later plays a C
card had that card when they should have followed.  The evidence is both plays.

A trick whose first card was played face down (The Riddler) asks nobody to follow: the
colour was not visible, so not following it is no revoke.  A face-down card that is later
revealed counts with its revealed colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablehub.games.chaos_in_gotham.cards import CardData


@dataclass(frozen=True)
class Revoke:
    seat: int
    colour: str  # the colour they did not follow, then played
    failed_trick: int  # index (this round) of the trick where they did not follow
    led_card: str  # the face-up card that led that trick
    played_instead: str  # what they played then
    trick: int  # index of the trick where they later played the colour
    card: str  # the card of that colour they played

    def evidence(self) -> dict[str, Any]:
        """The proof in JSON, for the journal, the web page and the event."""
        return {
            "seat": self.seat,
            "colour": self.colour,
            "failed_trick": self.failed_trick,
            "led_card": self.led_card,
            "played_instead": self.played_instead,
            "trick": self.trick,
            "card": self.card,
        }


def find_revokes(data: CardData, tricks: Sequence[Mapping[str, Any]]) -> list[Revoke]:
    """Every revoke provable from one round's tricks, in the order they happened.

    ``tricks`` are the public trick records of the round (the last may be incomplete):
    ``{"plays": [{"seat": s, "card": id or None, "face_down": bool}, ...]}`` in play order;
    ``card`` is None for a face-down card not yet revealed.
    """
    failures: dict[tuple[int, str], tuple[int, str, str]] = {}
    found: list[Revoke] = []
    for index, trick in enumerate(tricks):
        plays = trick.get("plays", [])
        if not plays:
            continue
        lead = plays[0]
        led_card = lead.get("card")
        must_follow = not lead.get("face_down", False) and led_card is not None
        led = data.colour(led_card) if must_follow and led_card is not None else None
        for position, play in enumerate(plays):
            card = play.get("card")
            if card is None:
                continue
            seat = int(play["seat"])
            colour = data.colour(card)
            earlier = failures.get((seat, colour))
            if earlier is not None:
                failed_trick, failed_led, instead = earlier
                found.append(Revoke(seat, colour, failed_trick, failed_led, instead, index, card))
            if position > 0 and led is not None and led_card is not None and colour != led:
                failures.setdefault((seat, led), (index, led_card, card))
    return found
