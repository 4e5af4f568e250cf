"""The hub: one asyncio loop, one observation queue, one referee, one journal.

Devices (camera feed, panel, dice tower, timers, schedule marks) put observations on the
queue from wherever they run.  The hub takes them one at a time:

    records = referee.observe(obs)        # decide, no state change
    journal.append(session, records)      # durable (WAL, fsync) before anything happens
    outputs = referee.apply(seq, record)  # change state
    perform(outputs)                      # speech, lights, timers... never blocking

so whatever the table sees or hears has already been journaled, and a restart can replay
the journal to the same state (``open_session``) without saying anything twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from tablehub.devices.camera import Camera, Frame
from tablehub.devices.panel import Panel
from tablehub.devices.voice import Voice
from tablehub.observations import Observation, PanelEvent, TimerEvent, to_json
from tablehub.referee.base import (
    AskTable,
    CancelAllTimers,
    CancelTimer,
    ChooseSeat,
    Output,
    PlaySchedule,
    PlaySound,
    PrivateLight,
    Record,
    Referee,
    Reread,
    Say,
    SeatLights,
    Setup,
    Show,
    StartTimer,
    WaitNext,
)
from tablehub.service.journal import Journal

log = logging.getLogger(__name__)

Accepted = tuple[int, Record]  # (journal seq, record)


class FrameReader(Protocol):
    """Vision behind the camera feed: frames in, card (or dice) observations out.

    The card-vision code implements this; ``reread`` forgets what it has settled on (for
    ``zone``, or everything) so the next stable reading is reported again.
    """

    def __call__(self, frame: Frame) -> list[Observation]: ...

    def reread(self, zone: str | None) -> None: ...


@dataclass
class Devices:
    """What the hub talks to; anything may be missing (its outputs are then only logged)."""

    voice: Voice | None = None
    panel: Panel | None = None
    camera: Camera | None = None
    reader: FrameReader | None = None
    fps: float = 5.0
    # extra observation sources (the dice tower...): coroutines started with the hub
    feeds: list[Callable[[Callable[[Observation], None]], Coroutine[Any, Any, None]]] = field(
        default_factory=list
    )


def open_session(
    journal: Journal, referee_cls: type[Referee], setup: Setup, resume: bool = True
) -> tuple[Referee, int, bool]:
    """The referee for the last unfinished session of this game, rebuilt from its journal
    (outputs discarded), or a new session.  Returns (referee, session id, resumed)."""
    info = journal.last_unfinished(setup.game) if resume else None
    if info is not None:
        referee = referee_cls(Setup.from_json(info.setup))
        for entry in journal.entries(info.id):
            referee.apply(entry.seq, entry.record)
        return referee, info.id, True
    session_id = journal.start_session(setup.game, setup.to_json())
    return referee_cls(setup), session_id, False


class Hub:
    """Runs one session: the queue, the journal writes, and the outputs."""

    def __init__(
        self,
        journal: Journal,
        referee: Referee,
        session_id: int,
        devices: Devices,
        transcript: Callable[[str], None] | None = None,
    ) -> None:
        self.journal = journal
        self.referee = referee
        self.session_id = session_id
        self.devices = devices
        self.transcript = transcript or (lambda line: None)
        self.queue: asyncio.Queue[Observation] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        self.after_handle: list[Callable[[Hub], None]] = []  # simulations watch from here
        self.output_watchers: list[Callable[[Output], None]] = []
        self.status: dict[str, Any] = {}  # audience -> last Show, for a screen or web page
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._countdowns: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = asyncio.Event()  # finished, or asked to stop (SIGTERM)
        self.finished = False
        # observations whose sender waits for the outcome (the web page's corrections)
        self._waiters: dict[int, tuple[Observation, asyncio.Future[list[Accepted]]]] = {}

    # --- input --------------------------------------------------------------------------
    def post(self, observation: Observation) -> None:
        """Put an observation on the queue (from the loop's thread)."""
        self.queue.put_nowait(observation)

    def post_threadsafe(self, observation: Observation) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, observation)

    def submit(self, observation: Observation) -> asyncio.Future[list[Accepted]]:
        """Queue ``observation`` like ``post``; the future gives the records it led to, once
        the hub has handled it in its turn (``[]``: it meant nothing now)."""
        future: asyncio.Future[list[Accepted]] = self.loop.create_future()
        self._waiters[id(observation)] = (observation, future)
        self.post(observation)
        return future

    # --- the main loop ------------------------------------------------------------------
    async def run(self, resumed: bool) -> None:
        """Start (or resume) the session and referee it until it is finished."""
        for feed in self.devices.feeds:
            self._spawn(feed(self.post))
        if self.devices.camera is not None and self.devices.reader is not None:
            self._spawn(self._camera_feed())
        if resumed:
            self.transcript(
                f"[hub] resumed session {self.session_id} after {len(self.referee.history)} records"
            )
            self.perform(self.referee.resume_outputs())
        else:
            self.accept(self.referee.opening(), None)
        if self.referee.is_finished():
            self._finish()
        self._notify()
        while not self._stopping.is_set():
            getter = asyncio.ensure_future(self.queue.get())
            stopping = asyncio.ensure_future(self._stopping.wait())
            done, _ = await asyncio.wait({getter, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if getter not in done:
                getter.cancel()
                break
            self.handle(getter.result())
        if self.devices.voice is not None:
            await self.devices.voice.drain()

    def handle(self, observation: Observation) -> None:
        """One observation through decide -> journal -> apply -> perform."""
        waiter = self._waiters.pop(id(observation), None)
        future = waiter[1] if waiter is not None and waiter[0] is observation else None
        accepted: list[Accepted] = []
        try:
            records = self.referee.observe(observation)
        except Exception:
            log.exception("the referee failed to decide on %s; ignored", observation)
            records = []
        try:
            if records:
                accepted = self.accept(records, observation)
        except BaseException as err:
            if future is not None and not future.done():
                future.set_exception(err)
            raise
        if future is not None and not future.done():
            future.set_result(accepted)
        self._notify()

    def accept(self, records: list[Record], observation: Observation | None) -> list[Accepted]:
        """Journal ``records`` (durably), apply them, perform the outputs; (seq, record)s."""
        if not records:
            return []
        obs_json = to_json(observation) if observation is not None else None
        seqs = self.journal.append(self.session_id, records, obs_json)  # durable first
        outputs: list[Output] = []
        for seq, record in zip(seqs, records, strict=True):
            outputs += self.referee.apply(seq, record)
            if not self._night():
                self.transcript(f"[journal] #{seq} {record['kind']}")
        self.perform(outputs)
        if self.referee.is_finished():
            self._finish()
        return list(zip(seqs, records, strict=True))

    def _night(self) -> bool:
        """A schedule (the Blackout) is playing: the transcript then leaves out what the
        awake player does (records, private light, knob), which others must not learn."""
        return self.referee.playing is not None

    def _finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.journal.finish_session(self.session_id, self.referee.status("public"))
            self.transcript(f"[hub] session {self.session_id} finished")
            self._stopping.set()

    def stop(self) -> None:
        """Stop refereeing (the session stays open in the journal and resumes next start)."""
        self._stopping.set()

    def _notify(self) -> None:
        for watcher in list(self.after_handle):
            watcher(self)

    async def close(self) -> None:
        for _, future in self._waiters.values():
            future.cancel()  # the hub stops: nobody will handle them now
        self._waiters.clear()
        for handle in self._timers.values():
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- outputs ------------------------------------------------------------------------
    def perform(self, outputs: list[Output]) -> None:
        for output in outputs:
            try:
                self._perform(output)
            except Exception:
                log.exception("could not perform %s", output)
            for watcher in list(self.output_watchers):
                watcher(output)

    def _perform(self, out: Output) -> None:
        voice, panel = self.devices.voice, self.devices.panel
        if isinstance(out, Say):
            self.transcript(f"[voice] {out.text}")
            if voice is not None:
                voice.speak(out.text)
        elif isinstance(out, AskTable):
            self.transcript(f"[voice] {out.question}")
            self.status["public"] = {"question": out.question, "options": list(out.options)}
            if voice is not None:
                voice.speak(out.question)
        elif isinstance(out, PlaySchedule):
            self.transcript(f"[voice] schedule {out.schedule.name} ({out.schedule.length:.1f} s)")
            if voice is not None:
                self._spawn(voice.play_schedule(out.schedule, self._mark))
            else:  # no voice: the marks must still come, on time
                for mark in out.schedule.marks():
                    self.loop.call_later(mark.start, self._mark, mark.text)
        elif isinstance(out, PlaySound):
            self.transcript(f"[sound] {out.name} {out.seconds:.1f} s")
            if voice is not None:
                voice.play_sound_nowait(out.name, out.seconds)
        elif isinstance(out, PrivateLight):
            # privacy: the colour is not logged or printed, only that the light is in use
            if not self._night():
                self.transcript(f"[panel] private light for {out.seconds:.1f} s")
            if panel is not None:
                self._spawn(panel.show_private(out.colour, out.seconds))
        elif isinstance(out, SeatLights):
            self.transcript(f"[panel] seat LEDs {_leds(out.seats, len(self.referee.setup.seats))}")
            if panel is not None:
                panel.light_seats(out.seats)
        elif isinstance(out, ChooseSeat):
            if not self._night():
                self.transcript(f"[panel] choose a seat ({out.request})")
            if panel is not None:
                self._spawn(self._choose(panel, out))
        elif isinstance(out, WaitNext):
            self.transcript(f"[panel] waiting for next ({out.request})")
            if panel is not None:
                self._spawn(self._wait_next(panel, out))
        elif isinstance(out, StartTimer):
            self._start_timer(out)
        elif isinstance(out, CancelTimer):
            self._cancel_timer(out.name)
        elif isinstance(out, CancelAllTimers):
            for name in list(self._timers):
                self._cancel_timer(name)
        elif isinstance(out, Show):
            self.status[str(out.audience)] = {"text": out.text, **out.data}
            if out.audience == "public":
                self.transcript(f"[screen] {out.text}")
        elif isinstance(out, Reread):
            log.debug("re-read %s %s: %s", out.source, out.zone, out.reason)
            self.transcript(f"[{out.source}] re-read {out.zone or ''}".rstrip())
            reader = self.devices.reader
            dice = out.source == "dice"  # the tower and a camera that reads dice
            if reader is not None and (out.source == "camera" or (dice and _reads_dice(reader))):
                reader.reread(out.zone)
            for feed in self.devices.feeds if dice else ():
                reread = getattr(feed, "reread", None)  # the dice tower's feed
                if reread is not None:
                    reread()

    def _mark(self, name: str) -> None:
        self.post(TimerEvent(name))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("hub task failed: %r", task.exception())

    async def _choose(self, panel: Panel, out: ChooseSeat) -> None:
        seat = await panel.choose_seat(out.seats, out.timeout)
        if seat is None:
            self.post(PanelEvent("timeout", request=out.request))
        else:
            self.post(PanelEvent("seat_chosen", seat=seat, request=out.request))

    async def _wait_next(self, panel: Panel, out: WaitNext) -> None:
        pressed = await panel.wait_next(out.timeout)
        self.post(PanelEvent("next" if pressed else "timeout", request=out.request))

    def _start_timer(self, out: StartTimer) -> None:
        ticks = "" if out.countdown == "none" else f", {out.countdown} countdown"
        self.transcript(f"[timer] {out.name}: {out.seconds:g} s{ticks}")
        self._cancel_timer(out.name)
        self._timers[out.name] = self.loop.call_later(out.seconds, self._expire, out.name)
        if out.countdown != "none":
            self._countdowns[out.name] = self._spawn(self._countdown(out))

    def _expire(self, name: str) -> None:
        self._timers.pop(name, None)
        self.post(TimerEvent(name))

    def _cancel_timer(self, name: str) -> None:
        handle = self._timers.pop(name, None)
        if handle is not None:
            handle.cancel()
        task = self._countdowns.pop(name, None)
        if task is not None:
            task.cancel()

    async def _countdown(self, out: StartTimer) -> None:
        whole = int(out.seconds)
        if whole < 1:
            return
        interval = out.seconds / whole
        voice, panel = self.devices.voice, self.devices.panel
        if out.countdown == "speak" and voice is not None:
            for left in range(whole, -1, -1):
                voice.speak(str(left))
                if left:
                    await asyncio.sleep(interval)
        elif out.countdown == "buzz" and panel is not None:
            await panel.countdown(whole, interval)

    # --- the camera -----------------------------------------------------------------------
    async def _camera_feed(self) -> None:
        camera, reader = self.devices.camera, self.devices.reader
        assert camera is not None and reader is not None
        in_loop = camera.in_loop  # cheap simulated frames: no worker thread
        if in_loop:
            camera.open()
        else:
            await asyncio.to_thread(camera.open)
        period = 1.0 / self.devices.fps
        try:
            while True:
                started = self.loop.time()
                frame = camera.read() if in_loop else await asyncio.to_thread(camera.read)
                observations = reader(frame) if in_loop else await asyncio.to_thread(reader, frame)
                for observation in observations:
                    self.post(observation)
                await asyncio.sleep(max(0.0, started + period - self.loop.time()))
        finally:
            camera.close()


def _reads_dice(reader: FrameReader) -> bool:
    return bool(getattr(reader, "reads_dice", False))


def _leds(seats: tuple[int, ...], count: int) -> str:
    return " ".join("●" if i in seats else "○" for i in range(count))
