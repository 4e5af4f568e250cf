"""The example referee (High Card): the smallest complete use of the Referee interface.

It shows the pattern every game referee follows: observations become engine moves only
when the engine accepts them; an impossible card is rejected (re-read, then the table is
asked); the panel picks the first seat and paces the rounds; a countdown timer per turn
makes a silent player pass; the private light confirms a read to the player.  Used by the
devices demo and by the service tests (journal, resume after ``kill -9``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablehub.games.base import CHANCE, Move
from tablehub.games.high_card import GAME, HighCardState, card_name
from tablehub.observations import CardEvent, Observation, PanelEvent
from tablehub.referee.base import (
    Audience,
    CancelTimer,
    ChooseSeat,
    Output,
    PrivateLight,
    Record,
    RecordError,
    Referee,
    Say,
    SeatLights,
    Setup,
    StartTimer,
    WaitNext,
)

MIN_CONFIDENCE = 0.8


class HighCardReferee(Referee):
    game: ClassVar[str] = "high-card"

    def __init__(self, setup: Setup) -> None:
        options = dict(setup.options)
        self.turn_seconds = float(options.pop("turn_seconds", 10.0))
        self.choose_seconds = float(options.pop("choose_seconds", 30.0))
        self.next_seconds = float(options.pop("next_seconds", 60.0))
        self.engine_options = options
        super().__init__(setup)

    # --- state ------------------------------------------------------------------------
    def reset(self) -> None:
        self.engine: HighCardState = GAME.new_initial_state(
            len(self.setup.seats), self.engine_options
        )
        self.phase = "idle"  # idle -> choose_first -> turn <-> wait_next -> over

    def snapshot(self) -> Any:
        return {"phase": self.phase, "engine": self.engine.to_json()}

    def is_finished(self) -> bool:
        return self.phase == "over"

    def status(self, audience: Audience) -> dict[str, Any]:
        return {"phase": self.phase, **self.engine.public_view()}

    def name(self, seat: int) -> str:
        return self.setup.seats[seat]

    # --- deciding ---------------------------------------------------------------------
    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, PanelEvent):
            return self._panel(observation)
        if isinstance(observation, CardEvent):
            return self._card(observation)
        return []

    def _panel(self, event: PanelEvent) -> list[Record]:
        if self.phase == "choose_first" and event.request == "first":
            seat = event.seat if event.action == "seat_chosen" else 0
            move: Move = {"kind": "start", "player": CHANCE, "first": seat}
            reason = self.engine.check(move)
            if reason is not None:
                return self.reject(event, reason, "Please choose a seat again.", source="panel")
            return [{"kind": "move", "move": move}]
        waiting = self.phase == "wait_next" and event.request == f"round-{self.engine.round}"
        if waiting and event.action in ("next", "timeout"):
            return [{"kind": "next_round"}]
        return []

    def _card(self, event: CardEvent) -> list[Record]:
        if self.phase != "turn" or event.zone != "reveal" or event.change != "appeared":
            return []
        seat = self.engine.to_act()
        if event.card_id is None or not event.face_up or event.confidence < MIN_CONFIDENCE:
            why = f"unreadable card at the reveal spot (confidence {event.confidence:.2f})"
            public = "I could not read that card. Please show it again."
            return self.reject(event, why, public, key="reveal", zone="reveal")
        card = event.card_id
        trial = self.engine.clone()
        reveal: Move = {"kind": "reveal", "player": seat}
        reason = trial.check(reveal)
        if reason is None:
            trial.apply(reveal)
            reason = trial.check({"kind": "card", "player": CHANCE, "card": card})
        if reason is not None:
            public = f"{reason}. Please check the card."
            return self.reject(event, reason, public, key="reveal", zone="reveal")
        return [
            {"kind": "move", "move": {"kind": "reveal", "player": seat}},
            {"kind": "move", "move": {"kind": "card", "player": CHANCE, "card": card}},
        ]

    # --- applying ---------------------------------------------------------------------
    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        if kind == "begin":
            self.phase = "choose_first"
            seats = tuple(range(len(self.setup.seats)))
            return [
                Say("Welcome to High Card. Dealer, choose who starts, then press the knob."),
                ChooseSeat("first", seats, self.choose_seconds),
            ]
        if kind == "move":
            return self._move(record["move"])
        if kind == "timer":
            if self.phase != "turn" or record["name"] != self._turn_timer():
                raise RecordError(f"unexpected timer {record['name']!r} in phase {self.phase}")
            seat = self.engine.current_player()
            passed = self._move({"kind": "pass", "player": seat}, timer_done=True)
            return [Say(f"{self.name(seat)} is out of time and passes."), *passed]
        if kind == "next_round":
            if self.phase != "wait_next":
                raise RecordError("next_round outside the pause between rounds")
            self.phase = "turn"
            return self._turn()
        raise RecordError(f"High Card has no record kind {kind!r}")

    def _move(self, move: Move, timer_done: bool = False) -> list[Output]:
        before_round = self.engine.round
        timer = self._turn_timer()
        events = self.engine.apply(move)  # IllegalMove here would be a journal bug
        outputs: list[Output] = []
        for event in events:
            if event["kind"] == "started":
                self.phase = "turn"
                outputs.append(Say(f"{self.name(event['first'])} starts."))
                outputs += self._turn()
            elif event["kind"] == "revealed":
                seat = event["seat"]
                outputs.append(CancelTimer(timer))
                outputs.append(PrivateLight("green", 1.0, seat))
                outputs.append(Say(f"{self.name(seat)} shows the {card_name(event['card'])}."))
            elif event["kind"] == "passed" and not timer_done:
                outputs.append(CancelTimer(timer))
            elif event["kind"] == "round_won":
                winner = event["seat"]
                who = self.name(winner) if winner is not None else "Nobody"
                outputs.append(Say(f"{who} wins round {before_round + 1}."))
        if move["kind"] in ("card", "pass") and self.engine.round == before_round:
            outputs += self._turn()
        elif self.engine.round != before_round:
            outputs += self._after_round()
        return outputs

    def _turn_timer(self) -> str:
        return f"turn-{self.engine.round}-{self.engine.to_act()}"

    def _turn(self) -> list[Output]:
        seat = self.engine.to_act()
        assert seat is not None
        return [
            SeatLights((seat,)),
            Say(f"{self.name(seat)}, show a card."),
            StartTimer(self._turn_timer(), self.turn_seconds, countdown="buzz"),
        ]

    def _after_round(self) -> list[Output]:
        if self.engine.is_terminal():
            self.phase = "over"
            returns = self.engine.returns()
            winners = tuple(s for s, r in enumerate(returns) if r > 0)
            names = " and ".join(self.name(s) for s in winners) or "nobody"
            return [SeatLights(winners), Say(f"Game over. The winner: {names}.")]
        self.phase = "wait_next"
        return [
            SeatLights(()),
            Say("Press next for the next round."),
            WaitNext(f"round-{self.engine.round}", self.next_seconds),
        ]

    def on_resume(self) -> list[Output]:
        if self.phase == "choose_first":
            return [ChooseSeat("first", tuple(range(len(self.setup.seats))), self.choose_seconds)]
        if self.phase == "turn":
            seat = self.engine.to_act()
            return [SeatLights((seat,))] if seat is not None else []
        if self.phase == "wait_next":
            return [WaitNext(f"round-{self.engine.round}", self.next_seconds)]
        return []
