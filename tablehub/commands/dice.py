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
        "duplicate P, misread P, quit.",
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
        ("--misread", "fraction of stable dice the tower reads wrongly (for the cross-check)"),
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

    count = sub.add_parser(
        "count",
        help="count the pips of the dice in pictures",
        description="Find every die in each picture, read it, tell its colour; cocked, "
        "touching or unreadable dice are reported as such.",
    )
    count.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    count.add_argument("--json", action="store_true", help="one JSON object per image")
    count.add_argument("--focal", type=float, help="focal length in pixels (calibration)")
    count.add_argument("--camera-mm", type=float, help="lens height above the dice, mm")
    count.add_argument("--die-mm", type=float, default=16.0, help="die edge, mm (default 16)")
    count.set_defaults(func=_count)

    stats = sub.add_parser(
        "stats",
        help="per-face counts and a chi-square fairness test per die colour",
        description="Per-face counts of every logged roll and Pearson's chi-square test "
        "against a fair die, per die colour.",
    )
    stats.add_argument(
        "--source", choices=("tower", "camera", "all"), default="tower", help="which readings"
    )
    stats.add_argument("--log", type=Path, help="the roll log (default: in the data dir)")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(func=_stats)

    parser.set_defaults(func=lambda args: _no_action(parser))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _tower_sim(args: argparse.Namespace) -> int:
    from tablehub.devices import dice_tower_sim as sim
    from tablehub.devices import dice_tower_wire as wire

    try:
        dice = sim.parse_dice(args.dice)
        for name in ("cocked", "corrupt", "garbage", "duplicate", "misread"):
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
        misread=args.misread,
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

        options.reader = camera_reader(args.seed, args.cocked)
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


def _count(args: argparse.Namespace) -> int:
    import cv2

    from tablehub.vision.dice import count_dice
    from tablehub.vision.dice_geometry import DiceCamera

    if args.camera_mm is not None and args.camera_mm <= args.die_mm:
        print("tablehub dice count: --camera-mm must be more than --die-mm", file=sys.stderr)
        return 2
    code = 0
    for path in args.images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            print(f"tablehub dice count: {path}: not a readable image", file=sys.stderr)
            code = 2
            continue
        camera = None
        if args.focal and args.camera_mm:
            h, w = image.shape[:2]
            camera = DiceCamera(w, h, args.focal, args.camera_mm, args.die_mm)
        dice = count_dice(image, camera)
        if args.json:
            print(json.dumps({"image": str(path), "dice": [d.to_json() for d in dice]}))
        else:
            words = [
                f"{d.value} {d.colour}" if d.value is not None else f"{d.status} {d.colour}"
                for d in dice
            ]
            print(f"{path}: {', '.join(words) if words else 'no dice'}")
    return code


def _stats(args: argparse.Namespace) -> int:
    from tablehub.config import ConfigError, load_config
    from tablehub.devices.dice_tower_rolls import RollLog

    path = args.log
    if path is None:
        try:
            path = RollLog.default_path(load_config(args.config).data_dir)
        except ConfigError as err:
            print(f"tablehub dice stats: {err}", file=sys.stderr)
            return 2
    if not path.exists():
        print(f"tablehub dice stats: no rolls logged yet ({path})", file=sys.stderr)
        return 1
    log = RollLog(path)
    try:
        results = log.fairness(None if args.source == "all" else args.source)
    finally:
        log.close()
    if args.json:
        rows = [
            {
                "colour": f.colour,
                "counts": list(f.counts),
                "rolls": f.rolls,
                "chi_square": round(f.chi_square, 3),
                "p_value": round(f.p_value, 4),
                "verdict": f.verdict(),
            }
            for f in results
        ]
        print(json.dumps(rows))
        return 0
    if not results:
        print("no stable dice logged yet")
        return 0
    faces = " ".join(f"{n:>5}" for n in range(1, 7))
    print(f"{'colour':8} {faces} {'rolls':>6} {'chi2':>7} {'p':>7}  verdict")
    for f in results:
        counts = " ".join(f"{c:5d}" for c in f.counts)
        print(
            f"{f.colour:8} {counts} {f.rolls:6d} {f.chi_square:7.2f} {f.p_value:7.4f}"
            f"  {f.verdict()}"
        )
    return 0
