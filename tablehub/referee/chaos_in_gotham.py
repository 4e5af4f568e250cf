"""The Chaos in Gotham City referee: the camera's card events -> engine moves -> voice.

The hub never sees a hand, so its engine runs with ``hands_seen = False`` (see
``tablehub.games.chaos_in_gotham.state``): a card becomes known when it shows up face up.
What the camera reports, and what it means (zone names from ``TableLayout.zones``):

* a villain card appearing in a seat's area: that seat's villain for the round (seen in
  any order; the engine takes them seat by seat);
* face-down cards appearing on the discard pile while Catwoman decides: her exchange
  (or her ``declared`` "exchange:N" on the panel);
* a trick card appearing on the trump pile: the round's trump, a trump change that is due
  (Wayne Tower, Robinson Park), or The Joker's ability when it is his turn;
* a location card appearing at the reveal spot: the trick's location (two with The
  Penguin, who then removes the one he does not want, or declares "location:<id>");
* a card appearing in the trick area: the play of the seat whose turn it is.  The card's
  position must point at that seat too; when it does not, the table is asked on the panel
  whose card it is.  Face down, it is The Riddler's hidden card; its "flipped" event once
  everyone has played is the reveal;
* Two-Face announces his 1<->10 swap on the panel on his turn, before he lays the card, as
  the rulebook says ("announce it!"): a press of the knob while no question is open (a
  ``declared`` event; from the web page it may carry seat and value "swap").

Deals are not watched: once the villains are known, the hand deal is entered as unseen
cards.  Any reading the engine cannot accept (a card already seen, an even card hidden by
The Riddler, a card nobody is due to lay) is rejected: re-read once, then the table is asked.
Revokes are announced with the evidence the moment the proof exists.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tablehub.games.base import CHANCE, Event, IllegalMove, Move
from tablehub.games.chaos_in_gotham.state import HAND_SIZES, ChaosState
from tablehub.observations import CardEvent, Observation, PanelEvent
from tablehub.referee import chaos_words as words
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
)
from tablehub.referee.chaos_table import TableLayout, default_layout

DECK_PREFIX = "chaos:"
ENGINE_OPTIONS = ("card_data",)


def parse_card(card_id: str | None) -> tuple[str, str] | None:
    """A camera card id -> ("trick" | "villain" | "location", engine id)."""
    if not card_id:
        return None
    name = card_id.removeprefix(DECK_PREFIX)
    if name.startswith("villain-"):
        return "villain", name.removeprefix("villain-")
    if name.startswith("loc-"):
        return "location", name.removeprefix("loc-")
    return "trick", name


class ChaosReferee(Referee):
    game: ClassVar[str] = "chaos-in-gotham"

    def __init__(self, setup: Setup) -> None:
        options = dict(setup.options)
        seats = len(setup.seats)
        layout = options.pop("layout", None)
        self.layout = default_layout(seats) if layout is None else TableLayout.from_json(layout)
        if len(self.layout.seats) != seats:
            raise ValueError(f"the table layout has {len(self.layout.seats)} seats, not {seats}")
        self.choose_seconds = float(options.pop("choose_seconds", 60.0))
        self.min_confidence = float(options.pop("min_confidence", 0.8))
        first = options.pop("first_player", None)
        self.fixed_first: int | None = None if first is None else int(first)
        unknown = sorted(set(options) - set(ENGINE_OPTIONS))
        if unknown:
            raise ValueError(f"unknown Chaos in Gotham City referee option {unknown[0]!r}")
        self.engine_options = options
        super().__init__(setup)

    # --- state --------------------------------------------------------------------------
    def _new_engine(self, first: int) -> ChaosState:
        options = {**self.engine_options, "hands_seen": False, "first_player": first}
        return ChaosState(len(self.setup.seats), options)

    def reset(self) -> None:
        self.engine = self._new_engine(self.fixed_first or 0)
        self.phase = "idle"  # idle -> choose_first -> play -> over
        self.villains_seen: dict[int, str] = {}
        self.discards_seen = 0
        self.swap_declared = False
        self.asking: dict[str, Any] | None = None  # an open "whose card is this?"

    def snapshot(self) -> Any:
        return {
            "phase": self.phase,
            "engine": self.engine.to_json(),
            "villains_seen": {str(k): v for k, v in sorted(self.villains_seen.items())},
            "discards_seen": self.discards_seen,
            "swap_declared": self.swap_declared,
            "asking": self.asking,
        }

    def is_finished(self) -> bool:
        return self.phase == "over"

    def status(self, audience: Audience) -> dict[str, Any]:
        return {"phase": self.phase, "names": list(self.setup.seats), **self.engine.public_view()}

    def name(self, seat: int) -> str:
        return self.setup.seats[seat]

    def _head(self) -> dict[str, Any] | None:
        if self.engine.is_terminal():
            return None
        return self.engine.steps[0]

    # --- deciding (no state changes) -------------------------------------------------------
    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, PanelEvent):
            return self._panel(observation)
        if isinstance(observation, CardEvent) and self.phase == "play":
            return self._card(observation)
        return []

    def _trial(self, moves: list[Move]) -> str | None:
        """Why ``moves`` cannot be applied now (None if they can), on a copy."""
        trial = self.engine.clone()
        for move in moves:
            reason = trial.check(move)
            if reason is not None:
                return reason
            trial.apply(move)
        return None

    def _moves(self, observation: Observation, moves: list[Move], key: str) -> list[Record]:
        reason = self._trial(moves)
        if reason is not None:
            public = f"That does not fit: {self._named(reason)}."
            return self.reject(observation, reason, public, key)
        return [{"kind": "moves", "moves": moves}]

    def _named(self, reason: str) -> str:
        """An engine reason with seat numbers replaced by the players' names."""
        return re.sub(r"seat (\d+)", lambda m: self.name(int(m.group(1))), reason)

    def _panel(self, event: PanelEvent) -> list[Record]:
        if self.phase == "choose_first" and event.request == "first":
            if event.action == "seat_chosen" and event.seat is not None:
                return [{"kind": "first", "seat": event.seat}]
            if event.action == "timeout":
                return [{"kind": "first", "seat": 0}]
            return []
        if self.asking is not None and event.request == "who-played":
            if event.action == "seat_chosen" and event.seat is not None:
                return [{"kind": "answered", "seat": event.seat}]
            if event.action == "timeout":
                return [{"kind": "answered", "seat": None}]
            return []
        if event.action == "declared" and self.phase == "play":
            return self._declared(event)
        return []

    def _declared(self, event: PanelEvent) -> list[Record]:
        head = self._head()
        if head is None:
            return []
        seat = event.seat
        if seat is None and head["step"] in ("play", "catwoman", "penguin"):
            seat = head["seat"]  # the panel's knob pressed with no question open
        if seat is None:
            return []
        ability = self.engine.villain_card(seat).ability if self.engine.villains[seat] else None
        value = event.value if isinstance(event.value, str) else ""
        if not value and ability == "swap-one-ten":
            value = "swap"  # Two-Face presses the knob on his turn to announce the swap
        turn = head["step"] == "play" and head["seat"] == seat
        if value == "swap":
            if ability != "swap-one-ten" or not turn:
                why = f"{self.name(seat)} cannot announce Two-Face's swap now"
                return self.reject(event, why, "Only Two-Face swaps, on his turn.", "declared")
            return [{"kind": "declare", "seat": seat}]
        if value == "new-trump":
            return self._moves(event, [{"kind": "new-trump", "player": seat}], "declared")
        if value.startswith("exchange:") and head["step"] == "catwoman" and head["seat"] == seat:
            count = value.removeprefix("exchange:")
            if count.isdigit():
                return [{"kind": "discard-seen", "count": int(count)}]
        if value.startswith("location:") and head["step"] == "penguin":
            move = {"kind": "penguin", "player": seat, "card": value.removeprefix("location:")}
            return self._moves(event, [move], "declared")
        why = f"declaration {event.value!r} from seat {seat} does not fit now"
        return self.reject(event, why, "I did not understand that announcement.", "declared")

    def _card(self, event: CardEvent) -> list[Record]:
        zones = self.layout.zones
        # A card slid in from elsewhere ("moved") arrives like one laid down ("appeared").
        if event.change in ("appeared", "moved"):
            if event.zone == zones["trick"]:
                return self._trick_card(event)
            if event.zone == zones["location"]:
                return self._location_card(event)
            if event.zone == zones["trump"]:
                return self._trump_card(event)
            if event.zone == zones["discard"]:
                head = self._head()
                if head and head["step"] == "catwoman" and not event.face_up:
                    return [{"kind": "discard-seen", "count": self.discards_seen + 1}]
                return []
            seat = self.layout.seat_of_zone(event.zone)
            if seat is not None:
                return self._villain_card(event, seat)
            return []
        if event.change == "flipped" and event.zone == zones["trick"] and event.face_up:
            return self._reveal(event)
        left_location = (event.change == "removed" and event.zone == zones["location"]) or (
            event.change == "moved" and event.previous_zone == zones["location"]
        )
        if left_location:
            return self._penguin_set_aside(event)
        return []

    def _readable(self, event: CardEvent) -> bool:
        return event.card_id is not None and event.confidence >= self.min_confidence

    def _unreadable(self, event: CardEvent, where: str) -> list[Record]:
        why = f"unreadable card in {event.zone} (confidence {event.confidence:.2f})"
        public = f"I could not read the card {where}. Please straighten it."
        return self.reject(event, why, public, key=f"read-{event.zone}", zone=event.zone)

    def _trick_card(self, event: CardEvent) -> list[Record]:
        head = self._head()
        if head is None:
            return []
        if head["step"] == "reveal" and event.face_up:
            return self._reveal(event)
        if self.asking is not None:
            why = "a card was laid while the table is asked whose card the last one is"
            return self.reject(event, why, "First tell me whose card the last one is.", "trick")
        if head["step"] != "play":
            why = f"a card in the trick area while waiting for a {head['step']}"
            public = "No trick card is due yet. Please take it back for now."
            return self.reject(event, why, public, key="trick", zone=event.zone)
        seat: int = head["seat"]
        riddler = self.engine.villains[seat] == self.engine.data.villain_with("face-down-odd")
        if not event.face_up and not riddler:
            why = f"a face-down card from {self.name(seat)}, who is not The Riddler"
            public = "Please turn that card face up: only The Riddler plays face down."
            return self.reject(event, why, public, key="trick", zone=event.zone)
        if not event.face_up:
            move: Move = {"kind": "play", "player": seat, "card": None, "face_down": True}
            card_words = "the face-down card"
        else:
            if not self._readable(event):
                return self._unreadable(event, "in the trick area")
            parsed = parse_card(event.card_id)
            if parsed is None or parsed[0] != "trick":
                why = f"{event.card_id} is not a trick card"
                public = "That is not a trick card."
                return self.reject(event, why, public, key="trick", zone=event.zone)
            card = parsed[1]
            move = {"kind": "play", "player": seat, "card": card}
            value = self.engine.data.trick_cards.get(card)
            if self.swap_declared and value is not None and value.value in (1, 10):
                move["swap"] = True
            card_words = f"the {words.card_words(self.engine.data, card)}"
        reason = self._trial([move])
        if reason is not None:
            public = f"{self.name(seat)}'s card does not fit: {self._named(reason)}."
            return self.reject(event, reason, public, key="trick", zone=event.zone)
        towards = self.layout.seat_towards(event.centre_mm)
        if towards == seat:
            return [{"kind": "moves", "moves": [move]}]
        return [
            {
                "kind": "ask-seat",
                "expected": seat,
                "towards": towards,
                "card": card_words,
                "move": move,
            }
        ]

    def _location_card(self, event: CardEvent) -> list[Record]:
        head = self._head()
        if head is None or not self._readable(event):
            return self._unreadable(event, "at the location spot") if head else []
        parsed = parse_card(event.card_id)
        if parsed is None or parsed[0] != "location":
            why = f"{event.card_id} at the location spot is not a location card"
            return self.reject(event, why, "That is not a location card.", "location")
        move = {"kind": "location", "player": CHANCE, "card": parsed[1]}
        return self._moves(event, [move], "location")

    def _trump_card(self, event: CardEvent) -> list[Record]:
        head = self._head()
        if head is None or not self._readable(event):
            return self._unreadable(event, "on the trump pile") if head else []
        parsed = parse_card(event.card_id)
        if parsed is None or parsed[0] != "trick":
            why = f"{event.card_id} on the trump pile is not a trick card"
            return self.reject(event, why, "That is not a trick card.", "trump")
        trump: Move = {"kind": "trump", "player": CHANCE, "card": parsed[1]}
        moves: list[Move] = [trump]
        if head["step"] == "catwoman":
            seat = head["seat"]
            count = self.discards_seen
            moves = [
                {"kind": "catwoman", "player": seat, "discard": [None] * count},
                *(
                    {"kind": "draw", "player": CHANCE, "seat": seat, "card": None}
                    for _ in range(count)
                ),
                trump,
            ]
        elif head["step"] == "play":
            seat = head["seat"]
            if self.engine.villains[seat] != self.engine.data.villain_with("new-trump"):
                why = f"a card on the trump pile during {self.name(seat)}'s turn (not The Joker)"
                return self.reject(event, why, "No new trump card is due.", "trump")
            moves = [{"kind": "new-trump", "player": seat}, trump]
        return self._moves(event, moves, "trump")

    def _villain_card(self, event: CardEvent, seat: int) -> list[Record]:
        head = self._head()
        if head is None or head["step"] != "villain" or not event.face_up:
            return []  # villain cards lying in front of players mean nothing later
        if not self._readable(event):
            return self._unreadable(event, f"in front of {self.name(seat)}")
        parsed = parse_card(event.card_id)
        if parsed is None or parsed[0] != "villain" or parsed[1] not in self.engine.data.villains:
            return []
        villain = parsed[1]
        taken = {v for v in self.engine.villains if v} | set(self.villains_seen.values())
        if villain in taken or self.engine.villains[seat] is not None or seat in self.villains_seen:
            why = f"villain {villain} for seat {seat} is a second reading (already dealt)"
            public = f"I already have a villain for {self.name(seat)}, or that one twice."
            return self.reject(event, why, public, key="villain")
        return [{"kind": "villain-seen", "seat": seat, "villain": villain}]

    def _reveal(self, event: CardEvent) -> list[Record]:
        head = self._head()
        if head is None or head["step"] != "reveal":
            return []
        if not self._readable(event):
            return self._unreadable(event, "turned over in the trick area")
        parsed = parse_card(event.card_id)
        card = parsed[1] if parsed else None
        move = {"kind": "reveal", "player": CHANCE, "seat": head["seat"], "card": card}
        return self._moves(event, [move], "reveal")

    def _penguin_set_aside(self, event: CardEvent) -> list[Record]:
        head = self._head()
        parsed = parse_card(event.card_id)
        if head is None or head["step"] != "penguin" or parsed is None:
            return []
        options = [c for c in self.engine.loc_options if c != parsed[1]]
        if len(options) != 1:
            return []
        move = {"kind": "penguin", "player": head["seat"], "card": options[0]}
        return self._moves(event, [move], "penguin")

    # --- applying -------------------------------------------------------------------------
    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        before = self._step_key()
        outputs: list[Output]
        if kind == "begin":
            if self.fixed_first is not None:
                self.phase = "play"
                outputs = [Say(f"Chaos in Gotham City. {self.name(self.fixed_first)} begins.")]
            else:
                self.phase = "choose_first"
                seats = tuple(range(len(self.setup.seats)))
                return [
                    Say(
                        "Chaos in Gotham City. Whoever believes they are the biggest villain "
                        "begins: choose that seat on the panel."
                    ),
                    ChooseSeat("first", seats, self.choose_seconds),
                ]
        elif kind == "first":
            if self.phase != "choose_first":
                raise RecordError("the first player is chosen only once, at the start")
            self.engine = self._new_engine(int(record["seat"]))
            self.phase = "play"
            outputs = [Say(f"{self.name(int(record['seat']))} begins.")]
            before = None
        elif kind == "moves":
            outputs = self._run(list(record["moves"]))
        elif kind == "villain-seen":
            self.villains_seen[int(record["seat"])] = str(record["villain"])
            outputs = self._run([])
        elif kind == "discard-seen":
            limit = min(3, self.engine.deck_count())
            self.discards_seen = max(0, min(int(record["count"]), limit))
            outputs = [Show("public", f"Catwoman discards {self.discards_seen}.")]
        elif kind == "declare":
            self.swap_declared = True
            outputs = [Say(f"{self.name(int(record['seat']))}, Two-Face, swaps 1 and 10.")]
        elif kind == "ask-seat":
            self.asking = {k: record[k] for k in ("expected", "towards", "card", "move")}
            question = f"Whose card is {record['card']}? Choose the seat on the panel."
            seats = tuple(range(len(self.setup.seats)))
            return [Say(question), ChooseSeat("who-played", seats, self.choose_seconds)]
        elif kind == "answered":
            outputs = self._answered(record.get("seat"))
        else:
            raise RecordError(f"Chaos in Gotham City has no record kind {kind!r}")
        return outputs + self._prompt(before)

    def _answered(self, seat: Any) -> list[Output]:
        asking = self.asking
        if asking is None:
            raise RecordError("an answer with no question open")
        self.asking = None
        expected = int(asking["expected"])
        if seat == expected:
            return self._run([asking["move"]])
        if seat is None:
            return [Say("No answer. Please take the card back and lay it on your own side.")]
        return [
            Say(
                f"It is {self.name(expected)}'s turn, not {self.name(int(seat))}'s. "
                "Please take that card back."
            )
        ]

    def _run(self, moves: list[Move]) -> list[Output]:
        """Apply moves, then what follows without the camera; put the events into words."""
        events: list[Event] = []
        try:
            for move in moves:
                events += self.engine.apply(move)
                if move.get("kind") == "play":
                    self.swap_declared = False
                elif move.get("kind") == "catwoman":
                    self.discards_seen = 0
            events += self._advance()
        except IllegalMove as err:
            raise RecordError(f"journaled move no longer fits: {err.reason}") from None
        return self._narrate(events)

    def _advance(self) -> list[Event]:
        """Enter what the hub cannot see (the deal) and the villains seen out of order."""
        events: list[Event] = []
        while True:
            head = self._head()
            if head is None:
                return events
            if head["step"] == "deal":
                seat = head["seat"]
                events += self.engine.apply(
                    {"kind": "deal", "player": CHANCE, "seat": seat, "card": None}
                )
            elif head["step"] == "villain" and head["seat"] in self.villains_seen:
                seat = head["seat"]
                villain = self.villains_seen.pop(seat)
                events += self.engine.apply(
                    {"kind": "villain", "player": CHANCE, "seat": seat, "villain": villain}
                )
            else:
                return events

    # --- speaking -------------------------------------------------------------------------
    def _narrate(self, events: list[Event]) -> list[Output]:
        data = self.engine.data
        names = self.setup.seats
        out: list[Output] = []
        for event in events:
            if event["audience"] != "public":
                continue  # private to one seat: never spoken
            kind = event["kind"]
            if kind == "villain":
                out.append(Say(f"{names[event['seat']]} is {event['name']}."))
            elif kind == "catwoman" and event["discarded"]:
                out.append(Say(f"Catwoman exchanges {words.plural(event['discarded'], 'card')}."))
            elif kind == "trump":
                out.append(Say(words.trump_words(event, data)))
            elif kind == "trump-unchanged":
                out.append(Say(f"The deck is empty: {event['colour']} stays trump."))
            elif kind == "location":
                out.append(Say("Location: " + words.location_words(data, event["card"]) + "."))
            elif kind == "locations-reshuffled":
                out.append(
                    Say("The location deck is used up: shuffle the set-aside location cards.")
                )
            elif kind == "penguin":
                out.append(Say(f"The Penguin chooses {data.locations[event['card']].name}."))
            elif kind == "revealed":
                out.append(
                    Say(f"The Riddler's card is the {words.card_words(data, event['card'])}.")
                )
            elif kind == "revoke":
                sentence = words.revoke_words(event, data, names)
                out += [Say(sentence), Show("public", sentence, {"revoke": dict(event)})]
            elif kind == "trick":
                sentences = words.trick_words(event, data, names, self.engine.villains)
                out.append(Say(" ".join(sentences)))
                out.append(Show("public", " ".join(sentences), {"trick": dict(event)}))
            elif kind == "round-end":
                sentences = words.round_words(event, names)
                out.append(Say(" ".join(sentences)))
                table = words.score_table(event["totals"], names)
                out.append(Show("public", table, {"round": dict(event)}))
            elif kind == "game-over":
                self.phase = "over"
                out.append(Say(words.game_over_words(event, names)))
                out.append(SeatLights(tuple(event["winners"])))
                out.append(Show("public", words.score_table(event["totals"], names), dict(event)))
        return out

    def _step_key(self) -> tuple[Any, ...] | None:
        head = self._head()
        if head is None:
            return None
        return (self.engine.round, len(self.engine.history), head["step"], head.get("seat"))

    def _prompt(self, before: tuple[Any, ...] | None) -> list[Output]:
        """Tell the table what is due next, once, when it changes."""
        head = self._head()
        if head is None or self.phase != "play" or self._step_key() == before:
            return []
        step = head["step"]
        seat = head.get("seat")
        engine = self.engine
        if step == "villain" and not any(engine.villains) and not self.villains_seen:
            size = HAND_SIZES[engine.players]
            return [
                SeatLights(()),
                Say(
                    f"Round {engine.round + 1} of {engine.players}. Shuffle, deal each player "
                    f"a villain card face up and {size} trick cards. "
                    f"{self.name(engine.starter)} starts."
                ),
            ]
        if step == "catwoman" and seat is not None:
            return [
                Say(
                    f"{self.name(seat)}, Catwoman: you may discard up to 3 trick cards face "
                    "down and draw as many. Then turn up the trump card."
                )
            ]
        if step == "trump" and head["reason"] == "start":
            return [Say("Turn the top card of the deck face up onto the trump pile.")]
        if step == "trump":
            return [Say("Put the bottom card of the deck on the trump pile.")]
        if step == "penguin" and seat is not None:
            options = " or ".join(engine.data.locations[c].name for c in engine.loc_options)
            return [Say(f"{self.name(seat)}, Penguin: choose {options}; set the other aside.")]
        if step == "reveal" and seat is not None:
            return [Say(f"{self.name(seat)}, Riddler: turn your face-down card over.")]
        if step == "play" and seat is not None:
            return [SeatLights((seat,))]
        return []

    def on_resume(self) -> list[Output]:
        seats = tuple(range(len(self.setup.seats)))
        if self.phase == "choose_first":
            return [ChooseSeat("first", seats, self.choose_seconds)]
        if self.asking is not None:
            return [ChooseSeat("who-played", seats, self.choose_seconds)]
        return self._prompt(None)
