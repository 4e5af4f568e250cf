"""``tablehub demo almost-got-im``: a whole game with the hub as Dealer, at a simulated table.

Everything goes through the real service (``runner.serve``): the referee, the SQLite
journal, the voice (espeak-ng or pyttsx3, written to WAV files: the Blackout as one mixed
WAV per night, masking shuffle included), the dealer panel on gpiozero mock pins (the
players turn the knob and press the buttons), and the camera: frames of the table are
rendered and read by the shared simulated table camera (``tablehub.service.sim_camera``:
the vision layer's ``CardTracker`` over its table zones); each frame's cards come from the
renderer's ground truth, or — with ``--vision real`` — from the card finder and identifier
themselves (about a second a frame here, so a game then takes several minutes).  The
simulated players follow the rules (``almost_got_im_players``).

The clock is virtual (``tablehub.service.clock``): the Blackout's 12-second slots, the
countdowns and everyone's thinking time keep their nominal lengths in the schedule and in
the transcript's times, but waiting costs no wall time, so a game takes well under two
minutes.  The output folder keeps the journal, the WAV files and some camera frames.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tablehub.config import Config, ConfigError, SeatsConfig, load_config
from tablehub.devices.camera import Frame
from tablehub.observations import CardEvent
from tablehub.referee.base import Output, PlaySchedule, StartTimer
from tablehub.service import sim_camera
from tablehub.service.almost_got_im_players import SimPlayers
from tablehub.service.almost_got_im_table import Layout, SimTable
from tablehub.service.clock import run_virtual
from tablehub.service.runner import RunOptions, serve
from tablehub.service.sim_camera import VISIONS, TableFrames, Vision

Simulation = Callable[["Hub", "PanelHands | None"], None]

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions
    from tablehub.devices.panel import PanelHands
    from tablehub.service.app import Hub

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus")
OUTPUT = Path("demo-output")
MAX_FRAMES = 40  # camera frames kept (the first reads of the game)
VOICE_TIMEOUT = 3600.0  # virtual seconds: synthesis runs in real time while the clock jumps
REFEREE_OPTIONS = {
    "max_rounds": 15,
    "deliberation_seconds": 20.0,
    "speech_seconds": 10.0,
    "defence_seconds": 40.0,
}
HEADER = """\
tablehub demo almost-got-im: {players} players at a simulated table, the hub as Dealer
  camera: frames rendered by the scene renderer, {size} px; cards read by {reader}
  panel : gpiozero mock pins (knob, seat LEDs, private light, next button, buzzer)
  voice : the Dealer's words to WAV files (no sound card needed)
  clock : VIRTUAL - slots, countdowns and pauses keep their nominal times (the first
          column, seconds of game time) but cost no wall time
  [table] lines narrate what the simulated players do (they know their own cards);
  [voice] [panel] [screen] [timer] [camera] [hub] lines are the hub.  During a Blackout
  the hub's own lines show nothing of what the awake player does, and no [camera] line
  ever reports the reveal spot (what is shown there, and how, is secret).
"""


PRIVATE_ZONE = "reveal"
"""What is shown here (roles, hands at night, face up or down) is secret: never printed."""


def run_demo(options: DemoOptions) -> int:
    try:
        config = load_config(options.config_path)
    except ConfigError as err:
        print(f"tablehub demo: configuration {err.source}: " + "; ".join(err.problems))
        return 2
    players = options.players or 5
    if not 4 <= players <= 7:
        print("tablehub demo almost-got-im: --players must be 4 to 7")
        return 2
    out = OUTPUT.resolve()
    wav_dir = (options.wav_dir or out / "voice").resolve()
    for folder in (out / "frames", wav_dir):
        shutil.rmtree(folder, ignore_errors=True)
    journal = out / "journal.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    vision: Vision = "real" if options.vision == "real" else "truth"
    layout = Layout.of(config.table.width_mm, config.table.depth_mm, players)
    config = replace(
        config,
        seats=SeatsConfig(NAMES[:players]),
        data_dir=out,
        journal_path=journal,
        camera=replace(config.camera, fps=4.0),
        voice=replace(config.voice, timeout=VOICE_TIMEOUT),
    )
    lines: list[str] = []

    def transcript(line: str) -> None:
        try:
            now = f"{asyncio.get_running_loop().time():8.1f}  "
        except RuntimeError:
            now = ""
        lines.append(now + line)
        print(now + line, flush=True)

    frames_dir = None if options.fast else out / "frames"
    simulation = simulation_for(players, options.seed, layout, vision, frames_dir, transcript)
    opts = RunOptions(
        game="almost-got-im",
        simulated=True,
        seed=options.seed,
        options=dict(REFEREE_OPTIONS),
        fresh=True,
        wav_dir=wav_dir,
        force_wav=True,
        transcript=transcript,
        simulation=simulation,
    )
    size = f"{round(layout.width)}x{round(layout.depth)}"
    for line in HEADER.format(players=players, size=size, reader=VISIONS[vision]).splitlines():
        transcript(line)
    started = time.perf_counter()
    outcome = run_virtual(serve(config, opts))
    wall = time.perf_counter() - started
    db = sqlite3.connect(journal)
    (records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    db.close()
    wavs = sorted(wav_dir.glob("*.wav")) if wav_dir.exists() else []
    frames = sorted((out / "frames").glob("*.jpg")) if frames_dir else []
    transcript("")
    transcript("--- summary ---")
    transcript(f"game    : {'finished' if outcome.finished else 'NOT finished'}")
    transcript(f"camera  : {len(frames)} frames with a card read saved in {out / 'frames'}")
    panel_lines = sum(1 for line in lines if "[panel]" in line or "knob" in line)
    transcript(f"panel   : {panel_lines} panel operations on gpiozero mock pins")
    transcript(f"voice   : {len(wavs)} WAV files in {wav_dir}")
    transcript(f"journal : {records} records in {journal}")
    transcript(f"wall    : {wall:.1f} s for {_game_time(lines)} of game time")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if outcome.finished else 1


def _game_time(lines: list[str]) -> str:
    stamps = [
        float(line.split()[0]) for line in lines if line[:8].strip().replace(".", "").isdigit()
    ]
    minutes = (max(stamps) if stamps else 0.0) / 60
    return f"{minutes:.0f} min"


def simulation_for(
    players: int,
    seed: int,
    layout: Layout,
    vision: Vision,
    frames_dir: Path | None,
    transcript: Callable[[str], None],
) -> Callable[[Hub, PanelHands | None], None]:
    """What ``serve`` installs on the hub: table, camera, reader, players."""

    def install(hub: Hub, hands: PanelHands | None) -> None:
        if hands is None:
            raise RuntimeError("the simulated players need the panel on mock pins")
        table = SimTable(players, random.Random(f"{seed}:table"))
        frames = TableFrames(
            lambda: table.placements(layout),
            lambda: table.version,
            (layout.width, layout.depth),
            seed,
        )
        saved = [0]

        def on_read(events: list[CardEvent], frame: Frame) -> None:
            number = reader.read
            for event in events:
                if event.zone == PRIVATE_ZONE:
                    continue  # what is shown there, and how, is a secret
                face = event.card_id or "a card face down"
                transcript(f"[camera] frame {number}: {event.change} {face} at {event.zone}")
            if frames_dir is not None and saved[0] < MAX_FRAMES:
                import cv2

                frames_dir.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(frames_dir / f"frame-{number:05d}.jpg"), frame)
                saved[0] += 1

        reader = sim_camera.install(hub, frames, layout.zones, vision, "agi", on_read)
        people = SimPlayers(table, hands, NAMES[:players], seed, transcript)
        people.attach(hub)
        hub.output_watchers.append(lambda out: _narrate(out, transcript))

    return install


def simulation(config: Config, seed: int, transcript: Callable[[str], None]) -> Simulation:
    """``tablehub run --simulated --game almost-got-im``: the demo's table and players."""
    players = len(config.seats.names)
    if not 4 <= players <= 7:
        raise ValueError(f"Almost Got 'Im needs 4 to 7 seats in the configuration, not {players}")
    layout = Layout.of(config.table.width_mm, config.table.depth_mm, players)
    return simulation_for(players, seed, layout, "truth", None, transcript)


def _narrate(output: Output, transcript: Callable[[str], None]) -> None:
    """The Blackout's schedule, line by line at its nominal times; spoken countdowns."""
    if isinstance(output, PlaySchedule):
        for cue in output.schedule.speech():
            transcript(f"[voice]   +{cue.start:6.1f} s  {cue.text}")
    elif isinstance(output, StartTimer) and output.countdown == "speak":
        numbers = ", ".join(str(n) for n in range(int(output.seconds), -1, -1))
        transcript(f"[voice] (countdown, one a second) {numbers}")
