"""The dice tray referee: every throw is read by the tower and the camera, and only a
throw both agree on is announced (and kept) - the path a dice game's rules engine takes.

Options: ``dice_sources`` ("tower,camera" by default; "tower" or "camera" for a table with
only one of them), ``throws`` (finish after this many accepted throws; 0: never).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablehub.observations import DiceEvent, Observation
from tablehub.referee.base import Audience, Output, Record, RecordError, Referee, Say, Setup, Show
from tablehub.referee.dice_check import READING, THROW, DiceCheck


class DiceTrayReferee(Referee):
    game: ClassVar[str] = "dice-tray"
    passive_kinds: ClassVar[frozenset[str]] = frozenset({READING})

    def __init__(self, setup: Setup) -> None:
        sources = setup.options.get("dice_sources", "tower,camera")
        if isinstance(sources, str):
            sources = [s.strip() for s in sources.split(",") if s.strip()]
        self.sources = tuple(sources)
        self.limit = int(setup.options.get("throws", 0))
        super().__init__(setup)

    def reset(self) -> None:
        self.check = DiceCheck(self.sources)
        self.throws: list[list[list[Any]]] = []  # accepted throws: [[value, colour], ...]

    def snapshot(self) -> Any:
        return {"throws": self.throws, "check": self.check.snapshot()}

    def is_finished(self) -> bool:
        return 0 < self.limit <= len(self.throws)

    def status(self, audience: Audience) -> dict[str, Any]:
        return {"throws": len(self.throws), "last": self.throws[-1] if self.throws else None}

    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, DiceEvent):
            return self.check.decide(self, observation)
        return []

    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        if kind == "begin":
            return [Say("Roll the dice.")]
        if kind == READING:
            self.check.apply(record)
            return []
        if kind == THROW:
            self.check.apply(record)
            dice = [[int(v), str(c)] for v, c in record["dice"]]
            self.throws.append(dice)
            words = ", ".join(f"{c} {v}" for v, c in dice)
            return [Say(f"{words[:1].upper()}{words[1:]}."), Show("public", words, {"dice": dice})]
        raise RecordError(f"the dice tray has no record {kind!r}")

    def on_rejected(self, record: Record) -> list[Output]:
        self.check.apply(record)
        return []
