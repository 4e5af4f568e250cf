"""The shared engine conformance suite applied to Almost Got 'Im.

Every player count (4-7) with and without Advanced Mode.  Sizes, chosen to keep the
whole file within CI's minute on two cores:

* 1,000 seeded random playouts per configuration (8,000 games, ~10 s CPU);
* JSON round trip at every step of 20 playouts per configuration;
* illegal-move refusals sampled every 7th step of 30 playouts per configuration;
* the view-leak check at every step of 20 playouts per configuration (each step
  re-draws every player's secrets in turn and compares all other views).

The whole file takes about 29 s of CPU on this machine.  The round-trip and leak checks
cost far more per step (a serialisation, or N re-drawn copies with N views each), hence
fewer playouts; over 20 games they still cover thousands of positions in every phase,
including Blackout activations.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablehub.games import load_game
from tests.conformance import (
    check_illegal_moves,
    check_no_view_leaks,
    check_random_playouts,
    check_round_trip,
)

GAME = load_game("almost-got-im")
CONFIGS = [
    pytest.param(players, dict(options), id=f"{players}p-{'advanced' if options else 'basic'}")
    for players in range(GAME.info.min_players, GAME.info.max_players + 1)
    for options in GAME.info.option_sets
]
PLAYOUTS = 1000
ROUND_TRIPS = 20
ILLEGAL = 30
LEAKS = 20


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_random_playouts_end(players: int, options: dict[str, Any]) -> None:
    figures = check_random_playouts(GAME, players, options, PLAYOUTS, seed=players * 10_000)
    assert figures["mean_moves"] > 50


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_round_trip(players: int, options: dict[str, Any]) -> None:
    check_round_trip(GAME, players, options, ROUND_TRIPS, seed=players * 100)


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_illegal_moves_refused(players: int, options: dict[str, Any]) -> None:
    assert check_illegal_moves(GAME, players, options, ILLEGAL, seed=players * 200) > 1000


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_no_view_leaks(players: int, options: dict[str, Any]) -> None:
    assert check_no_view_leaks(GAME, players, options, LEAKS, seed=players * 300) > 0
