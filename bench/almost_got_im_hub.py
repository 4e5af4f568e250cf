"""The hub as Almost Got 'Im Dealer: the leak sweep, slot timing in real time, the demo.

    python -m bench.almost_got_im_hub [--quick] [--every] [--repeats R] [--no-sweep] [--no-demo]

1. **Leak sweep** (``tests/referee/test_almost_got_im_leaks.py`` at full size): for each
   player count and role assignment, the roles check and round 1's Blackout are played with
   the same public history, every awake player doing something random (nothing, a hand face
   down, a hand that does not count, the role's hand and a target, the knob alone).  A case
   *leaks* if any output meant for more than the awake player — the schedules, speech,
   sounds, seat LEDs, timers, the next round's prompts — differs from the first case's, or
   an announcement is not one of the rulebook's.  Default: every assignment for 4 and 5
   players, every role set in every seat plus 200 random assignments for 6 and 7;
   ``--every``: every assignment for all (158,520 cases; two processes).
2. **Slot timing** in real time through the service path (hub, journal, voice mixing and
   playing the schedule, gpiozero mock panel), 0.5 s slots: a quiet night and a busy one
   (hands laid, knob turned, a Telepathic answer, a Subdue) ``--repeats`` times; prints how
   far each slot's length strays from nominal and how far each mark of the busy night
   lands from the quiet night's (target: under 100 ms).
3. **The demo**: ``tablehub demo almost-got-im --fast`` wall time for a whole game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.referee.agi_hub import BUSY, blackout
from tests.referee.test_almost_got_im_leaks import ANNOUNCEMENT, assignments, round_one, sample

SLOT, SWEEP, CALL = 0.5, 0.25, 0.15
CALLS = {f"{k}_seconds": CALL for k in ("call", "role_call", "everyone", "sweep_intro")}


def _leaks(job: tuple[int, list[tuple[str, ...]], Any]) -> tuple[int, int]:
    """(cases, leaking cases) for a chunk, against the reference nights."""
    seed, cases, reference = job
    leaking = 0
    for k, roles in enumerate(cases):
        roles_night, night, said = round_one(roles, seed + k)
        if said and said[-1].startswith("["):
            said = said[:-1]
        bad = (roles_night, night) != reference or not all(ANNOUNCEMENT.fullmatch(s) for s in said)
        leaking += bad
    return len(cases), leaking


def leak_sweep(players: int, every: bool, extra: int) -> None:
    cases = list(assignments(players)) if every or players <= 5 else sample(players, extra, 7)
    roles_night, night, _ = round_one(cases[0], 0)
    reference = (roles_night, night)
    started = time.perf_counter()
    chunks = [cases[i : i + 500] for i in range(0, len(cases), 500)]
    jobs = [(players * 1_000_003 + i * 500, chunk, reference) for i, chunk in enumerate(chunks)]
    if len(cases) > 2000:
        with multiprocessing.Pool(2) as pool:
            results = pool.map(_leaks, jobs)
    else:
        results = [_leaks(job) for job in jobs]
    spent = time.perf_counter() - started
    total = sum(n for n, _ in results)
    leaking = sum(b for _, b in results)
    kind = "every assignment" if every or players <= 5 else "role sets x seats + random"
    print(
        f"{players} players: {total:7d} cases ({kind}), {leaking} leaking, "
        f"{spent:6.1f} s ({total / spent:.0f} cases/s)"
    )


async def _pair(tmp: Path) -> tuple[dict[str, float], dict[str, float]]:
    results = []
    for name, acts in (("quiet", {}), ("busy", BUSY)):
        folder = tmp / name
        folder.mkdir()
        done = asyncio.Barrier(1)
        times, _, _, _ = await blackout(folder, acts, done, SLOT, SWEEP, CALLS, react=0.1)
        results.append(times)
    return results[0], results[1]


def slot_timing(repeats: int) -> None:
    deviations: dict[str, list[float]] = {"quiet": [], "busy": []}
    offsets: list[float] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            quiet, busy = asyncio.run(_pair(Path(tmp)))
        for name, times in (("quiet", quiet), ("busy", busy)):
            for i in range(4):
                deviations[name].append(
                    times[f"blackout-1:shut:{i}"] - times[f"blackout-1:wake:{i}"] - SLOT
                )
                deviations[name].append(
                    times[f"blackout-1:sweepshut:{i}"] - times[f"blackout-1:sweep:{i}"] - SWEEP
                )
        q0, b0 = quiet["blackout-1:wake:0"], busy["blackout-1:wake:0"]
        offsets += [abs((busy[m] - b0) - (quiet[m] - q0)) for m in quiet]
    for name, errors in deviations.items():
        ms = sorted(abs(d) * 1000 for d in errors)
        print(
            f"slot lengths, {name} nights ({len(ms)} slots, real time, {SLOT} s / {SWEEP} s): "
            f"mean error {statistics.mean(errors) * 1000:+.1f} ms, median |error| "
            f"{statistics.median(ms):.1f} ms, 95th {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
            f"worst {ms[-1]:.1f} ms"
        )
    print(
        f"mark offsets busy vs quiet night ({len(offsets)} marks): "
        f"median {statistics.median(offsets) * 1000:.1f} ms, worst {max(offsets) * 1000:.1f} ms"
    )


def demo() -> None:
    from tablehub.commands.demo import DemoOptions
    from tablehub.service.almost_got_im_demo import run_demo

    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        config = Path(tmp) / "c.toml"
        config.write_text('[voice]\nengine = "espeak-ng"\n')
        transcript = Path(tmp) / "t.txt"
        options = DemoOptions(5, 1, transcript, config, None, True)
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = run_demo(options)
        wall = time.perf_counter() - started
        lines = transcript.read_text().splitlines()
    last = [line for line in lines if "[voice] Game over" in line]
    print(f"demo: exit {code}, {wall:.1f} s wall; {last[-1].split('[voice] ')[1] if last else '?'}")
    print("      " + next((line.strip() for line in lines if line.startswith("wall")), ""))


def main() -> None:
    logging.getLogger("tablehub.devices.voice").setLevel(logging.ERROR)  # short slots cut words
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sweep, one timing run")
    parser.add_argument("--every", action="store_true", help="every assignment for 4-7")
    parser.add_argument("--repeats", type=int, default=5, help="real-time timing runs")
    parser.add_argument("--no-demo", action="store_true", help="skip the demo game")
    parser.add_argument("--no-sweep", action="store_true", help="skip the leak sweep")
    args = parser.parse_args()
    print("leak sweep (the test's checks, full size):")
    for players in () if args.no_sweep else (4, 5, 6, 7):
        if args.quick and players == 5:
            print("5 players: skipped (--quick)")
            continue
        leak_sweep(players, args.every, 40 if args.quick else 200)
    slot_timing(1 if args.quick else args.repeats)
    if not args.no_demo:
        demo()


if __name__ == "__main__":
    main()
