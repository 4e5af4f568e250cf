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
