"""``tablehub simulate GAME``: engine-only games between bots, as fast as possible."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Mapping
from typing import Any, Protocol

from tablehub.commands import Subparsers
from tablehub.commands.options import parse_options

# game name -> "module:function"; see SimulateFunction for the signature.
SIMULATORS: dict[str, str] = {
    "almost-got-im": "tablehub.games.almost_got_im.simulate:simulate",
    "chaos-in-gotham": "tablehub.games.chaos_in_gotham.simulate:simulate",
    "get-adler": "tablehub.games.get_adler.simulate:simulate",
}


class SimulateFunction(Protocol):
    def __call__(
        self, players: int, games: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Play ``games`` games with the game's ``options`` (its engine checks them and
        raises ``ValueError`` naming a bad one); return JSON-able figures (wins, lengths,
        games_per_second)."""
        ...


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many engine-only games between bots and print the figures",
        description="Play many games between rule-following bots (no hardware) and report.",
    )
    parser.add_argument("game", choices=sorted(SIMULATORS) or None, help="which game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, repeatable (VALUE is JSON, else a string), e.g. advanced=true",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    try:
        options = parse_options(args.option)
    except ValueError as err:
        print(f"tablehub simulate: {err}", file=sys.stderr)
        return 2
    module_name, _, function = SIMULATORS[args.game].partition(":")
    simulate: SimulateFunction = getattr(importlib.import_module(module_name), function)
    try:
        figures = simulate(players=args.players, games=args.games, seed=args.seed, options=options)
    except ValueError as err:
        print(f"tablehub simulate: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
