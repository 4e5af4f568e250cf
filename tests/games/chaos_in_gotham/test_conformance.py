"""The shared engine conformance suite, for 2-6 players and every option set.

Sizes: 1,000 random playouts per player count with the default options (the referee's
hidden-hands mode and the data variant get 100); the step-by-step checks (JSON round trip
and view leaks at every one of the up to ~600 steps of a 6-player game, each re-drawing
every player's hand) get a few whole games each, which already means tens of thousands
of states per player count.  ``python -m bench.chaos_in_gotham`` prints the speeds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablehub.games.chaos_in_gotham import GAME, INFO
from tests import conformance

PLAYERS = range(INFO.min_players, INFO.max_players + 1)
OPTION_SETS = [dict(o) for o in INFO.option_sets]
CASES = [(n, i) for n in PLAYERS for i in range(len(OPTION_SETS))]


def _options(index: int) -> dict[str, Any]:
    return OPTION_SETS[index]


@pytest.mark.parametrize(("players", "option_set"), CASES)
def test_random_playouts(players: int, option_set: int) -> None:
    playouts = 1000 if option_set == 0 else 100
    figures = conformance.check_random_playouts(
        GAME, players, _options(option_set), playouts, seed=1000 * players
    )
    assert figures["mean_moves"] > players * 10


@pytest.mark.parametrize(("players", "option_set"), CASES)
def test_round_trip(players: int, option_set: int) -> None:
    conformance.check_round_trip(GAME, players, _options(option_set), 2, seed=7 * players)


@pytest.mark.parametrize(("players", "option_set"), CASES)
def test_illegal_moves(players: int, option_set: int) -> None:
    tried = conformance.check_illegal_moves(
        GAME, players, _options(option_set), 10, seed=11 * players, sample_every=5
    )
    assert tried > 50


@pytest.mark.parametrize(("players", "option_set"), CASES)
def test_no_view_leaks(players: int, option_set: int) -> None:
    hands_seen = _options(option_set).get("hands_seen", True)
    changed = conformance.check_no_view_leaks(
        GAME, players, _options(option_set), 2, seed=13 * players, require_hidden=hands_seen
    )
    if not hands_seen:
        assert changed == 0  # the hub-as-referee state holds no player's secrets at all
