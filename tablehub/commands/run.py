"""``tablehub run``: the hub service (what systemd starts)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from tablehub.commands import Subparsers
from tablehub.commands.config import load_or_report
from tablehub.commands.options import parse_options
from tablehub.referee import referee_names
from tablehub.service.journal import JournalError
from tablehub.service.runner import DEFAULT_GAME, RunOptions, serve


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the hub service (resumes an unfinished session)",
        description=(
            "Referee a session at the table: read the devices, journal every accepted event, "
            "speak and light the panel. An unfinished session in the journal is resumed."
        ),
    )
    parser.add_argument(
        "--game",
        choices=referee_names(),
        help=f"which game (default: the unfinished session's, else {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--simulated", action="store_true", help="simulated camera, panel and players"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed for a new session")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game/referee option for a new session (VALUE is JSON, e.g. rounds=2)",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="abandon an unfinished session and start anew"
    )
    parser.add_argument("--wav-dir", type=Path, help="write the voice to WAV files here")
    parser.add_argument("--transcript", type=Path, help="also write the transcript here")
    parser.add_argument("--state-out", type=Path, help="write the final state as JSON here")
    parser.add_argument("--quiet", action="store_true", help="do not print the transcript")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    config = load_or_report(args.config)
    if config is None:
        return 2
    try:
        options = parse_options(args.option)
    except ValueError as err:
        print(f"tablehub run: {err}", file=sys.stderr)
        return 2
    log_file = args.transcript.open("a", encoding="utf-8") if args.transcript else None

    def transcript(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)
        if log_file is not None:
            log_file.write(line + "\n")
            log_file.flush()

    opts = RunOptions(
        game=args.game,
        simulated=args.simulated,
        seed=args.seed,
        options=options,
        fresh=args.fresh,
        wav_dir=args.wav_dir,
        state_out=args.state_out,
        transcript=transcript,
        web=True,
    )
    try:
        outcome = asyncio.run(serve(config, opts))
    except JournalError as err:
        print(f"tablehub run: {err}", file=sys.stderr)
        return 1
    except ValueError as err:  # a bad option for the game
        print(f"tablehub run: {err}", file=sys.stderr)
        return 2
    finally:
        if log_file is not None:
            log_file.close()
    transcript(f"[hub] stopped ({'finished' if outcome.finished else 'will resume'})")
    return 0
