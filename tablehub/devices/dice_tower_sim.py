"""The virtual dice tower: the real protocol (the firmware's own link engine) on a
pseudo-terminal, with fault switches, run as its own process by ``tablehub dice tower-sim``.

The device path it prints is a symlink to the current pty, like the udev name of a real
tower: "unplugging" closes the pty and "replugging" makes a new one behind the same name.
It tells the host it is simulated (HELLO capability bit), so the hub says SIMULATED.

Control: fault switches as options at start, and the same words as lines on stdin at run
time (``roll``, ``mute``, ``unmute``, ``silent 2``, ``corrupt 0.3``, ``drop 1.5``,
``reboot-on-open on``, ``slow 0.8``, ``garbage 0.2``, ``duplicate 0.5``, ``misread 0.5``,
``quit``).  It reports what happens as lines on stdout (``connected``, ``throw 3``,
``settled 3 <t>``, ``shown 3 6:green,2:purple`` - the dice as they really lie, for a
simulated camera over the same tray - ``result 3 6:green,2:purple``...) so tests wait on
events instead of sleeping.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import sys
import tempfile
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from tablehub.devices import dice_tower_engine as engine
from tablehub.devices import dice_tower_wire as wire

SIM_FIRMWARE = "tablehub-tower-sim 1.0.0"
COLOURS = ["white", "green", "purple", "red"]
MAX_DICE = 16
SETTLE_CONFIRM_MS = 300  # like the firmware: still this long before the dice count as settled
TUMBLE_MS = (400, 900)  # dice bounce this long after the throw
BOOT_MS = 1200  # a "reboot on open" keeps the tower quiet this long
BOOT_BANNER = b"\r\nMicroPython v1.22.0-omv OpenMV Cam H7 Plus with STM32H743\r\n>>> \x03\r\n"

# A function that reads a throw: the dice to show -> what the tower reports.
Reader = Callable[[list[tuple[int, str]], random.Random], list[wire.Die]]


@dataclass
class Faults:
    mute: bool = False  # stop answering (until unmuted)
    silent_until: float = 0.0  # monotonic time the silence ends
    corrupt: float = 0.0  # fraction of frames sent with a broken CRC
    drop_for: float = 0.0  # set: unplug for this long, then replug
    reboot_on_open: bool = False
    slow: float = 0.0  # seconds added before every frame goes out
    garbage: float = 0.0  # fraction of frames preceded by random bytes
    duplicate: float = 0.0  # fraction of frames sent twice
    misread: float = 0.0  # fraction of stable dice the tower's own camera reads wrongly


@dataclass
class PendingRoll:
    throw_id: int
    settle_at: float  # monotonic time the dice stop moving


@dataclass
class SimOptions:
    seed: int = 1
    dice: list[str] = field(default_factory=lambda: ["green"] * 7 + ["purple"] * 2)
    auto_roll: float = 0.0  # seconds between automatic throws (0: only on "roll")
    cocked: float = 0.0  # chance a die lands cocked
    link: Path | None = None
    protocol_major: int = wire.PROTOCOL_MAJOR
    faults: Faults = field(default_factory=Faults)
    reader: Reader | None = None  # None: the seeded generator's values as read


def parse_dice(spec: str) -> list[str]:
    """``"7green,2purple"`` -> ["green"]*7 + ["purple"]*2 (ValueError with the reason)."""
    dice: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        digits = ""
        while part[: len(digits) + 1].isdigit():
            digits = part[: len(digits) + 1]
        colour = part[len(digits) :]
        if colour not in COLOURS:
            raise ValueError(f"unknown die colour {colour!r} (known: {', '.join(COLOURS)})")
        dice += [colour] * int(digits or "1")
    if not 1 <= len(dice) <= MAX_DICE:
        raise ValueError(f"a throw has 1 to {MAX_DICE} dice, not {len(dice)}")
    return dice


def parse_shown(line: str) -> tuple[int, list[tuple[int, str]]]:
    """A ``shown`` event line -> (throw id, the dice as they lie), e.g.
    ``shown 3 6:green,2:purple`` -> (3, [(6, "green"), (2, "purple")]); ValueError if not."""
    words = line.split()
    if len(words) != 3 or words[0] != "shown":
        raise ValueError(f"not a shown line: {line!r}")
    dice = []
    for die in words[2].split(","):
        value, _, colour = die.partition(":")
        if not value.isdigit() or not 1 <= int(value) <= 6 or colour not in COLOURS:
            raise ValueError(f"bad die {die!r} in {line!r}")
        dice.append((int(value), colour))
    return int(words[1]), dice


def seeded_reader(
    cocked: float,
) -> Reader:
    def read(shown: list[tuple[int, str]], rng: random.Random) -> list[wire.Die]:
        out = []
        for value, colour in shown:
            index = COLOURS.index(colour)
            if rng.random() < cocked:
                out.append(wire.Die(0, index, wire.STATUS_COCKED))
            else:
                out.append(wire.Die(value, index, wire.STATUS_STABLE))
        return out

    return read


class VirtualTower:
    def __init__(self, options: SimOptions, out: TextIO = sys.stdout) -> None:
        self.options = options
        self.faults = options.faults
        self.out = out
        self.rng = random.Random(options.seed)
        self.fault_rng = random.Random(options.seed + 1)
        self.reader = options.reader or seeded_reader(options.cocked)
        self.master = -1
        self.pty_name = ""
        self.link_path = options.link or Path(tempfile.mkdtemp(prefix="tablehub-dice-")) / "tower"
        self.host_open = False
        self.booting_until = 0.0
        self.queue: list[tuple[float, bytes]] = []  # (due time, bytes) for the wire
        self.pending: PendingRoll | None = None
        self.next_auto = time.monotonic() + options.auto_roll if options.auto_roll else 0.0
        self.running = True
        self.tower = self._new_tower()

    # --- the tower itself ----------------------------------------------------------------

    def _new_tower(self) -> engine.TowerLink:
        caps = wire.CAP_CAMERA | wire.CAP_LIGHTS | wire.CAP_BEAM | wire.CAP_SIMULATED
        link = engine.TowerLink(
            SIM_FIRMWARE,
            COLOURS,
            MAX_DICE,
            caps,
            boot_id=self.rng.getrandbits(16),
            major=self.options.protocol_major,
        )
        link.boot(self._ms())
        return link

    def _reboot(self) -> None:
        """A board reset: new boot id, RAM lost, the last result kept (as if in flash)."""
        old = self.tower
        self.tower = self._new_tower()
        self.tower.take_output()  # its HELLO goes out when the boot is over
        self.tower.last_result = old.last_result
        self.tower.last_settled_ms = old.last_settled_ms
        self.tower.acked = old.acked
        self.tower.last_throw = old.last_throw
        self.pending = None
        self.booting_until = time.monotonic() + BOOT_MS / 1000
        self._say("reboot")

    @staticmethod
    def _ms() -> int:
        return int(time.monotonic() * 1000)

    def _say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    # --- the pseudo-terminal -------------------------------------------------------------

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.pty_name = os.ttyname(slave)
        os.close(slave)  # only the host holds the slave: its opens and closes show as POLLHUP
        self.master = master
        self.host_open = False
        tmp = self.link_path.with_name(self.link_path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(self.pty_name)
        tmp.replace(self.link_path)

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        if self.master >= 0:
            os.close(self.master)
        self.master = -1
        self.host_open = False
        self.queue.clear()
        self._say("unplugged")

    def _check_host(self) -> None:
        poller = select.poll()
        poller.register(self.master, select.POLLIN)
        events = poller.poll(0)
        hung_up = any(ev & select.POLLHUP for _, ev in events)
        if self.host_open and hung_up:
            self.host_open = False
            self.queue.clear()
            self._say("disconnected")
        elif not self.host_open and not hung_up:
            self.host_open = True
            self._say("connected")
            if self.faults.reboot_on_open:
                self._reboot()

    # --- sending, through the fault switches ---------------------------------------------

    def _emit(self, data: bytes, now: float) -> None:
        if not data:
            return
        frames = [b"\x00" + part + b"\x00" for part in data.split(b"\x00") if part]
        for frame in frames:
            if self._muted(now):
                continue
            if self.fault_rng.random() < self.faults.corrupt:
                damaged = bytearray(frame)
                # the last CRC byte; it must stay non-zero (a zero would be a delimiter)
                damaged[-2] = (damaged[-2] ^ 0x5A) or 0xA5
                frame = bytes(damaged)
            if self.fault_rng.random() < self.faults.garbage:
                junk = bytes(
                    self.fault_rng.randrange(256) for _ in range(self.fault_rng.randint(1, 40))
                )
                self.queue.append((now + self.faults.slow, junk))
            self.queue.append((now + self.faults.slow, frame))
            if self.fault_rng.random() < self.faults.duplicate:
                self.queue.append((now + self.faults.slow, frame))

    def _muted(self, now: float) -> bool:
        return self.faults.mute or now < self.faults.silent_until or now < self.booting_until

    def _flush_queue(self, now: float) -> None:
        if not self.host_open:
            self.queue.clear()
            return
        while self.queue and self.queue[0][0] <= now:
            _, data = self.queue.pop(0)
            try:
                os.write(self.master, data)
            except OSError:
                self.queue.clear()
                return

    # --- rolls -------------------------------------------------------------------------

    def roll(self) -> None:
        if self.pending is not None:
            return
        throw_id = (self.tower.last_throw + 1) & 0xFFFF
        tumble = self.rng.randint(*TUMBLE_MS) / 1000
        self.pending = PendingRoll(throw_id, time.monotonic() + tumble)
        self.tower.throw(throw_id)
        self._say(f"throw {throw_id}")

    def _advance_roll(self, now: float) -> None:
        pending = self.pending
        if pending is None or now < pending.settle_at + SETTLE_CONFIRM_MS / 1000:
            return
        self.pending = None
        shown = [(self.rng.randint(1, 6), colour) for colour in self.options.dice]
        dice = [self._misread(d) for d in self.reader(shown, self.rng)]
        settle_ms = int((pending.settle_at - now) * 1000)
        self.tower.settled(pending.throw_id, max(0, settle_ms))
        self.tower.result(pending.throw_id, 1, dice, self._ms(), int(pending.settle_at * 1000))
        self._say(f"settled {pending.throw_id} {pending.settle_at:.6f}")
        self._say(f"shown {pending.throw_id} " + ",".join(f"{v}:{c}" for v, c in shown))
        text = ",".join(
            f"{d.value if d.status == wire.STATUS_STABLE else wire.STATUS_NAMES[d.status]}"
            f":{COLOURS[d.colour]}"
            for d in dice
        )
        self._say(f"result {pending.throw_id} {text}")

    def _misread(self, die: wire.Die) -> wire.Die:
        """The misread fault: a stable die reported with the next value round (the
        checksum is fine - only the hub's cross-check with its own camera can tell)."""
        if die.status != wire.STATUS_STABLE or self.fault_rng.random() >= self.faults.misread:
            return die
        return wire.Die(die.value % 6 + 1, die.colour, die.status)

    def _reread(self) -> None:
        last = self.tower.last_result
        if last is None:
            return
        self.tower.result(last.throw_id, last.read + 1, last.dice, self._ms())
        self._say(f"reread {last.throw_id} {last.read + 1}")

    # --- control -------------------------------------------------------------------------

    def control(self, line: str) -> str | None:
        """Apply one control line; returns an error message or None."""
        words = line.split()
        if not words:
            return None
        word, args = words[0], words[1:]
        f = self.faults
        now = time.monotonic()
        try:
            if word == "roll":
                self.roll()
            elif word == "mute":
                f.mute = True
            elif word == "unmute":
                f.mute = False
            elif word == "silent":
                f.silent_until = now + float(args[0])
            elif word == "corrupt":
                f.corrupt = _fraction(args[0])
            elif word == "drop":
                f.drop_for = float(args[0])
            elif word == "reboot-on-open":
                f.reboot_on_open = args[0] in ("on", "1", "true")
            elif word == "slow":
                f.slow = float(args[0])
            elif word == "garbage":
                f.garbage = _fraction(args[0])
            elif word == "duplicate":
                f.duplicate = _fraction(args[0])
            elif word == "misread":
                f.misread = _fraction(args[0])
            elif word == "quit":
                self.running = False
            else:
                return f"unknown control word {word!r}"
        except (IndexError, ValueError):
            return f"bad control line {line!r}"
        self._say(f"ok {line.strip()}")
        return None

    # --- main loop -----------------------------------------------------------------------

    def step(self, now: float) -> None:
        if self.faults.drop_for:
            seconds, self.faults.drop_for = self.faults.drop_for, 0.0
            self.unplug()
            time.sleep(seconds)  # unplugged: nothing else happens meanwhile
            self.plug()
            self._say(f"replugged {self.pty_name} {time.monotonic():.6f}")
            now = time.monotonic()
        self._check_host()
        if self.host_open and not self._muted(now):
            try:
                data = os.read(self.master, 4096) if self._readable() else b""
            except OSError:
                data = b""
            for command in self.tower.feed(data, self._ms()):
                if command.name == "reread":
                    self._reread()
                elif command.name in ("lights", "identify"):
                    self._say(f"{command.name} {' '.join(str(a) for a in command.args)}")
        elif self.host_open:
            with contextlib.suppress(OSError):
                if self._readable():
                    os.read(self.master, 4096)  # a silent tower hears nothing either
        if self.booting_until and now >= self.booting_until:
            self.booting_until = 0.0
            self.queue.append((now, BOOT_BANNER))
            self.tower.boot(self._ms())
        if self.next_auto and now >= self.next_auto:
            self.roll()
            self.next_auto = now + self.options.auto_roll
        self._advance_roll(now)
        self.tower.poll(self._ms())
        self._emit(self.tower.take_output(), now)
        self._flush_queue(now)

    def _readable(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        return bool(ready)

    def run(self, control: TextIO | None = sys.stdin) -> int:
        self.plug()
        self._say(str(self.link_path))
        control_fd = control.fileno() if control is not None else -1
        buffer = b""
        try:
            while self.running:
                # a pty nobody has open always polls readable (hang-up): leave it out then
                fds = ([self.master] if self.host_open else []) + (
                    [control_fd] if control_fd >= 0 else []
                )
                ready, _, _ = select.select(fds, [], [], 0.005 if self.host_open else 0.02)
                if control_fd in ready:
                    chunk = os.read(control_fd, 4096)
                    if not chunk:
                        control_fd = -1  # stdin closed: keep running on options alone
                    buffer += chunk
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        error = self.control(line.decode(errors="replace"))
                        if error:
                            self._say(f"error {error}")
                self.step(time.monotonic())
        finally:
            self.unplug()
            if self.options.link is None:
                with contextlib.suppress(OSError):
                    self.link_path.parent.rmdir()
        return 0


def _fraction(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise ValueError(text)
    return value


class SimProcess:
    """``tablehub dice tower-sim`` as a child process: its device path, its event lines
    (waited on, never slept for), and its control input."""

    def __init__(self, args: tuple[str, ...] | list[str] = ()) -> None:
        import queue
        import subprocess
        import threading

        command = [sys.executable, "-m", "tablehub", "dice", "tower-sim", *args]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        assert self.process.stdout is not None
        self.path = self.process.stdout.readline().strip()
        if not self.path:
            self.process.kill()
            raise RuntimeError("the virtual dice tower did not start")
        self.lines: queue.Queue[str] = queue.Queue()
        self.history: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, prefix: str, timeout: float = 10.0) -> str:
        """The next event line starting with ``prefix`` (TimeoutError if none comes)."""
        import queue

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise TimeoutError(f"virtual tower never said {prefix!r}") from None
            self.history.append(line)
            if line.startswith(prefix):
                return line

    def control(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.control("quit")
        try:
            self.process.wait(timeout=3)
        except Exception:
            self.process.kill()
            self.process.wait()
