"""``tablehub simulate get-adler``: bots play whole games; figures come out as JSON."""

from __future__ import annotations

import json
import random

import pytest

from tablehub.cli import main
from tablehub.games.get_adler.simulate import play_game, simulate


@pytest.mark.parametrize("players", [4, 5, 6])
def test_simulate_cli_prints_wins_endings_and_speed(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "simulate",
            "get-adler",
            "--players",
            str(players),
            "--games",
            "12",
            "--seed",
            "3",
            "--json",
        ]
    )
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["wins"]["heroes"] + figures["wins"]["villains"] == 12
    assert sum(figures["endings"].values()) == 12
    assert set(figures["endings"]) <= {
        "arrested",
        "shot",
        "documents",
        "no-documents",
        "heroes-eliminated",
    }
    assert figures["games_per_second"] > 0


def test_simulate_is_reproducible_from_the_seed() -> None:
    first = simulate(5, 10, seed=9)
    again = simulate(5, 10, seed=9)
    first.pop("games_per_second")
    again.pop("games_per_second")
    assert first == again


def test_simulate_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "get-adler", "--players", "3", "--games", "1"]) == 2
    assert "4 to 6" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options", [{"extended": True}, {"extended": True, "ultimate_mission": True}]
)
def test_bots_play_whole_games_with_every_option(options: dict[str, bool]) -> None:
    rng = random.Random(4)
    reasons = set()
    for players in (4, 5, 6):
        for _ in range(8):
            state = play_game(players, rng, options)
            assert state.is_terminal()
            reasons.add(state.end_reason)
    assert len(reasons) >= 2  # the bots reach different endings, not one scripted line


def test_hero_bots_arrest_and_villain_bots_react() -> None:
    """Bots use the confrontation rules: arrests are made and villains react to them."""
    rng = random.Random(8)
    log: list[dict[str, object]] = []
    for _ in range(20):
        play_game(4, rng, log=log)
    kinds = {e["kind"] for e in log}
    assert {"arrest-right", "confrontation", "react", "confrontation-over"} <= kinds
