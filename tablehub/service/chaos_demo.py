"""``tablehub demo chaos-in-gotham``: a whole refereed game at a simulated table.

Simulated players (who always follow suit) play on a simulated table; a camera reports the
cards that appear, move and turn over; the Chaos in Gotham City referee turns that into
moves and speaks; the panel's questions are answered by the players.  The referee never
sees the truth: at the end its scores are checked against the simulation's.  The voice
goes to WAV files (``--wav-dir``, else ``demo-output/chaos-voice``).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tablehub.observations import Observation, PanelEvent
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    Output,
    Reread,
    Say,
    SeatLights,
    Setup,
    Show,
)
from tablehub.referee.chaos_in_gotham import ChaosReferee
from tablehub.referee.chaos_table import default_layout
from tablehub.service.chaos_sim import ChaosTableSim, DirectCamera

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions

NAMES = ("Paula", "Marie", "Stefan", "Alex", "Jana", "Omar")
OUTPUT = Path("demo-output")


class WavVoice:
    """Speech to numbered WAV files with espeak-ng (the text is kept in any case)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.spoken: list[str] = []
        self.files: list[Path] = []
        self.engine = shutil.which("espeak-ng")
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def say(self, text: str) -> None:
        self.spoken.append(text)
        if self.folder is None or self.engine is None:
            return
        path = self.folder / f"{len(self.spoken):04d}.wav"
        try:
            subprocess.run(
                [self.engine, "-w", str(path), text], check=True, timeout=10, capture_output=True
            )
        except (OSError, subprocess.SubprocessError):
            return  # a failed clip is skipped; the game goes on
        self.files.append(path)


@dataclass
class DemoResult:
    agreed: bool
    totals: list[int]
    winners: list[int]
    spoken: int
    observations: int
    questions: int
    rejections: int
    seconds: float


def play_demo_game(
    players: int, seed: int, voice: WavVoice, transcript: Callable[[str], None]
) -> DemoResult:
    """One whole game; the referee sees only what the camera and the panel report."""
    started = time.perf_counter()
    names = NAMES[:players]
    layout = default_layout(players)
    referee = ChaosReferee(Setup("chaos-in-gotham", names, {"layout": layout.to_json()}, seed))
    sim = ChaosTableSim(players, layout, seed)
    camera = DirectCamera()
    seq = 0
    counts = {"observations": 0, "questions": 0, "rejections": 0}
    queue: list[Observation] = []

    def perform(outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, Say):
                voice.say(out.text)
                transcript(f"[voice] {out.text}")
            elif isinstance(out, Show):
                if "\n" in out.text:
                    transcript("[screen]\n" + out.text)
            elif isinstance(out, ChooseSeat):
                counts["questions"] += 1
                answer = sim.answer(out.request)
                if answer is not None:
                    transcript(f"[panel] {names[answer.seat or 0]} is chosen ({out.request})")
                    queue.append(answer)
            elif isinstance(out, Reread | AskTable):
                counts["rejections"] += 1
                transcript(f"[hub] {out}")
            elif isinstance(out, SeatLights) and out.seats:
                pass

    def accept(records: list[dict[str, object]]) -> None:
        nonlocal seq
        for record in records:
            seq += 1
            perform(referee.apply(seq, record))

    def feed(observation: Observation) -> None:
        counts["observations"] += 1
        accept(referee.observe(observation))

    transcript(f"Chaos in Gotham City: {players} players ({', '.join(names)}), seed {seed}")
    accept(referee.opening())
    while queue:
        feed(queue.pop(0))
    while not sim.done():
        for stage in sim.advance():
            if isinstance(stage, PanelEvent):
                feed(stage)
            else:
                for event in camera.observe(stage):
                    feed(event)
            while queue:
                feed(queue.pop(0))
    truth = sim.truth
    engine = referee.engine
    agreed = (
        engine.totals == truth.totals and engine.winners == truth.winners and referee.is_finished()
    )
    return DemoResult(
        agreed=agreed,
        totals=list(engine.totals),
        winners=list(engine.winners or []),
        spoken=len(voice.spoken),
        observations=counts["observations"],
        questions=counts["questions"],
        rejections=counts["rejections"],
        seconds=time.perf_counter() - started,
    )


def run_demo(options: DemoOptions) -> int:
    players = options.players or 4
    if not 2 <= players <= 6:
        print("tablehub demo chaos-in-gotham: --players must be 2 to 6")
        return 2
    wav_dir = options.wav_dir or OUTPUT / "chaos-voice"
    shutil.rmtree(wav_dir, ignore_errors=True)
    voice = WavVoice(wav_dir)
    lines: list[str] = []

    def transcript(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    result = play_demo_game(players, options.seed, voice, transcript)
    transcript("")
    transcript(
        f"{result.observations} camera/panel events, {result.questions} questions to the table, "
        f"{result.rejections} readings refused, {result.spoken} sentences spoken "
        f"({len(voice.files)} WAV files in {wav_dir}), {result.seconds:.1f} s"
    )
    verdict = "agree with" if result.agreed else "DIFFER from"
    transcript(f"The referee's scores {verdict} the simulated table's: {result.totals}")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n")
    return 0 if result.agreed else 1
