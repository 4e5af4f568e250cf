"""Chaos in Gotham City engine speed: random playouts, bot games, conformance steps.

    python -m bench.chaos_in_gotham [--games N] [--quick]

Prints, per player count (CPU seconds, so other load on the machine matters less):
uniformly random playouts per second (what the conformance suite runs), moves per game,
bot games per second (``tablehub simulate``, wall time), and the time of one whole game
through the conformance suite's step-by-step checks (round trip, view leaks).
"""

from __future__ import annotations

import argparse
import random
import time

from tablehub.games.base import random_playout
from tablehub.games.chaos_in_gotham import GAME
from tablehub.games.chaos_in_gotham.simulate import simulate
from tests import conformance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--quick", action="store_true", help="100 games per player count")
    args = parser.parse_args()
    games = 100 if args.quick else args.games
    print(f"Chaos in Gotham City, {games} games per player count")
    header = "players  playouts/s  moves/game  bot games/s  round-trip s/game  leaks s/game"
    print(header)
    for players in range(2, 7):
        rng = random.Random(players)
        moves = 0
        started = time.process_time()
        for _ in range(games):
            moves += len(random_playout(GAME.new_initial_state(players), rng))
        playouts = games / (time.process_time() - started)
        bots = simulate(players, games, seed=players)["games_per_second"]
        started = time.process_time()
        conformance.check_round_trip(GAME, players, {}, 2, seed=players)
        round_trip = (time.process_time() - started) / 2
        started = time.process_time()
        conformance.check_no_view_leaks(GAME, players, {}, 2, seed=players)
        leaks = (time.process_time() - started) / 2
        print(
            f"{players:7d}  {playouts:10.0f}  {moves / games:10.0f}  {bots:11.0f}"
            f"  {round_trip:17.2f}  {leaks:12.2f}"
        )


if __name__ == "__main__":
    main()
