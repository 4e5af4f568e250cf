"""``tablehub demo [GAME]``: a whole refereed game at a simulated table, with voice."""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tablehub.commands import Subparsers

# game name -> "module:function"; the function takes DemoOptions and returns an exit code.
DEMOS: dict[str, str] = {
    "devices": "tablehub.service.devices_demo:run_demo",
    "chaos-in-gotham": "tablehub.service.chaos_demo:run_demo",
    "get-adler": "tablehub.service.get_adler_demo:run_demo",
    "almost-got-im": "tablehub.service.almost_got_im_demo:run_demo",
}
DEFAULT_DEMO = "devices"


@dataclass(frozen=True)
class DemoOptions:
    """What every demo understands (a demo ignores what does not apply to its game)."""

    players: int | None
    seed: int
    transcript: Path | None
    config_path: Path | None
    wav_dir: Path | None  # write speech here instead of (or when there is no) speaker
    fast: bool  # shorten waits (slots, countdowns) for tests
    vision: str = "truth"  # simulated camera: "truth" sightings or the "real" card identifier


class DemoFunction(Protocol):
    def __call__(self, options: DemoOptions) -> int: ...


def load_demo(name: str) -> DemoFunction:
    module_name, _, function = DEMOS[name].partition(":")
    demo: DemoFunction = getattr(importlib.import_module(module_name), function)
    return demo


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="play a whole game at a simulated table (simulated camera, panel, dice; real voice)",
        description="Play a whole refereed game on simulated hardware and print a transcript.",
    )
    parser.add_argument(
        "game", nargs="?", default=DEFAULT_DEMO, choices=sorted(DEMOS), help="which game"
    )
    parser.add_argument("--players", type=int, help="number of players (game default if omitted)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--transcript", type=Path, help="also write the transcript here")
    parser.add_argument("--wav-dir", type=Path, help="write the voice to WAV files in this folder")
    parser.add_argument("--fast", action="store_true", help="shorten every wait (for tests)")
    parser.add_argument(
        "--vision",
        choices=("truth", "real"),
        default="truth",
        help="how the simulated camera's frames are read: the renderer's ground truth "
        "(default) or the real card finder and identifier (slow: about a second a frame)",
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    options = DemoOptions(
        players=args.players,
        seed=args.seed,
        transcript=args.transcript,
        config_path=Path(args.config) if args.config else None,
        wav_dir=args.wav_dir,
        fast=args.fast,
        vision=args.vision,
    )
    return load_demo(args.game)(options)
