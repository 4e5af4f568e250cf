"""The Almost Got 'Im referee's state and plumbing (see ``almost_got_im`` for the whole).

``AgiCore`` holds everything the referee knows, names and seats, the panel requests it has
open, and the one way engine moves are played: ``_play`` applies them (dealing every unseen
card itself), turns the engine's events into outputs (the rulebook's lines, the private
light's answers) and, when the engine reaches a new step, asks for its prompts.  During a
night only the private light and the knob go out at once; every other output is held until
everyone's eyes are open (``_route``).  The steps live in mixins: set-up, turns, council,
nights.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from tablehub.games.almost_got_im import AgiState
from tablehub.games.almost_got_im.state import OPTION_KEYS, SCRIPT
from tablehub.games.base import DEALER, PUBLIC, Event, Move
from tablehub.observations import CardEvent, Observation
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_blackout import (
    NightPlan,
    NightTiming,
)
from tablehub.referee.almost_got_im_moves import (
    poker_card,
    run,
    trial,
)
from tablehub.referee.base import (
    Audience,
    ChooseSeat,
    Output,
    PrivateLight,
    Record,
    RecordError,
    Referee,
    Reread,
    Say,
    SeatLights,
    Setup,
    WaitNext,
)

TIMES = {
    "deliberation_seconds": 60.0,  # before the Brains' 10-to-0 countdown
    "speech_seconds": 30.0,  # before the seconding 5-to-0 countdown
    "defence_seconds": 90.0,  # the defence ("30 seconds before we move on!" at 60)
    "entry_seconds": 180.0,  # entering the Votes on the panel
    "verdict_seconds": 20.0,  # a Guilty accused may show Catwoman's Full House
    "wait_seconds": 900.0,  # "press next" waits (set-up, Jokers, Ra's al Ghul, Harley)
    "choose_seconds": 120.0,  # a Character ability's target
}
NIGHT_OPTIONS = ("call", "role_call", "everyone", "sweep_intro")  # as "<name>_seconds"
ACCUSE_COUNT, SECOND_COUNT = 10, 5  # the rulebook's countdowns
HURRY_AT = 30.0
MIN_CONFIDENCE = 0.8
RED_SECONDS = 3.0


def _dump(output: Output) -> list[Any]:
    return [type(output).__name__, dataclasses.asdict(output)]


class AgiCore(Referee):
    """State and plumbing shared by the step mixins (see the module docstring)."""

    game: ClassVar[str] = "almost-got-im"

    def __init__(self, setup: Setup) -> None:
        options = dict(setup.options)
        self.times = {k: float(options.pop(k, v)) for k, v in TIMES.items()}
        night = {
            k: float(options.pop(f"{k}_seconds"))
            for k in NIGHT_OPTIONS
            if f"{k}_seconds" in options
        }
        self.timing = NightTiming(
            slot=setup.slot_seconds,
            sweep=setup.sweep_slot_seconds,
            masking=setup.masking_sound,
            **night,
        )
        self.min_confidence = float(options.pop("min_confidence", MIN_CONFIDENCE))
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise ValueError(f"unknown Almost Got 'Im referee option {unknown[0]!r}")
        self.engine_options = options
        if not 4 <= len(setup.seats) <= 7:
            raise ValueError(f"Almost Got 'Im needs 4 to 7 seats, not {len(setup.seats)}")
        super().__init__(setup)

    def reset(self) -> None:
        self.phase = "idle"
        self.engine: AgiState | None = None
        self.places: list[int] = []  # engine player -> physical seat
        self.seen_chars: dict[int, str] = {}  # physical seat -> Character key (camera)
        self.roles_seen: dict[int, str] = {}  # player -> role (roles check; secret)
        self.attempt = 0  # roles checks so far
        self.night: NightPlan | None = None
        self.slot: dict[str, Any] | None = None  # the open slot: i, player, sweep, aim, shown
        self.reveal: list[str] = []  # face-up cards at the reveal spot, in arrival order
        self.held: list[Output] = []  # public outputs held until the night's end
        self.prompts: list[Output] = []  # open panel requests (re-issued on resume)
        self.frozen: dict[str, Any] | None = None  # the public view while a night runs
        self.asked = 0
        self.step: list[Any] = []  # the engine step last prompted for
        self.declared = False  # the active player pressed the knob: ability coming
        self.ability: Move | None = None  # an ability waiting for its target
        self.guilty: list[int] = []  # Vote entry: players whose thumb is up
        self.council = ""  # "", "defence", "entry"
        self.jokers: dict[int, list[str]] = {}  # The Joker: Jokers shown, by player
        self.lifted: list[list[Any]] = []  # Ra's al Ghul: [pile, top put back or None]
        self.ras_between: list[int] = []  # Ra's al Ghul: piles the table must choose from
        self.victim: int | None = None  # the Saboteur's victim (sweep); secret

    def snapshot(self) -> Any:
        return {
            "phase": self.phase,
            "engine": self.engine.to_json() if self.engine is not None else None,
            "places": list(self.places),
            "seen_chars": {str(k): v for k, v in sorted(self.seen_chars.items())},
            "roles_seen": {str(k): v for k, v in sorted(self.roles_seen.items())},
            "attempt": self.attempt,
            "night": self.night.to_json() if self.night is not None else None,
            "slot": self.slot,
            "reveal": list(self.reveal),
            "held": [_dump(o) for o in self.held],
            "prompts": [_dump(o) for o in self.prompts],
            "asked": self.asked,
            "step": list(self.step),
            "declared": self.declared,
            "ability": self.ability,
            "guilty": list(self.guilty),
            "council": self.council,
            "jokers": {str(k): v for k, v in sorted(self.jokers.items())},
            "lifted": [list(x) for x in self.lifted],
            "ras_between": list(self.ras_between),
            "victim": self.victim,
        }

    def is_finished(self) -> bool:
        return self.phase == "over"

    def status(self, audience: Audience) -> dict[str, Any]:
        """Public status: the referee's phase, what the panel waits for, the public view
        (frozen at the start of a night, so nothing changes until eyes open)."""
        view: dict[str, Any] = {}
        if self.frozen is not None:
            view = self.frozen
        elif self.engine is not None:
            view = self.engine.public_view()
        waiting = [o.request for o in self.prompts if isinstance(o, ChooseSeat | WaitNext)]
        return {
            **view,
            "phase": self.phase,
            "engine_phase": view.get("phase"),
            "places": list(self.places),
            "waiting": waiting,
            "night": self.night.tag if self.night is not None else None,
        }

    @property
    def e(self) -> AgiState:
        if self.engine is None:
            raise RecordError("the game is not set up yet")
        return self.engine

    def name(self, player: int) -> str:
        return self.e.name(player)

    def seat(self, player: int) -> int:
        return self.places[player]

    def player_at(self, seat: int | None) -> int | None:
        return self.places.index(seat) if seat in self.places else None

    def seats(self, players: list[int]) -> tuple[int, ...]:
        return tuple(self.places[p] for p in players)

    def _request(self, what: str) -> str:
        self.asked += 1
        return f"{what}-{self.asked}"

    def _open(self) -> set[str]:
        return {o.request for o in self.prompts if isinstance(o, ChooseSeat | WaitNext)}

    def _wait(self, what: str, seconds: float | None = None) -> list[Output]:
        prompt = WaitNext(self._request(what), seconds or self.times["wait_seconds"])
        self.prompts = [*self.prompts, prompt]
        return [prompt]

    def _choose(self, what: str, players: list[int], timeout: float) -> ChooseSeat:
        prompt = ChooseSeat(self._request(what), self.seats(players), timeout)
        self.prompts = [o for o in self.prompts if not (isinstance(o, ChooseSeat))] + [prompt]
        return prompt

    def _moves(
        self, event: Observation, moves: list[Move], zone: str | None = None
    ) -> list[Record]:
        problem = trial(self.e, moves)
        if problem is not None:
            return self.reject(event, problem, words.CARD_NOT_PLACED, "moves", zone=zone)
        return [{"kind": "moves", "moves": moves}]

    def _reveal_record(self, event: CardEvent, change: str) -> list[Record]:
        card = poker_card(event.card_id) if event.face_up else None
        if card is None:
            return []
        cards = [c for c in self.reveal if c != card]
        if change == "appeared":
            cards.append(card)
        if cards == self.reveal:
            return []
        return [{"kind": "reveal", "cards": cards}]

    def _play(self, moves: list[Move], public_on_fail: str | None = None) -> list[Output]:
        """Apply moves (checked when decided; checked again so a bad correction fails)."""
        e = self.e
        problem = trial(e, moves)
        if problem is not None:
            if public_on_fail is not None:
                return [Say(public_on_fail)]
            raise RecordError(problem)
        events = run(e, moves)
        if any(m["kind"] == "ability" for m in moves):
            self.declared = False
        return self._sync(events)

    def _step_key(self) -> list[Any]:
        e = self.e
        if e.phase == "turn":
            special = e.stage if e.stage in ("jokers", "ras", "harley_in") else ""
            pending = e.pending[0][0] if e.pending else ""
            return ["turn", e.round, e.turn_no, special, pending]
        return [e.phase, e.round]

    def _sync(self, events: list[Event]) -> list[Output]:
        """Outputs for engine events, then prompts for a new engine step."""
        outputs = self._route(self._event_outputs(events))
        key = self._step_key()
        if key != self.step and self.phase == "play":
            previous, self.step = self.step, key
            outputs += self._prompt(previous)  # may start a Blackout: not held
        elif key != self.step and self.phase == "night":
            self.step = key  # prompted once the night is over
        if self.phase == "play":
            outputs += self._end_turn_prompt()
        return outputs

    def _end_turn_prompt(self) -> list[Output]:
        """After an ability the hand may be back at five: the turn ends on "next" (or when
        the next player's card shows up)."""
        e = self.e
        if not (e.phase == "turn" and e.stage == "act" and not e.pending):
            return []
        if len(e.hands[e.turn]) > e.rules.hand_size or self.declared or self.ability:
            return []
        if any(getattr(o, "request", "").startswith("endturn-") for o in self.prompts):
            return []
        return [Say(words.END_TURN.format(name=self.name(e.turn))), *self._wait("endturn")]

    def _route(self, outputs: list[Output]) -> list[Output]:
        """During a night, only the private light and the knob go out now; the rest is
        held until everyone's eyes are open."""
        if self.phase != "night":
            return outputs
        now: list[Output] = [o for o in outputs if isinstance(o, PrivateLight | ChooseSeat)]
        self.held += [o for o in outputs if not isinstance(o, PrivateLight | ChooseSeat)]
        return now

    def _event_outputs(self, events: list[Event]) -> list[Output]:
        outputs: list[Output] = []
        answers: list[Output] = []
        for event in events:
            kind, audience = event["kind"], event["audience"]
            if kind == "say" and event["key"] not in SCRIPT:
                outputs.append(Say(str(event["text"])))
                if event["key"] == "refill":  # the piles change under their tops
                    outputs.append(Reread("camera", None, "the discard piles were refilled"))
            elif kind == "no_accusation":
                outputs.append(Say(words.NO_ACCUSATION))
            elif kind == "question":
                outputs.append(Say(str(event["text"])))
            elif kind == "ability" and audience == PUBLIC:
                outputs += self._ability_words(event)
            elif kind == "activated" and audience == DEALER:
                answers = [PrivateLight("green", self.timing.slot, self.seat(event["player"]))]
            elif kind == "telepathy":
                colour = "cyan" if event["thumbs_up"] else "blue"
                answers = [PrivateLight(colour, self.timing.slot, self.seat(int(audience)))]
            elif kind in ("unused_roles", "unused_role") and self.phase == "night":
                answers = [PrivateLight("magenta", self.timing.slot, self.seat(int(audience)))]
            elif kind == "sabotaged":
                self.victim = int(audience)
            elif kind == "game_over":
                outputs += self._game_over(event)
        return answers + outputs

    def _ability_words(self, event: Event) -> list[Output]:
        name = self.name(int(event["player"]))
        effect = event["effect"]
        if effect == "ask_rank":
            return [Say(words.ASK_RANK.format(name=name))]
        if effect == "ask_suit":
            return [Say(words.ASK_SUIT.format(name=name))]
        if effect == "gain_character":
            return [Say(words.GAIN_CHARACTER.format(name=name))]
        if effect == "no_vote":
            return [Say(words.NO_VOTE)]
        return []

    def _game_over(self, event: Event) -> list[Output]:
        if self.phase != "night":  # a night ends first: its end mark says it
            self.phase = "over"
            self.prompts = []
        e = self.e
        roles = [
            f"{self.name(p)}, {e.rules.roles[str(role)].name}"
            for p, role in enumerate(event["roles"])
        ]
        winners = [int(p) for p in event["winners"]]
        outcome = str(event["outcome"])
        if outcome == "batman" and len(winners) > 1:
            outcome = "batman_and_catwoman"
        return [
            SeatLights(self.seats(winners)),
            Say(words.ROLES_WERE.format(roles="; ".join(roles))),
            Say(words.GAME_OVER[outcome]),
        ]

    def on_resume(self) -> list[Output]:
        outputs: list[Output] = list(self.prompts)
        if self.phase == "play" and self.engine is not None and self.engine.phase == "turn":
            outputs.insert(0, SeatLights((self.seat(self.engine.turn),)))
        return outputs

    # --- implemented by the step mixins ----------------------------------------------------
    def _prompt(self, previous: list[Any]) -> list[Output]:
        raise NotImplementedError

    def _start_night(self, plan: NightPlan, before: list[Output], phase: str) -> list[Output]:
        raise NotImplementedError

    def _roles_done(self) -> list[Output]:
        raise NotImplementedError
