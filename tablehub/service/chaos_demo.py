"""``tablehub demo chaos-in-gotham``: a whole refereed game at a simulated table.

Simulated players (who always follow suit, ``service.chaos_sim``) play at a simulated
table.  Everything goes through the real service (``runner.serve``): what the players lay
down is rendered into the simulated camera's frames and read back by the shared simulated
table camera (``service.sim_camera``: ground-truth sightings, or ``--vision real`` for the
card identifier) through the card-vision tracker into card events; every accepted record
goes into a SQLite journal before it is acted on; the dealer panel runs on gpiozero mock
pins (the players turn its knob to answer "whose card is this?"; Two-Face presses it to
announce his swap); the voice is the hub's, written to WAV files.  The clock is virtual
(``service.clock``): the camera's frames and the players' pauses cost no wall time.  The
referee never sees the truth: at the end its scores are checked against the table's.

``play_offline`` runs the same game without the service (no journal, panel, voice or
rendering: the tracker gets what a perfect identifier sees), for tests that play many games.
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
from tablehub.observations import Observation, PanelEvent
from tablehub.referee.base import AskTable, ChooseSeat, OfflineTable, Output, Reread, Say, Setup
from tablehub.referee.chaos_in_gotham import ChaosReferee
from tablehub.referee.chaos_table import TableLayout, default_layout
from tablehub.service import sim_camera
from tablehub.service.chaos_sim import ChaosTableSim, sightings
from tablehub.service.clock import run_virtual
from tablehub.service.runner import RunOptions, serve
from tablehub.service.sim_camera import SimCardReader, TableFrames, Vision
from tablehub.vision.scene import CardPlacement
from tablehub.vision.tracker import CardTracker
from tablehub.vision.zones import default_zones

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions
    from tablehub.devices.panel import PanelHands
    from tablehub.service.app import Hub

NAMES = ("Paula", "Marie", "Stefan", "Alex", "Jana", "Omar")
OUTPUT = Path("demo-output")
TABLE_MM = (900.0, 600.0)
VOICE_TIMEOUT = 3600.0  # virtual seconds: synthesis runs in real time while the clock jumps
Simulation = Callable[["Hub", "PanelHands | None"], None]


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


def _agreed(referee: ChaosReferee, sim: ChaosTableSim) -> bool:
    engine, truth = referee.engine, sim.truth
    return (
        referee.is_finished() and engine.totals == truth.totals and engine.winners == truth.winners
    )


def play_offline(players: int, seed: int, transcript: Callable[[str], None]) -> DemoResult:
    """The demo's game without the service: referee, table and tracker only (fast)."""
    started = time.perf_counter()
    layout = default_layout(players, *TABLE_MM)
    setup = Setup("chaos-in-gotham", NAMES[:players], {"layout": layout.to_json()}, seed)
    sim = ChaosTableSim(players, layout, seed)
    referee = ChaosReferee(setup)
    table = OfflineTable(referee)
    tracker = CardTracker(default_zones(*TABLE_MM, players), agree_frames=2, forget_frames=2)
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
            if isinstance(stage, PanelEvent):
                feed(stage)
                continue
            for _ in range(5):  # frames until every change is certain
                for event in tracker.update(sightings(stage)):
                    feed(event)
    return DemoResult(
        agreed=_agreed(referee, sim),
        totals=list(referee.engine.totals),
        truth=list(sim.truth.totals),
        spoken=len(table.said()),
        records=len(table.records),
        seconds=time.perf_counter() - started,
        **counts,
    )


class ChaosPlayers:
    """The simulated people at the hub's table: one visible step at a time, each once the
    camera has reported it and the hub has handled everything it was given."""

    def __init__(
        self,
        hub: Hub,
        sim: ChaosTableSim,
        reader: SimCardReader,
        hands: PanelHands,
        frames_dir: Path | None,
    ) -> None:
        self.hub, self.sim, self.reader, self.hands = hub, sim, reader, hands
        self.frames_dir = frames_dir
        self.saved: list[Path] = []
        self.questions = 0
        self.rejections = 0
        self.presses = 0
        self.answering = 0  # knob answers on their way
        self.placed = dict(sim.placed)  # what the camera looks at (the stage being shown)
        self.version = 0
        hub.output_watchers.append(self._watch)

    def placements(self) -> list[CardPlacement]:
        return [
            CardPlacement(p.card_id, p.centre, p.angle_deg, p.face_up) for p in self.placed.values()
        ]

    def _watch(self, out: Output) -> None:
        if isinstance(out, ChooseSeat):
            self.questions += 1
            answer = self.sim.answer(out.request)
            if answer is not None and answer.seat is not None:
                steps = out.seats.index(answer.seat)  # the knob starts at the first seat
                self.answering += 1
                self.hub.loop.call_later(0.5, self._choose, steps)
        elif isinstance(out, Reread | AskTable):
            self.rejections += 1

    def _choose(self, steps: int) -> None:
        self.answering -= 1
        self.hands.turn(steps)
        self.hands.press_knob()

    async def _caught_up(self) -> None:
        """The camera has reported the table as it is and the hub has nothing left to do."""
        while not self.hub.finished and not (
            self.reader.settled(self.version) and self.hub.queue.empty() and not self.answering
        ):
            await asyncio.sleep(0.05)

    async def play(self) -> None:
        await self._caught_up()
        while not self.sim.done() and not self.hub.finished:
            for stage in self.sim.advance():
                before = self._tricks()
                if isinstance(stage, PanelEvent):  # Two-Face presses the knob to announce
                    self.presses += 1
                    self.hands.press_knob()
                else:
                    self.placed, self.version = stage, self.version + 1
                await asyncio.sleep(0.5)  # a person's hand takes a moment
                await self._caught_up()
                if not isinstance(stage, PanelEvent) and self._tricks() != before:
                    self._keep_frame()
        await asyncio.sleep(5.0)
        if not self.hub.finished:  # the table is done; a hub still waiting would wait forever
            self.hub.transcript("[table] the game is over at the table; the hub is not")
            self.hub.stop()

    def _tricks(self) -> tuple[int, int]:
        referee = self.hub.referee
        engine = referee.engine if isinstance(referee, ChaosReferee) else None
        return (0, 0) if engine is None else (engine.round, len(engine.history))

    def _keep_frame(self) -> None:
        """The camera's frame of the complete trick, as the hub decided it."""
        rendered = self.reader.frames.last
        if self.frames_dir is None or rendered is None:
            return
        import cv2

        self.frames_dir.mkdir(parents=True, exist_ok=True)
        path = self.frames_dir / f"frame-{len(self.saved) + 1:03d}.png"
        cv2.imwrite(str(path), rendered.image)
        self.saved.append(path)
        self.hub.transcript(f"[camera] frame of the trick: {path}")


def simulation_for(
    layout: TableLayout,
    table_mm: tuple[float, float],
    seed: int,
    vision: Vision,
    frames_dir: Path | None,
    players_out: list[ChaosPlayers] | None = None,
) -> Simulation:
    """What ``serve`` installs on the hub: the table, the camera over it, the players."""

    def install(hub: Hub, hands: PanelHands | None) -> None:
        if hands is None:
            raise RuntimeError("the simulated players need the panel on mock pins")
        players = len(layout.seats)
        sim = ChaosTableSim(players, layout, seed)
        holder: list[ChaosPlayers] = []
        frames = TableFrames(
            lambda: holder[0].placements(), lambda: holder[0].version, table_mm, seed, "wood"
        )
        zones = default_zones(*table_mm, players)
        reader = sim_camera.install(hub, frames, zones, vision, "chaos")
        people = ChaosPlayers(hub, sim, reader, hands, frames_dir)
        holder.append(people)
        if players_out is not None:
            players_out.append(people)
        task = hub.loop.create_task(people.play())
        task.add_done_callback(lambda done: _stop_on_failure(hub, done))

    return install


def _stop_on_failure(hub: Hub, task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        hub.transcript(f"[table] the simulated players failed: {task.exception()!r}")
        hub.stop()


def simulation(config: Config, seed: int, transcript: Callable[[str], None]) -> Simulation:
    """``tablehub run --simulated --game chaos-in-gotham``: the demo's table and players
    (the referee's ``layout`` option must be the same: ``run_options``)."""
    players = len(config.seats.names)
    if not 2 <= players <= 6:
        raise ValueError(
            f"Chaos in Gotham City needs 2 to 6 seats in the configuration, not {players}"
        )
    table_mm = (config.table.width_mm, config.table.depth_mm)
    return simulation_for(default_layout(players, *table_mm), table_mm, seed, "truth", None)


def run_options(config: Config) -> dict[str, object]:
    """The referee options the simulated table needs (its layout)."""
    players = len(config.seats.names)
    layout = default_layout(players, config.table.width_mm, config.table.depth_mm)
    return {"layout": layout.to_json()}


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
    config = replace(
        config,
        seats=SeatsConfig(NAMES[:players]),
        journal_path=journal,
        table=replace(config.table, width_mm=TABLE_MM[0], depth_mm=TABLE_MM[1]),
        voice=replace(config.voice, timeout=VOICE_TIMEOUT),
    )
    lines: list[str] = []

    def transcript(line: str) -> None:
        if line.startswith("[journal]"):
            return  # every record is in the journal file; keep the transcript readable
        lines.append(line)
        print(line, flush=True)

    vision: Vision = "real" if options.vision == "real" else "truth"
    layout = default_layout(players, *TABLE_MM)
    people: list[ChaosPlayers] = []
    opts = RunOptions(
        game="chaos-in-gotham",
        simulated=True,
        seed=options.seed,
        options={"layout": layout.to_json()},
        fresh=True,
        wav_dir=wav_dir,
        force_wav=True,
        transcript=transcript,
        simulation=simulation_for(layout, TABLE_MM, options.seed, vision, frames, people),
    )
    transcript(f"Chaos in Gotham City: {players} players ({', '.join(NAMES[:players])})")
    started = time.perf_counter()
    outcome = run_virtual(serve(config, opts))
    seconds = time.perf_counter() - started
    table = people[0]
    referee = table.hub.referee
    assert isinstance(referee, ChaosReferee)
    referee_totals = list(referee.engine.totals)
    agreed = outcome.finished and _agreed(referee, table.sim)
    wavs = len(list(wav_dir.glob("*.wav"))) if wav_dir.exists() else 0
    records = _records(journal)
    transcript("")
    transcript(
        f"{table.reader.read} camera frames read, {records} journaled records ({journal}), "
        f"{table.questions} panel questions, {table.rejections} readings refused, "
        f"{wavs} WAV files in {wav_dir}, {len(table.saved)} camera frames of tricks in "
        f"{frames}, {seconds:.1f} s"
    )
    verdict = "agree with" if agreed else "DIFFER from"
    transcript(f"The referee's scores {verdict} the simulated table's: {referee_totals}")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n")
    return 0 if agreed else 1


def _records(journal: Path) -> int:
    import sqlite3

    db = sqlite3.connect(journal)
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    finally:
        db.close()
    return int(count)
