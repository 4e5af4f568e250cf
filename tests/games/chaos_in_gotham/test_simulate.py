"""Bots and ``tablehub simulate chaos-in-gotham``."""

from __future__ import annotations

import json
import random

import pytest

from tablehub.cli import main
from tablehub.games.base import CHANCE
from tablehub.games.chaos_in_gotham.bots import choose_move
from tablehub.games.chaos_in_gotham.state import ChaosState


def test_bots_only_make_legal_moves_and_follow_suit() -> None:
    rng = random.Random(4)
    for players in (2, 6):
        state = ChaosState(players, {})
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(rng.choice(state.legal_moves()))
                continue
            move = choose_move(state, rng)
            assert state.check(move) is None, move
            state.apply(move)


def test_simulate_prints_scores_winners_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "chaos-in-gotham", "--players", "3", "--games", "4", "--seed", "9"]
    assert main([*args, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["games"] == 4 and first["players"] == 3
    assert len(first["results"]) == 4
    for result in first["results"]:
        best = max(result["scores"])
        assert result["winners"] == [s for s, v in enumerate(result["scores"]) if v == best]
    assert sum(first["wins"]) == sum(len(r["winners"]) for r in first["results"])
    assert first["games_per_second"] > 0
    assert main([*args, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["results"] == first["results"]  # the seed decides everything


def test_simulate_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "chaos-in-gotham", "--players", "9", "--games", "1"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err
