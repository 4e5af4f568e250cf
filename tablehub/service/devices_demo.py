"""``tablehub demo devices``: a short simulated session that uses every device end to end.

A game of High Card (the foundation's example referee) at a simulated table, through the
real service: camera frames are rendered and read, the dealer panel runs on gpiozero mock
pins (knob, seat LEDs, private light, next button, buzzer countdowns), the voice speaks
with the configured engine — to the speaker, or to WAV files when there is none — and every
accepted event goes through the SQLite journal.  The output folder keeps the journal, the
WAV files and the camera frames in which a card was read.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tablehub.config import ConfigError, SeatsConfig, load_config
from tablehub.service.runner import RunOptions, serve

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus")
OUTPUT = Path("demo-output")


def run_demo(options: DemoOptions) -> int:
    try:
        config = load_config(options.config_path)
    except ConfigError as err:
        print(f"tablehub demo: configuration {err.source}: " + "; ".join(err.problems))
        return 2
    players = options.players or 4
    if not 2 <= players <= 7:
        print("tablehub demo devices: --players must be 2 to 7")
        return 2
    out = OUTPUT.resolve()
    wav_dir = (options.wav_dir or out / "voice").resolve()
    for folder in (out / "frames", wav_dir):
        shutil.rmtree(folder, ignore_errors=True)
    journal = out / "journal.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    config = replace(
        config,
        seats=SeatsConfig(NAMES[:players]),
        data_dir=out,
        journal_path=journal,
        camera=replace(config.camera, fps=20.0),
    )
    lines: list[str] = []

    def transcript(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    opts = RunOptions(
        game="high-card",
        simulated=True,
        seed=options.seed,
        options={"turn_seconds": 1.0 if options.fast else 4.0, "rounds": 3},
        fresh=True,
        wav_dir=wav_dir,
        force_wav=options.wav_dir is not None,  # asked for files: no speaker
        transcript=transcript,
        pace=0.05 if options.fast else 0.4,
        save_frames=out / "frames",
    )
    transcript("tablehub demo devices: High Card at a simulated table (camera, panel, voice)")
    outcome = asyncio.run(serve(config, opts))
    db = sqlite3.connect(journal)
    (records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    db.close()
    frames = sorted((out / "frames").glob("*.png"))
    wavs = sorted(wav_dir.glob("*.wav")) if wav_dir.exists() else []
    transcript("")
    transcript(f"camera : {len(frames)} frames with a card read, saved in {out / 'frames'}")
    panel_lines = sum(1 for line in lines if line.startswith("[panel]"))
    transcript(f"panel  : {panel_lines} panel operations on gpiozero mock pins")
    spoken = sum(1 for line in lines if line.startswith("[voice]"))
    where = f"{len(wavs)} WAV files in {wav_dir}" if wavs else outcome.voice
    transcript(f"voice  : {spoken} phrases -> {where}")
    transcript(f"journal: {records} records in {journal}")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if outcome.finished else 1
