"""A Blackout through the real hub (journal, voice, mock panel) for the timing test and
``bench.almost_got_im_hub``: four players, the awake players act as told, and the time
each of the night's marks reaches the referee is recorded."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tablehub.config import PanelConfig
from tablehub.devices.panel import Panel, PanelHands, mock_pin_factory
from tablehub.devices.voice import MemorySink, RecordingEngine, Voice
from tablehub.referee.almost_got_im_blackout import parse_mark
from tablehub.referee.base import ChooseSeat, Say
from tablehub.service.app import Devices, Hub
from tablehub.service.journal import Journal
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import HANDS, JUNK, AgiTable, card_event

FOUR = ["watchful", "batman", "crafty", "telepathic"]  # the Blackout wakes 2, 3, 0, 1
# player -> (hand laid face up, target chosen with the knob or None)
BUSY = {
    2: (HANDS["crafty"], None),
    3: (HANDS["telepathic"], 1),
    0: (JUNK, 2),
    1: (HANDS["batman"], 3),
}


Result = tuple[dict[str, float], list[str], MemorySink, list[str]]


async def blackout(
    tmp: Path,
    acts: dict[int, tuple[str, int | None]],
    done: asyncio.Barrier,
    slot: float = 12.0,
    sweep: float = 6.0,
    calls: dict[str, float] | None = None,
    react: float = 2.0,
) -> Result:
    """Play one Blackout through a hub; closing waits for ``done`` (a journal closing
    checkpoints its file, which would hold up the other hub's loop).  ``calls``: the
    referee's ``*_seconds`` options for the spoken calls; ``react``: seconds from the hand
    laid to the knob turned."""
    t = AgiTable(FOUR, slot=slot, sweep=sweep, **(calls or {}))
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
                        loop.call_later(react, target, aim)
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


def night(lines: list[str]) -> list[str]:
    """The transcript from the Blackout's start to its end mark's record (whose number
    differs: the busy night journaled more)."""
    start = next(i for i, line in enumerate(lines) if "schedule blackout-1" in line)
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("[voice]"))
    assert lines[end - 1].startswith("[journal]") and lines[end - 1].endswith(" timer")
    return lines[start : end - 1]
