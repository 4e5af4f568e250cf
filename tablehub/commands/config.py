"""``tablehub config check|show``: is the configuration right, and what is in effect."""

from __future__ import annotations

import argparse
import sys

from tablehub.commands import Subparsers
from tablehub.config import Config, ConfigError, load_config, to_toml


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "config",
        help="check or show the configuration",
        description=(
            "Check the configuration file (--config PATH, else /etc/tablehub/config.toml, "
            "else built-in defaults) or print the configuration in effect."
        ),
    )
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="report every problem in the configuration (exit 2 if any)"
    )
    check.set_defaults(func=_check)
    show = actions.add_parser("show", help="print the configuration in effect, as TOML")
    show.set_defaults(func=_show)


def load_or_report(path: str | None) -> Config | None:
    """Load the configuration, or print every problem to stderr and return None."""
    try:
        return load_config(path)
    except ConfigError as err:
        print(f"tablehub: configuration {err.source} has problems:", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return None


def _check(args: argparse.Namespace) -> int:
    config = load_or_report(args.config)
    if config is None:
        return 2
    print(f"configuration OK ({config.source})")
    return 0


def _show(args: argparse.Namespace) -> int:
    config = load_or_report(args.config)
    if config is None:
        return 2
    sys.stdout.write(to_toml(config))
    return 0
