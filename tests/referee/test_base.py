"""The Referee protocol, exercised through the example High Card referee."""

from __future__ import annotations

from typing import Any

from tablehub.devices.schedule import ScheduleBuilder
from tablehub.observations import CardEvent, ManualEvent, Observation, PanelEvent, TimerEvent
from tablehub.referee import load_referee
from tablehub.referee.base import (
    AskTable,
    CancelAllTimers,
    ChooseSeat,
    OfflineTable,
    Output,
    PlaySchedule,
    PrivateLight,
    Record,
    Referee,
    Reread,
    Say,
    SeatLights,
    Setup,
    StartTimer,
    WaitNext,
)
from tablehub.referee.example import HighCardReferee

SEATS = ("Ann", "Bob", "Cy")


def card(card_id: str | None, confidence: float = 0.99) -> CardEvent:
    return CardEvent("appeared", card_id, "reveal", True, confidence, (450.0, 300.0))


def table(rounds: int = 2) -> OfflineTable:
    referee = HighCardReferee(Setup("high-card", SEATS, {"rounds": rounds}))
    t = OfflineTable(referee)
    t.start()
    return t


def test_registry_finds_the_example() -> None:
    assert load_referee("high-card") is HighCardReferee


def test_a_whole_game_with_panel_timer_and_cards() -> None:
    t = table(rounds=2)
    assert isinstance(t.outputs[-1], ChooseSeat)
    out = t.feed(PanelEvent("seat_chosen", seat=1, request="first"))
    assert Say("Bob starts.") in out and SeatLights((1,)) in out
    assert StartTimer("turn-0-1", 10.0, "buzz") in out
    out = t.feed(card("QH"))
    assert PrivateLight("green", 1.0, 1) in out
    assert Say("Bob shows the Queen of Hearts.") in out
    assert Say("Cy, show a card.") in out
    out = t.fire("turn-0-2")  # Cy says nothing: the countdown runs out
    assert Say("Cy is out of time and passes.") in out
    t.feed(card("2C"))
    assert "Bob wins round 1." in t.said()
    assert isinstance(t.outputs[-1], WaitNext)
    t.feed(PanelEvent("next", request="round-1"))
    assert "Cy, show a card." in t.said()  # round 2 starts one seat later
    t.feed(card("AS"))
    t.feed(card("KS"))
    t.feed(card("3D"))
    assert t.said()[-1] == "Game over. The winner: Bob and Cy."
    assert t.referee.is_finished()


def test_observe_changes_nothing_and_replay_rebuilds_the_state() -> None:
    t = table()
    events: list[Observation] = [
        PanelEvent("seat_chosen", seat=0, request="first"),
        card("5H"),
        card(None, 0.2),
        card("5H"),
        card("9C"),
    ]
    for obs in events:
        before = t.referee.state()
        records = t.referee.observe(obs)
        assert t.referee.state() == before
        t._accept(records)
    t.fire("turn-0-2")
    fresh = HighCardReferee(t.referee.setup)
    for seq, record in enumerate(t.records, start=1):
        fresh.apply(seq, record)
    assert fresh.state() == t.referee.state()
    assert fresh.history == t.referee.history


def test_impossible_reading_is_reread_then_asked_and_changes_nothing() -> None:
    t = table()
    t.feed(PanelEvent("seat_chosen", seat=0, request="first"))
    t.feed(card("5H"))
    game_before = t.referee.snapshot()
    out = t.feed(card("5H"))  # the same card again: impossible
    assert [type(o) for o in out] == [Reread]
    assert "already revealed" in out[0].reason  # type: ignore[union-attr]
    out = t.feed(card("5H"))
    assert [type(o) for o in out] == [AskTable]
    assert t.referee.snapshot() == game_before
    assert t.records[-1]["kind"] == "rejected"
    out = t.feed(card("6H"))
    assert Say("Bob shows the 6 of Hearts.") in out
    assert t.referee.rejections == {}


def test_stale_timer_is_ignored() -> None:
    t = table()
    t.feed(PanelEvent("seat_chosen", seat=0, request="first"))
    t.feed(card("5H"))  # cancels turn-0-0
    assert t.referee.observe(TimerEvent("turn-0-0")) == []
    assert "turn-0-1" in t.referee.timers


def test_undo_and_correct_are_journaled_and_rebuild_the_state() -> None:
    t = table()
    t.feed(PanelEvent("seat_chosen", seat=0, request="first"))
    t.feed(card("5H"))
    card_seq = next(i for i, r in enumerate(t.records, 1) if r.get("move", {}).get("card"))
    reference = table()
    reference.feed(PanelEvent("seat_chosen", seat=0, request="first"))
    reference.feed(card("7D"))

    out = t.feed(
        ManualEvent(
            "correct",
            {
                "seq": card_seq,
                "record": {"kind": "move", "move": {"kind": "card", "player": -1, "card": "7D"}},
            },
        )
    )
    assert isinstance(out[0], CancelAllTimers) and Say("Corrected. Carrying on.") in out
    assert t.referee.snapshot() == reference.referee.snapshot()
    assert t.records[-1]["kind"] == "correct"

    out = t.feed(ManualEvent("undo", {"seq": card_seq}))
    assert Say("Undone. Carrying on.") in out
    assert t.referee.engine.seen == []
    assert t.referee.engine.revealing == 0  # the reveal move stays; the card is awaited
    # a correction replays from the journal just as well
    fresh = HighCardReferee(t.referee.setup)
    for seq, record in enumerate(t.records, start=1):
        fresh.apply(seq, record)
    assert fresh.state() == t.referee.state()


def test_bad_correction_is_refused_with_a_reason() -> None:
    t = table()
    t.feed(PanelEvent("seat_chosen", seat=0, request="first"))
    before = t.referee.snapshot()
    out = t.feed(ManualEvent("undo", {"seq": 999}))
    assert isinstance(out[0], Reread) and "no record 999" in out[0].reason
    bogus = {"kind": "move", "move": {"kind": "start", "player": -1, "first": 7}}
    out = t.feed(ManualEvent("correct", {"seq": 2, "record": bogus}))
    assert isinstance(out[0], AskTable)
    assert t.referee.snapshot() == before


class NightReferee(Referee):
    """A referee that plays a schedule with marks (like a Blackout) and counts them."""

    game = "night"

    def reset(self) -> None:
        self.marks: list[str] = []

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, ManualEvent) and observation.action == "night":
            return [{"kind": "night"}]
        return []

    def apply_record(self, record: Record) -> list[Output]:
        if record["kind"] == "night":
            b = ScheduleBuilder("night").sound(0, "shuffle", 10)
            b.say(0, "Everyone close your eyes.", 3).mark(3, "slot-0").mark(6, "slot-1")
            b.say(7, "Everyone open your eyes.", 3).mark(10, "end")
            return [PlaySchedule(b.build())]
        self.marks.append(record["name"])
        return []

    def snapshot(self) -> Any:
        return self.marks

    def is_finished(self) -> bool:
        return False


def test_schedule_marks_come_back_and_resume_plays_the_rest() -> None:
    t = OfflineTable(NightReferee(Setup("night", SEATS)))
    t.feed(ManualEvent("night"))
    assert t.referee.observe(TimerEvent("nonsense")) == []
    t.fire("slot-0")
    assert t.referee.observe(TimerEvent("slot-0")) == []  # delivered once only
    resumed = [o for o in t.referee.resume_outputs() if isinstance(o, PlaySchedule)]
    tail = resumed[0].schedule
    assert [(c.start, c.kind, c.text) for c in tail.cues] == [
        (0.0, "sound", "shuffle"),
        (3.0, "mark", "slot-1"),
        (4.0, "speech", "Everyone open your eyes."),
        (7.0, "mark", "end"),
    ]
    assert tail.cues[0].duration == 7.0
    t.fire("slot-1")
    t.fire("end")
    assert t.referee.marks == ["slot-0", "slot-1", "end"]
    assert t.referee.playing is None
