"""The Almost Got 'Im referee: set-up, turns from the camera, the Vote on the panel, the
Blackout, announcements — driven offline (no clock, no hardware)."""

from __future__ import annotations

from tablehub.devices.schedule import Schedule
from tablehub.games.almost_got_im.cards import role_card_id
from tablehub.observations import PanelEvent
from tablehub.referee import almost_got_im_words as words
from tablehub.referee import load_referee
from tablehub.referee.almost_got_im import AgiReferee
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    PlaySchedule,
    PrivateLight,
    Reread,
    Say,
    SeatLights,
    StartTimer,
)
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import HANDS, AgiTable

FOUR = ["watchful", "batman", "crafty", "telepathic"]
# Characters (tests.games.almost_got_im.table.DEFAULT_CHARACTERS): seat 0 The Riddler,
# 1 The Scarecrow, 2 The Penguin, 3 Poison Ivy, 4 Bane, 5 Mr. Freeze, 6 Killer Croc.
# With seed 0 the first Brains is seat 2 (The Penguin): the Blackout wakes 2, 3, 0, 1.


def ready(roles: list[str] = FOUR, **options: object) -> AgiTable:
    t = AgiTable(roles, **options)  # type: ignore[arg-type]
    t.set_up()
    return t


def test_the_registry_knows_the_referee() -> None:
    assert load_referee("almost-got-im") is AgiReferee


def test_set_up_reads_characters_then_checks_every_role_eyes_closed() -> None:
    t = AgiTable(FOUR)
    assert t.said() == [words.WELCOME]
    t.sit_down()
    assert t.said()[-2:] == [
        "4 players: The Riddler, The Scarecrow, The Penguin and Poison Ivy.",
        words.deal_roles(4),
    ]
    assert "Put Homicidal and Healer back in the box." in words.deal_roles(4)
    out = t.roles_check()
    schedule = next(o.schedule for o in out if isinstance(o, PlaySchedule))
    assert [c.text for c in schedule.speech()][:3] == [
        "Everyone close your eyes.",
        "The Riddler, open your eyes and show your Secret Role card.",
        "The Riddler, take your card back and close your eyes.",
    ]
    # each answer goes to the private light of the awake player only: Batman's is magenta
    reads = [o for o in out if isinstance(o, PrivateLight) and o.colour != "off"]
    assert [(o.seat, o.colour) for o in reads] == [
        (0, "white"),
        (1, "magenta"),
        (2, "white"),
        (3, "white"),
    ]
    assert t.e.roles == FOUR and t.e.peeked == "unknown"  # the hub never sees the unused
    assert t.said()[-1] == words.BRAINS_FIRST.format(name="The Penguin")
    assert not [s for s in t.said() if "Batman" in s and "Batman in Disguise with" not in s][1:]
    t.next("dealt")
    assert t.said()[-1] == "Round 1. The Penguin has the Brains and goes first."
    assert t.outputs[-1] == SeatLights((2,))


def test_three_character_cards_are_not_a_game() -> None:
    t = AgiTable([*FOUR[:3], "sneaky"])
    t.characters = t.characters[:3]
    t.sit_down()
    assert t.said()[-1] == words.CHARACTERS_WRONG.format(count=3)
    assert t.referee.phase == "characters" and t.request("characters")


def test_an_unread_role_card_is_checked_again_for_that_player_only() -> None:
    t = AgiTable(FOUR)
    t.sit_down()
    t.roles_check(unread=(2,))
    assert t.said()[-1] == "I could not read the Secret Role card of The Penguin. We check again."
    awake = [c.text for c in t.schedule().speech() if "show your Secret Role" in c.text]
    assert awake == ["The Penguin, open your eyes and show your Secret Role card."]
    t.night(on_wake=lambda i, p: t.card("appeared", role_card_id("crafty"), "reveal"))
    assert t.e.roles == FOUR and t.referee.phase == "dealing"


def test_roles_that_do_not_add_up_are_dealt_again() -> None:
    t = AgiTable(["batman", "batman", "crafty", "telepathic"])
    t.sit_down()
    t.roles_check()
    assert t.said()[-1] == words.ROLES_WRONG
    assert t.referee.phase == "deal_roles" and t.e.roles == [None] * 4
    t.roles = FOUR
    t.roles_check()
    assert t.e.roles == FOUR


def test_turns_are_read_from_the_discard_piles() -> None:
    t = ready()
    assert t.e.turn == 2
    first, second = t.fresh(2)
    t.card("appeared", first, "discard-1")  # a deck draw (unseen) and a discard
    moves = t.table.records[-1]["moves"]
    assert [m["kind"] for m in moves] == ["draw", "discard"] and moves[1]["player"] == 2
    assert t.e.turn == 3 and t.outputs[-1] == SeatLights((3,))
    t.card("removed", first, "discard-1")  # Poison Ivy takes the top card
    assert t.table.records[-1]["moves"] == [{"kind": "take", "player": 3, "pile": 0}]
    t.card("appeared", second, "discard-2")
    assert t.e.piles[1] == [second] and t.e.turn == 0
    # a card already face up on a pile cannot come out of a hand: re-read, then ask
    out = t.card("appeared", second, "discard-1")
    assert isinstance(out[0], Reread) and out[0].zone == "discard-1"
    out = t.card("appeared", second, "discard-1")
    assert out == [AskTable(words.CARD_NOT_PLACED)]
    assert t.e.turn == 0 and t.e.piles[0] == []


def test_a_covered_card_coming_back_into_view_is_nothing() -> None:
    t = ready()
    a, b = t.fresh(2)
    t.card("appeared", a, "discard-1")
    t.card("appeared", b, "discard-1")  # covers a
    t.card("removed", b, "discard-1")  # taken
    records = len(t.table.records)
    assert t.card("appeared", a, "discard-1") == []  # a shows again: it was there
    assert len(t.table.records) == records and t.e.piles[0] == [a]


def blackout_outputs(t: AgiTable, **kw: object) -> tuple[list[object], list[object]]:
    """(outputs while eyes are closed, outputs at the end mark)."""
    start = len(t.outputs)
    t.blackout(**kw)  # type: ignore[arg-type]
    out = t.outputs[start:]
    end = max(i for i, r in enumerate(t.table.records) if r.get("name", "").endswith(":end"))
    at_end = t.table.records[end]
    assert at_end["kind"] == "timer"
    night = [o for o in out if isinstance(o, PrivateLight | ChooseSeat)]
    return night, [o for o in out if not isinstance(o, PrivateLight | ChooseSeat)]


def test_batmans_subdue_is_announced_only_once_eyes_are_open() -> None:
    t = ready()
    t.quiet_turns()
    assert t.referee.phase == "night"
    schedule: Schedule = t.schedule()
    texts = [c.text for c in schedule.speech()]
    assert texts[:3] == [
        "Everyone close your eyes.",
        "The Penguin, open your eyes.",
        "The Penguin, close your eyes.",
    ]
    assert texts[-1] == "Everyone open your eyes." and words.SWEEP in texts
    assert [c.text for c in schedule.cues if c.kind == "sound"] == ["shuffle"]
    night, after = blackout_outputs(t, acts={1: 2})
    lights = [(o.seat, o.colour) for o in night if isinstance(o, PrivateLight)]
    assert (1, "yellow") in lights and (1, "green") in lights
    assert after[0] == Say("The Penguin has been Subdued.")
    assert t.e.subdued == [False, False, True, False]


def test_a_hand_that_does_not_qualify_lights_red_and_the_player_passes() -> None:
    t = ready()
    t.quiet_turns()
    night, after = blackout_outputs(t, acts={1: 2}, hands={1: "6b 6h qd 9r 2b"})
    assert PrivateLight("red", 3.0, 1) in night
    assert after[0] == Say("No one was Subdued.")
    assert not any(t.e.subdued)


def test_telepathic_thumbs_go_to_the_private_light() -> None:
    t = ready()
    t.quiet_turns()
    night, _ = blackout_outputs(t, acts={3: 1})
    assert PrivateLight("cyan", 12.0, 3) in night  # Batman: thumbs up
    t.quiet_turns()
    t.next("noaccuse")
    night, _ = blackout_outputs(t, acts={3: 0})
    assert PrivateLight("blue", 12.0, 3) in night  # Watchful: thumbs down


def test_the_saboteurs_victim_learns_it_in_the_sweep_only() -> None:
    t = ready(["watchful", "batman", "saboteur", "telepathic"])
    t.quiet_turns()
    night, after = blackout_outputs(t, acts={2: 3})
    sweep = [o for o in night if isinstance(o, PrivateLight) and o.seconds == 6.0]
    assert [(o.seat, o.colour) for o in sweep] == [(2, "off"), (3, "white"), (0, "off"), (1, "off")]
    assert after[0] == Say("No one was Subdued.")  # and nothing about the Saboteur
    assert t.e.hands[3] == ["unknown"] * 5


def test_crafty_and_watchful_announcements() -> None:
    t = ready()
    t.quiet_turns()
    _, after = blackout_outputs(t, acts={0: 2, 1: 2, 2: None})
    said = [o.text for o in after if isinstance(o, Say)]
    assert said[:2] == ["No one was Subdued.", "Everyone draw a card from the Poker deck."]
    assert all(len(h) == 6 for h in t.e.hands)


def to_round_two(t: AgiTable) -> None:
    t.quiet_turns()
    t.blackout()
    t.quiet_turns()
    assert t.e.phase == "accuse"


def test_accusation_second_defence_and_the_vote_on_the_panel() -> None:
    t = ready()
    to_round_two(t)
    assert t.said()[-1] == words.ACCUSE.format(name="Poison Ivy")
    assert StartTimer("deliberate-" + t.request("accuse").split("-")[1], 60.0) in t.outputs[-5:]
    t.choose("accuse", 0)
    assert t.said()[-2:] == [
        "Poison Ivy accuses The Riddler of being Batman. Does anyone second it?",
        words.SECOND,
    ]
    t.choose("second", 2)
    assert t.said()[-2:] == [
        "The Penguin seconds the accusation. The Riddler, make your defence.",
        words.DEFENCE,
    ]
    t.next("defence")
    assert t.said()[-4:] == [
        words.rulebook("vote_rules"),
        "Ready? 1-2-3!",
        "Hold your hands out there while I count the Votes.",
        words.VOTE_ENTRY,
    ]
    for line in ("vote_rules", "vote_count", "vote_hold"):  # one place speaks them: once
        assert t.said().count(words.rulebook(line)) == 1
    ask = t.outputs[-2]
    assert isinstance(ask, ChooseSeat) and ask.seats == (
        3,
        1,
        2,
    )  # from the Brains; the accused does not vote
    t.choose("guilty", 2)
    t.choose("guilty", 3)
    t.choose("guilty", 1)
    t.choose("guilty", 1)  # pressed again: back to Innocent
    assert t.said()[-4:] == [
        "The Penguin: Guilty.",
        "Poison Ivy: Guilty.",
        "The Scarecrow: Guilty.",
        "The Scarecrow: Innocent.",
    ]
    t.next("votes")
    assert t.e.history[-1]["votes"] == [[3, True], [1, False], [2, True]]
    assert t.said()[-2:] == ["The Vote is Guilty.", words.VERDICT.format(name="The Riddler")]
    t.next("verdict")
    assert "The Riddler has been Subdued." in t.said()
    assert t.referee.phase == "night" and t.e.subdued[0]


def test_the_countdowns_follow_the_rulebook() -> None:
    t = ready()
    to_round_two(t)
    deliberate = t.request("noaccuse")  # noqa: F841 - the prompt is open
    name = next(o.name for o in t.outputs if isinstance(o, StartTimer) and "deliberate" in o.name)
    out = t.table.fire(name)
    count = next(o for o in out if isinstance(o, StartTimer))
    assert (count.seconds, count.countdown) == (10, "speak")
    out = t.table.fire(count.name)
    assert Say(words.NO_ACCUSATION) in out and t.referee.phase == "night"
    t.blackout()
    t.quiet_turns()
    t.choose("accuse", 1)
    name = next(o.name for o in reversed(t.outputs) if isinstance(o, StartTimer))
    out = t.table.fire(name)
    count = next(o for o in out if isinstance(o, StartTimer))
    assert (count.seconds, count.countdown) == (5, "speak")
    out = t.table.fire(count.name)
    assert Say("No one seconded the accusation.") in out


def test_batman_voted_guilty_ends_the_game_and_the_roles_are_told() -> None:
    t = ready()
    to_round_two(t)
    t.choose("accuse", 1)
    t.choose("second", 0)
    t.next("defence")
    for p in (0, 2, 3):
        t.choose("guilty", p)
    t.next("votes")
    assert "The Vote is Guilty. The Scarecrow is Batman! The Villains win!" in t.said()
    assert t.said()[-2].startswith("The Secret Roles were: The Riddler, Watchful;")
    assert t.said()[-1] == "Game over: the Villains win."
    assert t.referee.is_finished() and t.outputs[-3] == SeatLights((0, 2, 3))


def test_catwoman_shows_her_full_house_when_voted_guilty() -> None:
    t = ready(["watchful", "batman", "catwoman", "telepathic"])
    to_round_two(t)
    t.choose("accuse", 2)
    t.choose("second", 0)
    t.next("defence")
    for p in (0, 1, 3):
        t.choose("guilty", p)
    t.next("votes")
    out = t.lay_hand("5d 5r 7d 7b 9r")
    assert out == [Say(words.NOT_A_WIN)] and t.e.phase == "verdict"
    t.card("removed", cards("9r")[0], "reveal")
    t.lay_hand("7r")
    assert "The Penguin is Catwoman with a Full House. Catwoman wins alone!" in t.said()
    assert t.referee.is_finished()


def test_a_hand_shown_in_the_blackout_is_the_hubs_secret() -> None:
    t = ready()
    t.quiet_turns()
    t.blackout(acts={1: 2})
    public = t.referee.status("public")
    assert public["seats"][1]["known_cards"] == []
    assert "batman" not in repr(public)


def test_the_role_hands_in_the_test_table_fit_the_engine() -> None:
    from tablehub.games.almost_got_im.rules import default_rules

    rules = default_rules()
    for role, hand in HANDS.items():
        assert rules.roles[role].hand.met(cards(hand)), role


def test_a_knob_press_outside_a_prompt_declares_nothing_at_the_wrong_time() -> None:
    t = ready()
    t.quiet_turns()
    assert t.table.feed(PanelEvent("declared")) == []


def test_a_refill_tells_the_camera_to_read_the_piles_again() -> None:
    """The piles change under their tops: what the camera remembers there is out of date."""
    t = ready()
    refill = words.rulebook("refill")
    for _ in range(12):
        if refill in t.said():
            break
        t.quiet_turns()
        if t.e.phase == "accuse":
            t.next("noaccuse")
        t.blackout()
    index = t.outputs.index(Say(refill))
    assert t.outputs[index + 1] == Reread("camera", None, "the discard piles were refilled")
