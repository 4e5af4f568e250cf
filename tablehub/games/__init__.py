"""Rules engines, one package per game, all with the shape in ``base``.

The registry maps a game's CLI name to the module that defines ``GAME`` (a ``Game``);
modules are imported only when asked for, so a broken or slow engine never slows the rest.
"""

from __future__ import annotations

import importlib

from tablehub.games.base import Game

REGISTRY: dict[str, str] = {
    "almost-got-im": "tablehub.games.almost_got_im",
    "chaos-in-gotham": "tablehub.games.chaos_in_gotham",
    "get-adler": "tablehub.games.get_adler",
}


def game_names() -> list[str]:
    return sorted(REGISTRY)


def load_game(name: str) -> Game:
    """The ``Game`` registered as ``name``; ``KeyError`` with the known names otherwise."""
    try:
        module_name = REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None
    game = importlib.import_module(module_name).GAME
    if not isinstance(game, Game):
        raise TypeError(f"{module_name}.GAME is not a tablehub Game")
    return game
