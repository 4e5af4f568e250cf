"""Observations: what the devices and vision report.  They are facts about the table, not
moves; a referee turns an observation into a move only when it is legal in the current
state (an impossible reading is re-read, then the players are asked).

Every observation is a frozen dataclass with ``to_json``/``observation_from_json`` so the
service can journal it.  The lowest layer: imports nothing from tablehub.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

CardChange = Literal["appeared", "removed", "flipped", "moved"]
DieStatus = Literal["stable", "cocked", "unreadable"]
DiceSource = Literal["tower", "camera"]
PanelAction = Literal["seat_chosen", "next", "vote", "declared", "timeout"]


@dataclass(frozen=True)
class CardEvent:
    """A card settled into a new situation (emitted only when consecutive frames agree)."""

    change: CardChange
    card_id: str | None  # None: face down or not identified
    zone: str  # "trick", "discard-1", "reveal", "seat-3", ... or "table"
    face_up: bool
    confidence: float
    centre_mm: tuple[float, float]
    previous_zone: str | None = None  # for "moved"
    kind: Literal["card"] = "card"


@dataclass(frozen=True)
class DieReading:
    value: int | None  # 1-6, None unless status is "stable"
    colour: str  # "white", "green", "purple", "red", ...
    status: DieStatus


@dataclass(frozen=True)
class DiceEvent:
    """One settled throw, from the tower or the camera."""

    source: DiceSource
    dice: tuple[DieReading, ...]
    throw_id: str = ""  # the tower's sequence number, or a camera frame id
    kind: Literal["dice"] = "dice"
    read: int = 1  # 1 for the first reading of this throw, counting re-reads
    age_ms: int | None = None  # time from the dice settling to this reading being sent


@dataclass(frozen=True)
class PanelEvent:
    """Something a player did on the dealer panel (or its web stand-in)."""

    action: PanelAction
    seat: int | None = None
    value: Any = None  # a vote (True/False), a declared ability name, ...
    request: str = ""  # the referee's ChooseSeat/WaitNext request this answers, if any
    kind: Literal["panel"] = "panel"


@dataclass(frozen=True)
class ManualEvent:
    """A correction or entry typed by a person (web page or CLI), journaled like the rest."""

    action: str
    data: dict[str, Any] = field(default_factory=dict)
    kind: Literal["manual"] = "manual"


@dataclass(frozen=True)
class TimerEvent:
    """A timer or schedule mark the referee asked for has run out (delivered by the service).

    ``name`` is the name the referee gave in its ``StartTimer`` (or a schedule ``Mark``);
    the referee never reads a clock, so this is how time reaches it.
    """

    name: str
    kind: Literal["timer"] = "timer"


Observation = CardEvent | DiceEvent | PanelEvent | ManualEvent | TimerEvent

_TYPES: dict[str, type[Any]] = {
    "card": CardEvent,
    "dice": DiceEvent,
    "panel": PanelEvent,
    "manual": ManualEvent,
    "timer": TimerEvent,
}


def to_json(observation: Observation) -> dict[str, Any]:
    return dataclasses.asdict(observation)


def observation_from_json(data: dict[str, Any]) -> Observation:
    """Rebuild an observation from ``to_json`` output; ``ValueError`` if it is not one."""
    kind = data.get("kind")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"not an observation: kind {kind!r}")
    values = dict(data)
    if cls is DiceEvent:
        values["dice"] = tuple(DieReading(**d) for d in values["dice"])
    if cls is CardEvent:
        values["centre_mm"] = tuple(values["centre_mm"])
    result: Observation = cls(**values)
    return result
