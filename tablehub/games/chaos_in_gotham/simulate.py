"""``tablehub simulate chaos-in-gotham``: whole games between bots, engine only."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from tablehub.games.base import CHANCE
from tablehub.games.chaos_in_gotham.bots import choose_move
from tablehub.games.chaos_in_gotham.state import INFO, ChaosState


def play_game(
    players: int,
    rng: random.Random,
    first_player: int = 0,
    options: Mapping[str, Any] | None = None,
) -> ChaosState:
    """One whole game: chance from ``rng``, every seat a bot (``options`` for the engine;
    a ``first_player`` among them wins over the argument)."""
    state = ChaosState(players, {"first_player": first_player, **(options or {})})
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply(choose_move(state, rng))
    return state


def simulate(
    players: int, games: int, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Play ``games`` games with the engine's ``options`` (the first player goes round the
    table unless ``first_player`` is given); scores, winners and speed as JSON-able figures."""
    if not INFO.min_players <= players <= INFO.max_players:
        raise ValueError(f"Chaos in Gotham City is for 2 to 6 players, not {players}")
    options = dict(options or {})
    ChaosState(players, options)  # the engine's own message for a bad option, up front
    rng = random.Random(seed)
    results: list[dict[str, Any]] = []
    wins = [0] * players
    shared = 0
    caught = [0] * players
    started = time.perf_counter()
    for game in range(games):
        state = play_game(players, rng, game % players, options)
        winners = state.winners or []
        for seat in winners:
            wins[seat] += 1
        shared += len(winners) > 1
        for result in state.results:
            for seat in result["caught"]:
                caught[seat] += 1
        results.append({"scores": list(state.totals), "winners": list(winners)})
    seconds = time.perf_counter() - started
    return {
        "game": INFO.name,
        "players": players,
        "games": games,
        "seed": seed,
        "options": options,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "wins": wins,
        "shared_victories": shared,
        "caught_by_batman": caught,
        "mean_score": [
            round(sum(r["scores"][s] for r in results) / games, 2) for s in range(players)
        ],
        "results": results,
    }
