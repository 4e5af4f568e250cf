"""Foundation figures: journal durability cost, voice synthesis, schedule mixing, hub latency.

    python -m bench.foundation [--quick]

Prints one line per figure.  Uses a temporary directory; needs espeak-ng (and pyttsx3).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from tablehub.devices.schedule import ScheduleBuilder
from tablehub.devices.voice import EspeakNgEngine, MemorySink, Pyttsx3Engine, Voice
from tablehub.games.high_card import DECK
from tablehub.observations import CardEvent, PanelEvent
from tablehub.referee.base import Setup
from tablehub.referee.example import HighCardReferee
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal

PHRASES = [
    "Everyone close your eyes.",
    "The Joker, open your eyes.",
    "The Joker, close your eyes.",
    "Harley Quinn, open your eyes.",
    "Everyone open your eyes.",
    "Bane is Subdued.",
]


def journal_appends(tmp: Path, n: int) -> None:
    with Journal(tmp / "bench.sqlite3") as journal:
        session = journal.start_session("bench", {})
        times = []
        for i in range(n):
            t = time.perf_counter()
            journal.append(session, [{"kind": "move", "i": i}], {"kind": "manual"})
            times.append(time.perf_counter() - t)
    print(
        f"journal append (WAL, synchronous=FULL): median {statistics.median(times) * 1e3:.2f} ms, "
        f"max {max(times) * 1e3:.2f} ms over {n} appends"
    )


def synthesis(tmp: Path, engine_name: str) -> None:
    engine = EspeakNgEngine() if engine_name == "espeak-ng" else Pyttsx3Engine()
    times = []
    try:
        for i, text in enumerate(PHRASES):
            t = time.perf_counter()
            engine.synthesize(text, tmp / f"{engine_name}-{i}.wav")
            times.append(time.perf_counter() - t)
    finally:
        engine.close()
    print(
        f"synthesis {engine_name}: first {times[0] * 1e3:.0f} ms, then median "
        f"{statistics.median(times[1:]) * 1e3:.0f} ms per phrase"
    )


async def schedule_mix(tmp: Path, players: int) -> None:
    slot, length = 12.0, 8.0 + 12.0 * players
    b = ScheduleBuilder("blackout").sound(0, "shuffle", length).say(0, PHRASES[0], 3)
    for i in range(players):
        at = 4.0 + i * slot
        b.say(at, f"Player {i + 1}, open your eyes.", 3).mark(at, f"slot-{i}")
        b.say(at + slot - 3, f"Player {i + 1}, close your eyes.", 3)
    b.say(length - 3.5, PHRASES[4], 3)
    schedule = b.build(length)
    voice = Voice(EspeakNgEngine, MemorySink(), tmp / "cache")
    t = time.perf_counter()
    await voice.mix(schedule)
    cold = time.perf_counter() - t
    voice.cache_dir = tmp / "cache"  # phrases cached now
    t = time.perf_counter()
    (tmp / "cache" / "schedules").exists() and [
        p.unlink() for p in (tmp / "cache" / "schedules").iterdir()
    ]
    await voice.mix(schedule)
    warm = time.perf_counter() - t
    await voice.close()
    print(
        f"Blackout schedule, {players} players ({length:.0f} s audio, {len(schedule.speech())} "
        f"phrases): render+mix {cold:.2f} s cold, {warm:.2f} s with phrases cached"
    )


async def hub_latency(tmp: Path, n_games: int) -> None:
    """Observation -> journaled -> outputs performed, through the real hub (no devices)."""
    latencies: list[float] = []
    with Journal(tmp / "hub.sqlite3") as journal:
        for g in range(n_games):
            setup = Setup("high-card", ("A", "B", "C", "D"), {"rounds": 7}, seed=g)
            referee, session, _ = open_session(journal, HighCardReferee, setup, resume=False)
            hub = Hub(journal, referee, session, Devices())
            hub.accept(referee.opening(), None)
            hub.handle(PanelEvent("seat_chosen", seat=0, request="first"))
            for i in range(28):
                t = time.perf_counter()
                hub.handle(
                    CardEvent("appeared", DECK[(i * 7 + g) % 52], "reveal", True, 0.99, (0, 0))
                )
                latencies.append(time.perf_counter() - t)
                if referee.phase == "wait_next":
                    hub.handle(PanelEvent("next", request=f"round-{referee.engine.round}"))
            await hub.close()
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(
        f"hub: card observation -> journal (fsync) -> outputs: median "
        f"{statistics.median(latencies) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms "
        f"({len(latencies)} cards)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        journal_appends(tmp, 100 if args.quick else 1000)
        synthesis(tmp, "espeak-ng")
        synthesis(tmp, "pyttsx3")
        asyncio.run(schedule_mix(tmp, 7))
        asyncio.run(hub_latency(tmp, 2 if args.quick else 10))


if __name__ == "__main__":
    main()
