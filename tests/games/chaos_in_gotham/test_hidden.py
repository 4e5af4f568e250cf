"""The referee's engine: hands and deck unseen, cards known once they are shown."""

from __future__ import annotations

import json

import pytest

from tablehub.games.base import CHANCE
from tablehub.games.chaos_in_gotham import GAME
from tablehub.games.chaos_in_gotham.state import ChaosState
from tests.games.chaos_in_gotham.helpers import of_kind


def _hidden_round(villains: list[str]) -> ChaosState:
    state = GAME.new_initial_state(len(villains), {"hands_seen": False})
    for seat, villain in enumerate(villains):
        state.apply({"kind": "villain", "player": CHANCE, "seat": seat, "villain": villain})
    while state.steps[0]["step"] == "deal":
        state.apply(
            {"kind": "deal", "player": CHANCE, "seat": state.steps[0]["seat"], "card": None}
        )
    return state


def test_riddler_face_down_card_is_named_when_revealed_at_the_end_of_the_trick() -> None:
    state = _hidden_round(["riddler", "poison-ivy", "two-face"])
    state.apply({"kind": "trump", "player": CHANCE, "card": "blue-2"})
    state.apply({"kind": "location", "player": CHANCE, "card": "clock-tower"})
    events = state.apply({"kind": "play", "player": 0, "card": None, "face_down": True})
    assert of_kind(events, "play")[0]["face_down"]
    state.apply({"kind": "play", "player": 1, "card": "green-5"})
    state.apply({"kind": "play", "player": 2, "card": "green-8"})
    assert state.current_player() == CHANCE and state.steps[0] == {"step": "reveal", "seat": 0}
    even = state.check({"kind": "reveal", "player": CHANCE, "seat": 0, "card": "green-4"})
    assert even is not None and "odd" in even
    seen = state.check({"kind": "reveal", "player": CHANCE, "seat": 0, "card": "green-5"})
    assert seen is not None and "already been seen" in seen
    events = state.apply({"kind": "reveal", "player": CHANCE, "seat": 0, "card": "green-9"})
    assert of_kind(events, "revealed")[0]["card"] == "green-9"
    (trick,) = of_kind(events, "trick")
    assert trick["led"] == "green" and trick["winner"] == 0


def test_catwoman_exchange_unseen_counts_only() -> None:
    state = _hidden_round(["catwoman", "poison-ivy"])
    assert state.legal_moves()[-1] == {"kind": "catwoman", "player": 0, "discard": [None] * 3}
    state.apply({"kind": "catwoman", "player": 0, "discard": [None, None]})
    for _ in range(2):
        state.apply({"kind": "draw", "player": CHANCE, "seat": 0, "card": None})
    assert state.hand_count(0) == 10 and state.public_view()["discard_count"] == 2
    assert state.deck_count() == 18


def test_states_survive_json_and_garbage_is_refused() -> None:
    state = _hidden_round(["joker", "poison-ivy"])
    text = json.dumps(state.to_json())
    assert GAME.state_from_json(json.loads(text)) == state
    with pytest.raises(ValueError):
        GAME.state_from_json({"players": 2})
    with pytest.raises(ValueError):
        GAME.state_from_json({"players": 9, "options": {}})
