"""The hub's order of work: journal first (durably), then state, then outputs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tablehub.observations import CardEvent, PanelEvent
from tablehub.referee.base import Output, Setup
from tablehub.referee.example import HighCardReferee
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal, JournalError

SETUP = Setup("high-card", ("Ann", "Bob"), {"rounds": 1})


def card(card_id: str) -> CardEvent:
    return CardEvent("appeared", card_id, "reveal", True, 0.99, (0.0, 0.0))


def test_outputs_happen_only_after_their_records_are_journaled(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    referee, session, resumed = open_session(journal, HighCardReferee, SETUP)
    assert not resumed
    seen: list[tuple[Output, int, int]] = []

    async def main() -> None:
        hub = Hub(journal, referee, session, Devices())
        hub.output_watchers.append(
            lambda out: seen.append((out, journal.count(session), len(referee.history)))
        )
        hub.post(PanelEvent("seat_chosen", seat=1, request="first"))
        hub.post(card("QH"))
        hub.post(card("QH"))  # duplicate: rejected, re-read asked
        hub.post(card("2C"))
        await hub.run(resumed=False)
        await hub.close()

    asyncio.run(main())
    assert seen, "no outputs"
    for out, journaled, applied in seen:
        assert journaled >= applied, f"{out} performed before its record was journaled"
    assert referee.is_finished()
    assert journal.last_unfinished() is None  # finished sessions are closed
    kinds = [e.record["kind"] for e in journal.entries(session)]
    assert kinds == ["begin", "move", "move", "move", "rejected", "move", "move"]


def test_a_journal_failure_changes_nothing_and_says_nothing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    referee, session, _ = open_session(journal, HighCardReferee, SETUP)
    performed: list[Output] = []

    async def main() -> None:
        hub = Hub(journal, referee, session, Devices())
        hub.output_watchers.append(performed.append)
        hub.accept(referee.opening(), None)
        before, count = referee.state(), len(performed)
        journal._db.execute("PRAGMA query_only = ON")  # the disk "fails"
        with pytest.raises(JournalError):
            hub.handle(PanelEvent("seat_chosen", seat=0, request="first"))
        assert referee.state() == before and len(performed) == count
        await hub.close()

    asyncio.run(main())


def test_resume_rebuilds_from_the_journal_without_outputs(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        referee, session, _ = open_session(journal, HighCardReferee, SETUP)

        async def first() -> None:
            hub = Hub(journal, referee, session, Devices())
            hub.accept(referee.opening(), None)
            hub.handle(PanelEvent("seat_chosen", seat=0, request="first"))
            hub.handle(card("9S"))
            await hub.close()

        asyncio.run(first())
        state = referee.state()
    with Journal(path) as journal:
        again, same_session, resumed = open_session(journal, HighCardReferee, SETUP)
        assert resumed and same_session == session
        assert again.state() == state
        assert "turn-0-1" in again.timers
        outputs = again.resume_outputs()
        assert any(getattr(o, "name", None) == "turn-0-1" for o in outputs)
