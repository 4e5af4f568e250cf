"""``tablehub demo get-adler``: a whole refereed game of Get Adler! at a simulated table.

Two games run side by side.  The *table* is a full-knowledge engine whose seats are played
by bots (``tablehub.games.get_adler.bots``); whatever its players do in sight of the hub
becomes an action: a card laid face up is a camera ``CardEvent`` (one design per printed
face, as a card reader reports it), the button and the knob are pressed and turned on the
dealer panel.  The *hub* is the Get Adler! referee, which sees only those observations and
keeps its own, partial, game.  At the end the two must agree on who won and why, or the
demo fails.

The demo runs the real service (``tablehub.service.app.Hub``): every accepted event is
journaled in SQLite before it is acted on, the panel runs on gpiozero mock pins driven by
the players' hands, and the voice speaks with the configured engine -- to the speaker, or
to WAV files when there is none (or when ``--wav-dir`` is given).  ``SimulatedTable``
drives the same players through an ``OfflineTable`` instead (no devices: the tests' way).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablehub.config import Config, ConfigError, SeatsConfig, load_config
from tablehub.devices.panel import Panel, PanelError, PanelHands, mock_pin_factory
from tablehub.devices.voice import Voice, make_voice
from tablehub.games.base import CHANCE, PUBLIC, Event, Move
from tablehub.games.get_adler.bots import AdlerBot
from tablehub.games.get_adler.state import AdlerState
from tablehub.observations import CardEvent, ManualEvent, Observation, PanelEvent
from tablehub.referee.base import (
    AskTable,
    ChooseSeat,
    OfflineTable,
    Output,
    Reread,
    Say,
    Setup,
    Show,
    WaitNext,
)
from tablehub.referee.get_adler import AdlerReferee
from tablehub.referee.get_adler_cards import a_card, camera_id, character_card, spoken
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions

SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
OUTPUT = Path("demo-output") / "get-adler"
CENTRE = (0.0, 0.0)


@dataclass(frozen=True)
class Action:
    """One thing a player does in sight of the hub."""

    kind: str  # "card" (a camera reading), "press" (next button), "choose" (knob), "manual"
    note: str  # for the transcript
    observation: Observation | None = None  # card and manual actions
    seat: int = -1  # choose: the seat to turn the knob to


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
    transcript: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return (self.truth_winner, self.truth_reason) == (self.hub_winner, self.hub_reason)

    def heard(self, output: Output) -> None:
        if isinstance(output, Say):
            self.said += 1
            self.refusals += "Take the card back" in output.text
        elif isinstance(output, Reread):
            self.rereads += 1
        elif isinstance(output, AskTable):
            self.asked_table += 1


class Players:
    """The people at the table: bots over a full-knowledge game, and what the hub sees.

    ``actions()`` yields one action at a time and must be resumed only after the hub has
    handled the previous one: some choices look at the hub (is it waiting for the knob?).
    """

    def __init__(
        self, players: int, seed: int, options: dict[str, Any], referee: AdlerReferee
    ) -> None:
        self.rng = random.Random(seed)
        self.truth = AdlerState(players, options)
        self.bots = [AdlerBot(s, random.Random(self.rng.random())) for s in range(players)]
        self.seats = SEAT_NAMES[:players]
        self.referee = referee
        self.flipped: set[int] = set()

    def actions(self) -> Iterator[Action]:
        while not self.truth.is_terminal():
            move, events = self._step()
            yield from self._show(move, events)
        yield from self._seven_oclock()

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
        elif kind in ("discard", "play"):
            card_kind = self.truth.kind(self.truth.index[move["card"]])
            target = int(move.get("target", -1))
            if card_kind == "arrest" and kind == "play":
                yield self._lay(
                    move["card"], f"seat-{target + 1}", f"arrests {self.seats[target]}:", seat
                )
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
            yield self._lay(move["card"], f"seat-{seat + 1}", "reacts with", seat)
        elif kind == "no-reaction":
            yield Action("press", f"{name} has no reaction and presses the button")
        elif kind == "escape":
            yield self._lay(move["card"], "table", "answers the escape with", seat)
            if self.referee.pending is not None:
                yield Action("choose", f"{name} turns the knob to their own seat", seat=seat)
        elif kind == "shoot":
            yield self._lay(move["card"], f"seat-{seat + 1}", "fires", seat)
        elif kind == "hold":
            yield Action("press", f"{name} stops shooting and presses the button")
        elif kind == "loot":
            note = f"{name} draws {move['count']} card(s) from the dead player's hand"
            yield Action("manual", note, ManualEvent("loot", {"count": move["count"]}))
        for event in events:
            if event["kind"] == "characters-revealed" and self.referee.engine.phase == "reveal":
                for other in range(self.truth.n):
                    if other not in self.flipped:
                        yield self._flip(other)
            if event["kind"] == "confrontation-over" and event["result"] == "escape":
                yield Action("press", "no hero can answer: the button is pressed")

    def _seven_oclock(self) -> Iterator[Action]:
        """After the last turn: the characters turned up, the documents laid down."""
        hub = self.referee.engine
        if hub.phase == "reveal":
            for seat in range(self.truth.n):
                if seat not in self.flipped:
                    yield self._flip(seat)
        for _ in range(self.truth.n):
            if hub.phase != "show-documents":
                break
            villain = hub.current_player()
            for card in self.truth.book.hands[villain]:
                if self.truth.kind(card) == "document":
                    yield self._lay(self.truth.ids[card], "reveal", "shows", villain)
            yield Action("press", f"{self.seats[villain]} presses the button")

    def _lay(self, card_id: str, zone: str, doing: str, seat: int) -> Action:
        card = self.truth.data.cards[self.truth.index[card_id]]
        who = "" if seat == CHANCE else f"{self.seats[seat]} "
        words = spoken(card_id) if doing.endswith(":") else a_card(card_id)
        event = CardEvent("appeared", camera_id(card), zone, True, 0.97, CENTRE)
        return Action("card", f"{who}{doing} {words}", event)

    def _flip(self, seat: int) -> Action:
        self.flipped.add(seat)
        character = self.truth.characters[seat]
        assert character is not None
        zone = f"seat-{seat + 1}"  # the vision zones count seats from 1
        event = CardEvent("flipped", character_card(character), zone, True, 0.97, CENTRE)
        return Action("card", f"{self.seats[seat]} turns the character card face up", event)

    def finish(self, result: DemoResult) -> DemoResult:
        hub = self.referee.engine
        result.truth_winner, result.truth_reason = self.truth.winner, self.truth.end_reason
        result.hub_winner, result.hub_reason = hub.winner, hub.end_reason
        return result


# --- without devices: the tests' table -------------------------------------------------


class SimulatedTable:
    """The players and the referee on an ``OfflineTable`` (no journal, no devices)."""

    def __init__(
        self,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        echo: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.options = dict(options or {})
        self.seats = SEAT_NAMES[:players]
        self.referee = AdlerReferee(Setup("get-adler", self.seats, dict(self.options), seed=seed))
        self.hub = OfflineTable(self.referee)
        self.players = Players(players, seed, self.options, self.referee)
        self.echo = echo
        self.result = DemoResult()

    def play(self) -> DemoResult:
        self._heard(self.hub.start())
        for action in self.players.actions():
            self._line(f"[table] {action.note}")
            self._heard(self.hub.feed(self._observation(action)))
        return self.players.finish(self.result)

    def _observation(self, action: Action) -> Observation:
        if action.observation is not None:
            return action.observation
        for output in reversed(self.hub.outputs):
            if action.kind == "press" and isinstance(output, WaitNext):
                return PanelEvent("next", request=output.request)
            if action.kind == "choose" and isinstance(output, ChooseSeat):
                return PanelEvent("seat_chosen", seat=action.seat, request=output.request)
        return PanelEvent("next")

    def _heard(self, outputs: list[Output]) -> None:
        for output in outputs:
            self.result.heard(output)
            if isinstance(output, Say):
                self._line(f"[voice] {output.text}")
            elif isinstance(output, Show) and output.audience == PUBLIC:
                self._line(f"[screen] {output.text}")
            elif isinstance(output, AskTable):
                self._line(f"[voice] {output.question}")

    def _line(self, text: str) -> None:
        self.result.transcript.append(text)
        self.echo(text)


# --- through the service: journal, panel on mock pins, voice -----------------------------


class PanelPlayers:
    """Acts out the players' actions against a running ``Hub``: readings are posted like
    the camera's, the button and the knob are worked through the mock pins."""

    def __init__(
        self,
        players: Players,
        hub: Hub,
        hands: PanelHands,
        pace: float,
        voice: Voice | None,
        result: DemoResult,
    ) -> None:
        self.actions = players.actions()
        self.hub = hub
        self.hands = hands
        self.pace = pace
        self.voice = voice  # when pacing: wait until the hub has finished speaking
        self.result = result
        self.choose_seats: tuple[int, ...] = ()
        self.scheduled = False
        self.task: asyncio.Task[None] | None = None

    def on_output(self, output: Output) -> None:
        self.result.heard(output)
        if isinstance(output, ChooseSeat):
            self.choose_seats = output.seats

    def on_handled(self, hub: Hub) -> None:
        if not self.scheduled and not hub.finished:
            self.scheduled = True
            self.task = hub.loop.create_task(self._act())

    async def _act(self) -> None:
        await asyncio.sleep(self.pace)
        if self.voice is not None:
            await self.voice.drain()
        self.scheduled = False
        action = next(self.actions, None)
        if action is None:  # the table is done; a hub still waiting would wait forever
            self.hub.stop()
            return
        self.hub.transcript(f"[table] {action.note}")
        if action.observation is not None:
            self.hub.post(action.observation)
        elif action.kind == "press":
            self.hands.press_next()
        else:
            steps = self.choose_seats.index(action.seat) if action.seat in self.choose_seats else 0
            self.hands.turn(steps)
            self.hands.press_knob()


async def _serve(
    config: Config,
    players: int,
    seed: int,
    options: dict[str, Any],
    fast: bool,
    wav_dir: Path,
    force_wav: bool,
    echo: Callable[[str], None],
) -> tuple[DemoResult, Voice, Path]:
    journal = Journal(config.journal_path)
    result = DemoResult()
    try:
        setup = Setup("get-adler", config.seats.names, dict(options), seed=seed)
        referee, session, _ = open_session(journal, AdlerReferee, setup, resume=False)
        assert isinstance(referee, AdlerReferee)
        voice = make_voice(
            config.voice.engine,
            config.voice.rate,
            config.voice.volume,
            config.voice.voice,
            config.voice.timeout,
            wav_dir,
            config.data_dir / "cache",
            force_wav=force_wav,
        )
        echo(f"[hub] voice: {voice.description}")
        hub = Hub(journal, referee, session, Devices(voice=voice), echo)
        try:
            panel = Panel(config.panel, players, pin_factory=mock_pin_factory(), on_event=hub.post)
        except PanelError as err:
            raise SystemExit(f"tablehub demo get-adler: the simulated panel failed: {err}") from err
        hub.devices.panel = panel
        echo("[hub] panel: simulated (gpiozero mock pins)")
        table = Players(players, seed, options, referee)
        actors = PanelPlayers(
            table, hub, PanelHands(panel), 0.005 if fast else 0.3, None if fast else voice, result
        )
        hub.output_watchers.append(actors.on_output)
        hub.after_handle.append(actors.on_handled)
        try:
            await asyncio.wait_for(hub.run(resumed=False), timeout=900)
        finally:
            await hub.close()
            await voice.close()
            panel.close()
        return table.finish(result), voice, config.journal_path
    finally:
        journal.close()


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
    shutil.rmtree(wav_dir, ignore_errors=True)
    journal = out / "journal.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    config = replace(
        config, seats=SeatsConfig(SEAT_NAMES[:players]), data_dir=out, journal_path=journal
    )
    game_options: dict[str, Any] = {"extended": True} if players >= 5 else {}
    lines: list[str] = []

    def echo(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    rules = "extended rules" if game_options else "basic rules"
    echo(f"tablehub demo get-adler: {players} players ({rules}), seed {options.seed}")
    started = time.perf_counter()
    result, voice, _ = asyncio.run(
        _serve(
            config,
            players,
            options.seed,
            game_options,
            options.fast,
            wav_dir,
            options.wav_dir is not None,
            echo,
        )
    )
    elapsed = time.perf_counter() - started
    wavs = sorted(wav_dir.glob("*.wav")) if wav_dir.exists() else []
    echo("")
    echo(f"table  : {result.truth_winner} win ({result.truth_reason})")
    echo(f"hub    : {result.hub_winner} win ({result.hub_reason})")
    echo(
        f"voice  : {result.said} phrases -> "
        + (f"{len(wavs)} WAV files in {wav_dir}" if wavs else voice.description)
    )
    echo(f"journal: {journal}")
    echo(f"time   : {elapsed:.1f} s")
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not result.agrees:
        print(
            "tablehub demo get-adler: the hub and the table disagree on the result", file=sys.stderr
        )
        return 1
    return 0
