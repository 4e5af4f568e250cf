"""A crash in the middle of a Blackout: the journal replays, the rest of the schedule plays
from the last mark, the slot that was open is offered again, and the game ends the same."""

from __future__ import annotations

from tablehub.observations import PanelEvent
from tablehub.referee.almost_got_im import AgiReferee
from tablehub.referee.base import ChooseSeat, OfflineTable, PlaySchedule, PrivateLight, Say
from tests.referee.agi_table import HANDS, AgiTable


def crash(t: AgiTable) -> tuple[AgiReferee, list[object]]:
    """A new referee rebuilt from the journal (outputs thrown away), and its resume outputs."""
    referee = AgiReferee(t.referee.setup)
    for seq, record in enumerate(t.table.records, start=1):
        referee.apply(seq, record)
    return referee, list(referee.resume_outputs())


def into_slot(t: AgiTable, player: int) -> list[str]:
    """Fire the Blackout's marks up to ``player``'s wake; returns the marks still to come."""
    marks = [m.text for m in t.schedule().marks()]
    plan = t.referee.night
    assert plan is not None
    index = [w.player for w in plan.awake].index(player)
    upto = marks.index(f"{plan.tag}:wake:{index}")
    for mark in marks[: upto + 1]:
        t.table.fire(mark)
    return marks[upto + 1 :]


def test_a_blackout_resumes_after_a_crash_and_ends_as_it_would_have() -> None:
    t = AgiTable(["watchful", "batman", "crafty", "telepathic"])
    t.set_up()
    t.quiet_turns()
    rest = into_slot(t, 1)  # Batman (The Scarecrow) is awake
    t.lay_hand(HANDS["batman"])
    referee, out = crash(t)
    assert referee.state() == t.referee.state()
    assert out[0] == Say("The hub is back. We carry on where we stopped.")
    tail = next(o.schedule for o in out if isinstance(o, PlaySchedule))
    assert [c.text for c in tail.marks()] == rest  # the rest of the night, from the wake mark
    assert tail.cues[0].kind == "sound" and tail.cues[0].start == 0.0  # the masking goes on
    shut = next(c for c in tail.marks() if c.text == rest[0])
    assert shut.start == 12.0  # the open slot gets its full length again
    aim = next(o for o in out if isinstance(o, ChooseSeat))
    assert aim.seats == (0, 2, 3)
    # the same answers on both: the resumed game ends the Blackout like the original
    resumed = OfflineTable(referee)
    resumed.seq = len(t.table.records)
    for table in (t.table, resumed):
        table.feed(PanelEvent("seat_chosen", seat=2, request=aim.request))  # The Penguin
        for mark in rest:
            table.fire(mark)
    assert referee.state() == t.referee.state()
    assert "The Penguin has been Subdued." in resumed.said()
    assert t.e.subdued[2] and referee.e.subdued[2]


def test_the_resume_of_a_slot_sounds_and_looks_the_same_whoever_acted() -> None:
    outs = []
    for acts in (False, True):
        t = AgiTable(["watchful", "batman", "crafty", "telepathic"])
        t.set_up()
        t.quiet_turns()
        into_slot(t, 1)
        if acts:
            t.lay_hand(HANDS["batman"])
            t.choose(f"{t.referee.night.tag}:aim", 2)  # type: ignore[union-attr]
        _, out = crash(t)
        outs.append([o for o in out if not isinstance(o, PrivateLight)])
    assert outs[0] == outs[1]
