"""End of a round: who Batman catches, and who scores what (pure).

Batman symbols on each player's won trick cards and location cards are added up; whoever
has the most (all of them on a tie; nobody if nobody has any) scores nothing this round.
Everyone else scores the chaos points on their location cards.  Villain cards with
``chaos-adjustments`` (Poison Ivy, Harley Quinn by default) then add or take points as the
data file says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tablehub.games.chaos_in_gotham.cards import CardData


@dataclass(frozen=True)
class RoundScore:
    symbols: tuple[int, ...]  # Batman symbols collected, per seat
    caught: tuple[int, ...]  # seats caught by Batman (score no chaos points this round)
    chaos: tuple[int, ...]  # chaos points on the won location cards, per seat
    adjustments: tuple[int, ...]  # villain adjustments applied, per seat
    scored: tuple[int, ...]  # added to each seat's total this round

    def to_json(self) -> dict[str, Any]:
        return {
            "symbols": list(self.symbols),
            "caught": list(self.caught),
            "chaos": list(self.chaos),
            "adjustments": list(self.adjustments),
            "scored": list(self.scored),
        }


def _targets(target: str, seat: int, players: int) -> list[int]:
    if target == "self":
        return [seat]
    if target == "left":  # the next seat clockwise
        return [(seat + 1) % players]
    if target == "right":
        return [(seat - 1) % players]
    return [s for s in range(players) if s != seat]  # "others"


def score_round(
    data: CardData,
    won_cards: Sequence[Sequence[str]],
    won_locations: Sequence[Sequence[str]],
    villains: Sequence[str | None],
) -> RoundScore:
    players = len(won_cards)
    symbols = tuple(
        sum(data.trick_cards[c].batman_symbols for c in won_cards[s])
        + sum(data.locations[loc].batman for loc in won_locations[s])
        for s in range(players)
    )
    top = max(symbols)
    caught = tuple(s for s in range(players) if top > 0 and symbols[s] == top)
    chaos = tuple(
        sum(data.locations[loc].chaos for loc in won_locations[s]) for s in range(players)
    )
    adjustments = [0] * players
    for seat, villain_id in enumerate(villains):
        if villain_id is None:
            continue
        for adj in data.villains[villain_id].adjustments:
            for target in _targets(adj.target, seat, players):
                if adj.when == "if-scoring" and target in caught:
                    continue
                adjustments[target] += adj.chaos
    scored = tuple((0 if s in caught else chaos[s]) + adjustments[s] for s in range(players))
    return RoundScore(symbols, caught, chaos, tuple(adjustments), scored)


def winners(totals: Sequence[int]) -> list[int]:
    """Everyone with the most chaos points (a tie shares the victory)."""
    best = max(totals)
    return [s for s, total in enumerate(totals) if total == best]
