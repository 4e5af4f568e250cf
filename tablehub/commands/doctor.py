"""``tablehub doctor``: try every configured device for real and say what to fix."""

from __future__ import annotations

import argparse

from tablehub.commands import Subparsers
from tablehub.commands.config import load_or_report
from tablehub.devices.health import PROVIDERS, Check, run_checks


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check each configured device (camera, panel, voice, dice tower, journal)",
        description=(
            "Check each configured device for real: grab a camera frame, drive the panel's "
            "pins, render and play the voice, open the journal (and the dice tower's "
            "handshake once its check is installed). Exit code 1 if anything failed."
        ),
    )
    parser.add_argument(
        "--simulated", action="store_true", help="check the simulated devices instead"
    )
    parser.add_argument(
        "--only", action="append", choices=sorted(PROVIDERS), help="check only this (repeatable)"
    )
    parser.set_defaults(func=_run)


def format_check(check: Check) -> list[str]:
    lines = [f"  {'OK  ' if check.ok else 'FAIL'}  {check.name:<13} {check.detail}"]
    if not check.ok and check.fix:
        lines.append(f"        {'':<13} fix: {check.fix}")
    return lines


def _run(args: argparse.Namespace) -> int:
    config = load_or_report(args.config)
    if config is None:
        return 2
    mode = "simulated devices" if args.simulated else "configured devices"
    print(f"tablehub doctor: {mode} (configuration: {config.source})")
    checks = run_checks(config, args.simulated, args.only)
    for check in checks:
        for line in format_check(check):
            print(line, flush=True)
    failed = [c for c in checks if not c.ok]
    if failed:
        print(f"{len(failed)} problem(s): {', '.join(c.name for c in failed)}")
        return 1
    print("everything OK")
    return 0
