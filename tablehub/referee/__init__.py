"""Referees: observations -> journaled records -> outputs, one module per game.

``REFEREES`` maps a game's name to ``"module:Class"`` (a ``tablehub.referee.base.Referee``
subclass); modules are imported only when asked for.  Game referees add their line here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablehub.referee.base import Referee

REFEREES: dict[str, str] = {
    "high-card": "tablehub.referee.example:HighCardReferee",
    "get-adler": "tablehub.referee.get_adler:AdlerReferee",
    "chaos-in-gotham": "tablehub.referee.chaos_in_gotham:ChaosReferee",
    "almost-got-im": "tablehub.referee.almost_got_im:AgiReferee",
    "dice-tray": "tablehub.referee.dice_tray:DiceTrayReferee",
}


def referee_names() -> list[str]:
    return sorted(REFEREES)


def load_referee(game: str) -> type[Referee]:
    """The referee class for ``game``; ``KeyError`` naming the known games otherwise."""
    from tablehub.referee.base import Referee

    try:
        module_name, _, class_name = REFEREES[game].partition(":")
    except KeyError:
        known = ", ".join(referee_names())
        raise KeyError(f"no referee for game {game!r}; known: {known}") from None
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Referee)):
        raise TypeError(f"{REFEREES[game]} is not a Referee subclass")
    return cls
