"""``tablehub demo get-adler``: a whole refereed game of Get Adler! at a simulated table.

Two games run side by side.  The *table* is a full-knowledge engine whose seats are played
by bots (``tablehub.games.get_adler.bots``); whatever its players do in sight of the hub
becomes an observation: a card laid face up is a camera ``CardEvent`` (one design per
printed face, as a card reader reports it), a press of the button or a turn of the knob is
a ``PanelEvent``.  The *hub* is the Get Adler! referee, which sees only those observations
and must keep its own, partial, game in step.  Everything it says is spoken with espeak-ng
into WAV files and printed as a transcript; at the end the two games must agree on who won
and why, or the demo fails.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from tablehub.referee.get_adler_cards import camera_id, character_card, spoken

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions

SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
CENTRE = (0.0, 0.0)


@dataclass
class DemoResult:
    truth_winner: str | None
    truth_reason: str | None
    hub_winner: str | None
    hub_reason: str | None
    said: int = 0
    refusals: int = 0
    rereads: int = 0
    asked_table: int = 0
    transcript: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return (self.truth_winner, self.truth_reason) == (self.hub_winner, self.hub_reason)


class EspeakWavVoice:
    """Speech into numbered WAV files with the espeak-ng command (what a hub without a
    speaker does); ``pace`` waits as long as each clip lasts, as a speaker would."""

    def __init__(self, folder: Path, pace: bool, rate: int = 175) -> None:
        self.folder = folder
        self.pace = pace
        self.rate = rate
        self.count = 0
        self.seconds = 0.0
        self.binary = shutil.which("espeak-ng")
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def available(self) -> bool:
        return self.binary is not None

    def say(self, text: str) -> None:
        if self.binary is None:
            return
        self.count += 1
        path = self.folder / f"{self.count:04d}.wav"
        try:
            subprocess.run(
                [self.binary, "-s", str(self.rate), "-w", str(path), "--", text],
                check=True,
                timeout=15,
                capture_output=True,
            )
            with wave.open(str(path)) as clip:
                duration = clip.getnframes() / float(clip.getframerate())
        except (OSError, subprocess.SubprocessError, wave.Error) as err:
            print(f"voice: could not speak {text!r}: {err}", file=sys.stderr)
            return
        self.seconds += duration
        if self.pace:
            time.sleep(duration)


class SimulatedTable:
    """The players at the table (bots over a full-knowledge game) and the hub watching."""

    def __init__(
        self,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        speak: Callable[[str], None] = lambda text: None,
        echo: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.rng = random.Random(seed)
        self.options = dict(options or {})
        self.truth = AdlerState(players, self.options)
        self.bots = [AdlerBot(s, random.Random(self.rng.random())) for s in range(players)]
        self.seats = SEAT_NAMES[:players]
        self.referee = AdlerReferee(Setup("get-adler", self.seats, dict(self.options), seed=seed))
        self.hub = OfflineTable(self.referee)
        self.speak = speak
        self.echo = echo
        self.flipped: set[int] = set()
        self.result = DemoResult(None, None, None, None)

    # --- running -----------------------------------------------------------------------
    def play(self) -> DemoResult:
        self._heard(self.hub.start())
        while not self.truth.is_terminal():
            self._step()
        self._seven_oclock()
        hub = self.referee.engine
        result = self.result
        result.truth_winner, result.truth_reason = self.truth.winner, self.truth.end_reason
        result.hub_winner, result.hub_reason = hub.winner, hub.end_reason
        return result

    def _step(self) -> None:
        state = self.truth
        seat = state.current_player()
        legal = state.legal_moves()
        if seat == CHANCE:
            if state.phase == "start-player":
                move: Move = {"kind": "start-player", "player": CHANCE, "seat": self.referee.start}
            else:
                move = self.rng.choice(legal)
        else:
            move = self.bots[seat].choose(state.player_view(seat), legal)
        events = state.apply(move)
        for bot in self.bots:
            bot.observe([e for e in events if e["audience"] in (PUBLIC, bot.seat)])
        self._show(move, events)

    # --- what the hub can see of a move ---------------------------------------------------
    def _show(self, move: Move, events: list[Event]) -> None:
        kind, seat = move["kind"], move["player"]
        truth = self.truth
        if kind == "mission":
            self._lay(move["card"], "reveal", "shows the mission document:", CHANCE)
        elif kind in ("discard", "play"):
            card_kind = truth.kind(truth.index[move["card"]])
            target = int(move.get("target", -1))
            if card_kind == "arrest" and kind == "play":
                self._lay(move["card"], f"seat-{target}", f"arrests {self.seats[target]}", seat)
            else:
                self._lay(move["card"], "discard", "lays on the discard pile", seat)
                if card_kind == "binoculars" and kind == "discard":
                    self._press(f"{self.seats[seat]} presses the button: just a discard")
                if card_kind == "binoculars" and kind == "play":
                    self._choose(
                        target, f"{self.seats[seat]} turns the knob to {self.seats[target]}"
                    )
        elif kind == "answer-arrest":
            if move["right"]:
                self._flip(seat)
            else:
                self._press(f"{self.seats[seat]} presses the button: not me")
        elif kind == "react":
            self._lay(move["card"], f"seat-{seat}", "reacts with", seat)
        elif kind == "no-reaction":
            self._press(f"{self.seats[seat]} has no reaction and presses the button")
        elif kind == "escape":
            self._lay(move["card"], "table", "answers the escape with", seat)
            if self.referee.pending is not None:
                self._choose(seat, f"{self.seats[seat]} turns the knob to their seat")
        elif kind == "shoot":
            self._lay(move["card"], f"seat-{seat}", "fires", seat)
        elif kind == "hold":
            self._press(f"{self.seats[seat]} stops shooting and presses the button")
        elif kind == "loot":
            self._feed(
                ManualEvent("loot", {"count": move["count"]}),
                f"{self.seats[seat]} draws {move['count']} from the dead player's hand",
            )
        for event in events:
            if event["kind"] == "characters-revealed" and self.referee.engine.phase == "reveal":
                for other in range(truth.n):
                    if other not in self.flipped:
                        self._flip(other)
            if event["kind"] == "confrontation-over" and event["result"] == "escape":
                self._press("nobody can answer: a hero presses the button")

    def _seven_oclock(self) -> None:
        """After the last turn: turn the characters up and lay the documents down."""
        hub = self.referee.engine
        if hub.phase == "reveal":
            for seat in range(self.truth.n):
                if seat not in self.flipped:
                    self._flip(seat)
        guard = 0
        while hub.phase == "show-documents" and guard < 10:
            guard += 1
            villain = hub.current_player()
            for card in self.truth.book.hands[villain]:
                if self.truth.kind(card) == "document":
                    self._lay(self.truth.ids[card], "reveal", "shows", villain)
            self._press(f"{self.seats[villain]} presses the button")

    # --- observations -------------------------------------------------------------------------
    def _lay(self, card_id: str, zone: str, doing: str, seat: int) -> None:
        card = self.truth.data.cards[self.truth.index[card_id]]
        who = "" if seat == CHANCE else f"{self.seats[seat]} "
        note = (
            f"{who}{doing} a {spoken(card_id)}"
            if doing.endswith("with") or doing in ("fires", "shows")
            else f"{who}{doing}: {spoken(card_id)}"
        )
        event = CardEvent("appeared", camera_id(card), zone, True, 0.97, CENTRE)
        self._feed(event, note)

    def _flip(self, seat: int) -> None:
        self.flipped.add(seat)
        character = self.truth.characters[seat]
        assert character is not None
        event = CardEvent("flipped", character_card(character), f"seat-{seat}", True, 0.97, CENTRE)
        self._feed(event, f"{self.seats[seat]} turns the character card face up")

    def _press(self, note: str) -> None:
        request = self._last(WaitNext)
        self._feed(PanelEvent("next", request=request), note)

    def _choose(self, seat: int, note: str) -> None:
        request = self._last(ChooseSeat)
        self._feed(PanelEvent("seat_chosen", seat=seat, request=request), note)

    def _last(self, kind: type[WaitNext] | type[ChooseSeat]) -> str:
        """The request of the hub's latest button or knob prompt of this kind."""
        for output in reversed(self.hub.outputs):
            if isinstance(output, WaitNext | ChooseSeat) and isinstance(output, kind):
                return output.request
        return ""

    def _feed(self, observation: Observation, note: str) -> None:
        self._line(f"TABLE | {note}")
        self._heard(self.hub.feed(observation))

    def _heard(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Say):
                self.result.said += 1
                self._line(f"HUB   | {output.text}")
                self.speak(output.text)
                if "Take the card back" in output.text:
                    self.result.refusals += 1
            elif isinstance(output, Show) and output.audience == PUBLIC:
                self._line(f"      | {output.text}")
            elif isinstance(output, Reread):
                self.result.rereads += 1
                self._line(f"HUB   | (re-reading the camera: {output.reason})")
            elif isinstance(output, AskTable):
                self.result.asked_table += 1
                self._line(f"HUB   | {output.question}")

    def _line(self, text: str) -> None:
        self.result.transcript.append(text)
        self.echo(text)


def run_demo(options: DemoOptions) -> int:
    """The ``tablehub demo get-adler`` command."""
    players = options.players or 4
    if not 4 <= players <= 6:
        print(f"tablehub demo get-adler: --players must be 4 to 6, not {players}", file=sys.stderr)
        return 2
    game_options = {"extended": True} if players >= 5 else {}
    folder = options.wav_dir or Path(tempfile.mkdtemp(prefix="tablehub-get-adler-"))
    voice = EspeakWavVoice(folder, pace=not options.fast)
    started = time.perf_counter()
    lines: list[str] = []

    def echo(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    rules = "extended rules" if game_options else "basic rules"
    echo(f"Get Adler! with {players} players ({rules}), seed {options.seed}")
    if not voice.available:
        echo("voice: espeak-ng is not installed; transcript only (apt-get install espeak-ng)")
    result = SimulatedTable(players, options.seed, game_options, voice.say, echo).play()
    elapsed = time.perf_counter() - started
    echo(
        f"table: {result.truth_winner} ({result.truth_reason}); "
        f"hub: {result.hub_winner} ({result.hub_reason}); "
        f"{result.said} lines spoken into {voice.count} WAV files in {folder} "
        f"({voice.seconds:.0f} s of speech); {elapsed:.1f} s wall time"
    )
    if options.transcript is not None:
        options.transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not result.agrees:
        print(
            "tablehub demo get-adler: the hub and the table disagree on the result", file=sys.stderr
        )
        return 1
    return 0
