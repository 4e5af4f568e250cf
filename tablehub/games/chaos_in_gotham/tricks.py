"""Who wins a trick, and why (pure; the rulebook's "Who Wins the Trick?").

The highest card in the trump colour wins; without trump, the highest card in the led
colour; cards of any other colour never win.  Values are *effective* values: Two-Face's
announced swap turns his 1 into 10 and his 10 into 1, Clayface's cards count at least his
minimum (6).  Equal effective values can only come from those two; the data file decides
which of the equal cards wins.  A trick holding Bruce Wayne (a 6, by the printed value) and
a Batman card is set aside, though its winner still takes the location card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tablehub.games.chaos_in_gotham.cards import CardData


@dataclass(frozen=True)
class Play:
    """One card in a trick, face up (a Riddler card is judged once it is revealed)."""

    seat: int
    card: str
    swap: bool = False  # Two-Face announced the 1<->10 swap


@dataclass(frozen=True)
class TrickOutcome:
    winner: int  # seat
    winning_card: str
    by: Literal["trump", "led"]  # won with the highest trump, or the highest led card
    led: str  # colour of the first card
    trump: str
    values: tuple[int, ...]  # effective value of each play, in play order
    set_aside: bool  # Bruce Wayne met Batman: the trick cards are set aside
    bruce_wayne: tuple[str, ...]
    batman: tuple[str, ...]


def effective_value(data: CardData, play: Play, minimum: int | None) -> int:
    """The value a played card counts with (Two-Face's swap, then Clayface's minimum)."""
    card = data.trick_cards[play.card]
    value = card.value
    if play.swap:
        if value == data.lowest:
            value = data.highest
        elif value == data.highest:
            value = data.lowest
    if minimum is not None:
        value = max(value, minimum)
    return value


def resolve_trick(
    data: CardData,
    plays: Sequence[Play],
    trump: str,
    minimums: dict[int, int] | None = None,
) -> TrickOutcome:
    """Decide a complete trick.  ``minimums``: seat -> minimum value (Clayface)."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    minimums = minimums or {}
    values = tuple(effective_value(data, p, minimums.get(p.seat)) for p in plays)
    colours = [data.colour(p.card) for p in plays]
    led = colours[0]
    by: Literal["trump", "led"] = "trump" if trump in colours else "led"
    wanted = trump if by == "trump" else led
    last_wins = data.equal_values_winner == "last-played"
    best = -1
    for i, colour in enumerate(colours):
        if colour != wanted:
            continue
        if best < 0 or values[i] > values[best] or (last_wins and values[i] == values[best]):
            best = i
    bruce = tuple(p.card for p in plays if data.trick_cards[p.card].bruce_wayne)
    batman = tuple(p.card for p in plays if data.trick_cards[p.card].batman)
    return TrickOutcome(
        winner=plays[best].seat,
        winning_card=plays[best].card,
        by=by,
        led=led,
        trump=trump,
        values=values,
        set_aside=any(b != m for b in bruce for m in batman),
        bruce_wayne=bruce,
        batman=batman,
    )
