"""Slot lengths through the real service path: the hub, the voice mixing the schedule and
playing it on its clock, the gpiozero mock panel — on a virtual clock (the nominal 12 s
slots pass in milliseconds; ``python -m bench.agi_blackout`` measures in real time).

Two Blackouts run side by side in one event loop: in one everybody passes, in the other
every awake player does something (a qualifying hand and a target, a hand that does not
qualify, a Telepathic answer, a Subdue).  Every mark must reach the referee at the same
offset in both, and every slot must last its nominal length, within 100 ms.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tablehub.config import PanelConfig
from tablehub.devices.panel import Panel, PanelHands, mock_pin_factory
from tablehub.devices.voice import MemorySink, RecordingEngine, Voice
from tablehub.referee.almost_got_im_blackout import parse_mark
from tablehub.referee.base import ChooseSeat, Say
from tablehub.service.app import Devices, Hub
from tablehub.service.clock import run_virtual
from tablehub.service.journal import Journal
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import HANDS, JUNK, AgiTable, card_event

FOUR = ["watchful", "batman", "crafty", "telepathic"]  # the Blackout wakes 2, 3, 0, 1
SLOT, SWEEP = 12.0, 6.0  # the configuration's defaults
TOLERANCE = 0.1
# player -> (hand laid face up, target chosen with the knob or None)
BUSY = {
    2: (HANDS["crafty"], None),
    3: (HANDS["telepathic"], 1),
    0: (JUNK, 2),
    1: (HANDS["batman"], 3),
}


Result = tuple[dict[str, float], list[str], MemorySink, list[str]]


async def blackout(
    tmp: Path, acts: dict[int, tuple[str, int | None]], done: asyncio.Barrier
) -> Result:
    """Play one Blackout through a hub; closing waits for ``done`` (a journal closing
    checkpoints its file, which would hold up the other hub's loop)."""
    t = AgiTable(FOUR, slot=SLOT, sweep=SWEEP)
    t.set_up()
    while t.e.turn_no < 3:
        t.quiet_turn()
    last = t.fresh()[0]
    referee = t.referee
    journal = Journal(tmp / "journal.sqlite3")
    session = journal.start_session("almost-got-im", referee.setup.to_json())
    sink = MemorySink()
    shared = RecordingEngine()
    voice = Voice(lambda: shared, sink, tmp / "cache", timeout=600.0)  # virtual seconds
    lines: list[str] = []
    hub = Hub(journal, referee, session, Devices(voice=voice), transcript=lines.append)
    panel = Panel(PanelConfig(), 4, pin_factory=mock_pin_factory(), on_event=hub.post)
    hub.devices.panel = panel
    hands = PanelHands(panel)
    loop = asyncio.get_running_loop()
    times: dict[str, float] = {}
    seen = [len(referee.history)]

    def target(player: int) -> None:
        chooser = next(o for o in reversed(referee.prompts) if isinstance(o, ChooseSeat))
        hands.turn(chooser.seats.index(referee.places[player]))
        hands.press_knob()

    def watch(h: Hub) -> None:
        for _, record in referee.history[seen[0] :]:
            name = record.get("name", "") if record["kind"] == "timer" else ""
            parsed = parse_mark(name)
            if parsed is None or not name.startswith("blackout"):
                continue
            times[name] = loop.time()
            _, kind, index = parsed
            plan = referee.night
            if kind == "wake" and plan is not None and index is not None:
                player = plan.awake[index].player
                if player in acts:
                    hand, aim = acts[player]
                    for c in cards(hand):
                        h.post(card_event("appeared", c, "reveal"))
                    if aim is not None:
                        loop.call_later(2.0, target, aim)
            if kind == "end":
                h.stop()
        seen[0] = len(referee.history)

    hub.after_handle.append(watch)
    spoken: list[str] = []
    hub.output_watchers.append(
        lambda out: spoken.append(out.text) if isinstance(out, Say) else None
    )
    hub.post(card_event("appeared", last, t.pile()))
    await hub.run(resumed=True)
    await done.wait()
    await hub.close()
    await voice.close()
    panel.close()
    journal.close()
    return times, spoken, sink, lines


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


def night(lines: list[str]) -> list[str]:
    """The transcript from the Blackout's start to its end mark's record (whose number
    differs: the busy night journaled more)."""
    start = next(i for i, line in enumerate(lines) if "schedule blackout-1" in line)
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("[voice]"))
    assert lines[end - 1].startswith("[journal]") and lines[end - 1].endswith(" timer")
    return lines[start : end - 1]
