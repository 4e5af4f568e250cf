"""Rule-following bots and ``tablehub simulate almost-got-im``."""

from __future__ import annotations

import json
import random

import pytest

from tablehub.cli import main
from tablehub.games.almost_got_im.bots import Bot, play_game
from tablehub.games.almost_got_im.simulate import simulate
from tablehub.games.almost_got_im.state import AgiState


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_bots_play_whole_legal_games(players: int) -> None:
    outcomes = set()
    for seed in range(25):
        rng = random.Random(seed)
        state = AgiState(players, {"advanced": seed % 2 == 1})
        bots = [Bot(s, rng) for s in range(players)]
        while not state.is_terminal():
            actor = state.current_player()
            move = rng.choice(state.legal_moves()) if actor < 0 else bots[actor].choose(state)
            assert state.check(move) is None
            state.apply(move)
        outcomes.add(state.outcome)
    assert "batman" in outcomes


def test_bots_decide_from_their_own_view_only() -> None:
    """Re-drawing another player's secrets never changes a bot's decision."""
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = AgiState(6)
        bots = [Bot(s, random.Random(0)) for s in range(6)]
        while not state.is_terminal():
            actor = state.current_player()
            if actor < 0:
                state.apply(rng.choice(state.legal_moves()))
                continue
            other = (actor + 1 + rng.randrange(5)) % 6
            twin = state.resample_hidden(other, rng)
            bots[actor].rng = random.Random(seed)
            mine = bots[actor].choose(state)
            bots[actor].rng = random.Random(seed)
            assert bots[actor].choose(twin) == mine
            checked += 1
            state.apply(mine)
    assert checked > 500


def test_bots_reveal_and_activate_when_they_can() -> None:
    activations = 0
    catwoman = 0
    for seed in range(40):
        state = play_game(5, random.Random(seed))
        activations += sum(state.activated)
        catwoman += state.outcome == "catwoman"
    assert activations > 20


def test_simulate_reports_wins_rounds_and_speed() -> None:
    figures = simulate(players=5, games=20, seed=4)
    assert sum(figures["wins"].values()) == 20
    assert set(figures["wins"]) == {"batman", "villains", "catwoman", "draw"}
    assert 1 <= figures["rounds"]["min"] <= figures["rounds"]["mean"] <= figures["rounds"]["max"]
    assert figures["games_per_second"] > 0
    again = simulate(players=5, games=20, seed=4)
    assert again["wins"] == figures["wins"] and again["rounds"] == figures["rounds"]
    with pytest.raises(ValueError, match="4 to 7 players"):
        simulate(players=3, games=1, seed=1)


def test_simulate_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "almost-got-im", "--players", "4", "--games", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["players"] == 4 and sum(figures["wins"].values()) == 3
    assert main(["simulate", "almost-got-im", "--players", "8", "--games", "3"]) == 2
    assert "4 to 7 players" in capsys.readouterr().err
