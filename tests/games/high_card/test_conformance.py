"""The example engine passes the shared engine conformance suite."""

import pytest

from tablehub.games.base import IllegalMove
from tablehub.games.high_card import GAME
from tests.conformance import (
    check_illegal_moves,
    check_random_playouts,
    check_round_trip,
)


@pytest.mark.parametrize("players", [2, 5, 7])
@pytest.mark.parametrize("options", GAME.info.option_sets)
def test_conformance(players: int, options: dict) -> None:
    check_random_playouts(GAME, players, options, playouts=50)
    check_round_trip(GAME, players, options, playouts=5)
    check_illegal_moves(GAME, players, options, playouts=5)
    # check_no_view_leaks does not apply: High Card has no hidden information (every card
    # is face up), and the suite rightly refuses to pass a game it cannot test for leaks.


def test_highest_card_wins_and_duplicates_are_refused() -> None:
    state = GAME.new_initial_state(2, {"rounds": 1})
    state.apply({"kind": "start", "player": -1, "first": 1})
    state.apply({"kind": "reveal", "player": 1})
    state.apply({"kind": "card", "player": -1, "card": "QH"})
    state.apply({"kind": "reveal", "player": 0})
    with pytest.raises(IllegalMove, match="already revealed"):
        state.apply({"kind": "card", "player": -1, "card": "QH"})
    state.apply({"kind": "card", "player": -1, "card": "QS"})
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
