"""``tablehub token``: show (or replace) the web control token.

The token lets a person undo, correct and press "next" from the web page or API; it lives in
``<data_dir>/web-token`` (mode 0600).  Run this as the service's user, with its data
directory (see README, "The web page").
"""

from __future__ import annotations

import argparse
import sys

from tablehub.commands import Subparsers
from tablehub.commands.config import load_or_report
from tablehub.paths import data_dir
from tablehub.service.web.token import TokenError, ensure_token, token_path, write_new_token


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "token",
        help="show the web control token (made if there is none)",
        description=(
            "Print the token that web control actions need (Authorization: Bearer <token>). "
            "It is made at the first start and kept in <data_dir>/web-token, readable only "
            "by its owner."
        ),
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="replace the token (the old one stops working at once, even in a running hub)",
    )
    parser.add_argument("--path", action="store_true", help="print where the token is kept instead")
    parser.set_defaults(func=_token)


def _token(args: argparse.Namespace) -> int:
    config = load_or_report(args.config)
    if config is None:
        return 2
    try:
        folder = data_dir(config.data_dir)
        if args.path:
            print(token_path(folder))
            return 0
        token = write_new_token(folder) if args.new else ensure_token(folder)[0]
    except (TokenError, OSError) as err:
        print(f"tablehub token: {err}", file=sys.stderr)
        return 1
    print(token)
    return 0
