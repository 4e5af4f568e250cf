"""The shared engine conformance suite for Get Adler!, 4-6 players, every option set.

Besides the sets in ``GameInfo`` (plain, extended, expert, both) it covers the two house
readings that change the flow most (matching escapes, a gunfight ended by the first hold).
"""

from __future__ import annotations

from typing import Any

import pytest

from tablehub.games.get_adler import GAME
from tests import conformance

HOUSE = {
    "extended": True,
    "rules": {"escape_must_match": True, "gunfight_continue_after_stop": False},
}
CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (players, dict(options)) for players in (4, 5, 6) for options in (*GAME.info.option_sets, HOUSE)
]
IDS = [f"{p}p-{'+'.join(sorted(o)) or 'plain'}" for p, o in CONFIGS]


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_random_playouts(players: int, options: dict[str, Any]) -> None:
    figures = conformance.check_random_playouts(GAME, players, options, playouts=60, seed=11)
    assert figures["mean_moves"] > 7 * players * 2  # seven rounds of draw + play at least


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_round_trip(players: int, options: dict[str, Any]) -> None:
    conformance.check_round_trip(GAME, players, options, playouts=3, seed=23)


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_illegal_moves(players: int, options: dict[str, Any]) -> None:
    assert conformance.check_illegal_moves(GAME, players, options, playouts=3, seed=37) > 0


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_no_view_leaks(players: int, options: dict[str, Any]) -> None:
    assert conformance.check_no_view_leaks(GAME, players, options, playouts=2, seed=41) > 0
