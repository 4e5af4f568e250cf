"""Tower and camera both read a throw: accept it only when they agree; when they disagree,
read again - never pick one of the two.  Pure logic, no I/O: the service feeds it the two
readings and does what it says.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from tablehub.observations import DiceEvent

Action = Literal["accept", "reread", "ask"]
MAX_REREADS = 2  # then the players are asked


@dataclass(frozen=True)
class Verdict:
    action: Action
    reason: str
    event: DiceEvent | None = None  # the agreed throw when accepted


def _faces(event: DiceEvent) -> Counter[tuple[str, int | None, str]]:
    return Counter((d.colour, d.value, d.status) for d in event.dice)


def compare(tower: DiceEvent, camera: DiceEvent) -> str | None:
    """None when both say the same dice (the order of dice does not matter), else why not."""
    if any(d.status != "stable" for d in tower.dice + camera.dice):
        return "a die is cocked or unreadable"
    if len(tower.dice) != len(camera.dice):
        return f"the tower sees {len(tower.dice)} dice, the camera {len(camera.dice)}"
    if _faces(tower) != _faces(camera):
        return "the tower and the camera read different faces"
    return None


class CrossCheck:
    """One throw's readings from the two sources, re-read until they agree."""

    def __init__(self, max_rereads: int = MAX_REREADS) -> None:
        self.max_rereads = max_rereads
        self.rereads = 0
        self.tower: DiceEvent | None = None
        self.camera: DiceEvent | None = None

    def offer(self, event: DiceEvent) -> Verdict | None:
        """Give a reading; a verdict once both sources have spoken (None: wait)."""
        if event.source == "tower":
            self.tower = event
        else:
            self.camera = event
        if self.tower is None or self.camera is None:
            return None
        why = compare(self.tower, self.camera)
        if why is None:
            return Verdict("accept", "tower and camera agree", self.tower)
        self.tower = self.camera = None
        if self.rereads >= self.max_rereads:
            return Verdict("ask", f"{why} after {self.rereads} re-reads: ask the players")
        self.rereads += 1
        return Verdict("reread", why)
