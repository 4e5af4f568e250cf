"""Stable card events: only agreed changes, nothing from a passing hand."""

from __future__ import annotations

import math

from tablehub.vision.tracker import CardTracker, Sighting, card_pose
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


# --- copies of one design on a pile: the top card's pose ---------------------------------


def posed(card_id: str, at: tuple[float, float], angle: float, up: bool = True) -> Sighting:
    return Sighting(card_id, up, 0.95, at, angle)


def test_card_pose_from_corners() -> None:
    from tablehub.vision.scene import card_corners_mm

    for angle in (0.0, 7.5, -20.0, 95.0, 200.0):
        corners = card_corners_mm((300.0, 200.0), (63.0, 88.0), angle)
        centre, seen = card_pose([(float(x), float(y)) for x, y in corners])
        assert math.dist(centre, (300.0, 200.0)) < 1e-6
        assert abs((seen - angle) % 180.0) < 1e-6 or abs((seen - angle) % 180.0 - 180) < 1e-6


def test_a_pistol_laid_on_a_pistol_is_a_second_card() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    first = posed("adler:pistol", PILE, 3.0)
    second = posed("adler:pistol", (PILE[0] + 4.0, PILE[1] - 2.0), 8.0)  # a few mm and degrees
    assert changes(run(t, [[first]] * 3)) == [("appeared", "adler:pistol", "discard-1")]
    assert changes(run(t, [[second]] * 5)) == [("appeared", "adler:pistol", "discard-1")]
    assert [[c.centre_mm for c in pile] for pile in t.stacks] == [[PILE, second.centre_mm]]
    # turned only, not shifted: still a new card
    third = posed("adler:pistol", second.centre_mm, 1.0)
    assert changes(run(t, [[third]] * 3)) == [("appeared", "adler:pistol", "discard-1")]
    assert len(t.stacks[0]) == 3


def test_pose_jitter_within_tolerance_is_no_new_card() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    run(t, [[posed("adler:pistol", PILE, 3.0)]] * 2)
    wobble = [(1.2, -0.8, 2.5), (-1.0, 1.1, -3.0), (0.5, 1.5, 4.0), (-1.4, -0.5, -4.5)] * 5
    frames = [
        [posed("adler:pistol", (PILE[0] + dx, PILE[1] + dy), 3.0 + da)] for dx, dy, da in wobble
    ]
    assert run(t, frames) == []
    # one misread frame far off the pose (beyond tolerance), then back: still nothing
    glitch = [
        [posed("adler:pistol", (PILE[0] + 9, PILE[1]), 15.0)],
        [posed("adler:pistol", PILE, 3.0)],
    ]
    assert run(t, glitch * 3) == []
    assert t.stacks == [] and len(t.cards) == 1


def test_a_hand_over_the_pile_is_no_new_card() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    top = posed("adler:pistol", PILE, 3.0)
    run(t, [[top]] * 2)

    def hand(p: tuple[float, float]) -> bool:
        return math.dist(p, PILE) < 60

    # the fingers push the card's visible outline about: a shifted, turned reading
    pushed = posed("adler:pistol", (PILE[0] + 6.0, PILE[1] + 3.0), 11.0)
    frames = [[pushed]] * 4 + [[]] * 2 + [[pushed]] * 2
    assert run(t, frames, hand) == []
    assert run(t, [[top]] * 3) == []
    # a copy laid while the hand is still over the pile counts once the hand has gone
    laid = posed("adler:pistol", (PILE[0] - 5.0, PILE[1] + 1.0), -4.0)
    assert run(t, [[laid]] * 4, hand) == []
    assert changes(run(t, [[laid]] * 2)) == [("appeared", "adler:pistol", "discard-1")]


def test_taking_the_top_copy_shows_the_one_under_it() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    lower = posed("adler:pistol", PILE, 3.0)
    upper = posed("adler:pistol", (PILE[0] + 5.0, PILE[1] + 3.0), -2.0)
    run(t, [[lower]] * 2 + [[upper]] * 3)
    assert len(t.stacks[0]) == 2
    events = run(t, [[lower]] * 5)  # the lower copy's pose is back
    assert [(e.change, e.card_id, e.zone, e.centre_mm) for e in events] == [
        ("removed", "adler:pistol", "discard-1", upper.centre_mm)
    ]
    assert t.stacks == [] and [c.centre_mm for c in t.cards] == [PILE]
    assert changes(run(t, [[]] * 3)) == [("removed", "adler:pistol", "discard-1")]


def test_a_copy_carried_onto_the_pile_is_moved() -> None:
    """An arrest card taken from in front of a seat and laid on an arrest on the pile."""
    t = CardTracker(
        ZONES, agree_frames=3, forget_frames=2, copies=True
    )  # gone before the pose agrees
    pile, seat = posed("adler:arrest", PILE, 0.0), posed("adler:arrest", (300.0, 600.0), 40.0)
    run(t, [[pile, seat]] * 3)
    carried = posed("adler:arrest", (PILE[0] + 3.0, PILE[1] + 4.0), 6.0)
    events = run(t, [[carried]] * 4)
    assert [(e.change, e.zone, e.previous_zone) for e in events] == [
        ("moved", "discard-1", t._zone(seat.centre_mm))
    ]
    assert len(t.stacks[0]) == 2 and len(t.cards) == 1


def test_readings_without_a_pose_start_no_change() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    run(t, [[posed("adler:pistol", PILE, 3.0)]] * 2)
    corner_read = seen("adler:pistol", (PILE[0] + 6.0, PILE[1] + 4.0))  # no angle
    assert run(t, [[corner_read]] * 4) == []
    assert t.stacks == []


def test_outside_a_pile_a_new_pose_is_the_same_card() -> None:
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    run(t, [[posed("adler:pistol", TRICK, 3.0)]] * 2)
    assert run(t, [[posed("adler:pistol", (TRICK[0] + 8, TRICK[1]), 20.0)]] * 4) == []


def test_a_copy_laid_elsewhere_is_not_a_covered_copy_moving() -> None:
    """An arrest under a question on the pile, another arrest laid in front of a seat and
    a third on the pile's top copy: three arrests."""
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2, copies=True)
    run(t, [[posed("adler:arrest", PILE, 0.0)]] * 2)
    question = posed("adler:question", (PILE[0] + 3.0, PILE[1]), 4.0)
    run(t, [[question]] * 3)
    seat = posed("adler:arrest", (300.0, 600.0), 40.0)
    events = run(t, [[question, seat]] * 3)
    assert [(e.change, e.zone) for e in events] == [("appeared", t._zone(seat.centre_mm))]
    assert [[c.card_id for c in pile] for pile in t.stacks] == [["adler:arrest", "adler:question"]]
    # an arrest on the question, while the one at the seat stays: appeared, not moved
    top = posed("adler:arrest", (PILE[0] - 4.0, PILE[1] + 2.0), -3.0)
    events = run(t, [[seat, top]] * 3)
    assert [(e.change, e.zone) for e in events] == [("appeared", "discard-1")]


def test_without_copies_a_pile_card_nudged_is_the_same_card() -> None:
    """A deck of single copies (Almost Got 'Im): a card on the pile pushed a few mm and
    turned is that card, never a second one of its design."""
    t = CardTracker(ZONES, agree_frames=2, forget_frames=2)
    run(t, [[posed("agi:bats-7", PILE, 3.0)]] * 2)
    assert run(t, [[posed("agi:bats-7", (PILE[0] + 6.0, PILE[1] + 4.0), 12.0)]] * 4) == []
    assert len(t.cards) == 1 and t.stacks == []
