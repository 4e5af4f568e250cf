"""``tablehub dice tower-sim|read|count|stats``: the dice tower and camera pip counting."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tablehub.commands import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "dice",
        help="dice: the virtual tower, reading throws, counting pips in images, fairness",
        description="Dice tower and camera dice reading.",
    )
    sub = parser.add_subparsers(dest="dice_command", metavar="ACTION")

    sim = sub.add_parser(
        "tower-sim",
        help="run a virtual dice tower on a pseudo-terminal (prints the device path first)",
        description="Run a virtual dice tower speaking the real protocol on a pseudo-terminal. "
        "The first line printed is its device path. Control it by lines on stdin: roll, mute, "
        "unmute, silent S, corrupt P, drop S, reboot-on-open on|off, slow S, garbage P, "
        "duplicate P, quit.",
    )
    sim.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    sim.add_argument(
        "--dice", default="7green,2purple", help="the dice in a throw (default 7green,2purple)"
    )
    sim.add_argument("--auto-roll", type=float, default=0.0, metavar="S", help="throw every S s")
    sim.add_argument(
        "--cocked", type=float, default=0.0, metavar="P", help="chance of a cocked die"
    )
    sim.add_argument(
        "--camera",
        action="store_true",
        help="read each throw from a rendered image with the camera pip counter",
    )
    sim.add_argument("--link", type=Path, help="the device path to create (a symlink)")
    sim.add_argument("--protocol-major", type=int, default=None, help=argparse.SUPPRESS)
    for name, text in (
        ("--mute", "start not answering"),
        ("--reboot-on-open", "reboot (and go quiet a while) whenever the port is opened"),
    ):
        sim.add_argument(name, action="store_true", help=text)
    for name, text in (
        ("--corrupt", "fraction of frames sent with a broken checksum"),
        ("--garbage", "fraction of frames preceded by garbage bytes"),
        ("--duplicate", "fraction of frames sent twice"),
        ("--slow", "seconds of delay before every frame"),
    ):
        sim.add_argument(name, type=float, default=0.0, help=text)
    sim.set_defaults(func=_tower_sim)

    read = sub.add_parser("read", help="wait for the next throw from the dice tower")
    read.add_argument("--port", help='device path, "auto" or "sim" (default: the configuration)')
    read.add_argument("--baud", type=int, default=None)
    read.add_argument("--timeout", type=float, default=60.0, help="seconds to wait (default 60)")
    read.add_argument("--json", action="store_true", help="print one JSON object")
    read.set_defaults(func=_read)

    parser.set_defaults(func=lambda args: _no_action(parser))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _tower_sim(args: argparse.Namespace) -> int:
    from tablehub.devices import dice_tower_sim as sim
    from tablehub.devices import dice_tower_wire as wire

    try:
        dice = sim.parse_dice(args.dice)
        for name in ("cocked", "corrupt", "garbage", "duplicate"):
            if not 0.0 <= getattr(args, name) <= 1.0:
                raise ValueError(f"--{name} is a fraction from 0 to 1")
        if args.slow < 0 or args.auto_roll < 0:
            raise ValueError("--slow and --auto-roll are seconds, not negative")
    except ValueError as err:
        print(f"tablehub dice tower-sim: {err}", file=sys.stderr)
        return 2
    faults = sim.Faults(
        mute=args.mute,
        corrupt=args.corrupt,
        reboot_on_open=args.reboot_on_open,
        slow=args.slow,
        garbage=args.garbage,
        duplicate=args.duplicate,
    )
    options = sim.SimOptions(
        seed=args.seed,
        dice=dice,
        auto_roll=args.auto_roll,
        cocked=args.cocked,
        link=args.link,
        protocol_major=args.protocol_major or wire.PROTOCOL_MAJOR,
        faults=faults,
    )
    if args.camera:
        from tablehub.vision.dice_sim_reader import camera_reader

        options.reader = camera_reader(args.seed)
    return sim.VirtualTower(options).run()


def _read(args: argparse.Namespace) -> int:
    from tablehub.config import ConfigError, load_config
    from tablehub.devices.dice_tower import DEFAULT_BAUD, TowerError, open_tower

    try:
        tower_config = load_config(args.config).dice_tower
    except ConfigError as err:
        print(f"tablehub dice read: {err}", file=sys.stderr)
        return 2
    port = args.port or tower_config.port
    baud = args.baud or tower_config.baud or DEFAULT_BAUD
    try:
        tower = open_tower(str(port), baud)
    except TowerError as err:
        print(f"tablehub dice read: {err}", file=sys.stderr)
        return 2
    try:
        event = tower.next_throw(timeout=args.timeout)
        status = tower.status()
    finally:
        tower.close()
    if event is None:
        print(
            f"tablehub dice read: no throw within {args.timeout:g} s ({status.line()})",
            file=sys.stderr,
        )
        return 1
    if args.json:
        from tablehub.observations import to_json

        data = to_json(event)
        data["simulated"] = status.simulated
        print(json.dumps(data))
    else:
        prefix = "SIMULATED " if status.simulated else ""
        parts = [
            f"{d.value}:{d.colour}" if d.value is not None else f"{d.status}:{d.colour}"
            for d in event.dice
        ]
        print(f"{prefix}throw {event.throw_id} read {event.read}: {' '.join(parts)}")
    return 0
