"""Almost Got 'Im engine speed and bot balance: playouts, conformance, simulation.

    python -m bench.almost_got_im [--games N] [--quick]

Prints, per player count (basic and Advanced Mode): uniformly random playouts per second
(what the conformance suite runs) in CPU time, moves and rounds per game; CPU seconds per
game of the suite's step-by-step checks (JSON round trip, view leaks); then bot games
(``tablehub simulate``): games per second, wins per side and rounds per game.
Times are CPU time (``time.process_time``) so other load on the machine does not skew them.
"""

from __future__ import annotations

import argparse
import random
import time

from tablehub.games.almost_got_im import GAME
from tablehub.games.almost_got_im.simulate import simulate
from tablehub.games.base import random_playout
from tests import conformance


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--quick", action="store_true", help="100 games per configuration")
    args = parser.parse_args()
    games = 100 if args.quick else args.games
    checked = 5 if args.quick else 20
    print(f"Almost Got 'Im, {games} random playouts per configuration (CPU time)")
    print("players  advanced  playouts/s  moves/game  rounds/game  round-trip s/game  leaks s/game")
    total = 0.0
    for players in range(4, 8):
        for options in GAME.info.option_sets:
            rng = random.Random(players)
            moves = rounds = 0
            started = time.process_time()
            for _ in range(games):
                state = GAME.new_initial_state(players, options)
                moves += len(random_playout(state, rng))
                rounds += state.round  # type: ignore[attr-defined]
            spent = time.process_time() - started
            total += spent
            started = time.process_time()
            conformance.check_round_trip(GAME, players, options, checked, seed=players)
            round_trip = (time.process_time() - started) / checked
            started = time.process_time()
            conformance.check_no_view_leaks(GAME, players, options, checked, seed=players)
            leaks = (time.process_time() - started) / checked
            print(
                f"{players:7d}  {bool(options)!s:>8}  {games / spent:10.0f}  {moves / games:10.0f}"
                f"  {rounds / games:11.1f}  {round_trip:17.3f}  {leaks:12.3f}"
            )
    print(f"all random playouts: {total:.1f} s CPU")
    print()
    print("bot games (tablehub simulate): games/s, win rates Batman/Villains/Catwoman, rounds")
    for players in range(4, 8):
        figures = simulate(players, games, seed=players)
        rates = figures["win_rates"]
        shared = figures["catwoman_shared_batman_wins"]
        print(
            f"{players} players: {figures['games_per_second']:6.0f} games/s  "
            f"Batman {rates['batman']:.1%}  Villains {rates['villains']:.1%}  "
            f"Catwoman {rates['catwoman']:.1%}  (with Batman {shared})"
            f"  rounds mean {figures['rounds']['mean']} max {figures['rounds']['max']}"
        )


if __name__ == "__main__":
    main()
