"""``tablehub demo get-adler``: a whole refereed game of Get Adler! at a simulated table.

Two games run side by side.  The *table* is a full-knowledge engine whose seats are played
by bots (``tablehub.games.get_adler.bots``); whatever its players do in sight of the hub
happens at a simulated table (``get_adler_table``): cards laid on the discard pile, an
arrest card laid in front of the accused and the confrontation's cards on it, character
cards turned up, documents shown.  The shared simulated table camera
(``tablehub.service.sim_camera``) renders that table into the frames of the service's
camera and reads them back -- the renderer's ground truth, or with ``--vision real`` the
card finder and identifier -- through the card-vision tracker into card events; the
button and the knob are worked on the dealer panel (gpiozero mock pins); a count of cards
drawn from an eliminated player is entered by hand (a ``ManualEvent``, as on the web
page).  The *hub* is the Get Adler! referee in the real service (``runner.serve``: SQLite
journal, voice to WAV files), which sees only those observations and keeps its own,
partial, game.  At the end the two must agree on who won and why, or the demo fails.

The clock is virtual (``tablehub.service.clock``): the camera's frames and the players'
pauses cost no wall time.  When the hub does not take a card just laid -- a copy laid in
the very pose of the one under it, which no camera can tell was laid -- the player sees
no reaction (the seat light stays, the card is not shown), presses the button if the hub
waits for a turn's card (it then says to lay the card again), and lifts the card and lays
it down again.  When the hub cannot read it (it re-reads, then asks the table), the
player corrects the rejected reading on the control page (``ManualEvent("correct")`` with
what the hub makes of a sure reading of that card).

``play_offline`` runs the same game without the service (no journal, panel, voice or
rendering: the tracker gets what a perfect identifier sees of the table), for tests and
benchmarks that play many games.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablehub.config import Config, ConfigError, SeatsConfig, load_config
from tablehub.devices.camera import Frame
from tablehub.games.base import CHANCE, PUBLIC, Event, Move
from tablehub.games.get_adler.bots import AdlerBot
from tablehub.games.get_adler.state import AdlerState
from tablehub.observations import (
    CardEvent,
    ManualEvent,
    Observation,
    PanelEvent,
    observation_from_json,
)
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    OfflineTable,
    Output,
    Referee,
    Reread,
    Say,
    Setup,
    Show,
    WaitNext,
)
from tablehub.referee.get_adler import AdlerReferee
from tablehub.referee.get_adler_cards import a_card, camera_id, character_card, spoken
from tablehub.service import sim_camera
from tablehub.service.clock import run_virtual
from tablehub.service.get_adler_table import AdlerTable, pile_zones
from tablehub.service.runner import RunOptions, serve
from tablehub.service.sim_camera import VISIONS, SimCardReader, TableFrames, Vision
from tablehub.vision.tracker import CardTracker, Sighting

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions
    from tablehub.devices.panel import PanelHands
    from tablehub.service.app import Hub

SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
OUTPUT = Path("demo-output") / "get-adler"
TABLE_MM = (900.0, 600.0)
REAL_PX_PER_MM = 2.0  # --vision real: the scale of a table camera (the identifier's poses)
VOICE_TIMEOUT = 3600.0  # virtual seconds: synthesis runs in real time while the clock jumps
MAX_FRAMES = 40  # camera frames kept (the first cards read)
RELAYS = 8  # times a player lays a card again that the hub did not take, before giving up
AGREE, FORGET = 2, 2  # the simulated camera's tracker (sim_camera.SimCardReader's)
Simulation = Callable[["Hub", "PanelHands | None"], None]


@dataclass(frozen=True)
class Action:
    """One thing a player does in sight of the hub."""

    kind: str  # "card" (laid or turned up), "table" (cards tidied), "press", "choose", "manual"
    note: str  # for the transcript
    perform: Callable[[], None] | None = None  # the change at the table (card, table)
    observation: Observation | None = None  # manual actions
    seat: int = -1  # choose: the seat to turn the knob to; card: the player
    expect: bool = False  # the hub must take it (a record): else the player lays it again
    unprompted: bool = False  # press: the hub is not asking for the button
    pile: str = ""  # card: where it is laid ("discard", "stack", "reveal", "character")
    face: str = ""  # card: the camera's id of its face


@dataclass
class DemoResult:
    truth_winner: str | None = None
    truth_reason: str | None = None
    hub_winner: str | None = None
    hub_reason: str | None = None
    said: int = 0
    refusals: int = 0
    rereads: int = 0
    asked_table: int = 0
    relays: int = 0  # cards laid again because the hub did not take them
    unseen: int = 0  # cards the hub never took, even laid again
    laid: dict[str, int] = field(default_factory=dict)  # cards laid, by pile
    at_once: dict[str, int] = field(default_factory=dict)  # of those: taken when first laid
    told: dict[str, int] = field(default_factory=dict)  # of those: told when the hub asked
    frames: int = 0  # camera frames read
    renders: int = 0  # frames rendered (a frame is rendered again only when the table changed)
    seconds: float = 0.0
    transcript: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return (self.truth_winner, self.truth_reason) == (self.hub_winner, self.hub_reason)

    def card(self, action: Action, at_once: bool, taken: bool, told: bool) -> None:
        """A card was laid (``action``): taken by the hub at once, after laying it again,
        told by the table when the hub asked, or never."""
        self.laid[action.pile] = self.laid.get(action.pile, 0) + 1
        self.at_once[action.pile] = self.at_once.get(action.pile, 0) + at_once
        self.told[action.pile] = self.told.get(action.pile, 0) + told
        self.unseen += not taken

    def camera_summary(self) -> str:
        """How the camera did: frames, and the cards laid it read at once or not."""
        laid, at_once = sum(self.laid.values()), sum(self.at_once.values())
        told = sum(self.told.values())
        discards, read = self.laid.get("discard", 0), self.at_once.get("discard", 0)
        return (
            f"{self.frames} frames read ({self.renders} rendered); {laid} cards laid: "
            f"{at_once} read at once, {laid - at_once - told - self.unseen} after laying "
            f"again ({self.relays} time(s)), {told} told by the table when asked, "
            f"{self.unseen} never; discard pile: {read} of {discards} read at once, "
            f"{self.told.get('discard', 0)} told; the hub re-read {self.rereads} time(s) and "
            f"asked the table {self.asked_table} time(s)"
        )

    def heard(self, output: Output) -> None:
        if isinstance(output, Say):
            self.said += 1
            self.refusals += "Take the card back" in output.text
        elif isinstance(output, Reread):
            self.rereads += 1
        elif isinstance(output, AskTable):
            self.asked_table += 1


class Players:
    """The people at the table: bots over a full-knowledge game, the cards they move.

    ``actions()`` yields one action at a time and must be resumed only after the hub has
    handled the previous one: some choices look at the hub (is it waiting for the knob?).
    """

    def __init__(self, seed: int, referee: AdlerReferee, table: AdlerTable) -> None:
        players = len(referee.setup.seats)
        self.rng = random.Random(seed)
        self.truth = AdlerState(players, referee.engine_options)
        self.bots = [AdlerBot(s, random.Random(self.rng.random())) for s in range(players)]
        self.seats = referee.setup.seats
        self.referee = referee
        self.table = table
        self.flipped: set[int] = set()

    def actions(self) -> Iterator[Action]:
        while not self.truth.is_terminal():
            move, events = self._step()
            yield from self._show(move, events)
            yield from self._tidy(events)
        yield from self._seven_oclock()

    def answer(self, action: Action) -> Action | None:
        """The hub could not read the card just laid and asked the table: the answer a
        player gives on the control page -- the rejected reading corrected to the card it
        is (``ManualEvent("correct")``, what the hub would have made of a sure reading).
        None when the hub asked nothing."""
        referee = self.referee
        if not referee.history or referee.history[-1][1].get("kind") != "rejected":
            return None
        seq, record = referee.history[-1]
        try:
            seen = observation_from_json(record["observation"])
        except (KeyError, TypeError, ValueError):
            return None
        if not isinstance(seen, CardEvent) or not seen.face_up:
            return None
        sure = replace(seen, card_id=action.face, confidence=1.0)
        decided = referee.decide(sure)
        if len(decided) != 1 or decided[0].get("kind") == "rejected":
            return None
        note = f"{self.seats[action.seat]} tells the hub on the control page which card it is"
        correction = ManualEvent("correct", {"seq": seq, "record": decided[0]})
        return Action("manual", note, observation=correction)

    def retry(self, action: Action) -> list[Action]:
        """The hub did not take the card just laid: what the player does about it.  It said
        it could not read it (a rejection): lay it again; it said nothing: press the button
        first if it waits for a turn's card (it then says to lay the card again)."""
        name = self.seats[action.seat]
        out = []
        last = self.referee.history[-1][1] if self.referee.history else {}
        heard = last.get("kind") == "rejected"
        if not heard and self.referee.engine.phase == "play" and self.referee.pending is None:
            note = f"{name} presses the button: the hub has not shown the card"
            out.append(Action("press", note, unprompted=True))
        note = f"{name} lifts the card and lays it down again"
        out.append(Action("card", note, self.table.relay, seat=action.seat, expect=True))
        return out

    def _step(self) -> tuple[Move, list[Event]]:
        state = self.truth
        seat = state.current_player()
        legal = state.legal_moves()
        if seat == CHANCE:
            if state.phase == "start-player":  # the hub draws the starting player
                move: Move = {"kind": "start-player", "player": CHANCE, "seat": self.referee.start}
            else:
                move = self.rng.choice(legal)
        else:
            move = self.bots[seat].choose(state.player_view(seat), legal)
        events = state.apply(move)
        for bot in self.bots:
            bot.observe([e for e in events if e["audience"] in (PUBLIC, bot.seat)])
        return move, events

    def _show(self, move: Move, events: list[Event]) -> Iterator[Action]:
        kind, seat = move["kind"], move["player"]
        name = self.seats[seat] if seat >= 0 else ""
        if kind == "mission":
            yield self._lay(move["card"], "reveal", "the mission document is shown:", CHANCE)
            note = "the mission document is shuffled back into the deck"
            yield Action("table", note, self.table.clear_shown)
        elif kind in ("discard", "play"):
            card_kind = self.truth.kind(self.truth.index[move["card"]])
            target = int(move.get("target", -1))
            if card_kind == "arrest" and kind == "play":
                doing = f"arrests {self.seats[target]}:"
                yield self._lay(move["card"], "stack", doing, seat, target)
            else:
                yield self._lay(move["card"], "discard", "lays on the discard pile:", seat)
                if card_kind == "binoculars" and kind == "discard":
                    yield Action("press", f"{name} presses the button: only a discard")
                elif card_kind == "binoculars":
                    note = f"{name} turns the knob to {self.seats[target]} and presses it"
                    yield Action("choose", note, seat=target)
        elif kind == "answer-arrest":
            if move["right"]:
                yield self._flip(seat)
            else:
                yield Action("press", f"{name} presses the button: the arrest is wrong")
        elif kind == "react":
            yield self._lay(move["card"], "stack", "reacts with", seat)
        elif kind == "no-reaction":
            yield Action("press", f"{name} has no reaction and presses the button")
        elif kind == "escape":
            yield self._lay(move["card"], "stack", "answers the escape with", seat)
            if self.referee.pending is not None:
                yield Action("choose", f"{name} turns the knob to their own seat", seat=seat)
        elif kind == "shoot":
            yield self._lay(move["card"], "stack", "fires", seat)
        elif kind == "hold":
            yield Action("press", f"{name} stops shooting and presses the button")
        elif kind == "loot":
            note = f"{name} draws {move['count']} card(s) from the dead player's hand"
            yield Action("manual", note, observation=ManualEvent("loot", {"count": move["count"]}))
        for event in events:
            if event["kind"] == "characters-revealed" and self.referee.engine.phase == "reveal":
                for other in range(self.truth.n):
                    if other not in self.flipped:
                        yield self._flip(other)
            if event["kind"] == "confrontation-over" and event["result"] == "escape":
                yield Action("press", "no hero can answer: the button is pressed")

    def _tidy(self, events: list[Event]) -> Iterator[Action]:
        """The cards the rules move after a play: what goes where on the table."""
        table = self.table
        for event in events:
            kind = event["kind"]
            if kind == "unjust-arrest":
                note = "the arrest card goes onto the discard pile"
                yield Action("table", note, table.stack_onto_discard)
            elif kind == "cards-to-discard-bottom" and table.stack:
                note = "the confrontation's cards go under the discard pile"
                yield Action("table", note, table.stack_under_discard)
            elif kind == "reshuffle":
                note = "the discard pile is shuffled into a new deck"
                yield Action("table", note, table.reshuffle)
        present = self.truth.book.deck_size > 0
        if present != table.deck:
            note = "the deck is laid in the middle" if present else "the deck is used up"
            yield Action("table", note, partial(table.set_deck, present))

    def _seven_oclock(self) -> Iterator[Action]:
        """After the last turn: the characters turned up, the documents laid down.  (The
        hub's engine is looked up each time: a correction rebuilds it.)"""
        if self.referee.engine.phase == "reveal":
            for seat in range(self.truth.n):
                if seat not in self.flipped:
                    yield self._flip(seat)
        for _ in range(self.truth.n):
            hub = self.referee.engine
            if hub.phase != "show-documents" or hub.is_terminal():
                break
            villain = hub.current_player()
            for card in self.truth.book.hands[villain]:
                if self.truth.kind(card) == "document":
                    yield self._lay(self.truth.ids[card], "reveal", "shows", villain)
            yield Action("press", f"{self.seats[villain]} presses the button")

    def _lay(self, card_id: str, where: str, doing: str, seat: int, target: int = -1) -> Action:
        card = self.truth.data.cards[self.truth.index[card_id]]
        who = "" if seat == CHANCE else f"{self.seats[seat]} "
        words = spoken(card_id) if doing.endswith(":") else a_card(card_id)
        face = camera_id(card)
        table = self.table
        if where == "discard":
            perform = partial(table.to_discard, face)
        elif where == "stack":
            perform = partial(table.to_stack, target if target >= 0 else table.stack_seat, face)
        else:
            perform = partial(table.show, face)
        note = f"{who}{doing} {words}"
        return Action("card", note, perform, seat=seat, expect=True, pile=where, face=face)

    def _flip(self, seat: int) -> Action:
        self.flipped.add(seat)
        character = self.truth.characters[seat]
        assert character is not None
        face = character_card(character)
        perform = partial(self.table.flip_character, seat, face)
        note = f"{self.seats[seat]} turns the character card face up"
        return Action("card", note, perform, seat=seat, expect=True, pile="character", face=face)

    def finish(self, result: DemoResult) -> DemoResult:
        hub = self.referee.engine
        result.truth_winner, result.truth_reason = self.truth.winner, self.truth.end_reason
        result.hub_winner, result.hub_reason = hub.winner, hub.end_reason
        return result


def _took(referee: Referee, before: int) -> bool:
    """Did the hub take what was just done (a record since ``before`` that is not a
    rejected reading or a refusal)?"""
    return any(r.get("kind") not in ("rejected", "refused") for _, r in referee.history[before:])


def in_view(table: AdlerTable) -> list[Sighting]:
    """What a perfect identifier sees of ``table``: every card not under another."""
    laid = [*table.characters, *table.shown]
    laid += [pile[-1] for pile in (table.discard, table.stack) if pile]
    out = [Sighting(None, False, 0.99, table.deck_spot, 3.0)] if table.deck else []
    out += [Sighting(c.card_id if c.face_up else None, c.face_up, 0.99, c.centre, c.angle % 180.0)
            for c in laid]  # fmt: skip
    return out


# --- without the service: the tests' table ----------------------------------------------


def play_offline(
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    echo: Callable[[str], None] = lambda line: None,
) -> DemoResult:
    """The demo's game on an ``OfflineTable``: referee, table, tracker (no rendering)."""
    started = time.perf_counter()
    seats = SEAT_NAMES[:players]
    referee = AdlerReferee(Setup("get-adler", seats, dict(options or {}), seed=seed))
    hub = OfflineTable(referee)
    table = AdlerTable(players, *TABLE_MM, random.Random(f"{seed}:table"))
    people = Players(seed, referee, table)
    piles = pile_zones(table.zones)
    tracker = CardTracker(
        table.zones, agree_frames=AGREE, forget_frames=FORGET, piles=piles, copies=True
    )
    result = DemoResult()

    def heard(outputs: list[Output]) -> None:
        for output in outputs:
            result.heard(output)
            if isinstance(output, Reread):
                tracker.forget(output.zone)  # the hub asks the camera to read it again
            elif isinstance(output, Say):
                line(f"[voice] {output.text}")
            elif isinstance(output, Show) and output.audience == PUBLIC:
                line(f"[screen] {output.text}")
            elif isinstance(output, AskTable):
                line(f"[voice] {output.question}")

    def line(text: str) -> None:
        result.transcript.append(text)
        echo(text)

    def look() -> None:
        """Camera frames until every change is certain."""
        quiet = 0
        while quiet < AGREE + FORGET + 1:
            result.frames += 1
            events = tracker.update(in_view(table))
            quiet = 0 if events else quiet + 1
            for event in events:
                heard(hub.feed(event))

    def do(action: Action) -> bool:
        line(f"[table] {action.note}")
        before = len(referee.history)
        if action.perform is not None:
            action.perform()
            look()
        else:
            heard(hub.feed(_panel_event(action, hub.outputs)))
        return _took(referee, before)

    heard(hub.start())
    look()
    for action in people.actions():
        taken = at_once = told = do(action)
        for _ in range(RELAYS if action.expect and not taken else 0):
            answer = people.answer(action)
            if answer is not None:
                taken = told = do(answer)
            else:
                result.relays += 1
                taken = [do(retry) for retry in people.retry(action)][-1]
            if taken:
                break
        if action.expect:
            result.card(action, at_once, taken, told and not at_once)
    result.seconds = time.perf_counter() - started
    return people.finish(result)


def _panel_event(action: Action, outputs: list[Output]) -> Observation:
    """What the panel (or the hand) reports for ``action`` on an ``OfflineTable``."""
    if action.observation is not None:
        return action.observation
    for output in reversed(outputs):
        if action.unprompted:
            break
        if action.kind == "press" and isinstance(output, WaitNext):
            return PanelEvent("next", request=output.request)
        if action.kind == "choose" and isinstance(output, ChooseSeat):
            return PanelEvent("seat_chosen", seat=action.seat, request=output.request)
    return PanelEvent("next")


# --- through the service: journal, camera, panel on mock pins, voice ----------------------


class TablePlayers:
    """The people at the hub's table, one visible step at a time, each once the camera has
    reported it and the hub has handled everything it was given."""

    def __init__(
        self,
        hub: Hub,
        players: Players,
        reader: SimCardReader,
        hands: PanelHands,
        result: DemoResult,
    ) -> None:
        self.hub, self.players, self.reader, self.hands = hub, players, reader, hands
        self.result = result
        self.choose_seats: tuple[int, ...] = ()
        hub.output_watchers.append(self._watch)

    def finish(self) -> DemoResult:
        """The result, with both games' ends and the camera's frame counts."""
        self.result.frames, self.result.renders = self.reader.read, self.reader.frames.renders
        return self.players.finish(self.result)

    def _watch(self, output: Output) -> None:
        self.result.heard(output)
        if isinstance(output, ChooseSeat):
            self.choose_seats = output.seats

    async def _caught_up(self) -> None:
        """The camera has reported the table as it is and the hub has nothing left to do."""
        version = self.players.table.version
        while not self.hub.finished and not (
            self.reader.settled(version) and self.hub.queue.empty()
        ):
            await asyncio.sleep(0.05)

    async def _do(self, action: Action) -> bool:
        self.hub.transcript(f"[table] {action.note}")
        before = len(self.hub.referee.history)
        if action.perform is not None:
            action.perform()
        elif action.observation is not None:
            self.hub.post(action.observation)
        elif action.kind == "press":
            self.hands.press_next()
        else:
            seats = self.choose_seats
            self.hands.turn(seats.index(action.seat) if action.seat in seats else 0)
            self.hands.press_knob()
        await asyncio.sleep(0.5)  # a person's hand takes a moment
        await self._caught_up()
        return _took(self.hub.referee, before)

    async def play(self) -> None:
        await self._caught_up()
        for action in self.players.actions():
            if self.hub.finished:
                break
            taken = at_once = told = await self._do(action)
            for _ in range(RELAYS if action.expect and not taken else 0):
                answer = self.players.answer(action)
                if answer is not None:
                    taken = told = await self._do(answer)
                else:
                    self.result.relays += 1
                    for retry in self.players.retry(action):
                        taken = await self._do(retry)
                if taken:
                    break
            if action.expect:
                self.result.card(action, at_once, taken, told and not at_once)
        await asyncio.sleep(5.0)
        if not self.hub.finished:  # the table is done; a hub still waiting would wait forever
            self.hub.transcript("[table] the game is over at the table; the hub is not")
            self.hub.stop()


def simulation_for(
    seed: int,
    table_mm: tuple[float, float],
    vision: Vision,
    frames_dir: Path | None,
    result: DemoResult,
    players_out: list[TablePlayers] | None = None,
) -> Simulation:
    """What ``serve`` installs on the hub: the table, the camera over it, the players.  The
    table plays by the rules the hub was set up with (its referee's engine options)."""

    def install(hub: Hub, hands: PanelHands | None) -> None:
        if hands is None:
            raise RuntimeError("the simulated players need the panel on mock pins")
        referee = hub.referee
        if not isinstance(referee, AdlerReferee):
            raise RuntimeError(f"the Get Adler! table needs its referee, not {referee.game}")
        count = len(referee.setup.seats)
        table = AdlerTable(count, *table_mm, random.Random(f"{seed}:table"))
        scale = REAL_PX_PER_MM if vision == "real" else sim_camera.PX_PER_MM
        frames = TableFrames(
            table.placements, lambda: table.version, table_mm, seed, "felt-blue", scale
        )
        saved = [0]

        def on_read(events: list[CardEvent], frame: Frame) -> None:
            number = reader.read
            for event in events:
                face = event.card_id or "a card face down"
                hub.transcript(f"[camera] frame {number}: {event.change} {face} at {event.zone}")
            if frames_dir is not None and saved[0] < MAX_FRAMES:
                import cv2

                frames_dir.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(frames_dir / f"frame-{number:05d}.jpg"), frame)
                saved[0] += 1

        piles = pile_zones(table.zones)
        reader = sim_camera.install(
            hub, frames, table.zones, vision, "adler", on_read, piles, copies=True
        )
        people = TablePlayers(hub, Players(seed, referee, table), reader, hands, result)
        if players_out is not None:
            players_out.append(people)
        sim_camera.start_players(hub, people.play())

    return install


def simulation(config: Config, seed: int, transcript: Callable[[str], None]) -> Simulation:
    """``tablehub run --simulated --game get-adler``: the demo's table and players."""
    players = len(config.seats.names)
    if not 4 <= players <= 6:
        raise ValueError(f"Get Adler! needs 4 to 6 seats in the configuration, not {players}")
    table_mm = (config.table.width_mm, config.table.depth_mm)
    return simulation_for(seed, table_mm, "truth", None, DemoResult())


def run_demo(options: DemoOptions) -> int:
    """The ``tablehub demo get-adler`` command."""
    players = options.players or 4
    if not 4 <= players <= 6:
        print(f"tablehub demo get-adler: --players must be 4 to 6, not {players}", file=sys.stderr)
        return 2
    try:
        config = load_config(options.config_path)
    except ConfigError as err:
        print(f"tablehub demo: configuration {err.source}: " + "; ".join(err.problems))
        return 2
    out = OUTPUT.resolve()
    wav_dir = (options.wav_dir or out / "voice").resolve()
    frames_dir = out / "frames"
    for folder in (wav_dir, frames_dir):
        shutil.rmtree(folder, ignore_errors=True)
    journal = out / "journal.sqlite3"
    out.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    config = replace(
        config,
        seats=SeatsConfig(SEAT_NAMES[:players]),
        data_dir=out,
        journal_path=journal,
        table=replace(config.table, width_mm=TABLE_MM[0], depth_mm=TABLE_MM[1]),
        voice=replace(config.voice, timeout=VOICE_TIMEOUT),
    )
    game_options: dict[str, Any] = {"extended": True} if players >= 5 else {}
    lines: list[str] = []

    def echo(line: str) -> None:
        if line.startswith("[journal]"):
            return  # every record is in the journal file; keep the transcript readable
        lines.append(line)
        print(line, flush=True)

    vision: Vision = "real" if options.vision == "real" else "truth"
    result = DemoResult()
    table: list[TablePlayers] = []
    keep = None if options.fast else frames_dir
    opts = RunOptions(
        game="get-adler",
        simulated=True,
        seed=options.seed,
        options=game_options,
        fresh=True,
        wav_dir=wav_dir,
        force_wav=True,
        transcript=echo,
        simulation=simulation_for(options.seed, TABLE_MM, vision, keep, result, table),
    )
    rules = "extended rules" if game_options else "basic rules"
    echo(f"tablehub demo get-adler: {players} players ({rules}), seed {options.seed}")
    echo(f"  camera: the table rendered and read by {VISIONS[vision]}")
    started = time.perf_counter()
    outcome = run_virtual(serve(config, opts))
    elapsed = time.perf_counter() - started
    table[0].finish()
    db = sqlite3.connect(journal)
    try:
        (records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    finally:
        db.close()
    wavs = sorted(wav_dir.glob("*.wav")) if wav_dir.exists() else []
    frames = sorted(frames_dir.glob("*.jpg")) if keep is not None else []
    echo("")
    echo(f"table  : {result.truth_winner} win ({result.truth_reason})")
    echo(f"hub    : {result.hub_winner} win ({result.hub_reason})")
    echo(f"camera : {result.camera_summary()}")
    if frames:
        echo(f"frames : the first {len(frames)} with a change kept in {frames_dir}")
    echo(f"voice  : {result.said} phrases -> {len(wavs)} WAV files in {wav_dir}")
    echo(f"journal: {records} records in {journal}")
    echo(f"time   : {elapsed:.1f} s")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not (outcome.finished and result.agrees):
        print(
            "tablehub demo get-adler: the hub and the table disagree on the result", file=sys.stderr
        )
        return 1
    return 0
