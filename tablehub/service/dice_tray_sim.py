"""``tablehub run --simulated --game dice-tray``: a dice tray on simulated hardware.

A virtual dice tower (``tablehub dice tower-sim``, its own process on a pseudo-terminal,
read through the real serial link) throws the dice.  Each time they settle it prints them
as they really lie (``shown ...``), and the simulated camera over the tray shows a render
of those dice (``dice_render.render_throw``) to the real pip counter, so the hub
cross-checks two independent readings as at a real table.  The simulated player throws
``roll_seconds`` (a game option, default ``ROLL_SECONDS``; 0: only on "next") after the
hub has decided on the last throw (accepted it or asked the table), and at once when the
panel's "next" button is pressed.  The options ``tower_misread`` and ``tower_cocked``
(fractions) are the virtual tower's ``--misread`` and ``--cocked``, to see the hub re-read
and ask the table.  The tower process is stopped with the hub.

With ``dice_tower.port`` set to a device path the real tower is used instead (nobody
throws for you) and the camera shows the dice that tower reports: it then cannot catch the
tower's misreads, which the transcript says.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tablehub.devices.camera import Frame, SimulatedCamera
from tablehub.devices.dice_tower import TowerFeed
from tablehub.devices.dice_tower_sim import SimProcess, parse_shown
from tablehub.observations import DiceEvent, Observation, PanelEvent
from tablehub.referee.base import AskTable, Output, Show
from tablehub.service.web.board import DeviceState
from tablehub.vision.dice_reader import DiceFrameReader
from tablehub.vision.dice_render import render_throw

if TYPE_CHECKING:
    from tablehub.config import Config
    from tablehub.devices.panel import PanelHands
    from tablehub.service.app import Hub

DICE = "2green,1purple"  # the virtual tower's dice (its --dice)
ROLL_SECONDS = 2.0  # the player's pause between throws (game option roll_seconds)
DECIDE_TIMEOUT = 15.0  # a throw the hub neither took nor asked about by then: throw again
LINE_POLL = 0.5  # seconds a wait for the tower's next event line lasts before looking again
VIRTUAL_PORTS = ("auto", "sim")  # dice_tower.port values that are no real port

Dice = list[tuple[int, str]]


class Tray:
    """The dice as they really lie, seen by a simulated camera fixed over the tray."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.image, _, self.camera = render_throw([], self.rng)
        self.empty = self.image

    def show(self, dice: Dice, cocked: float = 0.0) -> None:
        self.image = render_throw(dice, self.rng, cocked, camera=self.camera)[0]

    def clear(self) -> None:
        """The dice are tumbling: the tray is empty until they settle."""
        self.image = self.empty

    def frame(self, index: int) -> Frame:
        return self.image


def same_dice(a: Iterable[Sequence[Any]], b: Iterable[Sequence[Any]]) -> bool:
    """The same (value, colour) dice, in any order."""
    return sorted((int(v), str(c)) for v, c in a) == sorted((int(v), str(c)) for v, c in b)


def words(dice: Dice) -> str:
    return ", ".join(f"{c} {v}" for v, c in dice)


@dataclass
class TrayStats:
    started: float = 0.0
    rolls: int = 0
    accepted: int = 0
    as_shown: int = 0  # accepted throws equal to the dice as they lay
    asked: int = 0  # times the table was asked to roll again

    def line(self) -> str:
        minutes = max(time.monotonic() - self.started, 1e-9) / 60
        return (
            f"[table] {self.rolls} throw(s) in {minutes * 60:.1f} s "
            f"({self.accepted / minutes:.1f} accepted a minute): {self.accepted} accepted, "
            f"{self.as_shown} of them as the dice lay; the table was asked {self.asked} time(s)"
        )


class SimulatedTray:
    """The tray's feed on the hub: the tower (virtual, or the configured real one), the
    player who throws, and the tray picture for the simulated camera.  ``reread`` reaches
    the tower like the plain tower feed's."""

    def __init__(
        self,
        hub: Hub,
        config: Config,
        seed: int,
        roll_seconds: float = ROLL_SECONDS,
        sim_args: tuple[str, ...] = (),
    ) -> None:
        self.hub = hub
        self.config = config
        self.seed = seed
        self.roll_seconds = roll_seconds
        self.sim_args = ("--seed", str(seed), "--dice", DICE, *sim_args)
        self.virtual = config.dice_tower.port in VIRTUAL_PORTS
        self.tray = Tray(seed)
        self.stats = TrayStats()
        self.tower: TowerFeed | None = None
        self.shown: Dice | None = None  # the last throw as it lay (virtual tower)
        self.connected = asyncio.Event()
        self.decided = asyncio.Event()  # the hub took the last throw or asked the table
        self.pressed = asyncio.Event()  # "next": throw now
        hub.output_watchers.append(self._heard)

    def say(self, line: str) -> None:
        self.hub.transcript(line)

    async def __call__(self, post: Callable[[Observation], None]) -> None:
        self.stats.started = time.monotonic()
        config, sim = self.config, None
        if self.virtual:
            try:
                sim = await _start_sim(self.sim_args)
            except (OSError, RuntimeError) as err:
                self.say(f"[table] the virtual dice tower did not start: {err}")
                return
            tower = replace(config.dice_tower, port=sim.path)
            config = replace(config, dice_tower=tower)
            self.say(f"[table] virtual dice tower (SIMULATED) on {sim.path}, dice {DICE}")
        else:
            self.say(
                f"[table] the dice tower on {config.dice_tower.port}; the simulated camera "
                "shows the dice it reports (so it cannot catch the tower's misreads)"
            )
        self.tower = TowerFeed(config, self.say)
        tasks = [asyncio.ensure_future(self.tower(self._posting(post)))]
        if sim is not None:
            tasks += [asyncio.ensure_future(c) for c in (self._watch(sim), self._throw(sim))]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.tower = None
            if sim is not None:
                await asyncio.to_thread(sim.close)
                self.say(self.stats.line())

    def reread(self) -> None:
        if self.tower is not None:
            self.tower.reread()

    def next_pressed(self) -> None:
        self.say("[table] next pressed: the player throws")
        self.pressed.set()

    # --- the tower's events and the player ------------------------------------------------
    def _posting(self, post: Callable[[Observation], None]) -> Callable[[Observation], None]:
        if self.virtual:
            return post

        def show_and_post(event: Observation) -> None:
            if isinstance(event, DiceEvent) and event.source == "tower":
                dice = [(d.value, d.colour) for d in event.dice if d.value and d.status == "stable"]
                task = asyncio.ensure_future(asyncio.to_thread(self._show, dice))
                task.add_done_callback(lambda _: post(event))  # the camera's frame first
            else:
                post(event)

        return show_and_post

    def _show(self, dice: Dice) -> None:
        try:
            self.tray.show(dice)
        except (ValueError, KeyError) as err:  # a colour the renderer does not know
            self.say(f"[table] cannot show {words(dice)} on the simulated camera: {err}")

    async def _watch(self, sim: SimProcess) -> None:
        """Follow the virtual tower's event lines: the tray empties while the dice tumble
        and shows them as they settled."""
        while True:
            line = await asyncio.to_thread(_next_line, sim, LINE_POLL)
            if line is None:
                continue
            if line.startswith("connected"):
                self.connected.set()
            elif line.startswith("throw "):
                self.tray.clear()
            elif line.startswith("shown "):
                throw_id, dice = parse_shown(line)
                self.shown = dice
                self.say(f"[table] throw {throw_id}: the dice show {words(dice)}")
                await asyncio.to_thread(self.tray.show, dice)

    async def _throw(self, sim: SimProcess) -> None:
        await self.connected.wait()
        while True:
            if self.roll_seconds > 0:
                await _first(self.pressed, self.roll_seconds)
            else:
                await self.pressed.wait()
            self.pressed.clear()
            self.decided.clear()
            self.shown = None
            sim.control("roll")
            self.stats.rolls += 1
            await _first(self.decided, DECIDE_TIMEOUT, self.pressed)

    def _heard(self, out: Output) -> None:
        if isinstance(out, AskTable):
            self.stats.asked += 1
            self.decided.set()
        elif isinstance(out, Show) and "dice" in out.data:
            self.stats.accepted += 1
            if self.shown is not None and same_dice(self.shown, out.data["dice"]):
                self.stats.as_shown += 1
            elif self.virtual:
                self.say("[table] the hub accepted dice other than those in the tray!")
            self.decided.set()


@dataclass
class TraySimulation:
    """What ``serve`` installs on the hub (``RunOptions.simulation``); ``tower_state`` is
    the dice tower's line on the status page."""

    config: Config
    seed: int

    @property
    def tower_state(self) -> DeviceState:
        port = self.config.dice_tower.port
        if port in VIRTUAL_PORTS:
            return DeviceState("SIMULATED", "virtual tower (tablehub dice tower-sim)")
        return DeviceState("ok", port)

    def __call__(self, hub: Hub, hands: PanelHands | None) -> None:
        options = hub.referee.setup.options
        roll_seconds = _number(options, "roll_seconds", ROLL_SECONDS, 3600.0)
        sim_args: tuple[str, ...] = ()
        for option, flag in (("tower_misread", "--misread"), ("tower_cocked", "--cocked")):
            if option in options:
                sim_args += (flag, str(_number(options, option, 0.0, 1.0)))
        tray = SimulatedTray(hub, self.config, self.seed, roll_seconds, sim_args)
        # the tray's feed runs the tower: not the plain feed too (dice_tower.port = "sim")
        hub.devices.feeds[:] = [f for f in hub.devices.feeds if not isinstance(f, TowerFeed)]
        hub.devices.feeds.append(tray)
        hub.devices.camera = SimulatedCamera(640, 480, tray.tray.frame)
        hub.devices.reader = DiceFrameReader(tray.tray.camera)
        hub.transcript("[hub] camera: simulated, 640x480 over the dice tray; pips counted")
        panel = hub.devices.panel
        if panel is not None:
            inner = panel.on_event

            def on_event(event: PanelEvent) -> None:
                if event.action == "next" and tray.virtual:
                    tray.next_pressed()
                if inner is not None:
                    inner(event)

            panel.on_event = on_event


def simulation(config: Config, seed: int, transcript: Callable[[str], None]) -> TraySimulation:
    """``tablehub run --simulated --game dice-tray``: the virtual tower, the tray camera."""
    return TraySimulation(config, seed)


def _number(options: dict[str, object], key: str, default: float, most: float) -> float:
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
        raise ValueError(f"option {key} must be a number from 0 to {most:g}, not {value!r}")
    return float(value)


async def _start_sim(args: tuple[str, ...]) -> SimProcess:
    """Start the tower process off the loop; if the hub stops meanwhile, stop it again."""
    start = asyncio.ensure_future(asyncio.to_thread(SimProcess, args))
    try:
        return await asyncio.shield(start)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            (await start).close()
        raise


def _next_line(sim: SimProcess, timeout: float) -> str | None:
    try:
        return sim.lines.get(timeout=timeout)
    except queue.Empty:
        return None


async def _first(event: asyncio.Event, timeout: float, other: asyncio.Event | None = None) -> None:
    """Until ``event`` (or ``other``) is set, or ``timeout`` seconds."""
    waits = [asyncio.ensure_future(e.wait()) for e in (event, other) if e is not None]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
