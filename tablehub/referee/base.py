"""The Referee interface: observations in, journal records and outputs out.

A referee is a deterministic state machine over a rules engine.  The service drives it in
two steps, and the split is what makes the hub crash-safe:

1. ``records = referee.observe(observation)`` — *decide*, changing nothing.  The answer is
   a list of JSON records to accept (an engine move, a rejected reading, a timer that ran
   out, a correction...), possibly empty (the observation means nothing now).
2. The service appends the records to the journal and makes them durable, **then** calls
   ``outputs = referee.apply(seq, record)`` for each: *change state*, and return what the
   table should hear and see (speech, schedules, lights, timers...).  The service performs
   the outputs only after that.

On resume the service replays the journaled records through ``apply`` and throws the
outputs away (nothing is said twice); then it performs ``referee.resume_outputs()`` (say
that the hub is back, restart the running timers, re-light the panel).

Time never enters a referee through a clock: it asks for a timer (``StartTimer``) or a
schedule mark, and the service answers with ``TimerEvent`` when it runs out.  A test can
therefore drive a referee at full speed with ``OfflineTable``.

What the base class does for every game:

* timers: keeps the set of running timers (from the outputs), turns a ``TimerEvent`` for
  a running timer into a ``{"kind": "timer", "name": ...}`` record and ignores stale ones;
* impossible readings: ``reject(...)`` records a rejection; the first ``rereads`` times the
  answer is a ``Reread`` request, after that ``AskTable`` — never a silent change;
* corrections: ``ManualEvent("undo", {"seq": N})`` and ``ManualEvent("correct", {"seq": N,
  "record": {...}})`` become journaled ``undo``/``correct`` records; applying one rebuilds
  the state from the history without (or with the replaced) record.  A correction that
  does not replay cleanly is refused with a reason, and nothing changes.

Subclasses implement ``reset``, ``decide``, ``apply_record``, ``snapshot`` and
``is_finished``; ``opening``, ``status`` and ``on_resume`` have defaults.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeAlias

from tablehub.devices.schedule import Schedule
from tablehub.observations import ManualEvent, Observation, TimerEvent, to_json

Record: TypeAlias = dict[str, Any]
"""A journal record: JSON, always with ``"kind"``.  Kinds used by the base class:
``timer``, ``rejected``, ``undo``, ``correct``; a game adds its own (``move``...)."""

Audience: TypeAlias = str | int  # "public", "dealer" or a seat index

META_KINDS = frozenset({"undo", "correct"})


class RecordError(ValueError):
    """``apply`` was given a record that does not fit the state (a bug or a bad correction)."""


# --- session setup ----------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Everything a referee is built from; stored with the session so resume can rebuild it."""

    game: str
    seats: tuple[str, ...]  # seat names clockwise; the seat index is the engine's player
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    slot_seconds: float = 12.0  # [blackout] settings, for the games that use them
    sweep_slot_seconds: float = 6.0
    masking_sound: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "options": self.options,
            "seed": self.seed,
            "slot_seconds": self.slot_seconds,
            "sweep_slot_seconds": self.sweep_slot_seconds,
            "masking_sound": self.masking_sound,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        values = dict(data)
        values["seats"] = tuple(values["seats"])
        return cls(**values)


# --- outputs: what a referee asks the hub to do -----------------------------------------


@dataclass(frozen=True)
class Say:
    """Speak ``text`` on the speaker.  Everyone hears the speaker: public words only."""

    text: str


@dataclass(frozen=True)
class PlaySchedule:
    """Play a pre-planned audio timeline (see ``tablehub.devices.schedule``); its marks come
    back as ``TimerEvent``s at their times."""

    schedule: Schedule


@dataclass(frozen=True)
class PlaySound:
    """Play a named sound (``"chime"``, ``"buzz"``, ``"shuffle"``...) for ``seconds``."""

    name: str
    seconds: float = 1.0


@dataclass(frozen=True)
class PrivateLight:
    """Show ``colour`` on the panel's RGB light for ``seconds``; meant for ``seat`` only
    (the referee makes sure only that player is looking).  Colours: "red", "green", "blue",
    "yellow", "white", "magenta", "cyan", "off"."""

    colour: str
    seconds: float
    seat: int


@dataclass(frozen=True)
class SeatLights:
    """Exactly these seat LEDs on, the others off (``()`` = all off)."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class ChooseSeat:
    """Let the holder of the knob pick one of ``seats`` (turn lights the seat's LED, press
    confirms).  The answer comes back as ``PanelEvent("seat_chosen", seat, request=request)``
    or ``PanelEvent("timeout", request=request)``."""

    request: str
    seats: tuple[int, ...]
    timeout: float


@dataclass(frozen=True)
class WaitNext:
    """Wait for the big "next" button: ``PanelEvent("next", request=...)`` or a timeout."""

    request: str
    timeout: float


@dataclass(frozen=True)
class StartTimer:
    """Start (or restart) timer ``name``; ``TimerEvent(name)`` comes back after ``seconds``.
    ``countdown``: "buzz" ticks the buzzer every second, "speak" says the seconds left
    ("10", "9", ... "0" as the rulebook's countdowns), "none" is silent."""

    name: str
    seconds: float
    countdown: Literal["none", "buzz", "speak"] = "none"


@dataclass(frozen=True)
class CancelTimer:
    name: str


@dataclass(frozen=True)
class CancelAllTimers:
    """Stop every running timer (sent before restarting the right ones after a correction)."""


@dataclass(frozen=True)
class Show:
    """Status for a screen or the web page, for one audience only."""

    audience: Audience
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reread:
    """Ask a device to read again (``source``: "camera" or "dice"; ``zone`` if it applies)."""

    source: str
    zone: str | None
    reason: str  # for the log at DEBUG and the dealer view; may name secrets


@dataclass(frozen=True)
class AskTable:
    """Put a question to the players (spoken and shown); the answer comes as a ManualEvent
    or PanelEvent the referee recognises.  ``question`` is public: no secrets in it."""

    question: str
    options: tuple[str, ...] = ()


Output: TypeAlias = (
    Say
    | PlaySchedule
    | PlaySound
    | PrivateLight
    | SeatLights
    | ChooseSeat
    | WaitNext
    | StartTimer
    | CancelTimer
    | CancelAllTimers
    | Show
    | Reread
    | AskTable
)


# --- the referee ------------------------------------------------------------------------


class Referee(ABC):
    """Base class of every game's referee (see the module docstring for the protocol)."""

    game: ClassVar[str]  # the registry name, e.g. "almost-got-im"
    rereads: ClassVar[int] = 1  # re-read requests before the table is asked
    # records that are only half of a reading (one source of a cross-checked throw): they do
    # not start the re-read count again, so tower/camera disagreements still reach the table
    passive_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.history: list[tuple[int, Record]] = []  # (journal seq, record), applied order
        self.timers: dict[str, StartTimer] = {}  # running timers, by name
        self.rejections: dict[str, int] = {}  # rejected readings in a row, by key
        self.playing: tuple[Schedule, float] | None = None  # schedule, time of last mark
        self._passed_marks: set[str] = set()
        self.reset()

    # --- what a game implements -------------------------------------------------------
    @abstractmethod
    def reset(self) -> None:
        """Set the game state to the start, from ``self.setup`` (deterministic)."""

    @abstractmethod
    def decide(self, observation: Observation) -> list[Record]:
        """The records an observation leads to; must not change any state.

        Return ``self.reject(...)`` for a reading that is impossible now, ``[]`` for one
        that does not matter (a card moving in a seat's area, say).  Timer events for
        running timers arrive already turned into ``timer`` records (see ``apply_record``).
        """

    @abstractmethod
    def apply_record(self, record: Record) -> list[Output]:
        """Change state for one record (also ``timer`` and ``rejected`` ones, after the base
        class's own handling) and return the outputs.  Must be deterministic: replaying
        the same records from ``reset()`` gives the same state.  Raise ``RecordError``
        for a record that does not fit."""

    @abstractmethod
    def snapshot(self) -> Any:
        """The game's whole state as JSON (engine ``to_json()`` plus the referee's phase)."""

    @abstractmethod
    def is_finished(self) -> bool:
        """True once the session is over (the service then closes it in the journal)."""

    def opening(self) -> list[Record]:
        """Records to accept when a new session starts (e.g. ``{"kind": "begin"}``)."""
        return []

    def status(self, audience: Audience) -> dict[str, Any]:
        """What ``audience`` may see now (web page, ``tablehub run`` status lines)."""
        return {}

    def on_resume(self) -> list[Output]:
        """Outputs after a resume besides restarting timers (re-light seats, re-ask...)."""
        return []

    # --- what the service calls -------------------------------------------------------
    def observe(self, observation: Observation) -> list[Record]:
        """Decide what ``observation`` means; never changes state."""
        if isinstance(observation, TimerEvent):
            if observation.name not in self.timers and observation.name not in self._pending:
                return []  # cancelled or already handled: stale
            return [{"kind": "timer", "name": observation.name}]
        if isinstance(observation, ManualEvent) and observation.action in ("undo", "correct"):
            return self._correction(observation)
        return self.decide(observation)

    def apply(self, seq: int, record: Record) -> list[Output]:
        """Apply one journaled record (``seq`` is its journal sequence number)."""
        if record.get("kind") in META_KINDS:
            outputs = self._apply_correction(record)
        else:
            outputs = self._apply_plain(record)
        self.history.append((seq, record))
        return outputs

    def resume_outputs(self) -> list[Output]:
        """What to do after replaying the journal on start: tell the table, restart timers,
        and play the rest of an interrupted schedule from its last mark."""
        outputs: list[Output] = [Say("The hub is back. We carry on where we stopped.")]
        outputs += list(self.timers.values())
        if self.playing is not None:
            schedule, passed = self.playing
            outputs.append(PlaySchedule(schedule.tail(passed, self._pending)))
        outputs += self.on_resume()
        return outputs

    def state(self) -> dict[str, Any]:
        """Everything that must be equal after a resume (used by the resume tests)."""
        return {
            "game": self.snapshot(),
            "timers": sorted(self.timers),
            "pending_marks": sorted(self._pending),
            "rejections": dict(sorted(self.rejections.items())),
            "records": len(self.history),
        }

    # --- helpers for subclasses -------------------------------------------------------
    def reject(
        self,
        observation: Observation,
        reason: str,
        public: str,
        key: str = "",
        source: str = "camera",
        zone: str | None = None,
    ) -> list[Record]:
        """An impossible reading: journaled, then answered by ``Reread``, then ``AskTable``.

        ``reason`` is for the journal and dealer view (it may name secrets); ``public`` is
        what the table may be told ("I could not read the card in the trick area").
        ``key`` groups repeated failures of the same thing (default: the observation kind);
        any accepted record starts the count again.
        """
        return [
            {
                "kind": "rejected",
                "key": key or observation.kind,
                "reason": reason,
                "public": public,
                "source": source,
                "zone": zone,
                "observation": to_json(observation),
            }
        ]

    def on_rejected(self, record: Record) -> list[Output]:
        """Extra outputs (or state, e.g. "waiting for the table") after a rejection."""
        return []

    # --- internals --------------------------------------------------------------------
    @property
    def _pending(self) -> set[str]:
        """Marks of the playing schedule that have not come back yet."""
        if self.playing is None:
            return set()
        return {c.text for c in self.playing[0].marks()} - self._passed_marks

    def _apply_plain(self, record: Record) -> list[Output]:
        kind = record.get("kind")
        if kind == "timer":
            self._timer_ran_out(str(record["name"]))
        outputs: list[Output] = []
        if kind == "rejected":
            key = str(record.get("key", ""))
            count = self.rejections.get(key, 0) + 1
            self.rejections[key] = count
            if count <= self.rereads:
                source, zone = str(record.get("source", "camera")), record.get("zone")
                outputs.append(Reread(source, zone, str(record["reason"])))
            else:
                outputs.append(AskTable(str(record["public"])))
            outputs += self.on_rejected(record)
        else:
            if kind not in self.passive_kinds:
                self.rejections.clear()
            outputs += self.apply_record(record)
        self._track(outputs)
        return outputs

    def _timer_ran_out(self, name: str) -> None:
        self.timers.pop(name, None)
        if self.playing is not None and name in self._pending:
            schedule, passed = self.playing
            at = max(c.start for c in schedule.marks() if c.text == name)
            self._passed_marks.add(name)
            self.playing = (schedule, max(passed, at))
            if not self._pending:
                self.playing = None

    def _track(self, outputs: Sequence[Output]) -> None:
        for out in outputs:
            if isinstance(out, StartTimer):
                self.timers[out.name] = out
            elif isinstance(out, CancelTimer):
                self.timers.pop(out.name, None)
            elif isinstance(out, CancelAllTimers):
                self.timers.clear()
            elif isinstance(out, PlaySchedule) and out.schedule.marks():
                self.playing = (out.schedule, 0.0)
                self._passed_marks = set()

    def _correction(self, observation: ManualEvent) -> list[Record]:
        data = observation.data
        seq = data.get("seq")
        targets = {s: r for s, r in self.history if r.get("kind") not in META_KINDS}
        if self.playing is not None:
            why = "corrections wait until the running schedule (the Blackout) is over"
            return self.reject(observation, why, "Corrections wait until the end.", "manual")
        if not isinstance(seq, int) or seq not in targets:
            why = f"no record {seq!r} to {observation.action} (latest: {sorted(targets)[-5:]})"
            return self.reject(observation, why, f"I cannot {observation.action} that.", "manual")
        if observation.action == "undo":
            record: Record = {"kind": "undo", "seq": seq}
        else:
            replacement = data.get("record")
            if not isinstance(replacement, dict) or not isinstance(replacement.get("kind"), str):
                why = 'a correction needs "record": a record with a "kind"'
                return self.reject(observation, why, "That correction is incomplete.", "manual")
            record = {"kind": "correct", "seq": seq, "record": replacement}
        trial = copy.deepcopy(self)
        try:
            trial._apply_correction(record)
        except (RecordError, KeyError, ValueError, TypeError) as err:
            why = f"the {observation.action} of record {seq} does not replay: {err}"
            return self.reject(observation, why, f"I cannot {observation.action} that.", "manual")
        return [record]

    def _apply_correction(self, record: Record) -> list[Output]:
        """Rebuild the state from the history with record ``seq`` removed or replaced."""
        replaced: dict[int, Record | None] = {}
        for _, r in self.history:  # earlier corrections still hold
            if r.get("kind") == "undo":
                replaced[r["seq"]] = None
            elif r.get("kind") == "correct":
                replaced[r["seq"]] = r["record"]
        replaced[record["seq"]] = None if record["kind"] == "undo" else record["record"]
        saved = copy.deepcopy(self.__dict__)
        history = self.history
        self._clear()
        try:
            for s, r in history:
                effective = replaced.get(s, r)
                if r.get("kind") not in META_KINDS and effective is not None:
                    self._apply_plain(effective)
                self.history.append((s, r))
        except Exception:
            self.__dict__.update(saved)
            raise
        done = "Undone" if record["kind"] == "undo" else "Corrected"
        outputs: list[Output] = [CancelAllTimers(), Say(f"{done}. Carrying on.")]
        outputs += list(self.timers.values())
        outputs += self.on_resume()
        return outputs

    def _clear(self) -> None:
        self.history = []
        self.timers = {}
        self.rejections = {}
        self.playing = None
        self._passed_marks = set()
        self.reset()


# --- driving a referee without a service (tests, simulations) -----------------------------


class OfflineTable:
    """Drives a referee like the service does, minus the journal and devices: numbers the
    records, applies them, collects the outputs and keeps the running timers, so a test
    can "fire" a timer instead of waiting for it."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.seq = 0
        self.records: list[Record] = []
        self.outputs: list[Output] = []

    def _accept(self, records: list[Record]) -> list[Output]:
        produced: list[Output] = []
        for record in records:
            self.seq += 1
            self.records.append(record)
            produced += self.referee.apply(self.seq, record)
        self.outputs += produced
        return produced

    def start(self) -> list[Output]:
        return self._accept(self.referee.opening())

    def feed(self, observation: Observation) -> list[Output]:
        return self._accept(self.referee.observe(observation))

    def fire(self, timer: str) -> list[Output]:
        """Let timer (or schedule mark) ``timer`` run out now."""
        return self._accept(self.referee.observe(TimerEvent(timer)))

    def said(self) -> list[str]:
        return [o.text for o in self.outputs if isinstance(o, Say)]
