"""Revokes proved from the public history; the referee's engine reports them as events."""

from __future__ import annotations

from typing import Any

from tablehub.games.base import CHANCE
from tablehub.games.chaos_in_gotham import GAME
from tablehub.games.chaos_in_gotham.cards import load_card_data
from tablehub.games.chaos_in_gotham.revoke import find_revokes
from tests.games.chaos_in_gotham.helpers import QUIET4, of_kind

DATA = load_card_data()


def _trick(*plays: tuple[int, str | None], face_down_lead: bool = False) -> dict[str, Any]:
    return {
        "plays": [
            {"seat": s, "card": c, "face_down": face_down_lead and i == 0}
            for i, (s, c) in enumerate(plays)
        ]
    }


def test_not_following_then_playing_the_colour_is_a_revoke_with_evidence() -> None:
    tricks = [
        _trick((0, "red-7"), (1, "green-2"), (2, "red-3")),  # seat 1 shows no red
        _trick((2, "blue-5"), (0, "blue-6"), (1, "red-9")),  # ... and then plays red
    ]
    (revoke,) = find_revokes(DATA, tricks)
    assert revoke.evidence() == {
        "seat": 1,
        "colour": "red",
        "failed_trick": 0,
        "led_card": "red-7",
        "played_instead": "green-2",
        "trick": 1,
        "card": "red-9",
    }


def test_following_or_leading_the_colour_later_is_no_revoke() -> None:
    tricks = [
        _trick((0, "red-7"), (1, "red-2"), (2, "green-3")),
        _trick((1, "green-5"), (2, "green-6"), (0, "green-9")),  # seat 2 had green: fine
        _trick((0, "blue-1"), (1, "blue-2"), (2, "blue-4")),
    ]
    # seat 2 did not follow red in trick 0 but never played red later.
    assert find_revokes(DATA, tricks) == []


def test_a_face_down_lead_demands_nothing() -> None:
    tricks = [
        _trick((0, "red-7"), (1, "green-2"), (2, "red-3"), face_down_lead=True),
        _trick((1, "red-9"), (2, "red-4"), (0, "red-1")),
    ]
    assert find_revokes(DATA, tricks) == []


def test_the_hub_that_cannot_see_hands_reports_a_revoke_as_it_happens() -> None:
    state = GAME.new_initial_state(4, {"hands_seen": False})
    for seat, villain in enumerate(QUIET4):
        state.apply({"kind": "villain", "player": CHANCE, "seat": seat, "villain": villain})
    while state.steps[0]["step"] == "deal":
        state.apply(
            {"kind": "deal", "player": CHANCE, "seat": state.steps[0]["seat"], "card": None}
        )
    assert state.check({"kind": "deal", "player": CHANCE, "seat": 0, "card": "red-1"})
    state.apply({"kind": "trump", "player": CHANCE, "card": "blue-1"})
    state.apply({"kind": "location", "player": CHANCE, "card": "crime-alley"})
    for seat, card in enumerate(["red-7", "green-2", "red-3", "red-5"]):
        events = state.apply({"kind": "play", "player": seat, "card": card})
    assert of_kind(events, "trick")[0]["winner"] == 0
    state.apply({"kind": "location", "player": CHANCE, "card": "clock-tower"})
    state.apply({"kind": "play", "player": 0, "card": "yellow-4"})
    events = state.apply({"kind": "play", "player": 1, "card": "red-9"})
    (revoke,) = of_kind(events, "revoke")
    assert revoke["audience"] == "public" and revoke["seat"] == 1
    assert (revoke["failed_trick"], revoke["led_card"], revoke["played_instead"]) == (
        0,
        "red-7",
        "green-2",
    )
    # A card already seen cannot be played again.
    reason = state.check({"kind": "play", "player": 2, "card": "red-9"})
    assert reason is not None and "already been seen" in reason
