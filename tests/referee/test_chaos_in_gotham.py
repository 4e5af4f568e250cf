"""The Chaos in Gotham City referee, driven by scripted camera and panel events."""

from __future__ import annotations

from typing import Any

import pytest

from tablehub.observations import CardEvent, PanelEvent
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    OfflineTable,
    Reread,
    Say,
    SeatLights,
    Setup,
    Show,
)
from tablehub.referee.chaos_in_gotham import ChaosReferee
from tablehub.referee.chaos_table import default_layout

NAMES = ("Paula", "Marie", "Stefan")
LAYOUT = default_layout(3)
BATMAN_TENS = {"trick_cards": {"batman_symbols": {"8": 0, "9": 0, "10": 2}}}


def card(
    card_id: str | None, zone: str, at: tuple[float, float] = (0.0, 0.0), face_up: bool = True
) -> CardEvent:
    return CardEvent("appeared", card_id, zone, face_up, 0.97, at)


def play(table: OfflineTable, seat: int, card_id: str | None, face_up: bool = True) -> list[Any]:
    return table.feed(card(card_id, "trick", LAYOUT.play_spot(seat), face_up))


def said(outputs: list[Any]) -> str:
    return " ".join(o.text for o in outputs if isinstance(o, Say))


def start(villains: tuple[str, ...] = ("poison-ivy", "harley-quinn", "clayface")) -> OfflineTable:
    referee = ChaosReferee(Setup("chaos-in-gotham", NAMES, {"card_data": BATMAN_TENS}))
    table = OfflineTable(referee)
    outputs = table.start()
    assert any(isinstance(o, ChooseSeat) and o.request == "first" for o in outputs)
    outputs = table.feed(PanelEvent("seat_chosen", 0, request="first"))
    assert "Round 1 of 3" in said(outputs) and "Paula starts" in said(outputs)
    # Villain cards are seen in any order; the engine takes them seat by seat.
    for seat in (2, 0, 1):
        table.feed(card(f"chaos:villain-{villains[seat]}", f"seat-{seat + 1}"))
    assert referee.engine.villains == list(villains)
    assert referee.engine.hand_count(0) == 9  # the deal is entered unseen
    return table


def test_a_trick_is_read_attributed_and_announced_with_the_reason() -> None:
    table = start(("poison-ivy", "harley-quinn", "two-face"))
    assert "Red is trump" in said(table.feed(card("chaos:red-1", "discard-1")))
    assert "Crime Alley" in said(table.feed(card("chaos:loc-crime-alley", "reveal")))
    outputs = play(table, 0, "chaos:green-3")
    assert SeatLights((1,)) in outputs  # Marie's turn
    play(table, 1, "chaos:green-5")
    outputs = play(table, 2, "chaos:yellow-8")
    text = said(outputs)
    assert "Marie wins the trick with the green 5, the highest green; no trump was played." in text
    assert "Marie takes Crime Alley." in text
    assert any(isinstance(o, Show) and "trick" in o.data for o in outputs)


def test_highest_trump_is_announced_as_trump() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    play(table, 0, "chaos:yellow-9")
    play(table, 1, "chaos:red-3")
    text = said(play(table, 2, "chaos:yellow-2"))
    assert "Marie wins the trick with the red 3: red is trump." in text


def test_bruce_wayne_meets_batman_is_said() -> None:
    table = start(("poison-ivy", "harley-quinn", "two-face"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-gcpd-headquarters", "reveal"))
    play(table, 0, "chaos:green-6")
    play(table, 1, "chaos:green-10")
    text = said(play(table, 2, "chaos:green-2"))
    assert "Bruce Wayne met Batman: the trick is set aside. Marie still takes G.C.P.D." in text


def test_a_card_from_the_wrong_side_makes_the_hub_ask_whose_it_is() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    outputs = play(table, 2, "chaos:green-3")  # Paula's turn, but laid on Stefan's side
    assert any(isinstance(o, ChooseSeat) and o.request == "who-played" for o in outputs)
    assert "Whose card is the green 3?" in said(outputs)
    assert table.referee.engine.trick == []  # nothing applied yet
    outputs = table.feed(PanelEvent("seat_chosen", 2, request="who-played"))
    assert "It is Paula's turn, not Stefan's" in said(outputs)
    assert table.referee.engine.trick == []
    outputs = play(table, 0, "chaos:green-3")  # laid again, on her side
    assert [p["card"] for p in table.referee.engine.trick] == ["green-3"]
    # Straight in the middle: no direction; the table confirms Marie.
    outputs = table.feed(card("chaos:green-4", "trick", LAYOUT.trick_centre))
    assert any(isinstance(o, ChooseSeat) for o in outputs)
    table.feed(PanelEvent("seat_chosen", 1, request="who-played"))
    assert [p["card"] for p in table.referee.engine.trick] == ["green-3", "green-4"]


def test_a_revoke_is_announced_and_shown_with_the_evidence() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    play(table, 0, "chaos:green-3")
    play(table, 1, "chaos:yellow-4")  # Marie does not follow green
    play(table, 2, "chaos:green-9")  # Stefan wins and leads
    table.feed(card("chaos:loc-crime-alley", "reveal"))
    play(table, 2, "chaos:blue-5")
    play(table, 0, "chaos:blue-6")
    outputs = play(table, 1, "chaos:green-7")  # ... but she had green
    text = said(outputs)
    assert "Revoke! Marie did not follow green in trick 1" in text
    assert "the green 3 was led and they played the yellow 4, but now plays the green 7" in text
    (shown,) = [o for o in outputs if isinstance(o, Show) and "revoke" in o.data]
    assert shown.audience == "public" and shown.data["revoke"]["played_instead"] == "yellow-4"


def test_impossible_readings_are_reread_then_asked_and_change_nothing() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    before = table.referee.snapshot()
    first = play(table, 0, "chaos:red-1")  # that card is the trump card
    assert any(isinstance(o, Reread) for o in first)
    second = play(table, 0, "chaos:red-1")
    assert any(isinstance(o, AskTable) and "already been seen" in o.question for o in second)
    assert table.referee.snapshot() == before
    blurry = table.feed(CardEvent("appeared", None, "trick", True, 0.2, LAYOUT.play_spot(0)))
    assert any(isinstance(o, Reread) for o in blurry)
    assert table.referee.snapshot() == before


def test_two_face_announces_the_swap_on_the_panel() -> None:
    table = start(("poison-ivy", "harley-quinn", "two-face"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    refused = table.feed(PanelEvent("declared", 2, "swap"))  # not his turn yet
    assert any(isinstance(o, Reread | AskTable) for o in refused)
    play(table, 0, "chaos:green-9")
    play(table, 1, "chaos:green-2")
    assert "swaps 1 and 10" in said(table.feed(PanelEvent("declared", 2, "swap")))
    text = said(play(table, 2, "chaos:green-1"))
    assert "Stefan wins the trick with the green 1" in text and "counted 10" in text


def test_the_riddlers_face_down_card_is_revealed_when_everyone_has_played() -> None:
    table = start(("riddler", "harley-quinn", "poison-ivy"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    play(table, 0, None, face_up=False)
    play(table, 1, "chaos:blue-2")
    outputs = play(table, 2, "chaos:green-2")
    assert "Paula, Riddler: turn your face-down card over." in said(outputs)
    flipped = CardEvent("flipped", "chaos:green-7", "trick", True, 0.95, LAYOUT.play_spot(0))
    text = said(table.feed(flipped))
    assert "The Riddler's card is the green 7." in text
    assert "Paula wins the trick with the green 7" in text


def test_the_joker_puts_a_new_trump_card_on_the_pile_on_his_turn() -> None:
    table = start(("poison-ivy", "joker", "harley-quinn"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    not_joker = table.feed(card("chaos:blue-4", "discard-1"))  # Paula's turn: refused
    assert any(isinstance(o, Reread) for o in not_joker)
    play(table, 0, "chaos:green-3")
    text = said(table.feed(card("chaos:blue-4", "discard-1")))
    assert "The Joker reveals a new trump: blue is trump now." in text
    assert table.referee.engine.trump_colour() == "blue"


def test_wayne_tower_asks_for_the_bottom_card() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    text = said(table.feed(card("chaos:loc-wayne-tower", "reveal")))
    assert "Put the bottom card of the deck on the trump pile." in text
    text = said(table.feed(card("chaos:yellow-3", "discard-1")))
    assert "Wayne Tower changes the trump: yellow is trump now." in text


def test_catwoman_exchange_is_counted_from_the_discard_pile() -> None:
    table = start(("catwoman", "harley-quinn", "poison-ivy"))
    assert table.referee.engine.steps[0]["step"] == "catwoman"
    for _ in range(2):
        table.feed(card(None, "discard-3", face_up=False))
    text = said(table.feed(card("chaos:red-1", "discard-1")))
    assert "Catwoman exchanges 2 cards." in text and "Red is trump." in text
    assert table.referee.engine.public_view()["discard_count"] == 2


def test_the_penguin_sets_one_location_aside() -> None:
    table = start(("penguin", "harley-quinn", "poison-ivy"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    outputs = table.feed(card("chaos:loc-city-hall", "reveal"))
    assert "choose Clock Tower or City Hall" in said(outputs)
    removed = CardEvent("removed", "chaos:loc-city-hall", "reveal", True, 0.9, (0.0, 0.0))
    assert "The Penguin chooses Clock Tower." in said(table.feed(removed))
    assert table.referee.engine.location == "clock-tower"


def test_a_journal_replay_rebuilds_the_same_referee() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    play(table, 0, "chaos:green-3")
    replayed = ChaosReferee(table.referee.setup)
    for seq, record in enumerate(table.records, start=1):
        replayed.apply(seq, record)
    assert replayed.state() == table.referee.state()


def test_bad_setup_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown"):
        ChaosReferee(Setup("chaos-in-gotham", NAMES, {"speed": 3}))


def test_a_face_down_card_from_anyone_but_the_riddler_is_refused_by_name() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    play(table, 0, None, face_up=False)
    outputs = play(table, 0, None, face_up=False)
    (ask,) = [o for o in outputs if isinstance(o, AskTable)]
    assert "only The Riddler plays face down" in ask.question
    # A card slid in from the table counts like one laid down; engine reasons use names.
    moved = CardEvent("moved", "chaos:red-1", "trick", True, 0.9, LAYOUT.play_spot(0), "table")
    table.feed(moved)
    (ask,) = [o for o in table.feed(moved) if isinstance(o, AskTable)]
    assert "Paula's card does not fit" in ask.question and "seat" not in ask.question


def test_two_face_presses_the_knob_to_announce() -> None:
    table = start(("two-face", "harley-quinn", "poison-ivy"))
    table.feed(card("chaos:red-1", "discard-1"))
    table.feed(card("chaos:loc-clock-tower", "reveal"))
    assert "swaps 1 and 10" in said(table.feed(PanelEvent("declared")))  # his turn
    play(table, 0, "chaos:green-10")
    play(table, 1, "chaos:green-2")
    text = said(play(table, 2, "chaos:green-3"))
    assert "Stefan wins the trick with the green 3" in text  # his 10 counted 1


def test_the_15th_location_card_is_tricorner_yards() -> None:
    table = start()
    table.feed(card("chaos:red-1", "discard-1"))
    assert "Tricorner Yards" in said(table.feed(card("chaos:loc-tricorner-yards", "reveal")))
