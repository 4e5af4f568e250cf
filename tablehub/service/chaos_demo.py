"""``tablehub demo chaos-in-gotham``: a whole refereed game at a simulated table.

Simulated players (who always follow suit) play on a simulated table; a camera reports the
cards that appear, move and turn over; the Chaos in Gotham City referee turns that into
moves and speaks; the panel's questions are answered by the players.  The referee never
sees the truth: at the end its scores are checked against the simulation's.  The voice
is the hub's own (``tablehub.devices.voice``): the speaker, or WAV files with ``--fast``,
``--wav-dir`` or no sound card (default folder ``demo-output/chaos-voice``).
"""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tablehub.config import ConfigError, load_config
from tablehub.devices.voice import WavFolderSink, make_voice
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


async def play_demo_game(
    players: int,
    seed: int,
    speak: Callable[[str], Awaitable[object]],
    transcript: Callable[[str], None],
) -> DemoResult:
    """One whole game; the referee sees only what the camera and the panel report."""
    started = time.perf_counter()
    names = NAMES[:players]
    layout = default_layout(players)
    referee = ChaosReferee(Setup("chaos-in-gotham", names, {"layout": layout.to_json()}, seed))
    sim = ChaosTableSim(players, layout, seed)
    camera = DirectCamera()
    seq = 0
    counts = {"observations": 0, "questions": 0, "rejections": 0, "spoken": 0}
    queue: list[Observation] = []

    async def perform(outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, Say):
                transcript(f"[voice] {out.text}")
                counts["spoken"] += 1
                await speak(out.text)
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

    async def accept(records: list[dict[str, object]]) -> None:
        nonlocal seq
        for record in records:
            seq += 1
            await perform(referee.apply(seq, record))

    async def feed(observation: Observation) -> None:
        counts["observations"] += 1
        await accept(referee.observe(observation))

    transcript(f"Chaos in Gotham City: {players} players ({', '.join(names)}), seed {seed}")
    await accept(referee.opening())
    while queue:
        await feed(queue.pop(0))
    while not sim.done():
        for stage in sim.advance():
            if isinstance(stage, PanelEvent):
                await feed(stage)
            else:
                for event in camera.observe(stage):
                    await feed(event)
            while queue:
                await feed(queue.pop(0))
    truth = sim.truth
    engine = referee.engine
    agreed = (
        engine.totals == truth.totals and engine.winners == truth.winners and referee.is_finished()
    )
    return DemoResult(
        agreed=agreed,
        totals=list(engine.totals),
        winners=list(engine.winners or []),
        spoken=counts["spoken"],
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
    try:
        config = load_config(options.config_path)
    except ConfigError as err:
        print(f"tablehub demo: configuration {err.source}: " + "; ".join(err.problems))
        return 2
    wav_dir = (options.wav_dir or OUTPUT / "chaos-voice").resolve()
    shutil.rmtree(wav_dir, ignore_errors=True)
    lines: list[str] = []

    def transcript(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    async def main() -> DemoResult:
        voice = make_voice(
            config.voice.engine,
            config.voice.rate,
            config.voice.volume,
            config.voice.voice,
            config.voice.timeout,
            wav_dir,
            config.data_dir / "cache",
            force_wav=options.fast or options.wav_dir is not None,
        )
        transcript(f"[hub] voice: {voice.description}")
        try:
            result = await play_demo_game(players, options.seed, voice.say, transcript)
            await voice.drain()
        finally:
            await voice.close()
        files = len(voice.sink.written) if isinstance(voice.sink, WavFolderSink) else 0
        transcript("")
        transcript(
            f"{result.observations} camera/panel events, {result.questions} questions to the "
            f"table, {result.rejections} readings refused, {result.spoken} sentences spoken "
            f"({files} WAV files), {result.seconds:.1f} s"
        )
        return result

    result = asyncio.run(main())
    verdict = "agree with" if result.agreed else "DIFFER from"
    transcript(f"The referee's scores {verdict} the simulated table's: {result.totals}")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n")
    return 0 if result.agreed else 1
