"""Get Adler! figures: random playouts/s, conformance suite time, bot games/s and wins.

``python -m bench.get_adler [--games K] [--playouts P]``; the defaults are the full size.
"""

from __future__ import annotations

import argparse
import random
import time

from tablehub.games.base import random_playout
from tablehub.games.get_adler import GAME
from tablehub.games.get_adler.simulate import simulate
from tests import conformance


def playouts_per_second(players: int, options: dict[str, bool], playouts: int) -> float:
    started = time.perf_counter()
    for seed in range(playouts):
        random_playout(GAME.new_initial_state(players, options), random.Random(seed))
    return playouts / (time.perf_counter() - started)


def conformance_seconds() -> float:
    """The same calls (and sizes) as tests/games/get_adler/test_conformance.py."""
    started = time.perf_counter()
    house = {
        "extended": True,
        "rules": {"escape_must_match": True, "gunfight_continue_after_stop": False},
    }
    for players in (4, 5, 6):
        for options in (*GAME.info.option_sets, house):
            conformance.check_random_playouts(GAME, players, options, playouts=60, seed=11)
            conformance.check_round_trip(GAME, players, options, playouts=3, seed=23)
            conformance.check_illegal_moves(GAME, players, options, playouts=3, seed=37)
            conformance.check_no_view_leaks(GAME, players, options, playouts=2, seed=41)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="bot games per table size")
    parser.add_argument("--playouts", type=int, default=1000, help="random playouts per size")
    parser.add_argument("--quick", action="store_true", help="200 games and 100 playouts")
    args = parser.parse_args()
    if args.quick:
        args.games, args.playouts = 200, 100
    for players in (4, 5, 6):
        for options in ({}, {"extended": True, "ultimate_mission": True}):
            rate = playouts_per_second(players, dict(options), args.playouts)
            label = "+".join(options) or "plain"
            print(f"random playouts  {players}p {label:26s} {rate:8.0f} /s")
    print(f"conformance suite (test sizes, all configurations): {conformance_seconds():.1f} s")
    for players in (4, 5, 6):
        for options in ({}, {"extended": True}, {"extended": True, "ultimate_mission": True}):
            figures = simulate(players, args.games, seed=1, options=options)
            label = "+".join(options) or "plain"
            print(
                f"bots {players}p {label:26s} {figures['games_per_second']:7.0f} games/s  "
                f"wins {figures['wins']}  endings {figures['endings']}"
            )


if __name__ == "__main__":
    main()
