"""Engine-only Get Adler! games between bots: ``tablehub simulate get-adler``."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from tablehub.games.base import CHANCE, PUBLIC, Event
from tablehub.games.get_adler.bots import AdlerBot
from tablehub.games.get_adler.state import INFO, AdlerState


def play_game(
    players: int,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    log: list[Event] | None = None,
) -> AdlerState:
    """One whole game: chance from ``rng``, every seat a bot that sees only its own view.

    Every event is appended to ``log`` when one is given.
    """
    state = AdlerState(players, options)
    bots = [AdlerBot(seat, random.Random(rng.random())) for seat in range(players)]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_moves()
        if seat == CHANCE:
            move = rng.choice(legal)
        else:
            move = bots[seat].choose(state.player_view(seat), legal)
        events = state.apply(move)
        if log is not None:
            log.extend(events)
        for bot in bots:
            bot.observe([e for e in events if e["audience"] in (PUBLIC, bot.seat)])
    return state


def simulate(
    players: int, games: int, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Play ``games`` games; wins per side, how they ended, hours played, games per second."""
    if not INFO.min_players <= players <= INFO.max_players:
        raise ValueError(f"Get Adler! is for 4 to 6 players, not {players}")
    AdlerState(players, options)  # the engine's own message for a bad option, up front
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    hours = 0
    started = time.perf_counter()
    for _ in range(games):
        state = play_game(players, rng, options)
        assert state.winner is not None and state.end_reason is not None
        wins[state.winner] += 1
        endings[state.end_reason] += 1
        hours += state.round
    elapsed = time.perf_counter() - started
    return {
        "game": INFO.name,
        "players": players,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "wins": {"heroes": wins["heroes"], "villains": wins["villains"]},
        "endings": dict(sorted(endings.items())),
        "mean_final_hour": round(hours / games, 2),
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }
