"""The ``tablehub`` command line: one sub-command module per job under ``tablehub.commands``.

Each module listed in ``COMMAND_MODULES`` has ``register(subparsers)``, which adds its
parser and sets ``func`` (taking the parsed args, returning an exit code).  Adding a
command is adding a module and one line here.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from tablehub import __version__

COMMAND_MODULES: tuple[str, ...] = (
    "tablehub.commands.demo",
    "tablehub.commands.simulate",
    "tablehub.commands.config",
    "tablehub.commands.dice",
    "tablehub.commands.run",
    "tablehub.commands.doctor",
    "tablehub.commands.token",
    "tablehub.commands.cards",
    "tablehub.commands.calibrate",
)


# numpy's matrix library starts a thread per core for every product. The hub's products
# are small (a card against a deck's templates), so the threads gain little, and when
# another job holds a core they wait on each other: a frame took 7x as long (1.3 s, not
# 0.18 s) beside one busy process. One thread each, unless the user says otherwise; set
# before the commands import numpy.
MATH_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def limit_math_threads() -> None:
    """One thread per matrix product (see ``MATH_THREADS``); a value already set wins."""
    for name in MATH_THREADS:
        os.environ.setdefault(name, "1")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablehub",
        description="Referee and dealer for real tabletop play (cards, dice, voice).",
    )
    parser.add_argument("--version", action="version", version=f"tablehub {__version__}")
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="configuration file (default: /etc/tablehub/config.toml, else built-in defaults)",
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    limit_math_threads()
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
