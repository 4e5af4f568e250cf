"""Stable card events: only agreed changes, nothing from a passing hand."""

from __future__ import annotations

from tablehub.vision.tracker import CardTracker, Sighting
from tablehub.vision.zones import default_zones

ZONES = default_zones(1200, 900, 5)
TRICK = (600.0, 490.0)
REVEAL = (600.0, 135.0)


def seen(card_id: str | None, at: tuple[float, float], up: bool = True) -> Sighting:
    return Sighting(card_id, up, 0.95, at)


def run(tracker: CardTracker, frames: list[list[Sighting]], occluded=None):  # type: ignore[no-untyped-def]
    out = []
    for frame in frames:
        out.extend(tracker.update(frame, occluded))
    return out


def test_appears_only_when_frames_agree() -> None:
    t = CardTracker(ZONES, agree_frames=3)
    assert run(t, [[seen("agi:bats-7", TRICK)]] * 2) == []
    events = t.update([seen("agi:bats-7", TRICK)])
    assert [(e.change, e.card_id, e.zone, e.face_up) for e in events] == [
        ("appeared", "agi:bats-7", "trick", True)
    ]
    assert run(t, [[seen("agi:bats-7", (605.0, 495.0))]] * 5) == []  # nudged: no event


def test_a_misread_frame_changes_nothing() -> None:
    t = CardTracker(ZONES, agree_frames=3)
    run(t, [[seen("agi:bats-7", TRICK)]] * 3)
    frames = [[seen("agi:bats-1", TRICK)], [seen("agi:bats-7", TRICK)]] * 3
    assert run(t, frames) == []


def test_flipped_moved_removed() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    run(t, [[seen(None, REVEAL, up=False)]] * 2)
    events = run(t, [[seen("agi:hearts-q", REVEAL)]] * 2)
    assert [(e.change, e.card_id, e.zone) for e in events] == [
        ("flipped", "agi:hearts-q", "reveal")
    ]
    events = run(t, [[seen("agi:hearts-q", TRICK)]] * 2)
    assert [(e.change, e.zone, e.previous_zone) for e in events] == [("moved", "trick", "reveal")]
    events = run(t, [[seen(None, TRICK, up=False)]] * 2)
    assert [(e.change, e.card_id, e.face_up) for e in events] == [("flipped", None, False)]
    events = run(t, [[]] * 2)
    assert [(e.change, e.zone) for e in events] == [("removed", "trick")]


def test_a_hand_passing_over_produces_no_events() -> None:
    t = CardTracker(ZONES, agree_frames=3, forget_frames=3)
    cards = [seen("agi:bats-7", TRICK), seen("agi:hearts-2", REVEAL)]
    run(t, [cards] * 3)

    def hand(p: tuple[float, float]) -> bool:
        return p == TRICK

    # The hand hides the trick card for 10 frames, and its shape is misread once or twice.
    frames = [[cards[1]]] * 4 + [[cards[1], seen("agi:bats-9", (640.0, 520.0))]] * 2
    frames += [[cards[1]]] * 4
    assert run(t, frames, hand) == []
    assert run(t, [cards] * 3) == []
    assert sorted(c.card_id or "" for c in t.cards) == ["agi:bats-7", "agi:hearts-2"]


def test_unsure_readings_neither_appear_nor_change() -> None:
    t = CardTracker(ZONES, agree_frames=2)
    assert run(t, [[seen(None, TRICK)]] * 5) == []
    run(t, [[seen("agi:bats-7", TRICK)]] * 2)
    assert run(t, [[seen(None, TRICK)]] * 5) == []  # still there, nothing new


def test_two_copies_are_two_cards() -> None:
    t = CardTracker(ZONES, agree_frames=2)
    events = run(t, [[seen("adler:pistol", TRICK), seen("adler:pistol", REVEAL)]] * 2)
    assert sorted(e.zone for e in events) == ["reveal", "trick"]


PILE = (490.0, 300.0)  # the middle of discard-1 on this table


def changes(events):  # type: ignore[no-untyped-def]
    return [(e.change, e.card_id, e.zone) for e in events]


def test_a_discard_covers_the_pile_and_taking_it_uncovers() -> None:
    """Lay A, lay B on A, take B (A is simply there again), take A."""
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    a, b = seen("agi:bats-7", PILE), seen("agi:hearts-q", (493.0, 302.0))
    assert changes(run(t, [[a]] * 2)) == [("appeared", "agi:bats-7", "discard-1")]
    # B laid on A: A is out of view from the first frame, and stays so
    assert changes(run(t, [[b]] * 6)) == [("appeared", "agi:hearts-q", "discard-1")]
    assert [[c.card_id for c in pile] for pile in t.stacks] == [["agi:bats-7", "agi:hearts-q"]]
    assert [c.card_id for c in t.cards] == ["agi:hearts-q"]
    # B taken: A shows again -> only "removed B"; no "removed A" / "appeared A"
    assert changes(run(t, [[a]] * 6)) == [("removed", "agi:hearts-q", "discard-1")]
    assert t.stacks == [] and [c.card_id for c in t.cards] == ["agi:bats-7"]
    # A taken
    assert changes(run(t, [[]] * 3)) == [("removed", "agi:bats-7", "discard-1")]
    assert t.cards == []


def test_three_deep_and_the_whole_pile_taken() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    pile = [seen(f"agi:bats-{n}", (PILE[0] + n, PILE[1])) for n in (2, 3, 4)]
    for card in pile:
        run(t, [[card]] * 3)
    assert [[c.card_id for c in p] for p in t.stacks] == [
        ["agi:bats-2", "agi:bats-3", "agi:bats-4"]
    ]
    assert changes(run(t, [[pile[1]]] * 3)) == [("removed", "agi:bats-4", "discard-1")]
    # the whole rest of the pile picked up: the top is removed, then the one it uncovers
    events = run(t, [[]] * 6)
    assert changes(events) == [
        ("removed", "agi:bats-3", "discard-1"),
        ("removed", "agi:bats-2", "discard-1"),
    ]


def test_the_top_card_moved_to_another_zone_uncovers() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    a, b = seen("agi:bats-7", PILE), seen("agi:hearts-q", PILE)
    run(t, [[a]] * 2 + [[b]] * 3)
    events = run(t, [[a, seen("agi:hearts-q", TRICK)]] * 3)
    assert [(e.change, e.card_id, e.previous_zone) for e in events] == [
        ("moved", "agi:hearts-q", "discard-1")
    ]
    assert t.stacks == []


def test_outside_a_pile_a_card_in_the_same_spot_replaces_the_old_one() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    run(t, [[seen("agi:bats-7", TRICK)]] * 2)
    events = run(t, [[seen("agi:hearts-q", TRICK)]] * 2)
    assert sorted(changes(events)) == [
        ("appeared", "agi:hearts-q", "trick"),
        ("removed", "agi:bats-7", "trick"),
    ]


def test_forget_reports_a_zone_again() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    a, b = seen("agi:bats-7", PILE), seen("agi:hearts-2", TRICK)
    run(t, [[a, b]] * 2)
    t.forget("discard-1")
    assert changes(run(t, [[a, b]] * 2)) == [("appeared", "agi:bats-7", "discard-1")]
    t.forget()
    assert sorted(changes(run(t, [[a, b]] * 2))) == [
        ("appeared", "agi:bats-7", "discard-1"),
        ("appeared", "agi:hearts-2", "trick"),
    ]
