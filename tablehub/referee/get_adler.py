"""The Get Adler! referee: keeps the clock, reads the cards played, walks confrontations.

The hub sees only what lies face up, so it runs the engine in its partial-information mode
(see ``tablehub.games.get_adler``): every card drawn, taken with binoculars or passed is
"unknown" and applied by the referee itself; cards laid face up come from the camera:

* a card appearing on the discard pile is the move of the player whose turn it is: a
  magnifier or (before the reveal) a question is played, binoculars wait for the panel to
  say whom they watch, anything else is discarded;
* an arrest card appearing in front of a seat (zone ``seat-N``, N counted from 1 as the
  vision zones do) arrests that seat; before four o'clock (or against a hero once the
  identities are known) it is refused out loud and the card goes back to the hand;
* the accused answers by turning the character card face up (right) or pressing the button
  (unjust); after a right arrest every character card turned up is read;
* in a confrontation the villain's reaction card, the heroes' escape cards (the knob then
  says whose it was: the first card down answers), and each pistol fired are read; the
  button means "no reaction", "nobody answers" or "I stop shooting";
* skipped turns and eliminated players are announced and skipped; at seven o'clock the
  characters are turned up and the villains lay their top-secret documents down.

Everything said is built from public engine events only, and the hub knows no secrets to
begin with.  Collins's face-down exchange with Adler is not seen and not needed (hand sizes
do not change).  Readings that make no sense (an unreadable card, a card already played) are
re-read, then put to the table; rule refusals are spoken.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from tablehub.games.base import CHANCE, PUBLIC, Event, Move
from tablehub.games.get_adler import GAME, UNKNOWN, AdlerState
from tablehub.games.get_adler.data import KINDS
from tablehub.observations import CardEvent, ManualEvent, Observation, PanelEvent
from tablehub.referee.base import (
    Audience,
    ChooseSeat,
    Output,
    Record,
    RecordError,
    Referee,
    Say,
    SeatLights,
    Setup,
    Show,
    WaitNext,
)
from tablehub.referee.get_adler_cards import a_card, character_of, copies, design_of
from tablehub.referee.get_adler_words import words

REFEREE_OPTIONS = ("prompt_seconds", "choose_seconds", "min_confidence")


class AdlerReferee(Referee):
    game: ClassVar[str] = "get-adler"

    def __init__(self, setup: Setup) -> None:
        options = dict(setup.options)
        self.prompt_seconds = float(options.pop("prompt_seconds", 300.0))
        self.choose_seconds = float(options.pop("choose_seconds", 60.0))
        self.min_confidence = float(options.pop("min_confidence", 0.8))
        self.engine_options = options
        super().__init__(setup)

    # --- state --------------------------------------------------------------------------
    def reset(self) -> None:
        self.engine: AdlerState = GAME.new_initial_state(len(self.setup.seats), self.engine_options)
        self.start: int | None = None
        self.pending: dict[str, Any] | None = None  # a card waiting for the panel
        self.shown: list[str] = []  # documents laid down at seven o'clock
        self.asked = 0  # prompts issued: names panel requests, so stale answers are ignored

    def snapshot(self) -> Any:
        return {
            "engine": self.engine.to_json(),
            "start": self.start,
            "pending": self.pending,
            "shown": list(self.shown),
            "asked": self.asked,
        }

    def is_finished(self) -> bool:
        return self.engine.is_terminal()

    def status(self, audience: Audience) -> dict[str, Any]:
        view = self.engine.public_view()
        return {**view, "seats": list(self.setup.seats), "waiting_for": self._waiting_for()}

    def name(self, seat: int) -> str:
        return self.setup.seats[seat]

    def _request(self, what: str) -> str:
        return f"{what}-{self.asked}"

    # --- deciding -----------------------------------------------------------------------
    def opening(self) -> list[Record]:
        start = random.Random(self.setup.seed).randrange(len(self.setup.seats))
        return [{"kind": "begin", "start": start}]

    def decide(self, observation: Observation) -> list[Record]:
        if self.engine.is_terminal():
            return []
        if isinstance(observation, CardEvent):
            return self._card(observation)
        if isinstance(observation, PanelEvent):
            return self._panel(observation)
        if isinstance(observation, ManualEvent) and observation.action == "loot":
            return self._moves(
                [
                    {
                        "kind": "loot",
                        "player": self.engine.current_player(),
                        "count": observation.data.get("count"),
                    }
                ],
                observation,
            )
        return []

    def _card(self, event: CardEvent) -> list[Record]:
        if not event.face_up or event.change not in ("appeared", "flipped"):
            return []  # hands, backs, cards leaving: nothing for the referee
        if event.card_id is None or event.confidence < self.min_confidence:
            why = f"unreadable face-up card in {event.zone} ({event.confidence:.2f})"
            public = "I could not read that card. Please hold it still."
            return self.reject(event, why, public, key=f"read-{event.zone}", zone=event.zone)
        character = character_of(event.card_id)
        if character is not None:
            return self._character(event, character)
        design = design_of(event.card_id)
        if design is None:
            why = f"{event.card_id} is not a Get Adler! card"
            return self.reject(event, why, "That is not a Get Adler! card.", zone=event.zone)
        return self._action_card(event)

    def _copy_for(self, card_id: str, seat: int) -> str | None:
        """The unseen engine copy of this design that ``seat`` could be holding."""
        design = design_of(card_id)
        assert design is not None
        book, index = self.engine.book, self.engine.index
        for copy in copies(design, self.engine.data):
            if copy in index and book.holds(seat, index[copy]):
                return copy
        return None

    def _resolve(self, event: CardEvent, seat: int) -> str | list[Record]:
        """The engine copy ``seat`` plays for this reading, or the rejection records."""
        card = self._copy_for(str(event.card_id), seat)
        if card is not None:
            return card
        design = design_of(str(event.card_id))
        assert design is not None
        why = f"{event.card_id} read for {self.name(seat)}, but no copy can be in that hand"
        public = f"I read {a_card(design.kind)} that is already on the table. Please check it."
        return self.reject(event, why, public, key=f"card-{event.zone}", zone=event.zone)

    def _action_card(self, event: CardEvent) -> list[Record]:
        engine = self.engine
        phase = engine.phase
        actor = engine.current_player()
        if self.pending is not None and phase != "escape-answer":
            return self._refuse("Finish the binoculars first: turn the knob to the player watched.")
        if phase == "play":
            return self._turn_card(event, actor)
        if phase not in ("react", "escape-answer", "gunfight", "show-documents", "mission"):
            why = f"a card appeared in {event.zone} while waiting for {self._waiting_for()}"
            public = f"I did not expect a card now. I am waiting for {self._waiting_for()}."
            return self.reject(event, why, public, key="unexpected", zone=event.zone)
        if phase == "escape-answer":
            if self.pending is not None:
                return self._refuse("One escape card at a time: turn the knob to your seat first.")
            return self._escape_card(event)
        if phase == "mission":
            design = design_of(str(event.card_id))
            assert design is not None
            found = [c for c in copies(design, engine.data) if c in engine.index]
            move = {"kind": "mission", "player": CHANCE, "card": found[0] if found else ""}
            return self._moves([move], event)
        card = self._resolve(event, actor)
        if isinstance(card, list):
            return card
        if phase == "show-documents":
            if card in self.shown:
                return []
            move = {"kind": "show-documents", "player": actor, "cards": [*self.shown, card]}
            reason = self._trial([move])
            return (
                [{"kind": "shown", "card": card}]
                if reason is None
                else self._refuse(_sentence(reason))
            )
        kind = {"react": "react", "gunfight": "shoot"}[phase]
        return self._moves([{"kind": kind, "player": actor, "card": card}], event, refuse=True)

    def _turn_card(self, event: CardEvent, seat: int) -> list[Record]:
        card = self._resolve(event, seat)
        if isinstance(card, list):
            return card
        kind = self.engine.kind(self.engine.index[card])
        target = _seat_zone(event.zone)
        if target is not None:
            if kind != "arrest":
                return self._refuse("Play your card onto the discard pile, please.")
            return self._moves(
                [{"kind": "play", "player": seat, "card": card, "target": target}],
                event,
                refuse=True,
            )
        if not event.zone.startswith("discard"):
            return []
        if kind == "binoculars":
            return [{"kind": "await", "what": "binoculars", "card": card}]
        if kind == "magnifier" or (kind == "question" and not self.engine.revealed):
            return self._moves([{"kind": "play", "player": seat, "card": card}], event)
        return self._moves([{"kind": "discard", "player": seat, "card": card}], event)

    def _escape_card(self, event: CardEvent) -> list[Record]:
        conf = self.engine.conf
        design = design_of(str(event.card_id))
        assert conf is not None and design is not None
        if design.kind != "escape":
            return self._refuse("Only an escape card answers an escape. Take that card back.")
        if len(conf.ask) == 1:
            card = self._resolve(event, conf.ask[0])
            if isinstance(card, list):
                return card
            return self._moves([{"kind": "escape", "player": conf.ask[0], "card": card}], event)
        return [{"kind": "await", "what": "escape-by", "card": str(event.card_id)}]

    def _character(self, event: CardEvent, character: str) -> list[Record]:
        engine = self.engine
        seat = _seat_zone(event.zone)
        if seat is None or seat >= engine.n:
            return []
        if engine.phase == "answer-arrest" and seat == engine.current_player():
            right = engine.sides.get(character) == "villain"
            moves: list[Move] = [{"kind": "answer-arrest", "player": seat, "right": right}]
            if right:
                moves.append(
                    {"kind": "reveal", "player": CHANCE, "seat": seat, "character": character}
                )
            return self._moves(moves, event)
        if engine.phase == "reveal" and engine.characters[seat] is None:
            move = {"kind": "reveal", "player": CHANCE, "seat": seat, "character": character}
            return self._moves([move], event)
        return []

    def _panel(self, event: PanelEvent) -> list[Record]:
        engine = self.engine
        pending = self.pending
        answers = (self._request("choose"), self._request("next"))
        unwatched = event.request in answers and event.action in ("next", "timeout")
        if pending is not None and pending["what"] == "binoculars" and unwatched:
            seat = engine.current_player()  # no target: the binoculars are only discarded
            return self._moves(
                [{"kind": "discard", "player": seat, "card": pending["card"]}], event
            )
        if event.action == "timeout":
            return [{"kind": "reprompt"}] if event.request.endswith(f"-{self.asked}") else []
        if pending is not None and event.request == self._request("choose"):
            if event.action != "seat_chosen" or event.seat is None:
                return []
            if pending["what"] == "binoculars":
                seat = engine.current_player()
                move = {
                    "kind": "play",
                    "player": seat,
                    "card": pending["card"],
                    "target": event.seat,
                }
                return self._moves([move], event, refuse=True)
            return self._escape_by(event, event.seat)
        if event.action != "next" or event.request != self._request("next"):
            return []
        actor = engine.current_player()
        phase = engine.phase
        moves: list[Move]
        if phase == "answer-arrest":
            moves = [{"kind": "answer-arrest", "player": actor, "right": False}]
        elif phase == "react":
            moves = [{"kind": "no-reaction", "player": actor}]
        elif phase == "escape-answer":
            assert engine.conf is not None
            moves = [{"kind": "pass", "player": s} for s in engine.conf.ask]
        elif phase == "gunfight":
            moves = [{"kind": "hold", "player": actor}]
        elif phase == "loot":
            most = max(m["count"] for m in engine.legal_moves())
            moves = [{"kind": "loot", "player": actor, "count": most}]
        elif phase == "show-documents":
            moves = [{"kind": "show-documents", "player": actor, "cards": list(self.shown)}]
        else:
            return []
        return self._moves(moves, event)

    def _escape_by(self, event: PanelEvent, seat: int) -> list[Record]:
        conf = self.engine.conf
        assert conf is not None and self.pending is not None
        if seat not in conf.ask:
            names = ", ".join(self.name(s) for s in conf.ask)
            return self._refuse(f"Only {names} can still answer the escape. Choose again.")
        card = self._copy_for(self.pending["card"], seat)
        if card is None:
            return self._refuse(f"{self.name(seat)} cannot have played that escape card.")
        moves: list[Move] = [
            {"kind": "pass", "player": s} for s in conf.ask[: conf.ask.index(seat)]
        ]
        moves.append({"kind": "escape", "player": seat, "card": card})
        return self._moves(moves, event)

    # --- checking moves on a copy ----------------------------------------------------------
    def _trial(self, moves: list[Move]) -> str | None:
        trial = self.engine.clone()
        for move in moves:
            reason = trial.check(move)
            if reason is not None:
                return reason
            trial.apply(move)
            self._auto(trial)
        return None

    def _moves(
        self, moves: list[Move], observation: Observation, refuse: bool = False
    ) -> list[Record]:
        """A ``moves`` record if the engine accepts them; else spoken (rules) or re-read."""
        reason = self._trial(moves)
        if reason is None:
            return [{"kind": "moves", "moves": moves}]
        if refuse:
            return self._refuse(self._speakable(reason) + " Take the card back.")
        public = self._speakable(reason)
        return self.reject(observation, reason, public, key="move")

    def _speakable(self, reason: str) -> str:
        """An engine reason as the table hears it: seat names, card kinds, no card ids."""
        named = re.sub(  # "Gold (seat 2)" -> "Cy (Gold)"
            r"([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?) \(seat (\d+)\)",
            lambda m: f"{self._seat_word(m.group(2))} ({m.group(1)})",
            reason,
        )
        seats = re.sub(r"\bseat (\d+)", lambda m: self._seat_word(m.group(1)), named)
        cards = re.sub(
            r"\b([a-z]+)-\d+\b",
            lambda m: a_card(m.group(1)) if m.group(1) in KINDS else m.group(0),
            seats,
        )
        return _sentence(cards)

    def _seat_word(self, number: str) -> str:
        seat = int(number)
        return self.name(seat) if 0 <= seat < len(self.setup.seats) else f"seat {number}"

    @staticmethod
    def _refuse(text: str) -> list[Record]:
        return [{"kind": "refused", "text": text}]

    # --- applying -----------------------------------------------------------------------
    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        before = self._waiting_key()
        outputs: list[Output] = []
        if kind == "begin":
            self.start = int(record["start"])
            events: list[Event] = []
            for _ in range(self.engine.n):
                events += self.engine.apply(
                    {"kind": "character", "player": CHANCE, "character": UNKNOWN}
                )
            events += self._auto(self.engine)
            outputs.append(
                Say(
                    f"Welcome to Get Adler! {len(self.setup.seats)} players, "
                    "seven hours. Keep your character secret."
                )
            )
            outputs += self._narrate(events)
        elif kind == "moves":
            events = []
            for move in record["moves"]:
                events += self._apply_move(move)
            self.pending = None
            self.shown = []
            outputs += self._narrate(events)
        elif kind == "await":
            self.pending = {"what": record["what"], "card": record["card"]}
        elif kind == "shown":
            self.shown.append(str(record["card"]))
            outputs.append(Say(f"{self.name(self.engine.current_player())} shows a document."))
        elif kind == "refused":
            outputs.append(Say(str(record["text"])))
        elif kind == "reprompt":
            before = None
        elif kind == "timer":
            return []
        else:
            raise RecordError(f"Get Adler! has no record kind {kind!r}")
        if self._waiting_key() != before or kind in ("await", "refused"):
            self.asked += 1
            outputs += self._prompt()
        return outputs

    def _apply_move(self, move: Move) -> list[Event]:
        reason = self.engine.check(move)
        if reason is not None:
            raise RecordError(f"journaled move no longer fits: {reason}")
        events = self.engine.apply(move)
        return events + self._auto(self.engine)

    def _auto(self, state: AdlerState) -> list[Event]:
        """Apply what the hub fills in itself: unseen draws and gifts, the starting player."""
        events: list[Event] = []
        while not state.is_terminal():
            if state.phase == "transfer":
                move: Move = {"kind": "draw", "player": CHANCE, "card": UNKNOWN}
            elif state.phase == "give":
                move = {"kind": "give", "player": state.actor, "card": UNKNOWN}
            elif state.phase == "start-player" and self.start is not None:
                move = {"kind": "start-player", "player": CHANCE, "seat": self.start}
            else:
                break
            events += state.apply(move)
        return events

    def _waiting_key(self) -> Any:
        engine = self.engine
        pending = None if self.pending is None else self.pending["what"]
        return (engine.phase, engine.current_player(), engine.turn, pending)

    # --- what to say -----------------------------------------------------------------------
    def _waiting_for(self) -> str:
        engine = self.engine
        phase, actor = engine.phase, engine.current_player()
        if self.pending is not None:
            return "the knob"
        return {
            "mission": "the mission document",
            "play": f"{self.name(engine.turn)}'s card" if engine.turn >= 0 else "a card",
            "answer-arrest": "the accused's answer",
            "reveal": "the character cards",
            "react": "the villain's reaction",
            "escape-answer": "an escape card or the button",
            "gunfight": f"{self.name(actor)}'s shot or the button" if actor >= 0 else "a shot",
            "loot": "the button",
            "show-documents": "the documents and the button",
            "over": "nothing: the game is over",
        }.get(phase, phase)

    def _prompt(self) -> list[Output]:
        engine = self.engine
        phase, actor = engine.phase, engine.current_player()
        nxt = WaitNext(self._request("next"), self.prompt_seconds)
        if self.pending is not None:
            if self.pending["what"] == "binoculars":
                seats = tuple(s for s in range(engine.n) if s != actor and engine.at_large(s))
                text = (
                    f"{self.name(actor)}, turn the knob to the player you watch, or press the "
                    "button to just discard the binoculars."
                )
                return [
                    SeatLights(seats),
                    Say(text),
                    ChooseSeat(self._request("choose"), seats, self.choose_seconds),
                    nxt,
                ]
            else:
                assert engine.conf is not None
                seats = tuple(engine.conf.ask)
                text = "Who played that escape card? Turn the knob to your seat."
            return [
                SeatLights(seats),
                Say(text),
                ChooseSeat(self._request("choose"), seats, self.choose_seconds),
            ]
        if phase == "mission":
            return [
                Say(
                    "The Ultimate Mission: shuffle the top-secret documents, draw one and "
                    "show it at the reveal spot."
                )
            ]
        if phase == "play":
            return [SeatLights((engine.turn,))]
        if phase == "answer-arrest":
            return [
                SeatLights((actor,)),
                Say(
                    f"{self.name(actor)}, if the arrest is right, turn your character card "
                    "face up. If it is wrong, press the button."
                ),
                nxt,
            ]
        if phase == "reveal":
            return [SeatLights(()), Say("Everyone, turn your character cards face up.")]
        if phase == "react":
            return [
                SeatLights((actor,)),
                Say(
                    f"{self.name(actor)}, play a reaction card, or press the button if you have "
                    "none."
                ),
                nxt,
            ]
        if phase == "escape-answer":
            assert engine.conf is not None
            return [
                SeatLights(tuple(engine.conf.ask)),
                Say(
                    "Heroes, answer with an escape card, then turn the knob to your seat. "
                    "Press the button if nobody can."
                ),
                nxt,
            ]
        if phase == "gunfight":
            return [
                SeatLights((actor,)),
                Say(f"{self.name(actor)}, shoot, or press the button to stop."),
                nxt,
            ]
        if phase == "loot":
            conf = engine.conf
            assert conf is not None and conf.dead is not None
            return [
                SeatLights((actor,)),
                Say(
                    f"{self.name(actor)}, you may draw cards from {self.name(conf.dead)}'s hand "
                    "first, then from the deck, up to seven. Press the button when done."
                ),
                nxt,
            ]
        if phase == "show-documents":
            return [
                SeatLights((actor,)),
                Say(
                    f"{self.name(actor)}, lay your top-secret documents face up, then press the "
                    "button."
                ),
                nxt,
            ]
        if phase == "over":
            winners = tuple(s for s, r in enumerate(engine.returns()) if r > 0)
            return [SeatLights(winners)]
        return []

    def _narrate(self, events: list[Event]) -> list[Output]:
        """Speech for public events only (the hub knows no secrets, and says none)."""
        out: list[Output] = []
        for event in events:
            if event["audience"] != PUBLIC:
                continue
            text = words(event, self.name, self.engine)
            if text is None:
                continue
            if event["kind"] == "discard":
                out.append(Show(PUBLIC, text, {"card": event["card"]}))
            else:
                out.append(Say(text))
        return out

    def on_resume(self) -> list[Output]:
        return self._prompt()


def _seat_zone(zone: str) -> int | None:
    """``seat-3`` -> 2: the vision zones count seats from 1 (``tablehub.vision.zones``),
    the engine from 0; anything else -> None."""
    prefix, _, number = zone.partition("-")
    return int(number) - 1 if prefix == "seat" and number.isdigit() and number != "0" else None


def _sentence(reason: str) -> str:
    text = reason[:1].upper() + reason[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
