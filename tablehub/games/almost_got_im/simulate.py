"""``tablehub simulate almost-got-im``: engine-only games between rule-following bots."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

from tablehub.games.almost_got_im.bots import play_game
from tablehub.games.almost_got_im.state import INFO, AgiState


def simulate(
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    advanced: bool = False,
) -> dict[str, Any]:
    """Play ``games`` bot games with the engine's ``options`` (``advanced``: Advanced Mode;
    the engine refuses unknown ones); wins per side, rounds per game, games per second."""
    if not INFO.min_players <= players <= INFO.max_players:
        raise ValueError(
            f"Almost Got 'Im is for {INFO.min_players} to {INFO.max_players} players, not {players}"
        )
    if games < 1:
        raise ValueError("play at least one game")
    chosen = {"advanced": advanced, **(options or {})}
    AgiState(players, chosen)  # the engine's own message for a bad option, up front
    rng = random.Random(seed)
    wins = {"batman": 0, "villains": 0, "catwoman": 0, "draw": 0}
    shared = 0
    rounds: list[int] = []
    started = time.perf_counter()
    for _ in range(games):
        state = play_game(players, rng, chosen)
        assert state.outcome is not None
        wins[state.outcome] += 1
        if state.outcome == "batman" and len(state.winners) == 2:
            shared += 1
        rounds.append(state.round)
    elapsed = time.perf_counter() - started
    return {
        "game": INFO.name,
        "players": players,
        "games": games,
        "seed": seed,
        "advanced": bool(chosen.get("advanced")),
        "options": chosen,
        "wins": wins,
        "win_rates": {side: round(n / games, 4) for side, n in wins.items()},
        "catwoman_shared_batman_wins": shared,
        "rounds": {
            "mean": round(statistics.fmean(rounds), 2),
            "median": statistics.median(rounds),
            "min": min(rounds),
            "max": max(rounds),
        },
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }
