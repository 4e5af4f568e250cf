"""Garbage moves of every kind, at positions from random games: a reason or an accepted
move, never a crash, and a refusal changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablehub.games.almost_got_im.state import _MOVES, AgiState
from tablehub.games.base import IllegalMove

JUNK: list[Any] = [
    -1,
    0,
    1,
    2,
    3,
    99,
    True,
    None,
    "",
    "unknown",
    "garbage",
    "agi:bats-7",
    "agi:joker-1",
    "batman",
    "two-face",
    "q",
    "hearts",
    [],
    [1, 2],
    ["agi:bats-7"],
    {"a": 1},
    1.5,
]
FIELDS = [
    "seat",
    "role",
    "character",
    "card",
    "pile",
    "target",
    "rank",
    "suit",
    "guilty",
    "hand",
    "cards",
    "to",
]


def test_garbage_moves_never_crash_the_engine() -> None:
    rng = random.Random(3)
    tried = accepted = 0
    for seed in range(12):
        state = AgiState(4 + seed % 4, {"advanced": seed % 2 == 0})
        game_rng = random.Random(seed)
        while not state.is_terminal():
            for _ in range(4):
                move: dict[str, Any] = {
                    "kind": rng.choice([*_MOVES, "nonsense"]),
                    "player": rng.choice([state.current_player(), -1, 0, 1, 9, "x"]),
                }
                for field in rng.sample(FIELDS, rng.randrange(4)):
                    move[field] = rng.choice(JUNK)
                before = state.to_json()
                reason = state.check(move)
                tried += 1
                if reason is None:  # accepted: it must apply cleanly (on a copy)
                    accepted += 1
                    state.clone().apply(move)
                    continue
                assert isinstance(reason, str) and reason
                with pytest.raises(IllegalMove):
                    state.apply(move)
                assert state.to_json() == before
            state.apply(game_rng.choice(state.legal_moves()))
    assert tried > 5000 and accepted > 20
