"""A scripted Almost Got 'Im table for referee tests: what the camera and the panel would
report, fed to the referee through ``OfflineTable`` (no time, no hardware)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablehub.devices.schedule import Schedule
from tablehub.games.almost_got_im.cards import (
    character_card_id,
    role_card_id,
    to_vision_id,
)
from tablehub.games.almost_got_im.state import AgiState
from tablehub.observations import CardEvent, PanelEvent
from tablehub.referee.almost_got_im import AgiReferee
from tablehub.referee.base import (
    ChooseSeat,
    OfflineTable,
    Output,
    PlaySchedule,
    PrivateLight,
    Say,
    Setup,
    WaitNext,
)
from tests.games.almost_got_im.table import DEFAULT_CHARACTERS, cards

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus")
HANDS = {  # a hand that meets each role (the data file's defaults)
    "batman": "6b 6h qd qr 2b",
    "watchful": "9b 9h 9d 2r 5b",
    "crafty": "8b 8h 8d 3r 5h",
    "healer": "3h 7h jh kh ah",
    "homicidal": "4b 4h 4d jr jb",
    "saboteur": "10b jd qb kd ab",
    "sneaky": "10h jd qh kb ad",
    "telepathic": "2d 2h 3d 3b kr",
    "catwoman": "5d 5r 7d 7b 7r",
}
JUNK = "2b 4h 6d 8r 10b"


def card_event(change: str, card: str, zone: str, face_up: bool = True) -> CardEvent:
    return CardEvent(change, to_vision_id(card), zone, face_up, 0.99, (0.0, 0.0))  # type: ignore[arg-type]


class AgiTable:
    """An offline table; ``roles`` by seat, Characters from the engine tests' defaults."""

    def __init__(
        self,
        roles: Sequence[str],
        characters: Sequence[str] = DEFAULT_CHARACTERS,
        seed: int = 0,
        seats: int | None = None,
        slot: float = 12.0,
        sweep: float = 6.0,
        **options: Any,
    ) -> None:
        self.roles = list(roles)
        self.characters = list(characters[: len(roles)])
        n = seats or len(roles)
        options = {"max_rounds": 30, **options}
        setup = Setup("almost-got-im", NAMES[:n], options, seed, slot, sweep)
        self.referee = AgiReferee(setup)
        self.table = OfflineTable(self.referee)
        self.table.start()

    # --- reading the referee ------------------------------------------------------------
    @property
    def e(self) -> AgiState:
        return self.referee.e

    @property
    def outputs(self) -> list[Output]:
        return self.table.outputs

    def said(self) -> list[str]:
        return self.table.said()

    def request(self, prefix: str) -> str:
        for output in reversed(self.referee.prompts):
            if isinstance(output, ChooseSeat | WaitNext) and output.request.startswith(prefix):
                return output.request
        raise AssertionError(f"no open request {prefix!r}: {self.referee.prompts}")

    def schedule(self) -> Schedule:
        return next(o.schedule for o in reversed(self.outputs) if isinstance(o, PlaySchedule))

    def lights(self, since: int = 0) -> list[PrivateLight]:
        return [o for o in self.outputs[since:] if isinstance(o, PrivateLight)]

    # --- what people do -------------------------------------------------------------------
    def next(self, prefix: str) -> list[Output]:
        return self.table.feed(PanelEvent("next", request=self.request(prefix)))

    def choose(self, prefix: str, player: int) -> list[Output]:
        seat = self.referee.places[player] if self.referee.places else player
        return self.table.feed(PanelEvent("seat_chosen", seat=seat, request=self.request(prefix)))

    def card(self, change: str, card: str, zone: str, face_up: bool = True) -> list[Output]:
        return self.table.feed(card_event(change, card, zone, face_up))

    def declare(self) -> list[Output]:
        return self.table.feed(PanelEvent("declared"))

    # --- set-up ---------------------------------------------------------------------------
    def sit_down(self) -> list[Output]:
        for seat, character in enumerate(self.characters):
            self.card("appeared", character_card_id(character), f"seat-{seat}")
        return self.next("characters")

    def roles_check(self, unread: Sequence[int] = ()) -> list[Output]:
        start = len(self.outputs)
        self.next("roles")

        def show(i: int, player: int) -> None:
            if player not in unread:
                self.card("appeared", role_card_id(self.roles[player]), "reveal")

        self.night(on_wake=show)
        return self.outputs[start:]

    def set_up(self) -> None:
        self.sit_down()
        self.roles_check()
        self.next("dealt")
        assert self.referee.phase == "play" and self.e.phase == "turn"

    # --- playing ----------------------------------------------------------------------------
    def fresh(self, count: int = 1) -> list[str]:
        """Cards nobody has seen (any of them may be in a hand)."""
        reserved = {c for role in self.roles for c in cards(HANDS[role])}
        pool = [c for c in self.e.unseen if not c.startswith("agi:joker") and c not in reserved]
        return pool[:count]

    def pile(self) -> str:
        """The zone of the first discard pile a card may go to now."""
        return f"discard-{self.e.legal_piles()[0] + 1}"

    def quiet_turn(self) -> list[Output]:
        """The active player draws from the deck (unseen) and discards a card."""
        return self.card("appeared", self.fresh()[0], self.pile())

    def quiet_turns(self) -> None:
        while self.referee.phase == "play" and self.e.phase == "turn":
            self.quiet_turn()

    def night(
        self,
        on_wake: Callable[[int, int], None] | None = None,
        on_mark: Callable[[str], None] | None = None,
    ) -> list[Output]:
        """Play the running schedule's marks in order; ``on_wake(i, player)`` in each slot."""
        start = len(self.outputs)
        plan = self.referee.night
        assert plan is not None
        for mark in self.schedule().marks():
            self.table.fire(mark.text)
            if on_mark is not None:
                on_mark(mark.text)
            kind = mark.text.split(":")[1]
            if kind == "wake" and on_wake is not None:
                index = int(mark.text.split(":")[2])
                on_wake(index, plan.awake[index].player)
        return self.outputs[start:]

    def lay_hand(self, hand: str | list[str]) -> list[Output]:
        out: list[Output] = []
        for card in cards(hand) if isinstance(hand, str) else hand:
            out += self.card("appeared", card, "reveal")
        return out

    def blackout(
        self, acts: dict[int, int | None] | None = None, hands: dict[int, str] | None = None
    ) -> list[Output]:
        """The Blackout: players in ``acts`` lay their role's hand and point at the value."""
        acts = acts or {}

        def wake(i: int, player: int) -> None:
            if player in acts:
                hand = (hands or {}).get(player, HANDS[self.roles[player]])
                self.lay_hand(hand)
                if acts[player] is not None:
                    self.choose(f"{self.referee.night.tag}:aim", acts[player])  # type: ignore[union-attr]

        return self.night(on_wake=wake)

    def spoken_since(self, start: int) -> list[str]:
        return [o.text for o in self.outputs[start:] if isinstance(o, Say)]
