"""Chaos in Gotham City (2-6 players): a trick-taking game of villains avoiding Batman.

``GAME`` is the engine (``state.ChaosState``); card values live in ``data.toml``.
"""

from __future__ import annotations

from tablehub.games.chaos_in_gotham.state import INFO, ChaosGame, ChaosState

GAME = ChaosGame()

__all__ = ["GAME", "INFO", "ChaosGame", "ChaosState"]
