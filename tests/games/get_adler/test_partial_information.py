"""The engine as the hub uses it: hands and characters unseen, only face-up cards known."""

from __future__ import annotations

import json

import pytest

from tablehub.games.base import CHANCE, IllegalMove, Move
from tablehub.games.get_adler import GAME, UNKNOWN, AdlerState

# 28 cards that nothing below needs (arrest-1 and -2, pistols, escapes, documents stay free)
THROWAWAYS = [
    *(f"question-{i}" for i in range(1, 9)),
    *(f"magnifier-{i}" for i in range(1, 9)),
    *(f"binoculars-{i}" for i in range(1, 5)),
    *(f"arrest-{i}" for i in range(3, 11)),
]
DRAW_UNSEEN: Move = {"kind": "draw", "player": CHANCE, "card": UNKNOWN}


def hub_game(players: int = 4, start: int = 0) -> AdlerState:
    state = GAME.new_initial_state(players)
    for _ in range(players):
        state.apply({"kind": "character", "player": CHANCE, "character": UNKNOWN})
    while state.phase == "transfer":
        state.apply(DRAW_UNSEEN)
    state.apply({"kind": "start-player", "player": CHANCE, "seat": start})
    return state


def play(state: AdlerState, move: Move) -> None:
    """The seat to move draws unseen, then ``move`` (a card laid face up)."""
    state.apply(DRAW_UNSEEN)
    state.apply({"player": state.current_player(), **move})


def test_unseen_hands_accept_any_card_not_yet_seen() -> None:
    state = hub_game()
    assert state.player_view(0)["hand"] == [UNKNOWN] * 7
    assert state.public_view()["hand_sizes"] == [7, 7, 7, 7]
    play(state, {"kind": "discard", "card": "pistol-3"})
    assert state.public_view()["discard"] == ["pistol-3"]
    state.apply(DRAW_UNSEEN)
    reason = state.check({"kind": "discard", "player": 1, "card": "pistol-3"})
    assert reason is not None and "discard pile" in reason  # a duplicate card is its own error
    state.apply({"kind": "discard", "player": 1, "card": "pistol-4"})
    assert state.book.hand_size(1) == 7 and len(state.book.pool) == 62


def test_no_arrest_before_four_even_unseen() -> None:
    state = hub_game()
    state.apply(DRAW_UNSEEN)
    with pytest.raises(IllegalMove, match="four o'clock"):
        state.apply({"kind": "play", "player": 0, "card": "arrest-1", "target": 2})


def _to_round_four(state: AdlerState) -> None:
    throwaways = iter(THROWAWAYS)
    while state.round < 4:
        play(state, {"kind": "discard", "card": next(throwaways)})


def test_the_accused_judges_the_arrest_and_the_camera_reads_the_characters() -> None:
    state = hub_game()
    _to_round_four(state)
    play(state, {"kind": "play", "card": "arrest-1", "target": 2})
    assert state.current_player() == 2
    assert {m["right"] for m in state.legal_moves()} == {True, False}  # the hub cannot know
    state.apply({"kind": "answer-arrest", "player": 2, "right": True})
    assert state.phase == "reveal" and state.current_player() == CHANCE
    hero_for_accused = {"kind": "reveal", "player": CHANCE, "seat": 2, "character": "gold"}
    reason = state.check(hero_for_accused)
    assert reason is not None and "villain" in reason
    villain_for_arrester = {"kind": "reveal", "player": CHANCE, "seat": 0, "character": "adler"}
    assert "hero" in (state.check(villain_for_arrester) or "")
    for seat, character in ((2, "adler"), (0, "gold"), (1, "sharpe"), (3, "townsend")):
        state.apply({"kind": "reveal", "player": CHANCE, "seat": seat, "character": character})
    assert state.revealed and state.phase == "react" and state.current_player() == 2
    state.apply({"kind": "react", "player": 2, "card": "escape-1"})
    assert state.current_player() == 0  # the arrester is asked first
    state.apply({"kind": "escape", "player": 0, "card": "escape-2"})
    state.apply({"kind": "react", "player": 2, "card": "pistol-1"})
    state.apply({"kind": "shoot", "player": 0, "card": "pistol-2"})
    state.apply({"kind": "hold", "player": 2})
    state.apply({"kind": "hold", "player": 0})
    assert state.phase == "transfer"  # refills, unseen
    while state.conf is not None:
        state.apply(DRAW_UNSEEN)
    assert state.public_view()["hand_sizes"] == [7, 7, 7, 7]
    assert state.turn == 1  # play goes on to the left of the arrester
    assert state.book.discard[:5] == [
        state.index[c] for c in ("arrest-1", "escape-1", "escape-2", "pistol-1", "pistol-2")
    ]


def test_unjust_arrest_by_the_accused_answer() -> None:
    state = hub_game()
    _to_round_four(state)
    play(state, {"kind": "play", "card": "arrest-1", "target": 3})
    state.apply({"kind": "answer-arrest", "player": 3, "right": False})
    assert state.skips[0] == ["unjust-arrest"] and state.skips[3] == ["unjust-arrest"]
    assert not state.revealed


def test_seven_oclock_reveals_and_the_villain_shows_documents() -> None:
    for shown, winner in (([], "heroes"), (["document-4"], "villains")):
        state = hub_game(4)
        throwaways = iter(THROWAWAYS)
        while state.phase != "reveal":  # 28 turns, nobody arrests
            play(state, {"kind": "discard", "card": next(throwaways)})
        for seat, character in enumerate(("gold", "adler", "sharpe", "townsend")):
            state.apply({"kind": "reveal", "player": CHANCE, "seat": seat, "character": character})
        assert state.phase == "show-documents" and state.current_player() == 1
        reason = state.check({"kind": "show-documents", "player": 1, "cards": ["pistol-1"]})
        assert reason is not None and "document" in reason
        state.apply({"kind": "show-documents", "player": 1, "cards": shown})
        assert state.winner == winner


def test_binoculars_and_collins_exchange_move_unseen_cards() -> None:
    state = hub_game(5)
    play(state, {"kind": "play", "card": "binoculars-1", "target": 3})
    state.apply(DRAW_UNSEEN)  # the card taken, face down
    state.apply({"kind": "give", "player": 0, "card": UNKNOWN})
    assert state.public_view()["hand_sizes"] == [7, 7, 7, 7, 7]


def test_round_trip_of_an_unseen_game() -> None:
    state = hub_game(6, start=3)
    play(state, {"kind": "discard", "card": "bomb-2"})
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state and copy.legal_moves() == state.legal_moves()


def test_a_known_card_leaves_an_unseen_hand_known() -> None:
    """Mixed knowledge: a card the hub saw drawn (e.g. shown) is known, the rest unseen."""
    state = hub_game()
    state.apply({"kind": "draw", "player": CHANCE, "card": "disguise-1"})
    assert state.player_view(0)["hand"].count(UNKNOWN) == 7
    assert "disguise-1" in state.player_view(0)["hand"]
    state.apply({"kind": "discard", "player": 0, "card": "disguise-1"})
    assert state.book.hand_size(0) == 7
