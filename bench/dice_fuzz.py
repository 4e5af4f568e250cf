"""Protocol fuzz: the real host link (SerialDiceTower, pyserial on a pseudo-terminal)
against the tower's own link engine, with random byte corruption in both directions.

    python -m bench.dice_fuzz [--frames 10000] [--corrupt 0.01] [--seed 1]

Every RESULT the tower sends carries a random throw; the tower throws again on a fixed
cadence whether or not the last reading was acknowledged, so a reading that does not get
through in time is lost (superseded), as at a real table.  Figures: wrong results
delivered (must be 0), results recovered (target >= 99%), frames and bytes rejected.
"""

from __future__ import annotations

import argparse
import os
import random
import select
import threading
import time
import tty

from tablehub.devices import dice_tower_engine as engine
from tablehub.devices import dice_tower_wire as wire
from tablehub.devices.dice_tower import SerialDiceTower

COLOURS = ["white", "green", "purple", "red"]


class CorruptingTower(threading.Thread):
    def __init__(self, master: int, frames: int, corrupt: float, seed: int, cadence_ms: int):
        super().__init__(daemon=True)
        self.master = master
        self.frames = frames
        self.corrupt = corrupt
        self.rng = random.Random(seed)
        self.cadence_ms = cadence_ms
        self.sent: dict[int, list[wire.Die]] = {}
        self.link = engine.TowerLink(
            "fuzz",
            COLOURS,
            12,
            wire.CAP_SIMULATED,
            boot_id=0xF022,
            retx_first_ms=max(2, cadence_ms // 10),
            retx_max_ms=max(3, cadence_ms // 6),
        )
        self.bytes_corrupted = 0
        self.done = threading.Event()

    def damage(self, data: bytes) -> bytes:
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.corrupt:
                out[i] = self.rng.randrange(256)
                self.bytes_corrupted += 1
        return bytes(out)

    def run(self) -> None:
        start = time.monotonic()
        throws = 0
        next_throw = 0.0
        while True:
            now_ms = int((time.monotonic() - start) * 1000)
            ready, _, _ = select.select([self.master], [], [], 0.001)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    data = b""
                self.link.feed(self.damage(data), now_ms)
            if self.link.connected and now_ms >= next_throw:
                if throws >= self.frames:
                    if self.link.acked or now_ms >= next_throw + 1000:
                        break
                else:
                    throws += 1
                    dice = [
                        wire.Die(self.rng.randint(1, 6), self.rng.randrange(4), 0)
                        for _ in range(self.rng.randint(1, 9))
                    ]
                    self.sent[throws] = dice
                    self.link.throw(throws)
                    self.link.result(throws, 1, dice, now_ms)
                    next_throw = now_ms + self.cadence_ms
            self.link.poll(now_ms)
            out = self.link.take_output()
            if out:
                os.write(self.master, self.damage(out))
        self.done.set()


QUICK_ARGS = ("--frames", "1000")  # for `python -m bench`


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--corrupt", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cadence-ms", type=int, default=40, help="time between throws")
    args = parser.parse_args()

    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    tower = CorruptingTower(master, args.frames, args.corrupt, args.seed, args.cadence_ms)
    tower.start()
    host = SerialDiceTower(path, heartbeat_timeout=30.0)
    started = time.monotonic()
    delivered: dict[int, list[tuple[int | None, str, str]]] = {}
    duplicates = 0
    while not tower.done.is_set() or not host._events.empty():
        event = host.next_throw(timeout=0.2)
        if event is None:
            continue
        throw = int(event.throw_id.split("-")[1])
        if throw in delivered:
            duplicates += 1
        delivered[throw] = [(d.value, d.colour, d.status) for d in event.dice]
    elapsed = time.monotonic() - started
    status = host.status()
    host.close()
    os.close(slave)
    wrong = sum(
        1
        for throw, dice in delivered.items()
        if dice != [(d.value, COLOURS[d.colour], "stable") for d in tower.sent[throw]]
    )
    sent = len(tower.sent)
    c = status.counters
    print(f"results sent:              {sent}")
    print(f"byte corruption:           {args.corrupt:.2%} ({tower.bytes_corrupted} bytes)")
    print(f"results delivered:         {len(delivered)} ({len(delivered) / sent:.2%} recovered)")
    print(f"wrong results delivered:   {wrong}")
    print(f"delivered twice:           {duplicates}")
    print(f"frames rejected (host):    {c.frames_invalid}, bytes invalid {c.bytes_invalid}")
    print(f"frames rejected (tower):   {tower.link.decoder.frames_invalid}")
    print(f"tower retransmissions:     {tower.link.retransmits}")
    print(f"throws missed (host count): {c.throws_missed}")
    print(f"elapsed:                   {elapsed:.1f} s")
    return 0 if wrong == 0 and len(delivered) >= 0.99 * sent else 1


if __name__ == "__main__":
    raise SystemExit(main())
