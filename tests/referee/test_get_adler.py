"""The Get Adler! referee, driven by scripted camera readings and panel presses."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tablehub.observations import CardEvent, ManualEvent, PanelEvent
from tablehub.referee import load_referee
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    OfflineTable,
    Reread,
    Say,
    SeatLights,
    Setup,
    Show,
    WaitNext,
)
from tablehub.referee.get_adler import AdlerReferee
from tablehub.service.app import Devices, open_session
from tablehub.service.app import Hub as ServiceHub
from tablehub.service.journal import Journal

SEATS = ("Ann", "Bob", "Cy", "Dee")


def card(card_id: str | None, zone: str = "discard", confidence: float = 0.99) -> CardEvent:
    return CardEvent("appeared", card_id, zone, True, confidence, (100.0, 100.0))


def flip(character: str, seat: int) -> CardEvent:
    return CardEvent(
        "flipped", f"adler:char-{character}", f"seat-{seat + 1}", True, 0.99, (0.0, 0.0)
    )


class Hub:
    """An offline table with the Get Adler! referee and a few shortcuts."""

    def __init__(
        self,
        seats: tuple[str, ...] = SEATS,
        options: dict[str, object] | None = None,
        seed: int = 0,
    ) -> None:
        self.referee = AdlerReferee(Setup("get-adler", seats, dict(options or {}), seed=seed))
        self.table = OfflineTable(self.referee)
        self.table.start()
        # cards nothing in these tests needs, in the order they are thrown away
        self.throwaways = ["adler:question"] * 8 + ["adler:magnifier"] * 8
        self.throwaways += ["adler:document"] * 9 + ["adler:pistol"] * 8

    @property
    def engine(self):  # type: ignore[no-untyped-def]
        return self.referee.engine

    def said(self) -> list[str]:
        return self.table.said()

    def last_said(self, count: int = 1) -> list[str]:
        return self.said()[-count:]

    def feed(self, observation: CardEvent | PanelEvent) -> list[object]:
        return list(self.table.feed(observation))

    def request(self, kind: type) -> str:
        for output in reversed(self.table.outputs):
            if isinstance(output, kind):
                return str(output.request)  # type: ignore[attr-defined]
        raise AssertionError(f"no {kind.__name__} asked")

    def press(self) -> list[object]:
        return self.feed(PanelEvent("next", request=self.request(WaitNext)))

    def choose(self, seat: int) -> list[object]:
        return self.feed(PanelEvent("seat_chosen", seat=seat, request=self.request(ChooseSeat)))

    def discard(self, card_id: str | None = None) -> list[object]:
        return self.feed(card(card_id or self.throwaways.pop(0)))

    def to_round(self, hour: int, until_seat: int | None = None) -> None:
        """Everyone discards a question (or magnifier...) until ``hour`` (and that seat's turn)."""
        while self.engine.round < hour or (
            until_seat is not None and self.engine.turn != until_seat
        ):
            self.discard()


def test_registered() -> None:
    assert load_referee("get-adler") is AdlerReferee


def test_opening_announces_the_clock_and_the_first_player() -> None:
    hub = Hub(seed=3)
    start = hub.engine.start
    said = hub.said()
    assert f"{SEATS[start]} has the clock and starts." in said
    assert "It is one o'clock." in said
    assert said[-1] == f"{SEATS[start]}, your turn."
    assert SeatLights((start,)) in hub.table.outputs


def test_cards_on_the_discard_pile_belong_to_the_player_whose_turn_it_is() -> None:
    hub = Hub(seed=0)
    first = hub.engine.turn
    out = hub.discard("adler:pistol")
    assert Show("public", f"{SEATS[first]} discards a pistol.", {"card": "pistol-1"}) in out
    assert hub.engine.public_view()["discard"] == ["pistol-1"]
    assert hub.engine.turn == (first + 1) % 4
    hub.discard("adler:pistol")
    assert hub.engine.public_view()["discard"] == ["pistol-1", "pistol-2"]  # another copy


def test_the_clock_is_announced_every_round() -> None:
    hub = Hub()
    hub.to_round(3)
    clocks = [s for s in hub.said() if s.startswith("It is")]
    assert clocks == ["It is one o'clock.", "It is two o'clock.", "It is three o'clock."]


def test_an_arrest_before_four_is_refused_out_loud() -> None:
    hub = Hub()
    hub.to_round(3)
    seat = hub.engine.turn
    before = hub.referee.snapshot()
    out = hub.feed(card("adler:arrest", zone=f"seat-{(seat + 1) % 4 + 1}"))
    spoken = [o.text for o in out if isinstance(o, Say)]
    assert spoken and "four o'clock" in spoken[0] and "three o'clock" in spoken[0]
    assert "Take the card back" in spoken[0]
    assert hub.referee.snapshot()["engine"] == before["engine"]  # nothing changed
    hub.discard("adler:arrest")  # the card may still be discarded
    assert hub.engine.turn == (seat + 1) % 4


def test_unjust_arrest_and_skipped_turns_are_announced() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    arrester = hub.engine.turn
    accused = (arrester + 2) % 4
    hub.feed(card("adler:arrest", zone=f"seat-{accused + 1}"))
    assert f"{SEATS[arrester]} arrests {SEATS[accused]}!" in hub.said()
    assert "if the arrest is right" in hub.last_said()[0]
    hub.press()
    assert f"An unjust arrest! {SEATS[arrester]} and {SEATS[accused]}" in " ".join(hub.said())
    hub.discard()  # the next player
    assert f"{SEATS[accused]} sits out and loses this turn." in hub.said()
    assert hub.engine.turn == (accused + 1) % 4


def _right_arrest(hub: Hub, adler: int) -> int:
    """The player to move arrests ``adler``, who turns Adler face up; the rest follow."""
    arrester = hub.engine.turn
    hub.feed(card("adler:arrest", zone=f"seat-{adler + 1}"))
    hub.feed(flip("adler", adler))
    assert "The arrest is right!" in hub.said()
    assert hub.last_said()[-1] == "Everyone, turn your character cards face up."
    heroes = iter(["gold", "sharpe", "townsend"])
    for seat in range(4):
        if seat != adler:
            hub.feed(flip(next(heroes), seat))
    return arrester


def test_a_whole_confrontation_step_by_step() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    adler = (hub.engine.turn + 1) % 4
    arrester = _right_arrest(hub, adler)
    assert f"{SEATS[adler]} is Adler." in " ".join(hub.said())
    assert f"Confrontation: {SEATS[arrester]} against {SEATS[adler]}." in hub.said()
    assert "play a reaction card" in hub.last_said()[0]
    hub.feed(card("adler:escape", zone=f"seat-{adler + 1}"))
    assert hub.said()[-2] == f"{SEATS[adler]} plays an escape card!"
    assert "Heroes, answer with an escape card" in hub.last_said()[0]
    hub.feed(card("adler:escape", zone=f"seat-{adler + 1}"))
    assert "Who played that escape card?" in hub.last_said()[0]
    third = next(s for s in range(4) if s not in (adler, arrester))
    hub.choose(third)
    assert f"{SEATS[third]} gives chase with an escape card!" in hub.said()
    hub.feed(card("adler:pistol", zone=f"seat-{adler + 1}"))
    assert f"a gunfight with {SEATS[third]}!" in hub.said()[-2]
    assert hub.last_said()[0] == f"{SEATS[third]}, shoot, or press the button to stop."
    hub.feed(card("adler:pistol", zone=f"seat-{third + 1}"))
    assert f"Bang! {SEATS[third]} fires." in hub.said()
    hub.press()  # Adler stops
    hub.feed(card("adler:pistol", zone=f"seat-{third + 1}"))
    hub.press()  # the hero stops: 1 against 2
    said = " ".join(hub.said())
    assert f"{SEATS[adler]} fired 1, {SEATS[third]} 2. {SEATS[adler]} is shot." in said
    assert hub.engine.is_terminal()
    assert hub.said()[-1] == "The heroes win: the villain was shot."
    assert hub.referee.is_finished()


def test_the_bomb_and_knocked_out_heroes() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    adler = (hub.engine.turn + 3) % 4
    arrester = _right_arrest(hub, adler)
    hub.feed(card("adler:bomb", zone=f"seat-{adler + 1}"))
    assert "A bomb! Every hero is knocked out and skips the next turn." in hub.said()
    assert any("refills to seven cards" in text for text in hub.said()[-4:])
    # the turn passes from the arrester: heroes lose their turns, Adler plays
    assert hub.engine.turn == adler
    knocked = [s for s in hub.said() if "is knocked out and loses this turn" in s]
    assert len(knocked) == 2  # the two heroes seated between the arrester and Adler
    assert hub.engine.skips[arrester] == ["bomb"]  # the arrester's own turn comes later


def test_nobody_answers_the_escape_with_the_button() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    adler = (hub.engine.turn + 1) % 4
    _right_arrest(hub, adler)
    hub.feed(card("adler:escape", zone=f"seat-{adler + 1}"))
    hub.press()
    assert f"{SEATS[adler]} got away." in hub.said()[-2]


def test_no_reaction_with_the_button_ends_the_game() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    adler = (hub.engine.turn + 1) % 4
    _right_arrest(hub, adler)
    hub.press()
    assert f"{SEATS[adler]} has no reaction and is arrested!" in hub.said()
    assert hub.said()[-1] == "The heroes win: the villain was arrested."


def test_a_wrong_reaction_is_refused_and_disguise_against_townsend_with_extended_rules() -> None:
    hub = Hub(seed=0, options={"extended": True})
    hub.to_round(4)
    adler = (hub.engine.turn + 1) % 4
    arrester = hub.engine.turn
    hub.feed(card("adler:arrest", zone=f"seat-{adler + 1}"))
    hub.feed(flip("adler", adler))
    heroes = iter(["townsend", "gold", "sharpe"])  # the arrester is Townsend
    for seat in [arrester] + [s for s in range(4) if s not in (adler, arrester)]:
        hub.feed(flip(next(heroes), seat))
    out = hub.feed(card("adler:binoculars", zone=f"seat-{adler + 1}"))
    assert any("binoculars card is no reaction" in o.text for o in out if isinstance(o, Say))
    out = hub.feed(card("adler:disguise", zone=f"seat-{adler + 1}"))
    assert any("Townsend never forgets a face" in o.text for o in out if isinstance(o, Say))
    assert hub.engine.phase == "react"


def test_unreadable_and_duplicate_cards_are_reread_then_asked() -> None:
    hub = Hub()
    out = hub.feed(card(None, confidence=0.3))
    assert any(isinstance(o, Reread) for o in out)
    hub.discard("adler:disguise")
    out = hub.discard("adler:disguise")  # there is only one disguise
    assert any(isinstance(o, Reread) for o in out)
    out = hub.discard("adler:disguise")
    assert any(isinstance(o, AskTable) and "already on the table" in o.question for o in out)


def test_seven_oclock_reveal_and_documents() -> None:
    hub = Hub(seed=1)
    hub.to_round(7)
    while hub.engine.phase == "play":
        hub.discard()
    assert "It is seven o'clock. Time is up!" in hub.said()
    assert hub.last_said()[-1] == "Everyone, turn your character cards face up."
    for seat, character in enumerate(("gold", "sharpe", "adler", "townsend")):
        hub.feed(flip(character, seat))
    assert "Cy, lay your top-secret documents face up" in hub.last_said()[0]
    hub.feed(card("adler:document", zone="reveal"))
    hub.press()
    assert hub.said()[-1] == (
        "The villains win: the villains kept a top-secret document until seven o'clock."
    )


def test_binoculars_wait_for_the_knob() -> None:
    hub = Hub(seed=0)
    seat = hub.engine.turn
    hub.discard("adler:binoculars")
    assert hub.engine.turn == seat  # not done yet
    assert "turn the knob to the player you watch" in hub.last_said()[0]
    hub.choose((seat + 2) % 4)
    assert f"watches {SEATS[(seat + 2) % 4]} through binoculars" in " ".join(hub.said())
    assert hub.engine.turn == (seat + 1) % 4
    sizes = hub.engine.public_view()["hand_sizes"]
    assert sizes[seat] == sizes[(seat + 2) % 4] == 7  # took one, gave one back


def test_replaying_the_records_rebuilds_the_same_state() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    adler = (hub.engine.turn + 1) % 4
    _right_arrest(hub, adler)
    hub.feed(card("adler:escape", zone=f"seat-{adler + 1}"))
    fresh = AdlerReferee(hub.referee.setup)
    for seq, record in enumerate(hub.table.records, start=1):
        fresh.apply(seq, record)
    assert fresh.state() == hub.referee.state()


def test_nothing_said_names_a_character_before_the_reveal() -> None:
    hub = Hub(seed=2)
    hub.to_round(4)
    hub.feed(card("adler:arrest", zone=f"seat-{(hub.engine.turn + 1) % 4 + 1}"))
    hub.press()
    hub.to_round(6)
    heroes = ("Gold", "Sharpe", "Townsend", "Collins", "Tarasov")
    for text in hub.said():
        assert not any(name in text for name in heroes), text
        assert "Adler" not in text.replace("Get Adler!", ""), text


def test_the_ultimate_mission_card_is_read_first() -> None:
    hub = Hub(options={"ultimate_mission": True})
    assert "The Ultimate Mission" in hub.last_said()[0]
    assert hub.engine.phase == "mission"
    hub.feed(card("adler:document-mi5", zone="reveal"))
    assert "The villains must keep a document of the MI5." in hub.said()
    assert hub.engine.mission == "MI5" and hub.engine.phase == "play"


def test_a_dead_hero_loot_and_no_more_turns() -> None:
    seats = ("Ann", "Bob", "Cy", "Dee", "Eve")
    hub = Hub(seats=seats, seed=0)
    hub.to_round(4)
    arrester = hub.engine.turn
    adler = (arrester + 1) % 5
    hub.feed(card("adler:arrest", zone=f"seat-{adler + 1}"))
    hub.feed(flip("adler", adler))
    others = iter(["gold", "sharpe", "townsend", "kate-collins"])  # the arrester is Gold
    for seat in [arrester] + [s for s in range(5) if s not in (adler, arrester)]:
        hub.feed(flip(next(others), seat))
    hub.feed(card("adler:pistol", zone=f"seat-{adler + 1}"))
    hub.press()  # the hero does not answer
    hub.press()  # Adler stops too: one shot to none
    assert f"{seats[arrester]} is shot." in " ".join(hub.said())
    assert f"{seats[adler]}, you may draw cards from {seats[arrester]}'s hand" in hub.last_said()[0]
    out = hub.feed(ManualEvent("loot", {"count": 2}))  # Adler holds six: only one is allowed
    assert any(isinstance(o, Reread) for o in out) and hub.engine.phase == "loot"
    hub.feed(ManualEvent("loot", {"count": 1}))
    assert hub.engine.turn == adler  # left of the arrester, and he has drawn his card
    assert hub.engine.public_view()["hand_sizes"][adler] == 8
    assert hub.engine.book.discard_unknown == 6  # the dead hand's other cards, unseen
    while hub.engine.turn != (arrester - 1) % 5:
        hub.discard()
    hub.discard()
    assert f"{seats[arrester]} is dead: no turn." in hub.said()
    seat = hub.engine.turn
    out = hub.feed(card("adler:arrest", zone=f"seat-{arrester + 1}"))
    refusal = next(o.text for o in out if isinstance(o, Say))
    assert f"{seats[arrester]} (Gold) is out of the game" in refusal and "seat" not in refusal
    assert hub.engine.turn == seat


def test_a_timed_out_prompt_is_repeated() -> None:
    hub = Hub(seed=0)
    hub.to_round(4)
    hub.feed(card("adler:arrest", zone=f"seat-{(hub.engine.turn + 1) % 4 + 1}"))
    prompt = hub.last_said()[0]
    out = hub.feed(PanelEvent("timeout", request=hub.request(WaitNext)))
    assert Say(prompt) in out and hub.engine.phase == "answer-arrest"
    stale = PanelEvent("next", request="next-1")
    assert hub.feed(stale) == []  # an answer to an old prompt changes nothing


def test_a_session_resumes_from_the_journal_to_the_same_state(tmp_path: Path) -> None:
    """Records go through SQLite as JSON; replaying them rebuilds the referee exactly."""
    setup = Setup("get-adler", SEATS, {"extended": True}, seed=0)
    journal = Journal(tmp_path / "journal.sqlite3")
    referee, session, resumed = open_session(journal, AdlerReferee, setup)
    assert isinstance(referee, AdlerReferee) and not resumed

    async def play() -> None:
        hub = ServiceHub(journal, referee, session, Devices())
        hub.accept(referee.opening(), None)
        for _ in range(12):  # three hours of discards: four o'clock, the start player's turn
            hub.handle(card("adler:question" if referee.engine.round < 3 else "adler:magnifier"))
        adler = (referee.engine.turn + 1) % 4
        hub.handle(card("adler:arrest", zone=f"seat-{adler + 1}"))
        hub.handle(flip("adler", adler))
        await hub.close()

    asyncio.run(play())
    assert referee.engine.round == 4 and referee.engine.phase == "reveal"
    again, _, resumed = open_session(journal, AdlerReferee, setup)
    assert resumed and again.state() == referee.state()
    said = [o for o in again.resume_outputs() if isinstance(o, Say)]
    assert said[-1] == Say("Everyone, turn your character cards face up.")
    journal.close()
