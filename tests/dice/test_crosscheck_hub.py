"""End to end: the virtual tower process (the real protocol on a pseudo-terminal) and a
simulated camera over the same tray, read by the real pip counter, through the hub
(journal, dice tray referee, outputs).  The tower's misread and the camera's cocked die
must never reach the rules: the hub re-reads (the tower is sent REREAD, the camera reports
again), then asks the table to roll again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tablehub.config import parse_config
from tablehub.devices.camera import SimulatedCamera
from tablehub.devices.dice_tower import TowerFeed
from tablehub.devices.dice_tower_sim import SimProcess, parse_shown
from tablehub.referee.base import AskTable, Output, Reread, Setup
from tablehub.referee.dice_check import ASK_DISAGREE, ASK_UNREADABLE
from tablehub.referee.dice_tray import DiceTrayReferee
from tablehub.service.app import Devices, Hub
from tablehub.service.dice_tray_sim import Tray
from tablehub.service.journal import Journal
from tablehub.vision.dice_reader import DiceFrameReader


def test_the_hub_passes_on_only_throws_the_tower_and_camera_agree_on(tmp_path: Path) -> None:
    asyncio.run(_scenario(tmp_path))


async def _scenario(tmp_path: Path) -> None:
    sim = SimProcess(("--seed", "4", "--dice", "2green,1purple"))
    config = parse_config(
        {"dice_tower": {"port": sim.path}, "voice": {"engine": "recording"}},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    journal = Journal(tmp_path / "journal.sqlite3")
    referee = DiceTrayReferee(Setup("dice-tray", ("A", "B")))
    session = journal.start_session("dice-tray", referee.setup.to_json())
    tray = Tray(3)
    lines: list[str] = []
    camera = SimulatedCamera(640, 480, tray.frame)
    devices = Devices(camera=camera, reader=DiceFrameReader(tray.camera), fps=20)
    devices.feeds.append(TowerFeed(config, lines.append))
    hub = Hub(journal, referee, session, devices, lines.append)
    outputs: list[Output] = []
    changed = asyncio.Event()
    hub.output_watchers.append(lambda out: outputs.append(out))
    hub.after_handle.append(lambda _: changed.set())

    async def until(done: Callable[[], bool], timeout: float = 30.0) -> None:
        async with asyncio.timeout(timeout):
            while not done():
                await changed.wait()
                changed.clear()

    async def roll(cocked: float = 0.0) -> list[tuple[int, str]]:
        sim.control("roll")
        _, dice = parse_shown(await asyncio.to_thread(sim.wait_for, "shown", 15))
        tray.show(dice, cocked)
        return dice

    def asks() -> list[Output]:
        return [o for o in outputs if isinstance(o, Reread | AskTable)]

    def agreed(dice: list[tuple[int, str]]) -> list[list[object]]:
        return sorted([[v, c] for v, c in dice], key=lambda d: (str(d[1]), int(d[0])))  # type: ignore[call-overload]

    task = asyncio.create_task(hub.run(resumed=False))
    try:
        await asyncio.to_thread(sim.wait_for, "connected", 15)
        # 1. both read the same throw: it is passed on
        first = await roll()
        await until(lambda: len(referee.throws) == 1)
        assert agreed([(v, c) for v, c in referee.throws[0]]) == agreed(first)  # type: ignore[misc]
        assert asks() == []

        # 2. the tower misreads: re-read (the tower is asked), then the table is asked
        sim.control("misread 1")
        await roll()
        await until(lambda: any(isinstance(o, AskTable) for o in outputs))
        assert [type(o) for o in asks()] == [Reread, AskTable]
        assert asks()[-1] == AskTable(ASK_DISAGREE)
        await asyncio.to_thread(sim.wait_for, "reread", 15)  # the tower was asked to re-read
        assert len(referee.throws) == 1

        # 3. rolled again, read alike: passed on
        sim.control("misread 0")
        third = await roll()
        await until(lambda: len(referee.throws) == 2)
        assert agreed([(v, c) for v, c in referee.throws[1]]) == agreed(third)  # type: ignore[misc]

        # 4. the camera sees cocked dice the tower calls flat: not passed on
        await roll(cocked=1.0)
        await until(lambda: len([o for o in asks() if isinstance(o, AskTable)]) == 2)
        assert asks()[2:] == [asks()[2], AskTable(ASK_UNREADABLE)]
        assert isinstance(asks()[2], Reread)
        assert len(referee.throws) == 2
    finally:
        hub.stop()
        await task
        await hub.close()
        await asyncio.to_thread(sim.close)
        journal.close()
    kinds = [e.record["kind"] for e in Journal(tmp_path / "journal.sqlite3").entries(session)]
    assert kinds.count("dice") == 2 and kinds.count("rejected") == 4


def test_the_camera_reports_a_settled_throw_once_and_again_when_asked() -> None:
    from tablehub.vision.dice import DieRead

    shown: list[DieRead] = [DieRead(5, "green", "stable", (10.0, 10.0))]
    reader = DiceFrameReader(counter=lambda frame, camera: list(shown))
    still = np.full((60, 80, 3), 40, np.uint8)
    moved = still.copy()
    moved[:30] = 200
    assert reader(still) == []  # one frame is not settled yet
    [event] = reader(still)
    assert event.kind == "dice" and event.source == "camera" and event.dice[0].value == 5
    assert reader(still) == []  # reported once
    reader.reread(None)
    assert len(reader(still)) == 1  # ...and again when the referee asks
    assert reader(moved) == [] and len(reader(moved)) == 1  # a new throw, the same faces
    shown.clear()
    assert reader(still) == [] and reader(still) == []  # an empty tray is no throw


def test_a_dice_game_gets_the_pip_counter_as_its_camera_reader() -> None:
    from tablehub.config import Config
    from tablehub.service.runner import _vision_reader

    assert isinstance(_vision_reader(Config(), "dice-tray"), DiceFrameReader)
