"""The dice tower as the hub sees it: the ``DiceTower`` interface and its pyserial link.

A referee gets throws with ``tower.next_throw(timeout)`` -> ``DiceEvent`` (or None), one per
reading, each delivered once.  The link runs in its own thread: it finds the port (the udev
name, else a USB VID:PID it knows), waits for the handshake (opening the port may reboot
the board), checks the protocol version, acknowledges results, measures the round trip,
and reconnects by itself after an unplug.  It never pretends: a simulated tower says so in
every status line, and no real-tower setting ever falls back to a simulated one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from tablehub.devices import dice_tower_wire as wire
from tablehub.devices.usb_ids import DICE_TOWER_UDEV_NAME, DICE_TOWER_USB_IDS
from tablehub.observations import DiceEvent, DieReading

if TYPE_CHECKING:
    from tablehub.config import Config
    from tablehub.devices.health import Check

log = logging.getLogger(__name__)

# (vendor, product): the reference tower (OpenMV Cam H7 Plus, pid.codes 1209:abd1) and a
# Raspberry Pi Pico running MicroPython (2e8a:0005); shared with the udev rule (usb_ids).
UDEV_NAME = DICE_TOWER_UDEV_NAME
TOWER_USB_IDS: tuple[tuple[int, int], ...] = DICE_TOWER_USB_IDS
DEFAULT_BAUD = 115200

HANDSHAKE_TIMEOUT = 5.0  # opening may reboot the board: wait this long for HELLO
HELLO_REPEAT = 0.5
HEARTBEAT_TIMEOUT = 3.0  # silence this long: the tower is lost, reconnect
PING_INTERVAL = 2.0
RETRY_INTERVAL = 0.2  # looking for the port again
INCOMPATIBLE_RETRY = 10.0
COMMAND_TIMEOUT = 0.5
COMMAND_TRIES = 3

_HOST_VERSIONS = wire.encode_versions(wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)

TowerState = Literal["searching", "connecting", "connected", "incompatible", "closed"]


class TowerError(Exception):
    """The tower cannot be used as configured (message says why and what to do)."""


@dataclass(frozen=True)
class TowerInfo:
    firmware: str
    protocol: tuple[int, int]
    boot_id: int
    max_dice: int
    colours: tuple[str, ...]
    capabilities: tuple[str, ...]
    simulated: bool


@dataclass
class TowerCounters:
    frames_ok: int = 0
    frames_invalid: int = 0
    bytes_invalid: int = 0
    duplicates: int = 0  # the same frame twice (same seq)
    frames_lost: int = 0  # gaps in the tower's sequence numbers
    retransmits: int = 0  # readings received again (tower retransmissions and replays)
    command_retransmits: int = 0
    results_delivered: int = 0
    impossible_readings: int = 0
    throws_missed: int = 0
    connects: int = 0
    rtt_ms: float | None = None  # the last round trip (PING -> PONG)
    rtt_ms_max: float | None = None


@dataclass(frozen=True)
class TowerStatus:
    state: TowerState
    port: str
    simulated: bool
    info: TowerInfo | None
    counters: TowerCounters
    message: str = ""
    last_heard: float | None = None  # seconds since the last valid frame

    def line(self) -> str:
        """One line for `tablehub doctor` and status output; says SIMULATED when it is."""
        c = self.counters
        prefix = "SIMULATED dice tower" if self.simulated else "dice tower"
        text = f"{prefix} {self.state} on {self.port}"
        if self.info is not None:
            major, minor = self.info.protocol
            text += f" (firmware {self.info.firmware}, protocol {major}.{minor})"
        rtt = f"{c.rtt_ms:.1f} ms" if c.rtt_ms is not None else "n/a"
        text += (
            f"; bytes invalid {c.bytes_invalid}, retransmits {c.retransmits}"
            f" (+{c.command_retransmits} commands), round trip {rtt}"
        )
        if self.message:
            text += f"; {self.message}"
        return text


class DiceTower(ABC):
    """What a referee needs from a dice tower."""

    @abstractmethod
    def next_throw(self, timeout: float | None = None) -> DiceEvent | None:
        """The next reading of a throw (each delivered once), or None after ``timeout``."""

    @abstractmethod
    def reread(self) -> bool:
        """Ask the tower to read the dice in its tray again (a new reading follows)."""

    @abstractmethod
    def set_lights(self, on: bool, rgb: tuple[int, int, int] = (255, 255, 255)) -> bool: ...

    @abstractmethod
    def identify(self, seconds: int = 3) -> bool:
        """Blink the tower's lights so a person can see which one this is."""

    @abstractmethod
    def status(self) -> TowerStatus: ...

    @abstractmethod
    def close(self) -> None: ...


def find_tower_port(
    comports: Callable[[], Iterable[Any]] | None = None, udev_name: str = UDEV_NAME
) -> str | None:
    """The udev name if present, else the first serial port with a tower's USB VID:PID."""
    if os.path.exists(udev_name):
        return udev_name
    if comports is None:
        from serial.tools import list_ports

        comports = list_ports.comports
    for port in comports():
        if (getattr(port, "vid", None), getattr(port, "pid", None)) in TOWER_USB_IDS:
            return str(port.device)
    return None


def describe_search() -> str:
    ids = ", ".join(f"{v:04x}:{p:04x}" for v, p in TOWER_USB_IDS)
    return f"no dice tower found (looked for {UDEV_NAME} and USB {ids})"


@dataclass
class _Command:
    msg_type: int
    payload: bytes
    done: threading.Event = field(default_factory=threading.Event)
    status: int | None = None


class SerialDiceTower(DiceTower):
    """The pyserial link.  ``port``: a device path or pyserial URL, or "auto"."""

    def __init__(
        self,
        port: str = "auto",
        baud: int = DEFAULT_BAUD,
        *,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        comports: Callable[[], Iterable[Any]] | None = None,
        start: bool = True,
    ) -> None:
        self.port = port
        self.baud = baud
        self.handshake_timeout = handshake_timeout
        self.heartbeat_timeout = heartbeat_timeout
        self._comports = comports
        self._events: queue.Queue[DiceEvent] = queue.Queue()
        self._commands: queue.Queue[_Command] = queue.Queue()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._state: TowerState = "searching"
        self._message = ""
        self._info: TowerInfo | None = None
        self._counters = TowerCounters()
        self._current_port = port
        self._last_heard: float | None = None
        self._delivered: deque[tuple[int, int, int]] = deque(maxlen=256)
        self._last_throw: dict[int, int] = {}
        self._incompatible_logged = ""
        self._thread = threading.Thread(target=self._run, name="dice-tower", daemon=True)
        self.roll_listener: Callable[[str, int], None] | None = None  # ("throw"|"settled", id)
        if start:
            self._thread.start()

    # --- the interface -------------------------------------------------------------------

    def next_throw(self, timeout: float | None = None) -> DiceEvent | None:
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def reread(self) -> bool:
        return self._command(wire.REREAD, b"")

    def set_lights(self, on: bool, rgb: tuple[int, int, int] = (255, 255, 255)) -> bool:
        mode = wire.LIGHT_ON if on else wire.LIGHT_OFF
        return self._command(wire.LIGHTS, wire.encode_lights(mode, *rgb))

    def identify(self, seconds: int = 3) -> bool:
        return self._command(wire.IDENTIFY, bytes((max(1, min(seconds, 60)),)))

    def status(self) -> TowerStatus:
        with self._lock:
            heard = None if self._last_heard is None else time.monotonic() - self._last_heard
            return TowerStatus(
                state=self._state,
                port=self._current_port,
                simulated=bool(self._info and self._info.simulated),
                info=self._info,
                counters=replace(self._counters),
                message=self._message,
                last_heard=heard,
            )

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self._lock:
            self._state = "closed"

    def _command(self, msg_type: int, payload: bytes) -> bool:
        if not self._connected.is_set():
            return False
        command = _Command(msg_type, payload)
        self._commands.put(command)
        command.done.wait(COMMAND_TIMEOUT * (COMMAND_TRIES + 1))
        return command.status == wire.ACK_OK

    # --- the link thread -----------------------------------------------------------------

    def _set(self, state: TowerState, message: str = "") -> None:
        with self._lock:
            self._state = state
            self._message = message

    def _run(self) -> None:
        import serial

        while not self._stop.is_set():
            path = self._resolve()
            if path is None:
                self._set("searching", describe_search())
                self._stop.wait(RETRY_INTERVAL)
                continue
            try:
                link = serial.serial_for_url(path, baudrate=self.baud, timeout=0.02)
            except (serial.SerialException, OSError, ValueError) as err:
                self._set("searching", f"cannot open {path}: {err}")
                self._stop.wait(RETRY_INTERVAL)
                continue
            with self._lock:
                self._current_port = path
            wait = RETRY_INTERVAL
            try:
                wait = self._session(link)
            except (serial.SerialException, OSError) as err:
                log.info("dice tower on %s went away: %s", path, err)
                self._set("searching", f"lost the tower on {path}: {err}")
            finally:
                self._connected.clear()
                with contextlib.suppress(Exception):
                    link.close()
            self._stop.wait(wait)

    def _resolve(self) -> str | None:
        if self.port != "auto":
            if "://" in self.port or os.path.exists(self.port):
                return self.port
            return None
        return find_tower_port(self._comports)

    def _session(self, link: Any) -> float:
        """One connection: handshake, then serve until lost; returns the wait before retry."""
        self._set("connecting", "waiting for the tower's handshake")
        decoder = wire.FrameDecoder()
        host_seq = 0
        started = time.monotonic()
        next_hello = started
        hello: wire.Hello | None = None
        greeted: int | None = None
        last_seq: int | None = None
        pending: dict[int, tuple[_Command, float, int, bytes]] = {}
        next_ping = 0.0
        pings: dict[int, float] = {}
        ping_token = 0

        def send(msg_type: int, payload: bytes = b"") -> int:
            nonlocal host_seq
            seq = host_seq
            host_seq = (host_seq + 1) & 0xFF
            link.write(wire.encode_frame(msg_type, seq, payload))
            return seq

        while not self._stop.is_set():
            now = time.monotonic()
            if hello is None:
                if now - started > self.handshake_timeout:
                    self._set(
                        "connecting",
                        f"no handshake from {link.port} within "
                        f"{self.handshake_timeout:.0f} s; retrying",
                    )
                    return RETRY_INTERVAL
                if now >= next_hello:
                    send(
                        wire.HOST_HELLO,
                        wire.encode_versions(wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR),
                    )
                    next_hello = now + HELLO_REPEAT
            else:
                if self._last_heard is not None and now - self._last_heard > self.heartbeat_timeout:
                    self._set(
                        "searching",
                        f"the tower stopped answering for "
                        f"{self.heartbeat_timeout:.0f} s; reconnecting",
                    )
                    log.warning(
                        "dice tower silent for %.1f s; reconnecting", now - self._last_heard
                    )
                    return RETRY_INTERVAL
                if now >= next_ping:
                    ping_token = (ping_token + 1) & 0xFFFFFFFF
                    pings[ping_token] = now
                    send(wire.PING, ping_token.to_bytes(4, "big"))
                    next_ping = now + PING_INTERVAL
                self._pump_commands(send, link, pending, now)
            data = link.read(max(1, link.in_waiting))
            if not data:
                continue
            before = (decoder.bytes_invalid, decoder.frames_invalid)
            frames = decoder.feed(data)
            with self._lock:
                self._counters.bytes_invalid += decoder.bytes_invalid - before[0]
                self._counters.frames_invalid += decoder.frames_invalid - before[1]
            for frame in frames:
                with self._lock:
                    self._counters.frames_ok += 1
                    self._last_heard = time.monotonic()
                if last_seq is not None and frame.seq == last_seq:
                    with self._lock:
                        self._counters.duplicates += 1
                    continue
                if last_seq is not None and frame.seq != (last_seq + 1) & 0xFF:
                    with self._lock:
                        self._counters.frames_lost += (frame.seq - last_seq - 1) & 0xFF
                last_seq = frame.seq
                if frame.msg_type == wire.HELLO:
                    result = self._on_hello(frame, link)
                    if result is not None:
                        return result
                    hello = self._hello
                    if hello is not None and hello.boot_id != greeted:
                        # a boot announcement (or our answer, we cannot tell): greet this
                        # boot once, so the tower starts sending results to us
                        greeted = hello.boot_id
                        send(wire.HOST_HELLO, _HOST_VERSIONS)
                    continue
                if hello is None:
                    continue  # nothing counts before the handshake
                if frame.msg_type == wire.RESULT:
                    self._on_result(frame, hello, send)
                elif frame.msg_type == wire.ACK:
                    self._on_ack(frame, pending)
                elif frame.msg_type == wire.PONG:
                    self._on_pong(frame, pings)
                elif frame.msg_type in (wire.THROW, wire.SETTLED):
                    self._on_roll_event(frame)
                elif frame.msg_type == wire.ERROR:
                    with contextlib.suppress(wire.WireError):
                        code, text = wire.decode_error(frame.payload)
                        log.warning("dice tower error %d: %s", code, text)
        return 0.0

    _hello: wire.Hello | None = None

    def _on_hello(self, frame: wire.Frame, link: Any) -> float | None:
        """Check the tower; returns a retry wait if it must be refused."""
        try:
            hello = wire.Hello.decode(frame.payload)
        except wire.WireError as err:
            with self._lock:
                self._counters.impossible_readings += 1
            log.warning("dice tower sent a bad HELLO: %s", err)
            return None
        if hello.major != wire.PROTOCOL_MAJOR:
            message = (
                f"the dice tower on {link.port} speaks protocol {hello.major}.{hello.minor}, "
                f"this hub speaks {wire.PROTOCOL_MAJOR}.x: update tablehub or flash matching "
                f"tower firmware (firmware/deploy.sh)"
            )
            if self._incompatible_logged != message:
                log.error("%s", message)
                self._incompatible_logged = message
            self._set("incompatible", message)
            return INCOMPATIBLE_RETRY
        previous = self._hello
        self._hello = hello
        caps = [
            name
            for bit, name in (
                (wire.CAP_CAMERA, "camera"),
                (wire.CAP_LIGHTS, "lights"),
                (wire.CAP_BEAM, "break-beam"),
                (wire.CAP_SIMULATED, "simulated"),
            )
            if hello.caps & bit
        ]
        info = TowerInfo(
            firmware=hello.firmware,
            protocol=(hello.major, hello.minor),
            boot_id=hello.boot_id,
            max_dice=hello.max_dice,
            colours=tuple(hello.colours),
            capabilities=tuple(caps),
            simulated=bool(hello.caps & wire.CAP_SIMULATED),
        )
        with self._lock:
            self._info = info
            self._state = "connected"
            self._message = ""
            if (
                previous is None
                or previous.boot_id != hello.boot_id
                or not self._connected.is_set()
            ):
                self._counters.connects += 1
        if not self._connected.is_set():
            log.info("dice tower connected on %s: %s", link.port, hello.firmware)
        self._connected.set()
        return None

    def _on_result(self, frame: wire.Frame, hello: wire.Hello, send: Callable[..., int]) -> None:
        try:
            result = wire.Result.decode(frame.payload, len(hello.colours), hello.max_dice)
        except wire.WireError as err:
            # A checksummed frame with an impossible reading: a firmware fault.  Never
            # deliver it; acknowledge what we can so it is not resent, and ask to re-read.
            with self._lock:
                self._counters.impossible_readings += 1
            log.warning("dice tower sent an impossible reading (%s); asking for a re-read", err)
            if len(frame.payload) >= 3:
                throw_id = (frame.payload[0] << 8) | frame.payload[1]
                send(wire.RESULT_ACK, wire.encode_result_ack(throw_id, frame.payload[2]))
                self._commands.put(_Command(wire.REREAD, b""))
            return
        send(wire.RESULT_ACK, wire.encode_result_ack(result.throw_id, result.read))
        key = (hello.boot_id, result.throw_id, result.read)
        if key in self._delivered or result.flags & wire.FLAG_ACKED:
            with self._lock:
                self._counters.retransmits += 1
            self._delivered.append(key)
            return
        self._delivered.append(key)
        last = self._last_throw.get(hello.boot_id)
        if last is not None and result.read == 1:
            gap = (result.throw_id - last - 1) & 0xFFFF
            if 0 < gap < 0x8000:
                with self._lock:
                    self._counters.throws_missed += gap
        if result.read == 1:
            self._last_throw[hello.boot_id] = result.throw_id
        dice = tuple(
            DieReading(
                value=d.value if d.status == wire.STATUS_STABLE else None,
                colour=hello.colours[d.colour],
                status=_STATUS[d.status],
            )
            for d in result.dice
        )
        event = DiceEvent(
            source="tower",
            dice=dice,
            throw_id=f"{hello.boot_id:04x}-{result.throw_id}",
            read=result.read,
            age_ms=result.age_ms,
        )
        with self._lock:
            self._counters.results_delivered += 1
        self._events.put(event)

    def _on_ack(
        self, frame: wire.Frame, pending: dict[int, tuple[_Command, float, int, bytes]]
    ) -> None:
        with contextlib.suppress(wire.WireError):
            seq, status = wire.decode_ack(frame.payload)
            entry = pending.pop(seq, None)
            if entry is not None:
                entry[0].status = status
                entry[0].done.set()

    def _on_pong(self, frame: wire.Frame, pings: dict[int, float]) -> None:
        if len(frame.payload) != 4:
            return
        sent = pings.pop(int.from_bytes(frame.payload, "big"), None)
        if sent is None:
            return
        rtt = (time.monotonic() - sent) * 1000
        with self._lock:
            self._counters.rtt_ms = rtt
            top = self._counters.rtt_ms_max
            self._counters.rtt_ms_max = rtt if top is None else max(top, rtt)

    def _on_roll_event(self, frame: wire.Frame) -> None:
        try:
            throw_id = (
                wire.decode_u16(frame.payload)
                if frame.msg_type == wire.THROW
                else wire.decode_settled(frame.payload)[0]
            )
        except wire.WireError:
            return
        listener = self.roll_listener
        if listener is not None:
            listener("throw" if frame.msg_type == wire.THROW else "settled", throw_id)

    def _pump_commands(
        self,
        send: Callable[..., int],
        link: Any,
        pending: dict[int, tuple[_Command, float, int, bytes]],
        now: float,
    ) -> None:
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                break
            seq = send(command.msg_type, command.payload)
            pending[seq] = (command, now + COMMAND_TIMEOUT, 1, command.payload)
        for seq, (command, due, tries, payload) in list(pending.items()):
            if now < due:
                continue
            if tries >= COMMAND_TRIES:
                pending.pop(seq)
                command.done.set()
                continue
            link.write(wire.encode_frame(command.msg_type, seq, payload))  # same seq: once
            pending[seq] = (command, now + COMMAND_TIMEOUT, tries + 1, payload)
            with self._lock:
                self._counters.command_retransmits += 1


_STATUS: dict[int, Any] = {
    wire.STATUS_STABLE: "stable",
    wire.STATUS_COCKED: "cocked",
    wire.STATUS_UNREADABLE: "unreadable",
}


class SpawnedSimTower(SerialDiceTower):
    """A virtual tower started as its own process (``tablehub dice tower-sim``) and read
    through the very same serial link; the tower itself tells the hub it is simulated."""

    def __init__(
        self, baud: int = DEFAULT_BAUD, sim_args: tuple[str, ...] = (), **link: Any
    ) -> None:
        from tablehub.devices.dice_tower_sim import SimProcess

        self.sim = SimProcess(sim_args)
        super().__init__(self.sim.path, baud, **link)

    def close(self) -> None:
        super().close()
        self.sim.close()


def open_tower(port: str = "auto", baud: int = DEFAULT_BAUD) -> DiceTower:
    """The tower the configuration names: "auto" (udev name or USB id), a path or pyserial
    URL, or "sim" (a virtual tower, said on every status line).  Never a silent fallback."""
    if port == "sim":
        return SpawnedSimTower(baud)
    if not port:
        raise TowerError('dice_tower.port is empty: use "auto", a device path, or "sim"')
    return SerialDiceTower(port, baud)


# --- the service and `tablehub doctor` -----------------------------------------------------


def doctor_checks(config: Config, simulated: bool) -> list[Check]:
    """The tower's handshake, versions and link counters; a virtual tower when simulated
    (and then SIMULATED is said on the line)."""
    from tablehub.devices.health import Check

    port = "sim" if simulated else config.dice_tower.port
    if port.startswith("/") and not os.path.exists(port):
        return [
            Check(
                "dice tower",
                False,
                f"dice tower: {port} does not exist",
                "plug the tower in; check the udev rule systemd/99-tablehub-dice.rules "
                'or set dice_tower.port = "auto"',
            )
        ]
    try:
        tower = open_tower(port, config.dice_tower.baud)
    except (TowerError, OSError) as err:
        return [Check("dice tower", False, str(err), "check dice_tower.port in the config")]
    try:
        connected = isinstance(tower, SerialDiceTower) and tower.wait_connected(
            HANDSHAKE_TIMEOUT + 1
        )
        if connected:
            tower.identify(1)  # a command round trip, and the RTT from a PING
            deadline = time.monotonic() + PING_INTERVAL + 1
            while tower.status().counters.rtt_ms is None and time.monotonic() < deadline:
                time.sleep(0.05)
        status = tower.status()
    finally:
        tower.close()
    if not connected:
        fix = {
            "incompatible": "flash matching firmware (firmware/deploy.sh) or update tablehub",
            "searching": "plug the tower in; check 'ls -l /dev/tablehub-dice' and the udev "
            "rule systemd/99-tablehub-dice.rules; the service user needs the dialout group",
        }.get(status.state, "power-cycle the tower; check the USB cable (data, not charge-only)")
        return [Check("dice tower", False, status.line(), fix)]
    return [Check("dice tower", True, status.line())]


class TowerFeed:
    """The service's dice source: every throw the tower reads goes on the hub's queue, and
    into the roll log for `tablehub dice stats`.  The hub calls ``reread`` when a referee
    asks the dice to be read again (a tower/camera disagreement)."""

    def __init__(self, config: Config, transcript: Callable[[str], None]) -> None:
        self.config = config
        self.transcript = transcript
        self.tower: DiceTower | None = None

    async def __call__(self, post: Callable[[Any], None]) -> None:
        import asyncio

        from tablehub.devices.dice_tower_rolls import RollLog

        port = self.config.dice_tower.port
        tower = await asyncio.to_thread(open_tower, port, self.config.dice_tower.baud)
        self.tower = tower
        rolls = RollLog(RollLog.default_path(self.config.data_dir))
        if tower.status().simulated or port == "sim":
            self.transcript("dice tower: SIMULATED")
        try:
            while True:
                event = await asyncio.to_thread(tower.next_throw, 0.5)
                if event is not None:
                    rolls.record(event)
                    post(event)
        finally:
            self.tower = None
            rolls.close()
            await asyncio.to_thread(tower.close)

    def device_state(self) -> tuple[str, str]:
        """(state, detail) for the status page, as the link is now (it reconnects by
        itself, so what it was at start-up goes stale): the state is "SIMULATED" or "ok"
        while connected, else "failed"; the detail is the status line with its counters."""
        tower = self.tower
        if tower is None:
            return "failed", f"dice tower not open yet on {self.config.dice_tower.port}"
        status = tower.status()
        if status.state != "connected":
            return "failed", status.line()
        simulated = status.simulated or self.config.dice_tower.port == "sim"
        return ("SIMULATED" if simulated else "ok"), status.line()

    def reread(self) -> None:
        """Ask the tower to read the tray again (its answer comes as a new result); the
        command waits for the tower's acknowledgement, so off the event loop."""
        tower = self.tower
        if tower is not None:
            threading.Thread(target=tower.reread, name="tower-reread", daemon=True).start()


def make_feed(
    config: Config, simulated: bool, transcript: Callable[[str], None]
) -> TowerFeed | None:
    """The tower feed for the service (None: simulated runs get a virtual tower only when
    the config asks for one, ``dice_tower.port = "sim"``)."""
    if simulated and config.dice_tower.port != "sim":
        return None
    return TowerFeed(config, transcript)
