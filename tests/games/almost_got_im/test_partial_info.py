"""The hub's partial information: cards drawn face down are "unknown" to it.

A full-information game (the truth) is mirrored move by move into a second state fed
only what the hub would see: deals become "unknown", a Blackout activation and
Catwoman's reveal carry the hand shown face up, Harley Quinn's passes are unseen, a card
Ra's al Ghul takes from under a pile is unseen.  Both must agree on whose move it is and
on every public view, and the hub's card knowledge must never contradict the truth.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablehub.games.almost_got_im.cards import UNKNOWN
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import CHANCE, Move
from tests.games.almost_got_im.table import cards, new_game


def observe(truth: AgiState, move: Move) -> Move:
    """What the hub sees of ``move`` (applied next to ``truth``)."""
    kind = move["kind"]
    if kind == "deal":
        return {**move, "card": UNKNOWN}
    if kind == "peek_unused":
        return {**move, "role": UNKNOWN}
    if kind in ("activate", "reveal"):
        seat = move["player"]
        return {**move, "hand": list(truth.hands[seat])}
    if kind == "give":
        return {**move, "card": UNKNOWN}
    if kind == "ras_take":
        pile = truth.piles[move["pile"]]
        return move if pile[-1] == move["card"] else {**move, "card": UNKNOWN}
    return move


def invariant(state: AgiState) -> None:
    slots = sum(h.count(UNKNOWN) for h in state.hands) + state.buffer.count(UNKNOWN)
    slots += sum(p.count(UNKNOWN) for p in state.piles)
    assert len(state.unseen) == state.deck_count + slots
    assert len(set(state.unseen)) == len(state.unseen)


def consistent(hub: AgiState, truth: AgiState) -> None:
    """Everything the hub knows is true."""
    for seat in range(truth.n):
        known = [c for c in hub.hands[seat] if c != UNKNOWN]
        assert set(known) <= set(truth.hands[seat]), (seat, known, truth.hands[seat])
        assert len(hub.hands[seat]) == len(truth.hands[seat])
    for mine, real in zip(hub.piles, truth.piles, strict=True):
        assert len(mine) == len(real)
        assert all(m in (r, UNKNOWN) for m, r in zip(mine, real, strict=True))
    assert set(truth.unseen) <= set(hub.unseen)
    assert hub.roles == truth.roles


def pick(rng: random.Random, moves: list[Move]) -> Move:
    """Random play that favours Character abilities, so every effect gets mirrored."""
    abilities = [m for m in moves if m["kind"] == "ability"]
    if abilities and rng.random() < 0.6:
        return rng.choice(abilities)
    return rng.choice(moves)


def mirror_game(players: int, seed: int, options: dict[str, Any]) -> tuple[AgiState, AgiState]:
    rng = random.Random(seed)
    truth = AgiState(players, options)
    hub = AgiState(players, options)
    steps = 0
    while not truth.is_terminal():
        assert hub.current_player() == truth.current_player(), steps
        move = pick(rng, truth.legal_moves())
        seen = observe(truth, move)
        reason = hub.check(seen)
        assert reason is None, (steps, seen, reason)
        truth.apply(move)
        hub.apply(seen)
        # A pile top the hub has not seen is read by the camera: supply it.
        while hub.pending and hub.pending[0][0] == "top":
            card = truth.piles[hub.pending[0][1]][-1]
            hub.apply({"kind": "deal", "player": CHANCE, "card": card})
        invariant(hub)
        invariant(truth)
        consistent(hub, truth)
        assert hub.public_view() == truth.public_view(), steps
        steps += 1
    assert hub.is_terminal() and hub.returns() == truth.returns()
    return truth, hub


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_the_hub_follows_whole_games_seeing_only_face_up_cards(players: int) -> None:
    unknown_slots = 0
    for seed in range(40):
        _truth, hub = mirror_game(players, seed, {"advanced": seed % 2 == 0})
        unknown_slots += sum(h.count(UNKNOWN) for h in hub.hands)
    assert unknown_slots > 0  # the hub really did not know the hands


def test_a_card_on_top_of_a_discard_pile_cannot_also_be_in_a_hand() -> None:
    state = hub_game()
    quiet_turn_unseen(state)
    top = state.piles[0][-1]
    state.apply({"kind": "draw", "player": 1})
    state.apply({"kind": "deal", "player": CHANCE, "card": UNKNOWN})
    reason = state.check({"kind": "discard", "player": 1, "card": top, "pile": 1})
    assert reason is not None and "it is on top of discard pile 1" in reason
    fresh = next(c for c in state.unseen)
    assert state.check({"kind": "discard", "player": 1, "card": fresh, "pile": 1}) is None
    state.apply({"kind": "discard", "player": 1, "card": fresh, "pile": 1})
    assert fresh not in state.unseen and state.hands[1].count(UNKNOWN) == 5


def test_a_shown_hand_is_checked_and_matched_with_what_is_known() -> None:
    state = hub_game()
    while state.phase != "blackout":
        quiet_turn_unseen(state)
    while state.current_player() != 1:
        state.apply({"kind": "pass", "player": state.current_player()})
    two_pair = cards("6b 6h 8d 8r 2b")
    move = {"kind": "activate", "player": 1, "target": 2}
    assert state.check(move) == "show the hand face up: the hub has not seen all of it"
    assert state.check({**move, "hand": cards("6b 6h 8d 9r 2b")}) == "that hand is not Two Pair"
    reason = state.check({**move, "hand": cards("6b 6b 8d 8r 2b")})
    assert reason == "the same card is shown twice (a duplicate card?)"
    top = state.piles[0][-1]
    reason = state.check({**move, "hand": [*two_pair[:4], top]})
    assert reason is not None and "on top of discard pile 1" in reason
    assert state.check({**move, "hand": two_pair[:4]}) == "The Scarecrow holds 5 cards, not 4"
    assert state.check({**move, "hand": two_pair}) is None
    state.apply({**move, "hand": two_pair})
    assert state.hands[1] == two_pair  # learned, then turned in after the new five
    for _ in range(5):
        state.apply({"kind": "deal", "player": CHANCE, "card": UNKNOWN})
    assert state.hands[1] == [UNKNOWN] * 5 and set(two_pair) <= set(state.unseen)
    invariant(state)


def test_a_card_taken_face_up_must_be_in_the_shown_hand() -> None:
    state = hub_game()
    quiet_turn_unseen(state)
    top = state.piles[0][-1]
    state.apply({"kind": "take", "player": 1, "pile": 0})
    assert state.hands[1].count(top) == 1 and state.public[1] == [top]
    unseen_king = next(c for c in state.unseen if c.endswith("-k"))
    state.apply({"kind": "discard", "player": 1, "card": unseen_king, "pile": 0})
    while state.phase != "blackout":
        quiet_turn_unseen(state)
    while state.current_player() != 1:
        state.apply({"kind": "pass", "player": state.current_player()})
    reason = state.check(
        {"kind": "activate", "player": 1, "target": 2, "hand": cards("6b 6h 8d 8r 2b")}
    )
    assert reason is not None and "is known to be in The Scarecrow's hand" in reason


def test_the_top_of_a_pile_is_never_unknown() -> None:
    state = hub_game()
    state.pending.insert(0, ["top", 0])
    state.piles[0] = [UNKNOWN]
    state.deck_count -= 1
    reason = state.check({"kind": "deal", "player": CHANCE, "card": UNKNOWN})
    assert reason == "the top card of a discard pile is face up: say which card it is"


def hub_game(
    roles: tuple[str, ...] = ("watchful", "batman", "crafty", "sneaky", "telepathic"),
) -> AgiState:
    """A 5-player game as the hub sees it: roles known, every hand card unknown."""
    state = AgiState(5)
    full = new_game(list(roles))
    for move in setup_moves(full):
        state.apply(move)
    for _ in range(25):
        state.apply({"kind": "deal", "player": CHANCE, "card": UNKNOWN})
    assert state.phase == "turn" and all(h == [UNKNOWN] * 5 for h in state.hands)
    return state


def setup_moves(full: AgiState) -> list[Move]:
    moves: list[Move] = [{"kind": "batman_seat", "player": CHANCE, "seat": 1}]
    for seat, role in enumerate(full.roles):
        if role != "batman":
            moves.append({"kind": "deal_role", "player": CHANCE, "seat": seat, "role": role})
    moves.append({"kind": "peek_unused", "player": CHANCE, "role": UNKNOWN})
    for seat, character in enumerate(full.characters):
        moves.append(
            {"kind": "deal_character", "player": CHANCE, "seat": seat, "character": character}
        )
    moves.append({"kind": "first_brains", "player": CHANCE, "seat": 0})
    return moves


def quiet_turn_unseen(state: AgiState) -> None:
    """Draw an unseen card, discard a card the hub now sees (a King, Queen... if unseen)."""
    seat = state.turn
    state.apply({"kind": "draw", "player": seat})
    state.apply({"kind": "deal", "player": CHANCE, "card": UNKNOWN})
    card = next(c for c in reversed(state.unseen) if c[-2:] in ("-k", "-q", "-a"))
    state.apply({"kind": "discard", "player": seat, "card": card, "pile": state.legal_piles()[0]})


def test_catwoman_shows_her_full_house_to_the_hub() -> None:
    state = hub_game(("watchful", "batman", "crafty", "catwoman", "telepathic"))
    while state.round < 2 or state.phase == "turn":
        if state.phase == "turn":
            quiet_turn_unseen(state)
        else:
            state.apply({"kind": "pass", "player": state.current_player()})
    state.apply({"kind": "accuse", "player": 1, "target": 3})
    state.apply({"kind": "second", "player": 2})
    while state.phase == "vote":
        state.apply({"kind": "vote", "player": state.current_player(), "guilty": True})
    assert {m["kind"] for m in state.legal_moves()} == {"accept"}  # the hub cannot know
    move = {"kind": "reveal", "player": 3}
    assert state.check(move) == "show the hand face up: the hub has not seen all of it"
    assert state.check({**move, "hand": cards("4b 4h 4d 8r 8b")[:4] + cards("9b")}) == (
        "that hand is not a Full House"
    )
    state.apply({**move, "hand": cards("4b 4h 4d 8r 8b")})
    assert state.outcome == "catwoman" and state.public_view()["seats"][3]["known_cards"] == cards(
        "4b 4h 4d 8r 8b"
    )
