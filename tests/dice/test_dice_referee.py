"""The cross-check as referees use it (``DiceCheck`` in the dice tray referee): a throw is
accepted only when the tower and the camera agree; a disagreement or a cocked die is
re-read, then the table is asked - never one reading picked.  Driven with OfflineTable."""

from __future__ import annotations

import pytest

from tablehub.observations import DiceEvent, DieReading
from tablehub.referee.base import AskTable, OfflineTable, Reread, Say, Setup
from tablehub.referee.dice_check import ASK_DISAGREE, ASK_UNREADABLE
from tablehub.referee.dice_tray import DiceTrayReferee


def throw(source: str, *dice: tuple[int | None, str], read: int = 1) -> DiceEvent:
    readings = tuple(DieReading(v, c, "stable" if v is not None else "cocked") for v, c in dice)
    return DiceEvent(source, readings, f"{source}-1", read=read)  # type: ignore[arg-type]


def table(**options: object) -> OfflineTable:
    t = OfflineTable(DiceTrayReferee(Setup("dice-tray", ("A", "B"), dict(options))))
    t.start()
    return t


def referee(t: OfflineTable) -> DiceTrayReferee:
    assert isinstance(t.referee, DiceTrayReferee)
    return t.referee


@pytest.mark.parametrize("first", ["tower", "camera"])
def test_agreeing_readings_are_accepted_in_either_order(first: str) -> None:
    t = table()
    second = "camera" if first == "tower" else "tower"
    assert t.feed(throw(first, (6, "green"), (2, "purple"))) == []  # waits for the other
    assert referee(t).throws == []
    outputs = t.feed(throw(second, (2, "purple"), (6, "green")))
    assert referee(t).throws == [[[2, "purple"], [6, "green"]]]
    assert Say("Purple 2, green 6.") in outputs
    assert [r["kind"] for r in t.records] == ["begin", "dice-reading", "dice"]


def test_disagreement_is_reread_then_asked_and_never_accepted() -> None:
    t = table()
    t.feed(throw("tower", (6, "green")))
    first = t.feed(throw("camera", (5, "green")))
    assert [type(o) for o in first] == [Reread] and isinstance(first[0], Reread)
    assert first[0].source == "dice" and "tower read 6 green" in first[0].reason
    t.feed(throw("tower", (6, "green"), read=2))  # the re-read: still disagreeing
    second = t.feed(throw("camera", (5, "green")))
    assert second == [AskTable(ASK_DISAGREE)]
    assert referee(t).throws == []
    t.feed(throw("camera", (4, "green")))  # the throw again, now read alike
    t.feed(throw("tower", (4, "green")))
    assert referee(t).throws == [[[4, "green"]]]
    assert referee(t).rejections == {}


def test_a_cocked_die_from_either_source_is_not_passed_on() -> None:
    t = table()
    t.feed(throw("tower", (3, "green"), (4, "red")))
    outputs = t.feed(throw("camera", (3, "green"), (None, "red")))
    assert [type(o) for o in outputs] == [Reread]
    t.feed(throw("tower", (None, "green")))
    assert t.outputs[-1] == AskTable(ASK_UNREADABLE)
    assert referee(t).throws == []


def test_a_colour_mismatch_is_a_disagreement() -> None:
    t = table()
    t.feed(throw("tower", (6, "green")))
    t.feed(throw("camera", (6, "purple")))
    assert isinstance(t.outputs[-1], Reread) and referee(t).throws == []


def test_one_source_tables_accept_at_once_and_ignore_the_other() -> None:
    t = table(dice_sources="tower")
    t.feed(throw("camera", (1, "green")))  # no camera cross-check at this table
    t.feed(throw("tower", (6, "green")))
    assert referee(t).throws == [[[6, "green"]]]
    with pytest.raises(ValueError, match="dice sources"):
        table(dice_sources="tower,dealer")


def test_replaying_the_journal_rebuilds_a_pending_reading() -> None:
    t = table()
    t.feed(throw("tower", (6, "green")))
    t.feed(throw("camera", (5, "green")))  # rejected: one re-read used
    t.feed(throw("tower", (2, "green"), read=2))
    again = DiceTrayReferee(referee(t).setup)
    for seq, record in enumerate(t.records, 1):
        again.apply(seq, record)
    assert again.state() == referee(t).state()
    replayed = OfflineTable(again)
    replayed.seq = t.seq
    assert replayed.feed(throw("camera", (3, "green"))) == [AskTable(ASK_DISAGREE)]
