"""The hub as Dealer for Almost Got 'Im: set-up, rounds, the Vote, and a leak-free Blackout.

Phases of the referee (``self.phase``)::

    idle -> characters -> deal_roles -> roles_check -> dealing -> play <-> night -> over

* **characters**: everyone puts a Character card face up in front of them; the camera
  reads them in the seat areas (``seat-N``); "next" confirms (4 to 7 players).  Engine
  player ``p`` sits at physical seat ``places[p]`` (clockwise order is kept).
* **deal_roles** / **roles_check**: the players deal the Secret Roles as the rulebook says;
  then, eyes closed, each player in a fixed slot shows their card at the reveal spot (a
  "night" without a sweep, see ``almost_got_im_blackout``).  The private light answers only
  the awake player: white "read", magenta for Batman "look at the top unused role".  The
  unused roles are never shown to the camera.  A card not read, or roles that do not add
  up, are checked again; then the engine is set up (roles, Batman's unseen peek,
  Characters, the Brains drawn from the session's seed) and the players deal five cards
  each (**dealing**).
* **play**: the engine's turns, read from the camera (``almost_got_im_moves``), abilities
  declared with the knob; the accusation (10 to 0 countdown), seconding (5 to 0), the
  defence, the Vote entered on the panel seat by seat, the verdict (Catwoman's Full House
  at the reveal spot, or "next").
* **night**: the Blackout.  Its schedule is built from the engine's public view before it
  starts and played whole; marks open and close each slot.  Inside a slot the awake
  player's hand at the reveal spot is checked, a target is picked with the knob, and every
  answer goes to the private light.  Public outputs produced meanwhile (the engine resolves
  the Blackout at the last slot) are **held** until the end mark, after "Everyone open
  your eyes.", and then only the rulebook's announcements are spoken.

Nothing that depends on a secret is spoken, shown to all, or logged; the journal (the
dealer's record) keeps the details.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from tablehub.games.almost_got_im import GAME, AgiState
from tablehub.games.almost_got_im.blackout import targets
from tablehub.games.almost_got_im.cards import UNKNOWN, is_joker, role_from_card_id
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.games.almost_got_im.state import SCRIPT
from tablehub.games.base import CHANCE, DEALER, PUBLIC, Event, Move
from tablehub.observations import CardEvent, Observation, PanelEvent
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_blackout import (
    NightPlan,
    NightTiming,
    blackout_plan,
    build_schedule,
    parse_mark,
    roles_plan,
)
from tablehub.referee.almost_got_im_moves import (
    REVEAL,
    character_card,
    pile_of,
    poker_card,
    read_pile_event,
    run,
    seat_of,
    split,
    trial,
)
from tablehub.referee.base import (
    Audience,
    CancelTimer,
    ChooseSeat,
    Output,
    PlaySchedule,
    PrivateLight,
    Record,
    RecordError,
    Referee,
    Say,
    SeatLights,
    Setup,
    Show,
    StartTimer,
    WaitNext,
)

ENGINE_OPTIONS = ("advanced", "max_rounds")
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


class AgiReferee(Referee):
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
        unknown = sorted(set(options) - set(ENGINE_OPTIONS))
        if unknown:
            raise ValueError(f"unknown Almost Got 'Im referee option {unknown[0]!r}")
        self.engine_options = options
        if not 4 <= len(setup.seats) <= 7:
            raise ValueError(f"Almost Got 'Im needs 4 to 7 seats, not {len(setup.seats)}")
        super().__init__(setup)

    # --- state --------------------------------------------------------------------------
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

    # --- names and seats ---------------------------------------------------------------
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

    def _is(self, request: str, what: str) -> bool:
        return request in self._open() and request.startswith(f"{what}-")

    # --- deciding (never changes state) -----------------------------------------------
    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if self.phase in ("idle", "over"):
            return []
        if isinstance(observation, PanelEvent):
            return self._decide_panel(observation)
        if isinstance(observation, CardEvent):
            if observation.confidence < self.min_confidence:
                return []  # the tracker reports it again once sure
            return self._decide_card(observation)
        return []

    def _decide_panel(self, event: PanelEvent) -> list[Record]:
        request, action = event.request, event.action
        if action == "declared" and not request:
            return self._decide_declared()
        if request not in self._open():
            return []  # stale, or not asked for
        chooser = any(isinstance(o, ChooseSeat) and o.request == request for o in self.prompts)
        if action == "seat_chosen" and event.seat is not None and chooser:
            return [{"kind": "chosen", "request": request, "seat": event.seat}]
        if action == "timeout" and chooser:
            # the referee's own timers end the accusation and the seconding; an
            # ability's target is asked for again
            return [{"kind": "reask"}] if request.startswith("target-") else []
        if action in ("next", "timeout") and not chooser:
            return [{"kind": "next", "request": request, "timeout": action == "timeout"}]
        return []

    def _decide_declared(self) -> list[Record]:
        if self.phase != "play" or self.engine is None or self.declared:
            return []
        e = self.engine
        if e.phase != "turn" or e.stage not in ("take", "act") or e.pending:
            return []
        if not e.usable_powers(e.turn):
            return []
        return [{"kind": "declared", "player": e.turn}]

    def _decide_card(self, event: CardEvent) -> list[Record]:
        records: list[Record] = []
        for change, zone in split(event):
            records += self._decide_step(event, change, zone)
        return records

    def _decide_step(self, event: CardEvent, change: str, zone: str) -> list[Record]:
        phase = self.phase
        if phase == "characters":
            seat = seat_of(zone)
            character = character_card(event.card_id) if event.face_up else None
            if seat is None or seat >= len(self.setup.seats) or character is None:
                return []
            if character not in default_rules().characters:
                return []
            return [{"kind": "character", "seat": seat,
                     "character": character if change == "appeared" else None}]  # fmt: skip
        if phase in ("roles_check", "night"):
            if zone != REVEAL or self.slot is None or self.slot.get("sweep"):
                return []
            if phase == "roles_check":
                role = role_from_card_id(event.card_id or "") if event.face_up else None
                if change != "appeared" or role is None:
                    return []
                return [{"kind": "role_seen", "player": self.slot["player"], "role": role}]
            return self._reveal_record(event, change)
        if phase == "play":
            return self._decide_play(event, change, zone)
        return []

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

    def _decide_play(self, event: CardEvent, change: str, zone: str) -> list[Record]:
        e = self.e
        if zone == REVEAL:
            if e.phase == "verdict":
                return self._reveal_record(event, change)
            return []
        seat = seat_of(zone)
        if seat is not None:
            return self._seat_card(event, change, seat)
        pile = pile_of(zone)
        card = poker_card(event.card_id) if event.face_up else None
        if pile is None or card is None or e.phase != "turn" or self.ability is not None:
            return []
        if e.stage == "ras":  # Ra's al Ghul picks piles up and puts them back
            back = card if change == "appeared" else None
            return [{"kind": "lifted", "pile": pile, "back": back}]
        if e.stage not in ("take", "act", "adjust") and not (
            e.pending and e.pending[0][0] == "top"
        ):
            return []
        reading = read_pile_event(e, change, pile, card, self.declared)
        if reading.reason is not None:
            return self.reject(event, reading.reason, words.CARD_NOT_PLACED, "pile", zone=zone)
        if reading.ability is not None:
            problem = trial(e, reading.moves)
            if problem is not None:
                return self.reject(event, problem, words.CARD_NOT_PLACED, "pile", zone=zone)
            return [{"kind": "ability_card", "moves": reading.moves, "ability": reading.ability}]
        if not reading.moves:
            return []
        return self._moves(event, reading.moves, zone)

    def _moves(
        self, event: Observation, moves: list[Move], zone: str | None = None
    ) -> list[Record]:
        problem = trial(self.e, moves)
        if problem is not None:
            return self.reject(event, problem, words.CARD_NOT_PLACED, "moves", zone=zone)
        return [{"kind": "moves", "moves": moves}]

    def _seat_card(self, event: CardEvent, change: str, seat: int) -> list[Record]:
        e = self.e
        player = self.player_at(seat)
        if player is None or change != "appeared" or not event.face_up:
            return []
        character = character_card(event.card_id)
        if e.pending and e.pending[0] == ["gain", e.turn] and character is not None:
            if player != e.turn:
                return []
            move: Move = {"kind": "gain_character", "player": CHANCE, "character": character}
            return self._moves(event, [move], f"seat-{seat}")
        card = poker_card(event.card_id)
        shown = self.jokers.get(player, [])
        if e.stage == "jokers" and card is not None and is_joker(card) and player in e.queue:
            return [] if card in shown else [{"kind": "joker", "player": player, "card": card}]
        return []

    # --- applying ------------------------------------------------------------------------
    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise RecordError(f"Almost Got 'Im has no record kind {kind!r}")
        outputs: list[Output] = handler(record)
        return outputs

    def _on_begin(self, record: Record) -> list[Output]:
        self.phase = "characters"
        return [Say(words.WELCOME), *self._wait("characters")]

    def _on_character(self, record: Record) -> list[Output]:
        seat, character = int(record["seat"]), record["character"]
        self.seen_chars = {s: c for s, c in self.seen_chars.items() if c != character}
        if character is None:
            self.seen_chars.pop(seat, None)
        else:
            self.seen_chars[seat] = str(character)
        return []

    def _on_rejected(self, record: Record) -> list[Output]:  # pragma: no cover - base class
        return []

    def _on_timer(self, record: Record) -> list[Output]:
        name = str(record["name"])
        parsed = parse_mark(name)
        if parsed is not None:
            return self._on_mark(*parsed)
        what = name.rpartition("-")[0]
        e = self.e
        phase = e.phase if self.phase == "play" else ""
        if what == "deliberate" and phase == "accuse":
            return [StartTimer(f"accuse-count-{self.asked}", ACCUSE_COUNT, "speak")]
        if what == "accuse-count" and phase == "accuse":
            return self._play([{"kind": "no_accusation", "player": e.brains}])
        if what == "speeches" and phase == "second":
            return [StartTimer(f"second-count-{self.asked}", SECOND_COUNT, "speak")]
        if what == "second-count" and phase == "second":
            return self._play([{"kind": "no_second", "player": p} for p in e.poll])
        if what == "defence" and phase == "vote" and self.council == "defence":
            return [Say(words.HURRY), StartTimer(f"last-call-{self.asked}", HURRY_AT)]
        if what == "last-call" and phase == "vote" and self.council == "defence":
            return self._vote_call()
        if what == "verdict" and phase == "verdict":
            return self._play([{"kind": "accept", "player": e.accused}])
        return []  # a timer of a step that is over

    def _on_next(self, record: Record) -> list[Output]:
        request = str(record["request"])
        what = request.rpartition("-")[0]
        self.prompts = [o for o in self.prompts if getattr(o, "request", None) != request]
        if what == "characters":
            return self._characters_done()
        if what == "roles":
            return self._start_roles_check()
        if what == "dealt":
            self.phase = "play"
            self.prompts = []
            self.step = []
            return self._sync([])
        if self.engine is None:
            raise RecordError(f"unexpected answer to {request!r}")
        e = self.engine
        if what == "noaccuse":
            return self._play([{"kind": "no_accusation", "player": e.brains}])
        if what == "defence":
            return self._vote_call()
        if what == "votes":
            ballots = [{"kind": "vote", "player": p, "guilty": p in self.guilty} for p in e.voters]
            return self._play(ballots)
        if what == "verdict":
            return self._play([{"kind": "accept", "player": e.accused}])
        if what == "jokers":
            shows = [
                {"kind": "reveal_jokers", "player": p, "cards": self.jokers.get(p, [])}
                for p in e.queue
            ]
            return self._play(shows, public_on_fail=words.CARD_NOT_PLACED)
        if what == "ras":
            return self._ras_done()
        if what == "harley":
            return self._harley_done()
        if what == "endturn":
            return self._play([{"kind": "end_turn", "player": e.turn}])
        raise RecordError(f"unexpected answer to {request!r}")

    def _on_chosen(self, record: Record) -> list[Output]:
        request, seat = str(record["request"]), int(record["seat"])
        player = self.player_at(seat)
        what = request.split("-")[0] if ":" not in request else "aim"
        if what == "aim":  # stays open until the slot ends: a resume re-offers it to anyone
            return self._aim(player)
        self.prompts = [o for o in self.prompts if getattr(o, "request", None) != request]
        e = self.e
        if player is None:
            raise RecordError(f"seat {seat} has no player")
        if what == "accuse":
            return self._play([{"kind": "accuse", "player": e.brains, "target": player}])
        if what == "second":
            if player not in e.poll:
                return [self._ask_second()]
            index = e.poll.index(player)
            moves: list[Move] = [{"kind": "no_second", "player": p} for p in e.poll[:index]]
            return self._play([*moves, {"kind": "second", "player": player}])
        if what == "guilty":
            if player in self.guilty:
                self.guilty.remove(player)
                said = words.VOTE_UNMARKED
            else:
                self.guilty.append(player)
                said = words.VOTE_MARKED
            choose = self._choose("guilty", [p for p in e.voters], self.times["entry_seconds"])
            return [Say(said.format(name=self.name(player))), choose]
        if what == "target":
            if self.ability is None:
                raise RecordError("no ability waits for a target")
            move = {**self.ability, "target": player}
            problem = trial(e, [move])
            if problem is not None:
                return [Say(words.ABILITY_TARGET.format(name=self.name(e.turn))), self._target()]
            self.ability = None
            return self._play([move])
        raise RecordError(f"unexpected choice for {request!r}")

    def _on_declared(self, record: Record) -> list[Output]:
        self.declared = True
        return [Say(words.ABILITY.format(name=self.name(int(record["player"]))))]

    def _on_ability_card(self, record: Record) -> list[Output]:
        outputs = self._play(list(record["moves"]))
        self.ability = dict(record["ability"])
        self.declared = False
        return [*outputs, Say(words.ABILITY_TARGET.format(name=self.name(self.e.turn))),
                self._target()]  # fmt: skip

    def _on_moves(self, record: Record) -> list[Output]:
        return self._play(list(record["moves"]))

    def _on_joker(self, record: Record) -> list[Output]:
        self.jokers.setdefault(int(record["player"]), []).append(str(record["card"]))
        return []

    def _on_lifted(self, record: Record) -> list[Output]:
        pile, back = int(record["pile"]), record["back"]
        if back is None:
            self.lifted.append([pile, None])
        elif self.lifted and self.lifted[-1][0] == pile:
            self.lifted[-1][1] = str(back)
        return []

    def _on_reask(self, record: Record) -> list[Output]:
        if self.ability is None:
            return []
        return [Say(words.ABILITY_TARGET.format(name=self.name(self.e.turn))), self._target()]

    def _on_role_seen(self, record: Record) -> list[Output]:
        player, role = int(record["player"]), str(record["role"])
        self.roles_seen[player] = role
        colour = "magenta" if role == "batman" else "white"
        return [PrivateLight(colour, self.timing.slot, self.seat(player))]

    def _on_reveal(self, record: Record) -> list[Output]:
        self.reveal = [str(c) for c in record["cards"]]
        if self.phase == "night":
            return self._try_activate()
        if self.phase == "play" and self.e.phase == "verdict":
            return self._try_full_house()
        return []

    # --- set-up ------------------------------------------------------------------------
    def _wait(self, what: str, seconds: float | None = None) -> list[Output]:
        prompt = WaitNext(self._request(what), seconds or self.times["wait_seconds"])
        self.prompts = [*self.prompts, prompt]
        return [prompt]

    def _characters_done(self) -> list[Output]:
        chars = self.seen_chars
        if not 4 <= len(chars) <= 7:
            return [Say(words.CHARACTERS_WRONG.format(count=len(chars))), *self._wait("characters")]
        self.places = sorted(chars)
        self.engine = GAME.new_initial_state(len(self.places), self.engine_options)
        rules = self.engine.rules
        names = [rules.characters[chars[s]].name for s in self.places]
        self.phase = "deal_roles"
        players = words.PLAYERS.format(count=len(names), names=words.listing(names))
        return [Say(players), Say(words.deal_roles(len(names))), *self._wait("roles")]

    def _start_roles_check(self, only: list[int] | None = None) -> list[Output]:
        e = self.e
        rules = e.rules
        chars = [self.seen_chars[s] for s in self.places]
        players = only if only is not None else list(range(e.n))
        if only is None:
            self.roles_seen = {}
        self.attempt += 1
        plan = roles_plan([(p, rules.characters[chars[p]].name) for p in players], self.attempt)
        before: list[Output] = [Say(words.ROLES_CHECK)] if only is None else []
        return self._start_night(plan, before, "roles_check")

    def _roles_done(self) -> list[Output]:
        e = self.e
        missing = [p for p in range(e.n) if p not in self.roles_seen]
        if missing:
            chars = [
                default_rules().characters[self.seen_chars[self.places[p]]].name for p in missing
            ]
            said = Say(words.ROLES_UNREAD.format(names=words.listing(chars)))
            return [said, *self._start_roles_check(missing)]
        roles = [self.roles_seen[p] for p in range(e.n)]
        moves = self._setup_moves(roles)
        if moves is None:
            self.phase = "deal_roles"
            self.roles_seen = {}
            return [Say(words.ROLES_WRONG), *self._wait("roles")]
        run(e, moves)
        self.phase = "dealing"
        brains = self.name(e.brains)
        return [Say(words.BRAINS_FIRST.format(name=brains)), *self._wait("dealt")]

    def _setup_moves(self, roles: list[str]) -> list[Move] | None:
        """The engine's set-up for these roles, or None if they do not add up."""
        e = self.e
        if roles.count("batman") != 1:
            return None
        moves: list[Move] = [
            {"kind": "batman_seat", "player": CHANCE, "seat": roles.index("batman")}
        ]
        for p, role in enumerate(roles):
            if role != "batman":
                moves.append({"kind": "deal_role", "player": CHANCE, "seat": p, "role": role})
        moves.append({"kind": "peek_unused", "player": CHANCE, "role": UNKNOWN})
        for p in range(e.n):
            character = self.seen_chars[self.places[p]]
            moves.append({"kind": "deal_character", "player": CHANCE, "seat": p,
                          "character": character})  # fmt: skip
        first = random.Random(f"{self.setup.seed}:brains").randrange(e.n)
        moves.append({"kind": "first_brains", "player": CHANCE, "seat": first})
        return None if trial(e, moves) is not None else moves

    # --- playing engine moves -----------------------------------------------------------
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
            elif kind == "no_accusation":
                outputs.append(Say(words.NO_ACCUSATION))
            elif kind == "blackout_skipped":
                outputs.append(Say(words.NO_BLACKOUT))
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

    # --- prompts for each engine step --------------------------------------------------------
    def _prompt(self, previous: list[Any]) -> list[Output]:
        self.prompts = []
        self.council = ""
        cancels: list[Output] = [CancelTimer(name) for name in sorted(self.timers)]
        return cancels + self._prompt_step(previous)

    def _prompt_step(self, previous: list[Any]) -> list[Output]:
        e = self.e
        if e.phase == "over":
            return []
        if e.phase == "turn":
            return self._turn_prompt(previous)
        if e.phase == "accuse":
            k = self.asked + 1
            return [
                SeatLights((self.seat(e.brains),)),
                Say(words.ACCUSE.format(name=self.name(e.brains))),
                self._choose("accuse", _suspects(e), self._accuse_window()),
                *self._wait("noaccuse", self._accuse_window()),
                StartTimer(f"deliberate-{k}", self.times["deliberation_seconds"]),
            ]
        if e.phase == "second":
            return [
                Say(words.SECOND),
                self._ask_second(),
                StartTimer(f"speeches-{self.asked}", self.times["speech_seconds"]),
            ]
        if e.phase == "vote":
            self.council = "defence"
            self.guilty = []
            wait = self._wait("defence", self.times["defence_seconds"] + 1)
            k = self.asked
            hurry = max(0.0, self.times["defence_seconds"] - HURRY_AT)
            return [Say(words.DEFENCE), *wait, StartTimer(f"defence-{k}", hurry)]
        if e.phase == "verdict":
            assert e.accused is not None
            wait = self._wait("verdict", self.times["verdict_seconds"] + 1)
            timer = StartTimer(f"verdict-{self.asked}", self.times["verdict_seconds"])
            return [Say(words.VERDICT.format(name=self.name(e.accused))), *wait, timer]
        if e.phase == "blackout":
            return self._start_blackout()
        raise RecordError(f"no prompt for engine phase {e.phase!r}")

    def _accuse_window(self) -> float:
        return self.times["deliberation_seconds"] + ACCUSE_COUNT + 1

    def _choose(self, what: str, players: list[int], timeout: float) -> ChooseSeat:
        prompt = ChooseSeat(self._request(what), self.seats(players), timeout)
        self.prompts = [o for o in self.prompts if not (isinstance(o, ChooseSeat))] + [prompt]
        return prompt

    def _ask_second(self) -> ChooseSeat:
        return self._choose("second", list(self.e.poll), self._second_window())

    def _second_window(self) -> float:
        return self.times["speech_seconds"] + SECOND_COUNT + 1

    def _target(self) -> ChooseSeat:
        e = self.e
        others = [p for p in range(e.n) if p != e.turn]
        return self._choose("target", others, self.times["choose_seconds"])

    def _turn_prompt(self, previous: list[Any]) -> list[Output]:
        e = self.e
        outputs: list[Output] = []
        new_turn = previous[:3] != ["turn", e.round, e.turn_no]
        if new_turn:
            self.declared = False
            self.ability = None
            if e.turn_no == 0:
                if e.round > 1:
                    outputs.append(Say(words.PASS_BRAINS.format(name=self.name(e.brains))))
                outputs.append(Say(words.ROUND.format(round=e.round, name=self.name(e.brains))))
            outputs.append(SeatLights((self.seat(e.turn),)))
        if e.stage == "jokers":
            self.jokers = {}
            outputs += [Say(words.SHOW_JOKERS), *self._wait("jokers")]
        elif e.stage == "ras":
            self.lifted = []
            outputs += [Say(words.RAS.format(name=self.name(e.turn))), *self._wait("ras")]
        elif e.stage == "harley_in":
            outputs += [Say(words.HARLEY.format(name=self.name(e.turn))), *self._wait("harley")]
        return outputs

    def _vote_call(self) -> list[Output]:
        e = self.e
        self.council = "entry"
        self.prompts = []
        return [
            *[CancelTimer(name) for name in sorted(self.timers)],
            Say(words.rulebook("vote_rules")),
            Say(words.rulebook("vote_count")),
            Say(words.rulebook("vote_hold")),
            Say(words.VOTE_ENTRY),
            self._choose("guilty", list(e.voters), self.times["entry_seconds"]),
            *self._wait("votes", self.times["entry_seconds"]),
        ]

    def _try_full_house(self) -> list[Output]:
        e = self.e
        accused = e.accused
        if accused is None or len(self.reveal) < len(e.hands[accused]):
            return []
        move: Move = {"kind": "reveal", "player": accused, "hand": list(self.reveal)}
        if trial(e, [move]) is not None:
            return [Say(words.NOT_A_WIN)]
        return self._play([move])

    # --- the special stages of a turn ---------------------------------------------------------
    def _ras_done(self) -> list[Output]:
        """Ra's al Ghul is done.  The last pile he picked up is the one he took from (the
        camera cannot see inside a pile): its top card if it came back with another card on
        top (or not at all), else a card from under it, unseen."""
        e = self.e
        if not self.lifted:
            return [Say(words.RAS.format(name=self.name(e.turn))), *self._wait("ras")]
        pile, back = self.lifted[-1]
        top = e.piles[pile][-1] if e.piles[pile] else None
        card = UNKNOWN if back == top and len(e.piles[pile]) > 1 else top
        move: Move = {"kind": "ras_take", "player": e.turn, "pile": pile, "card": card}
        return self._play([move], public_on_fail=words.CARD_NOT_PLACED)

    def _harley_done(self) -> list[Output]:
        e = self.e
        others = e.clockwise(e.turn)[1:]
        moves: list[Move] = [{"kind": "give", "player": p, "card": UNKNOWN} for p in others]
        moves += [{"kind": "give", "player": e.turn, "to": p, "card": UNKNOWN} for p in others]
        return self._play(moves, public_on_fail=words.CARD_NOT_PLACED)

    # --- nights --------------------------------------------------------------------------------
    def _start_night(self, plan: NightPlan, before: list[Output], phase: str) -> list[Output]:
        self.night = plan
        self.slot = None
        self.reveal = []
        self.held = []
        self.victim = None
        self.prompts = []
        self.phase = phase
        self.frozen = self.engine.public_view() if self.engine is not None else None
        schedule = build_schedule(plan, self.timing)
        return [*before, SeatLights(()), PlaySchedule(schedule)]

    def _start_blackout(self) -> list[Output]:
        e = self.e
        plan = blackout_plan(e.public_view())
        if [w.player for w in plan.awake] != e.order:  # pragma: no cover - engine invariant
            raise RecordError("the Blackout's public plan differs from the engine's order")
        outputs = self._start_night(plan, [], "night")
        return outputs

    def _on_mark(self, tag: str, kind: str, index: int | None) -> list[Output]:
        plan = self.night
        if plan is None or plan.tag != tag:
            raise RecordError(f"mark of night {tag!r} outside it")
        if kind == "end":
            return self._night_over()
        assert index is not None
        sweep = kind in ("sweep", "sweepshut")
        waking = (plan.sweep if sweep else plan.awake)[index]
        seat = self.seat(waking.player)
        if kind in ("wake", "sweep"):
            self.slot = {"i": index, "player": waking.player, "sweep": sweep, "aim": None,
                         "red": False}  # fmt: skip
            self.reveal = []
            if kind == "sweep":
                colour = "white" if waking.player == self.victim else "off"
                return [PrivateLight(colour, self.timing.sweep, seat)]
            if plan.kind == "blackout":
                return [self._aim_prompt(waking.player)]
            return []
        # shut / sweepshut: the slot is over, whatever happened in it
        outputs: list[Output] = []
        if kind == "shut" and plan.kind == "blackout":
            e = self.e
            if e.phase == "blackout" and e.order[e.awake] == waking.player:
                outputs += self._play([{"kind": "pass", "player": waking.player}])
        self.slot = None
        self.reveal = []
        self.prompts = []
        return [*outputs, PrivateLight("off", 0.5, seat)]

    def _aim_prompt(self, player: int) -> ChooseSeat:
        """The knob, offered to every awake player the same way (others' seats)."""
        others = [p for p in range(self.e.n) if p != player]
        return self._choose(f"{self.night.tag}:aim", others, self.timing.slot)  # type: ignore[union-attr]

    def _night_over(self) -> list[Output]:
        plan = self.night
        assert plan is not None
        self.night = None
        self.slot = None
        self.frozen = None
        self.reveal = []
        self.victim = None
        if plan.kind == "roles":
            self.phase = "roles_check"
            return self._roles_done()
        held, self.held = self.held, []
        self.prompts = []
        self.phase = "over" if self.e.phase == "over" else "play"
        if self.phase == "play":
            self.step = []  # prompt for wherever the engine is now
            return held + self._sync([])
        return held

    def _aim(self, player: int | None) -> list[Output]:
        if self.phase != "night" or self.slot is None or player is None:
            return []
        self.slot["aim"] = player
        return self._try_activate()

    def _try_activate(self) -> list[Output]:
        """The awake player's hand at the reveal spot (and target, if the role points): act
        if it all fits; answers go to the private light only."""
        slot, e = self.slot, self.e
        if slot is None or self.night is None or self.night.kind != "blackout":
            return []
        player = int(slot["player"])
        seat = self.seat(player)
        if e.phase != "blackout" or e.order[e.awake] != player:
            return []  # already acted
        hand = list(self.reveal)
        if len(hand) < len(e.hands[player]):
            slot["red"] = False
            return []  # still laying cards down
        role = str(e.roles[player])
        allowed = targets(e, player, role)
        aim = slot["aim"]
        move: Move = {"kind": "activate", "player": player, "hand": hand}
        if allowed != [None]:
            if aim is None:
                probe = {**move, "target": allowed[0]} if allowed else None
                if probe is not None and e.check(probe) is None:
                    return [PrivateLight("yellow", self.timing.slot, seat)]
                return self._red(seat)
            move["target"] = aim
        if e.check(move) is not None:
            outputs = self._red(seat)
            if aim is not None:
                slot["aim"] = None
                outputs.append(self._aim_prompt(player))
            return outputs
        return self._play([move])

    def _red(self, seat: int) -> list[Output]:
        assert self.slot is not None
        self.slot["red"] = True
        return [PrivateLight("red", RED_SECONDS, seat)]

    # --- resume ----------------------------------------------------------------------------------
    def on_resume(self) -> list[Output]:
        outputs: list[Output] = list(self.prompts)
        if self.phase == "play" and self.engine is not None and self.engine.phase == "turn":
            outputs.insert(0, SeatLights((self.seat(self.engine.turn),)))
        return outputs


def _suspects(e: AgiState) -> list[int]:
    return [p for p in range(e.n) if p != e.brains and not e.subdued[p]]


__all__ = ["AgiReferee", "Show"]
