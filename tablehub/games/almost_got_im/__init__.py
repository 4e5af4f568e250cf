"""Almost Got 'Im: the rules engine (see ``state`` for the information model).

``GAME`` is the registry's entry point; ``AgiState`` the position; ``hands`` the poker
checks; ``data.toml`` the card values the rulebook does not print.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tablehub.games.almost_got_im.state import INFO, AgiState
from tablehub.games.base import JSON, Game, GameInfo


class AlmostGotIm(Game):
    info: ClassVar[GameInfo] = INFO

    def new_initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> AgiState:
        return AgiState(players, options)

    def state_from_json(self, data: JSON) -> AgiState:
        return AgiState.from_json(data)


GAME = AlmostGotIm()

__all__ = ["GAME", "INFO", "AgiState", "AlmostGotIm"]
