"""Script a Chaos in Gotham City round card by card (for rules tests)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablehub.games.base import CHANCE, Event
from tablehub.games.chaos_in_gotham import GAME
from tablehub.games.chaos_in_gotham.state import HAND_SIZES, ChaosState

FILL_ORDER = ("blue", "red", "yellow", "green")


def deal_round(
    state: ChaosState,
    villains: Sequence[str],
    hands: Mapping[int, Sequence[str]],
    trump: str,
    avoid: Mapping[int, set[str]] | None = None,
    keep: Sequence[str] = (),
) -> list[Event]:
    """Deal villains and hands (filled up with cards of allowed colours), then the trump.

    ``keep``: cards to leave in the deck (for a later trump change).
    """
    n = state.num_players()
    size = HAND_SIZES[n]
    avoid = avoid or {}
    events: list[Event] = []
    for seat, villain in enumerate(villains):
        events += state.apply(
            {"kind": "villain", "player": CHANCE, "seat": seat, "villain": villain}
        )
    used = {c for h in hands.values() for c in h} | {trump, *keep}
    spare = sorted(
        (c for c in state.data.trick_ids if c not in used),
        key=lambda c: (FILL_ORDER.index(state.data.colour(c)), state.data.trick_cards[c].value),
    )
    full: dict[int, list[str]] = {}
    for seat in sorted(range(n), key=lambda s: -len(avoid.get(s, ()))):
        cards = list(hands.get(seat, []))
        for card in list(spare):
            if len(cards) >= size:
                break
            if state.data.colour(card) not in avoid.get(seat, set()):
                cards.append(card)
                spare.remove(card)
        assert len(cards) == size, f"cannot fill seat {seat}'s hand"
        full[seat] = cards
    while state.steps[0]["step"] == "deal":
        seat = state.steps[0]["seat"]
        events += state.apply(
            {"kind": "deal", "player": CHANCE, "seat": seat, "card": full[seat].pop(0)}
        )
    if state.steps[0]["step"] == "catwoman":
        return events
    events += state.apply({"kind": "trump", "player": CHANCE, "card": trump})
    return events


def new_round(
    players: int,
    villains: Sequence[str],
    hands: Mapping[int, Sequence[str]],
    trump: str,
    options: Mapping[str, Any] | None = None,
    avoid: Mapping[int, set[str]] | None = None,
    keep: Sequence[str] = (),
) -> ChaosState:
    state = GAME.new_initial_state(players, options)
    deal_round(state, villains, hands, trump, avoid, keep)
    return state


def reveal_location(state: ChaosState, card: str) -> list[Event]:
    return state.apply({"kind": "location", "player": CHANCE, "card": card})


def play(state: ChaosState, seat: int, card: str | None, **extra: Any) -> list[Event]:
    return state.apply({"kind": "play", "player": seat, "card": card, **extra})


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e["kind"] == kind]


# Villains that change nothing about who wins a trick or which steps come.
QUIET4 = ["poison-ivy", "harley-quinn", "riddler", "two-face"]
