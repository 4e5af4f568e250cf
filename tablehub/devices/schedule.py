"""An audio schedule: what is heard, when, and for how long — decided before it plays.

The Blackout must sound the same whatever the secrets are, so a referee does not "say
things as they happen" there: it builds a ``Schedule`` from public facts only (seats, who
is Subdued, the round) and hands it to the voice, which pre-renders every phrase and plays
the whole thing on a fixed clock.  A schedule is a plain, comparable value, so a test can
check that two games with equal public history produce equal schedules.

* ``speech`` cues: ``text`` is spoken starting at ``start``; ``duration`` is the time
  allotted.  A rendering that is shorter is followed by silence, a longer one is cut, so
  the timing never depends on the engine.
* ``sound`` cues: a named sound (``"shuffle"`` masking bed, ``"tick"``, ``"chime"``) looped
  or cut to exactly ``duration``.
* ``mark`` cues: no sound; when playback passes ``start`` the service delivers
  ``TimerEvent(text)`` to the referee (slot boundaries), so the referee's notion of time
  comes from the very clock the players hear.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Literal

CueKind = Literal["speech", "sound", "mark"]
SOUND_NAMES = ("shuffle", "tick", "chime", "buzz")


class ScheduleError(ValueError):
    """A schedule that cannot be played as written (overlapping speech, negative times...)."""


@dataclass(frozen=True)
class Cue:
    start: float  # seconds from the start of the schedule
    kind: CueKind
    text: str  # the words, the sound's name, or the mark's name
    duration: float = 0.0  # seconds allotted (0 for marks)

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True)
class Schedule:
    """A fixed timeline of cues; ``length`` is when it is over (the last mark may be there)."""

    cues: tuple[Cue, ...]
    length: float
    name: str = ""

    def speech(self) -> list[Cue]:
        return [c for c in self.cues if c.kind == "speech"]

    def marks(self) -> list[Cue]:
        return [c for c in self.cues if c.kind == "mark"]

    def texts(self) -> list[str]:
        """Every distinct phrase to pre-render, in order of first use."""
        return list(dict.fromkeys(c.text for c in self.speech()))

    def describe(self) -> list[str]:
        """One line per cue, for transcripts and test failure messages."""
        lines = []
        for c in self.cues:
            if c.kind == "mark":
                lines.append(f"{c.start:7.2f}s  mark   {c.text}")
            else:
                lines.append(f"{c.start:7.2f}s  {c.kind:<6} {c.text!r} ({c.duration:.2f}s)")
        lines.append(f"{self.length:7.2f}s  end")
        return lines

    def tail(self, at: float, marks: set[str] | frozenset[str] = frozenset()) -> Schedule:
        """The rest from ``at`` re-timed to start at 0 (used to resume after a restart).

        Speech that began before ``at`` is dropped, sounds carry on for what is left of
        them, and of the marks only those still in ``marks`` (not yet delivered) stay.
        """
        cues: list[Cue] = []
        for c in self.cues:
            if c.kind == "mark":
                if c.text in marks:
                    cues.append(Cue(max(0.0, c.start - at), "mark", c.text))
            elif c.start >= at:
                cues.append(Cue(c.start - at, c.kind, c.text, c.duration))
            elif c.kind == "sound" and c.end > at:
                cues.append(Cue(0.0, "sound", c.text, c.end - at))
        return Schedule(tuple(cues), max(0.0, self.length - at), self.name)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "length": self.length,
            "cues": [[c.start, c.kind, c.text, c.duration] for c in self.cues],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Schedule:
        cues = tuple(Cue(float(s), k, str(t), float(d)) for s, k, t, d in data["cues"])
        return cls(cues=cues, length=float(data["length"]), name=str(data.get("name", "")))


class ScheduleBuilder:
    """Builds a ``Schedule``; times are absolute seconds from the start of the schedule."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._cues: list[Cue] = []

    def say(self, at: float, text: str, allot: float) -> ScheduleBuilder:
        if not text.strip():
            raise ScheduleError(f"empty speech at {at:g}s")
        self._cues.append(Cue(at, "speech", text, allot))
        return self

    def sound(self, at: float, name: str, duration: float) -> ScheduleBuilder:
        if name not in SOUND_NAMES:
            raise ScheduleError(f"unknown sound {name!r}; known: {', '.join(SOUND_NAMES)}")
        self._cues.append(Cue(at, "sound", name, duration))
        return self

    def mark(self, at: float, name: str) -> ScheduleBuilder:
        self._cues.append(Cue(at, "mark", name, 0.0))
        return self

    def build(self, length: float | None = None) -> Schedule:
        cues = sorted(self._cues, key=lambda c: (c.start, c.kind != "mark", c.kind, c.text))
        end = max((c.end for c in cues), default=0.0)
        total = end if length is None else length
        for c in cues:
            if c.start < 0 or c.duration < 0:
                raise ScheduleError(f"negative time in {c}")
            if c.kind != "mark" and c.duration <= 0:
                raise ScheduleError(f"{c.kind} {c.text!r} at {c.start:g}s has no duration")
            if c.end > total + 1e-9:
                raise ScheduleError(f"{c.kind} {c.text!r} ends at {c.end:g}s after {total:g}s")
        names = [c.text for c in cues if c.kind == "mark"]
        if len(set(names)) != len(names):
            raise ScheduleError(f"mark names must be unique: {names}")
        speech = [c for c in cues if c.kind == "speech"]
        for a, b in itertools.pairwise(speech):
            if b.start < a.end - 1e-9:
                raise ScheduleError(
                    f"speech {b.text!r} at {b.start:g}s overlaps {a.text!r} "
                    f"({a.start:g}s-{a.end:g}s)"
                )
        return Schedule(cues=tuple(cues), length=total, name=self.name)
