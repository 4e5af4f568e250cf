"""The host link against the virtual tower process, one test per fault switch.

Every test waits on events (the sim's event lines, the link's queue), never on sleeps.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tablehub.devices.dice_tower import SerialDiceTower, SpawnedSimTower, find_tower_port
from tablehub.observations import DiceEvent

FAST = {"handshake_timeout": 2.0, "heartbeat_timeout": 1.6}


def parse_result(line: str) -> list[tuple[int | None, str, str]]:
    """``result 3 6:green,cocked:purple`` -> [(6, "green", "stable"), (None, ...)]."""
    out: list[tuple[int | None, str, str]] = []
    for item in line.split()[2].split(","):
        value, colour = item.split(":")
        if value.isdigit():
            out.append((int(value), colour, "stable"))
        else:
            out.append((None, colour, value))
    return out


def as_tuples(event: DiceEvent) -> list[tuple[int | None, str, str]]:
    return [(d.value, d.colour, d.status) for d in event.dice]


@pytest.fixture
def tower(request: pytest.FixtureRequest) -> Iterator[SpawnedSimTower]:
    args = getattr(request, "param", ())
    t = SpawnedSimTower(sim_args=("--seed", "5", *args), **FAST)
    try:
        yield t
    finally:
        t.close()


def roll_and_get(tower: SpawnedSimTower, timeout: float = 10.0) -> tuple[DiceEvent, str]:
    assert tower.wait_connected(timeout)
    tower.sim.control("roll")
    line = tower.sim.wait_for("result", timeout)
    event = tower.next_throw(timeout)
    assert event is not None, tower.status().line()
    return event, line


def test_a_throw_arrives_exactly_once_and_says_simulated(tower: SpawnedSimTower) -> None:
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    assert event.source == "tower" and event.read == 1 and event.age_ms is not None
    assert tower.next_throw(timeout=0.6) is None  # retransmissions are not new throws
    status = tower.status()
    assert status.simulated and status.line().startswith("SIMULATED dice tower connected")
    assert status.counters.rtt_ms is not None


def test_cocked_dice_are_reported_cocked() -> None:
    tower = SpawnedSimTower(sim_args=("--seed", "2", "--cocked", "1.0", "--dice", "3red"), **FAST)
    try:
        event, _ = roll_and_get(tower)
        assert [(d.value, d.status) for d in event.dice] == [(None, "cocked")] * 3
    finally:
        tower.close()


@pytest.mark.parametrize("tower", [("--corrupt", "0.5")], indirect=True)
def test_corrupt_checksums_are_dropped_and_the_result_still_arrives(
    tower: SpawnedSimTower,
) -> None:
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    counters = tower.status().counters
    assert counters.frames_invalid > 0 and counters.bytes_invalid > 0


@pytest.mark.parametrize("tower", [("--garbage", "0.6")], indirect=True)
def test_garbage_bytes_are_skipped(tower: SpawnedSimTower) -> None:
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    assert tower.status().counters.bytes_invalid > 0


@pytest.mark.parametrize("tower", [("--duplicate", "1.0")], indirect=True)
def test_duplicated_frames_deliver_once(tower: SpawnedSimTower) -> None:
    roll_and_get(tower)
    assert tower.next_throw(timeout=0.6) is None
    assert tower.status().counters.duplicates > 0


@pytest.mark.parametrize("tower", [("--misread", "1.0")], indirect=True)
def test_misread_dice_arrive_as_read_and_differ_from_the_tray(tower: SpawnedSimTower) -> None:
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)  # the link delivers what the tower says
    shown = parse_result(next(h for h in tower.sim.history if h.startswith("shown")))
    assert [(v % 6 + 1, c, s) for v, c, s in shown if v is not None] == as_tuples(event)


@pytest.mark.parametrize("tower", [("--slow", "0.4")], indirect=True)
def test_slow_answers_are_waited_for(tower: SpawnedSimTower) -> None:
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    rtt = tower.status().counters.rtt_ms
    assert rtt is not None and rtt >= 400


@pytest.mark.parametrize("tower", [("--reboot-on-open",)], indirect=True)
def test_reboot_on_open_waits_for_the_handshake(tower: SpawnedSimTower) -> None:
    tower.sim.wait_for("reboot")
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    assert tower.status().counters.bytes_invalid > 0  # the boot banner


def test_stop_answering_is_noticed_and_recovered(tower: SpawnedSimTower) -> None:
    assert tower.wait_connected(10)
    tower.sim.control("mute")
    tower.sim.wait_for("disconnected", 10)  # the host gave up on the silent tower
    assert tower.status().state in ("searching", "connecting")
    tower.sim.control("unmute")
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)


def test_silence_then_back_replays_the_result_missed_meanwhile(tower: SpawnedSimTower) -> None:
    assert tower.wait_connected(10)
    tower.sim.control("silent 2.5")
    tower.sim.control("roll")
    line = tower.sim.wait_for("result", 10)
    event = tower.next_throw(timeout=10)
    assert event is not None and as_tuples(event) == parse_result(line)
    assert tower.next_throw(timeout=0.5) is None


def test_drop_and_replug_reconnects(tower: SpawnedSimTower) -> None:
    assert tower.wait_connected(10)
    tower.sim.control("drop 1.0")
    tower.sim.wait_for("unplugged", 5)
    tower.sim.wait_for("replugged", 5)
    unplugged = time.monotonic()
    tower.sim.wait_for("connected", 10)
    assert tower.wait_connected(10)
    event, line = roll_and_get(tower)
    assert as_tuples(event) == parse_result(line)
    assert tower.status().counters.connects >= 2
    assert time.monotonic() - unplugged < 30  # sanity only; bench.dice_link measures it


def test_incompatible_protocol_is_refused_with_a_clear_message() -> None:
    t = SpawnedSimTower(sim_args=("--protocol-major", "2"), **FAST)
    try:
        t.sim.wait_for("disconnected", 10)  # the hub refused it and closed the port
        status = t.status()
        assert status.state == "incompatible"
        assert "protocol 2.0" in status.message and "1.x" in status.message
        t.sim.control("roll")
        t.sim.wait_for("throw", 5)
        assert t.next_throw(timeout=0.5) is None
    finally:
        t.close()


def test_commands_reread_identify_lights(tower: SpawnedSimTower) -> None:
    first, _ = roll_and_get(tower)
    assert tower.reread()
    tower.sim.wait_for("reread", 5)
    again = tower.next_throw(timeout=5)
    assert again is not None and again.read == 2 and again.throw_id == first.throw_id
    assert again.dice == first.dice
    assert tower.identify(2)
    assert tower.sim.wait_for("identify", 5) == "identify 2"
    assert tower.set_lights(True, (10, 20, 30))
    assert tower.sim.wait_for("lights", 5) == "lights 1 10 20 30"


def test_port_discovery_by_udev_name_then_usb_id(tmp_path: object) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyS0", None, None), Port("/dev/ttyACM3", 0x1209, 0xABD1)]
    assert find_tower_port(lambda: ports, udev_name="/nonexistent") == "/dev/ttyACM3"
    assert find_tower_port(lambda: ports[:1], udev_name="/nonexistent") is None
    assert find_tower_port(lambda: ports, udev_name="/dev/null") == "/dev/null"


def test_no_tower_is_reported_not_faked() -> None:
    link = SerialDiceTower("auto", comports=lambda: [], **FAST)
    try:
        assert not link.wait_connected(0.5)
        status = link.status()
        assert status.state == "searching" and not status.simulated
        assert "no dice tower found" in status.message
    finally:
        link.close()
