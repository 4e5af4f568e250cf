"""Slot lengths through the real service path: the hub, the voice mixing the schedule and
playing it on its clock, the gpiozero mock panel — on a virtual clock (the nominal 12 s
slots pass in milliseconds; ``python -m bench.almost_got_im_hub`` measures in real time).

Two Blackouts run side by side in one event loop: in one everybody passes, in the other
every awake player does something (a qualifying hand and a target, a hand that does not
qualify, a Telepathic answer, a Subdue).  Every mark must reach the referee at the same
offset in both, and every slot must last its nominal length, within 100 ms.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tablehub.service.clock import run_virtual
from tests.referee.agi_hub import BUSY, Result, blackout, night

SLOT, SWEEP = 12.0, 6.0  # the configuration's defaults
TOLERANCE = 0.1


def test_slots_keep_their_length_whatever_happens_in_them(tmp_path: Path) -> None:
    async def both() -> list[Result]:
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        done = asyncio.Barrier(2)
        runs = (blackout(tmp_path / "a", {}, done), blackout(tmp_path / "b", BUSY, done))
        return list(await asyncio.gather(*runs))

    (quiet, quiet_said, quiet_sink, quiet_log), (busy, busy_said, busy_sink, busy_log) = (
        run_virtual(both())
    )
    assert set(quiet) == set(busy) and len(quiet) == 4 * 2 + 4 * 2 + 1
    start_q, start_b = quiet["blackout-1:wake:0"], busy["blackout-1:wake:0"]
    spread = max(abs((quiet[m] - start_q) - (busy[m] - start_b)) for m in quiet)
    assert spread < TOLERANCE, spread
    for times in (quiet, busy):
        for i in range(4):
            assert (
                abs(times[f"blackout-1:shut:{i}"] - times[f"blackout-1:wake:{i}"] - SLOT)
                < TOLERANCE
            )
            sweep = times[f"blackout-1:sweepshut:{i}"] - times[f"blackout-1:sweep:{i}"]
            assert abs(sweep - SWEEP) < TOLERANCE
    # the very same audio for both nights
    played_q = [p for p in quiet_sink.played if p.label.startswith("schedule blackout")]
    played_b = [p for p in busy_sink.played if p.label.startswith("schedule blackout")]
    assert played_q[0].path.read_bytes() == played_b[0].path.read_bytes()
    # the hub's transcript shows nothing of what the awake players did
    assert night(quiet_log) == night(busy_log) and night(busy_log)
    assert "No one was Subdued." in quiet_said
    assert "Poison Ivy has been Subdued." in busy_said
