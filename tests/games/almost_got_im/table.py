"""Scripted Almost Got 'Im games for rules tests: set up exact roles, Characters and hands,
then play quiet turns, accusations, Votes and Blackouts with one call each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablehub.games.almost_got_im.cards import DECK, JOKERS, SUITS, card_id
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import CHANCE, Event

SUIT_BY_LETTER = {"b": "bats", "h": "hearts", "d": "diamonds", "r": "riddles"}


def cards(text: str) -> list[str]:
    """'6b 6h qd J1' -> card ids (J1/J2 are the Jokers)."""
    out: list[str] = []
    for token in text.split():
        if token in ("J1", "J2"):
            out.append(JOKERS[int(token[1]) - 1])
        else:
            out.append(card_id(SUIT_BY_LETTER[token[-1]], token[:-1].lower()))
    return out


def junk_hands(players: int) -> list[list[str]]:
    """Hands that make no pattern: no pair, no straight, no flush (ranks 2-4-6-8-10 or
    3-5-7-9-J, suits rotated)."""
    hands = []
    for seat in range(players):
        ranks = ("2", "4", "6", "8", "10") if seat % 2 == 0 else ("3", "5", "7", "9", "j")
        shift = seat // 2
        hands.append([card_id(SUITS[(shift + i) % 4], r) for i, r in enumerate(ranks)])
    return hands


DEFAULT_CHARACTERS = (
    "riddler",
    "scarecrow",
    "penguin",
    "poison-ivy",
    "bane",
    "mr-freeze",
    "killer-croc",
)


def new_game(
    roles: Sequence[str],
    *,
    characters: Sequence[str] = DEFAULT_CHARACTERS,
    brains: int = 0,
    hands: Mapping[int, list[str]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> AgiState:
    """A game after set-up with these roles, Characters, Brains and hands (others junk)."""
    n = len(roles)
    state = AgiState(n, options)
    state.apply({"kind": "batman_seat", "player": CHANCE, "seat": roles.index("batman")})
    for seat, role in enumerate(roles):
        if role != "batman":
            state.apply({"kind": "deal_role", "player": CHANCE, "seat": seat, "role": role})
    state.apply({"kind": "peek_unused", "player": CHANCE, "role": state.unused[0]})
    for seat in range(n):
        state.apply(
            {
                "kind": "deal_character",
                "player": CHANCE,
                "seat": seat,
                "character": characters[seat],
            }
        )
    state.apply({"kind": "first_brains", "player": CHANCE, "seat": brains})
    dealt = junk_hands(n)
    for seat, hand in (hands or {}).items():
        dealt[seat] = list(hand)
    _fix_duplicates(dealt, set((hands or {}).keys()))
    for i in range(5):
        for seat in state.clockwise(brains):
            state.apply({"kind": "deal", "player": CHANCE, "card": dealt[seat][i]})
    assert state.phase == "turn"
    return state


def _fix_duplicates(hands: list[list[str]], fixed: set[int]) -> None:
    """Junk hands must not reuse a card given to a chosen hand: swap in unused cards
    (Queens and Kings first, so a junk hand stays junk)."""
    taken = {c for seat in fixed for c in hands[seat]}
    used = {c for hand in hands for c in hand}
    order = {"q": 0, "k": 1}
    spare = sorted(
        (c for c in DECK if c not in used and c not in JOKERS),
        key=lambda c: (order.get(c.rsplit("-", 1)[1], 2), c),
        reverse=True,
    )
    for seat, hand in enumerate(hands):
        if seat in fixed:
            continue
        for i, card in enumerate(hand):
            if card in taken:
                hand[i] = spare.pop()


def deal_chance(state: AgiState, card: str | None = None) -> list[Event]:
    """Resolve pending chance moves: ``card`` first if given, then the first unseen card."""
    events: list[Event] = []
    while state.current_player() == CHANCE and state.pending:
        move = state.legal_moves()[0]
        if card is not None and move["kind"] == "deal":
            move = {**move, "card": card}
            card = None
        events += state.apply(move)
    return events


def quiet_turn(state: AgiState) -> list[Event]:
    """The active player draws a card from the deck and discards it again."""
    seat = state.turn
    events = state.apply({"kind": "draw", "player": seat})
    drawn = state.unseen[-1]
    events += deal_chance(state, drawn)
    pile = state.legal_piles()[0]
    events += state.apply({"kind": "discard", "player": seat, "card": drawn, "pile": pile})
    return events


def quiet_turns(state: AgiState) -> list[Event]:
    """Every remaining turn of the round, quietly."""
    events: list[Event] = []
    while state.phase == "turn":
        events += quiet_turn(state)
    return events


def blackout(
    state: AgiState, acts: Mapping[int, int | None] | None = None, hand: bool = False
) -> list[Event]:
    """Play the Blackout: seats in ``acts`` activate (pointing at the value), others pass."""
    acts = acts or {}
    events: list[Event] = []
    assert state.phase == "blackout", state.phase
    while state.phase == "blackout":
        if state.current_player() == CHANCE:
            events += deal_chance(state)
            continue
        seat = state.current_player()
        if seat in acts:
            move: dict[str, Any] = {"kind": "activate", "player": seat}
            if acts[seat] is not None:
                move["target"] = acts[seat]
            if hand:
                move["hand"] = list(state.hands[seat])
            events += state.apply(move)
        else:
            events += state.apply({"kind": "pass", "player": seat})
    events += deal_chance(state)
    return events


def vote(state: AgiState, guilty: Mapping[int, bool]) -> list[Event]:
    """Everyone votes (seats not listed vote Innocent)."""
    events: list[Event] = []
    while state.phase == "vote":
        seat = state.current_player()
        events += state.apply({"kind": "vote", "player": seat, "guilty": guilty.get(seat, False)})
    return events


def accuse_and_vote(
    state: AgiState, target: int, guilty: Mapping[int, bool], seconder: int | None = None
) -> list[Event]:
    """The Brains accuses ``target``; ``seconder`` (default: the first asked) seconds."""
    events = state.apply({"kind": "accuse", "player": state.brains, "target": target})
    while state.phase == "second":
        seat = state.current_player()
        kind = "second" if seconder in (None, seat) else "no_second"
        events += state.apply({"kind": kind, "player": seat})
    return events + vote(state, guilty)


def said(events: list[Event]) -> list[str]:
    return [e["text"] for e in events if e["kind"] == "say"]


def rules_name(character: str) -> str:
    return default_rules().characters[character].name
