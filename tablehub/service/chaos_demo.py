"""``tablehub demo chaos-in-gotham``: a whole refereed game at a simulated table.

Simulated players (who always follow suit, ``service.chaos_sim``) play at a simulated
table; what they do reaches the hub as a camera would report it and as panel presses.
The hub is the real one (``service.app.Hub``): every accepted record goes into a SQLite
journal before it is acted on, the dealer panel runs on gpiozero mock pins (the players
turn its knob to answer "whose card is this?"; Two-Face presses it to announce his swap),
and the voice is the hub's (``devices.voice``): the speaker, or WAV files with ``--fast``,
``--wav-dir`` or no sound card.  The referee never sees the truth: at the end its scores
are checked against the simulated table's.

``play_offline`` runs the same game without the service (no journal, panel or voice), for
tests that play many games.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tablehub.config import Config, ConfigError, SeatsConfig, load_config
from tablehub.devices.panel import Panel, PanelHands, mock_pin_factory
from tablehub.devices.voice import make_voice
from tablehub.observations import Observation, PanelEvent
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    OfflineTable,
    Output,
    Reread,
    Say,
    Setup,
)
from tablehub.referee.chaos_in_gotham import ChaosReferee
from tablehub.referee.chaos_table import default_layout
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.chaos_render import TableRenderer
from tablehub.service.chaos_sim import ChaosTableSim, DirectCamera, Placed
from tablehub.service.journal import Journal

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions

NAMES = ("Paula", "Marie", "Stefan", "Alex", "Jana", "Omar")
OUTPUT = Path("demo-output")


@dataclass
class DemoResult:
    agreed: bool
    totals: list[int]
    truth: list[int]
    spoken: int
    observations: int
    questions: int
    rejections: int
    records: int
    seconds: float
    frames: int = 0


def _setup(players: int, seed: int) -> tuple[Setup, ChaosTableSim]:
    layout = default_layout(players)
    setup = Setup("chaos-in-gotham", NAMES[:players], {"layout": layout.to_json()}, seed)
    return setup, ChaosTableSim(players, layout, seed)


def _agreed(referee: ChaosReferee, sim: ChaosTableSim) -> bool:
    engine, truth = referee.engine, sim.truth
    return (
        referee.is_finished() and engine.totals == truth.totals and engine.winners == truth.winners
    )


def play_offline(players: int, seed: int, transcript: Callable[[str], None]) -> DemoResult:
    """The demo's game without the service: referee and table only (fast, for tests)."""
    started = time.perf_counter()
    setup, sim = _setup(players, seed)
    referee = ChaosReferee(setup)
    table = OfflineTable(referee)
    camera = DirectCamera()
    counts = {"observations": 0, "questions": 0, "rejections": 0}
    queue: list[Observation] = []

    def perform(outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, Say):
                transcript(f"[voice] {out.text}")
            elif isinstance(out, ChooseSeat):
                counts["questions"] += 1
                answer = sim.answer(out.request)
                if answer is not None:
                    queue.append(answer)
            elif isinstance(out, Reread | AskTable):
                counts["rejections"] += 1

    def feed(observation: Observation) -> None:
        counts["observations"] += 1
        perform(table.feed(observation))
        while queue:
            feed(queue.pop(0))

    perform(table.start())
    while queue:
        feed(queue.pop(0))
    while not sim.done():
        for stage in sim.advance():
            for observation in [stage] if isinstance(stage, PanelEvent) else camera.observe(stage):
                feed(observation)
    return DemoResult(
        agreed=_agreed(referee, sim),
        totals=list(referee.engine.totals),
        truth=list(sim.truth.totals),
        spoken=len(table.said()),
        records=len(table.records),
        seconds=time.perf_counter() - started,
        **counts,
    )


class TablePlayers:
    """The simulated people, feeding the hub: they act only when the hub has caught up."""

    def __init__(
        self,
        hub: Hub,
        sim: ChaosTableSim,
        hands: PanelHands,
        pace: float,
        frames: Path | None = None,
    ) -> None:
        self.hub = hub
        self.frames = frames
        self.renderer = TableRenderer(seed=sim.truth.players) if frames is not None else None
        self.saved: list[Path] = []
        self.sim = sim
        self.hands = hands
        self.pace = pace
        self.camera = DirectCamera()
        self.observations = 0
        self.questions = 0
        self.rejections = 0
        # The hub notifies once when it starts and once per observation it has handled;
        # the players wait for every observation they caused before acting again.
        self.expected = 1
        self.handled = 0
        hub.output_watchers.append(self._watch)
        hub.after_handle.append(self._handled)

    def _handled(self, hub: Hub) -> None:
        self.handled += 1

    def _post(self, observation: Observation) -> None:
        self.expected += 1
        self.observations += 1
        self.hub.post(observation)

    def _watch(self, out: Output) -> None:
        if isinstance(out, ChooseSeat):
            self.questions += 1
            answer = self.sim.answer(out.request)
            if answer is not None and answer.seat is not None:
                steps = out.seats.index(answer.seat)  # the knob starts at the first seat
                self.expected += 1  # the panel will post the answer
                self.hub.loop.call_later(self.pace, self._choose, steps)
        elif isinstance(out, Reread | AskTable):
            self.rejections += 1

    def _choose(self, steps: int) -> None:
        self.hands.turn(steps)
        self.hands.press_knob()

    def _busy(self) -> bool:
        return self.handled < self.expected and not self.hub.finished

    async def _caught_up(self) -> None:
        while self._busy():
            await asyncio.sleep(0.002)
        if self.pace:
            await asyncio.sleep(self.pace)

    async def play(self) -> None:
        await self._caught_up()
        while not self.sim.done():
            for stage in self.sim.advance():
                if isinstance(stage, PanelEvent):  # Two-Face presses the knob to announce
                    self.expected += 1
                    self.observations += 1
                    self.hands.press_knob()
                else:
                    for observation in self.camera.observe(stage):
                        self._post(observation)
                before = self._tricks()
                await self._caught_up()
                if not isinstance(stage, PanelEvent) and self._tricks() != before:
                    self._keep_frame(stage)

    def _tricks(self) -> tuple[int, int]:
        engine = self.hub.referee.engine if isinstance(self.hub.referee, ChaosReferee) else None
        return (0, 0) if engine is None else (engine.round, len(engine.history))

    def _keep_frame(self, stage: dict[str, Placed]) -> None:
        """A camera frame of the complete trick, as the hub decided it."""
        if self.renderer is None or self.frames is None:
            return
        path = self.frames / f"frame-{len(self.saved) + 1:03d}.png"
        self.saved.append(self.renderer.save(stage, path))
        self.hub.transcript(f"[camera] frame of the trick: {path}")


async def play_at_hub(
    config: Config,
    players: int,
    seed: int,
    wav_dir: Path,
    journal_path: Path,
    force_wav: bool,
    pace: float,
    transcript: Callable[[str], None],
    frames: Path | None = None,
) -> DemoResult:
    """A whole game through the real hub: journal, mock-pin panel, voice (and a camera
    frame of every trick in ``frames``)."""
    started = time.perf_counter()
    setup, sim = _setup(players, seed)
    journal = Journal(journal_path)
    voice = make_voice(
        config.voice.engine,
        config.voice.rate,
        config.voice.volume,
        config.voice.voice,
        config.voice.timeout,
        wav_dir,
        config.data_dir / "cache",
        force_wav=force_wav,
    )
    panel = Panel(config.panel, players, pin_factory=mock_pin_factory())
    try:
        referee, session_id, _ = open_session(journal, ChaosReferee, setup, resume=False)
        assert isinstance(referee, ChaosReferee)
        hub = Hub(journal, referee, session_id, Devices(voice=voice, panel=panel), transcript)
        panel.on_event = hub.post
        transcript(f"[hub] voice: {voice.description}; panel: gpiozero mock pins")
        table = TablePlayers(hub, sim, PanelHands(panel), pace, frames)
        runner = asyncio.ensure_future(hub.run(resumed=False))
        try:
            await table.play()
            await asyncio.wait_for(runner, timeout=60)
        finally:
            hub.stop()
            await hub.close()
            if not runner.done():
                runner.cancel()
        records = journal.count(session_id)
        return DemoResult(
            agreed=_agreed(referee, sim),
            totals=list(referee.engine.totals),
            truth=list(sim.truth.totals),
            spoken=len(voice.spoken),
            observations=table.observations,
            questions=table.questions,
            rejections=table.rejections,
            records=records,
            seconds=time.perf_counter() - started,
            frames=len(table.saved),
        )
    finally:
        await voice.close()
        panel.close()
        journal.close()


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
    out = OUTPUT.resolve()
    wav_dir = (options.wav_dir or out / "chaos-voice").resolve()
    frames = out / "chaos-frames"
    for folder in (wav_dir, frames):
        shutil.rmtree(folder, ignore_errors=True)
    journal = out / "chaos-journal.sqlite3"
    out.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    config = replace(config, seats=SeatsConfig(NAMES[:players]))
    lines: list[str] = []

    def transcript(line: str) -> None:
        if line.startswith("[journal]"):
            return  # every record is in the journal file; keep the transcript readable
        lines.append(line)
        print(line, flush=True)

    transcript(f"Chaos in Gotham City: {players} players ({', '.join(NAMES[:players])})")
    result = asyncio.run(
        play_at_hub(
            config,
            players,
            options.seed,
            wav_dir,
            journal,
            force_wav=options.fast or options.wav_dir is not None,
            pace=0.0 if options.fast else 0.3,
            transcript=transcript,
            frames=frames,
        )
    )
    wavs = len(list(wav_dir.glob("*.wav"))) if wav_dir.exists() else 0
    transcript("")
    transcript(
        f"{result.observations} camera/panel events, {result.records} journaled records "
        f"({journal}), {result.questions} panel questions, {result.rejections} readings "
        f"refused, {result.spoken} sentences spoken ({wavs} WAV files in {wav_dir}), "
        f"{result.frames} camera frames of tricks in {frames}, {result.seconds:.1f} s"
    )
    verdict = "agree with" if result.agreed else "DIFFER from"
    transcript(f"The referee's scores {verdict} the simulated table's: {result.totals}")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n")
    return 0 if result.agreed else 1
