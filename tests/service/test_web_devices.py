"""Live device state on the status page: the dice tower reconnects by itself, so the page
asks it again on a timer instead of showing what it was at start-up."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tablehub.config import parse_config
from tablehub.devices.dice_tower import TowerCounters, TowerFeed, TowerInfo, TowerStatus
from tablehub.referee.base import Setup
from tablehub.referee.get_adler import AdlerReferee
from tablehub.service import runner
from tablehub.service.web.board import DeviceProbe, DeviceState
from tests.service.webkit import running_site

SETUP = Setup("get-adler", ("Ann", "Bob", "Cy", "Dee"), {}, seed=0)


def test_the_page_shows_a_device_change_that_no_record_made(tmp_path: Path) -> None:
    now = [DeviceState("ok", "connected on /dev/tablehub-dice")]
    probes: dict[str, DeviceProbe] = {"tower": lambda: now[0]}

    async def scenario() -> None:
        async with running_site(
            tmp_path, AdlerReferee, SETUP, probes=probes, device_poll=0.02
        ) as site:
            first = (await site.get("/api/status")).json()
            assert first["devices"]["tower"]["state"] == "ok"
            now[0] = DeviceState("failed", "dice tower searching on /dev/tablehub-dice")
            await site.board.wait_change(first["version"], 5.0)
            later = (await site.get("/api/status")).json()
            assert later["devices"]["tower"] == {
                "state": "failed",
                "detail": "dice tower searching on /dev/tablehub-dice",
            }
            assert later["devices"]["panel"] == first["devices"]["panel"]  # start-up state

    asyncio.run(scenario())


def test_a_failing_probe_keeps_the_last_state_and_the_page_up(tmp_path: Path) -> None:
    calls = [0]

    def flaky() -> DeviceState:
        calls[0] += 1
        if calls[0] > 1:
            raise OSError("the serial port went away mid-read")
        return DeviceState("ok", "connected")

    async def scenario() -> None:
        async with running_site(tmp_path, AdlerReferee, SETUP, probes={"tower": flaky}) as site:
            site.board.refresh()
            reply = await site.get("/api/status")
            assert reply.status == 200
            assert reply.json()["devices"]["tower"] == {"state": "ok", "detail": "connected"}
            assert calls[0] >= 2

    asyncio.run(scenario())


class _Tower:
    def __init__(self, status: TowerStatus) -> None:
        self._status = status

    def status(self) -> TowerStatus:
        return self._status


def _status(state: str, simulated: bool) -> TowerStatus:
    info = TowerInfo(
        firmware="1.0.0",
        protocol=(1, 0),
        boot_id=1,
        max_dice=6,
        colours=("white",),
        capabilities=(),
        simulated=simulated,
    )
    return TowerStatus(state, "/dev/pts/7", simulated, info, TowerCounters())  # type: ignore[arg-type]


def test_the_tower_feed_reports_its_link_as_it_is_now(tmp_path: Path) -> None:
    config = parse_config(
        {"dice_tower": {"port": "/dev/tablehub-dice"}},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    feed = TowerFeed(config, print)
    state, detail = feed.device_state()
    assert state == "failed" and "not open yet" in detail
    feed.tower = _Tower(_status("connected", simulated=False))  # type: ignore[assignment]
    state, detail = feed.device_state()
    assert state == "ok" and "bytes invalid 0" in detail
    feed.tower = _Tower(_status("searching", simulated=False))  # type: ignore[assignment]
    assert feed.device_state()[0] == "failed"
    feed.tower = _Tower(_status("connected", simulated=True))  # type: ignore[assignment]
    state, detail = feed.device_state()
    assert state == "SIMULATED" and detail.startswith("SIMULATED dice tower")


def test_the_service_asks_the_tower_feed_for_its_state(tmp_path: Path) -> None:
    config = parse_config(
        {"dice_tower": {"port": "/dev/tablehub-dice"}},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    health: dict[str, DeviceState] = {}
    probes: dict[str, DeviceProbe] = {}
    feeds = runner._feeds(config, False, print, health, probes)
    assert any(isinstance(f, TowerFeed) for f in feeds)
    assert health["tower"].state == "ok"  # at start: configured, not yet opened
    assert probes["tower"]().state == "failed"  # now: not open yet
