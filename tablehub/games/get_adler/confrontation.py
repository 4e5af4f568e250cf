"""A confrontation in progress: who is in it, the cards laid on the arrest card, the shots.

Kept apart from the state so the sequence (react, escape answers, gunfight, loot, refill)
reads as one small record.  Sides in a gunfight are 0 (the villain) and 1 (the hero).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

VILLAIN_SIDE = 0
HERO_SIDE = 1


@dataclass
class Confrontation:
    arrester: int
    villain: int
    hero: int  # the hero in the confrontation now (the last to answer an escape)
    cards: list[int] = field(default_factory=list)  # on the arrest card, arrest first
    involved: list[int] = field(default_factory=list)  # refill to a full hand at the end
    vehicle: str = ""  # of the villain's last escape card
    ask: list[int] = field(default_factory=list)  # heroes still to be asked about an escape
    shots: list[int] = field(default_factory=lambda: [0, 0])  # villain, hero
    stopped: list[bool] = field(default_factory=lambda: [False, False])
    shooter: int = VILLAIN_SIDE
    dead: int | None = None  # a player shot in the gunfight
    survivor: int | None = None  # their opponent, who may draw from their hand
    result: str = ""  # how it ended: escape, disguise, bomb, gunfight-draw, shot, arrested

    def involve(self, seat: int) -> None:
        if seat not in self.involved:
            self.involved.append(seat)

    def to_json(self, ids: list[str]) -> dict[str, Any]:
        data = asdict(self)
        data["cards"] = [ids[c] for c in self.cards]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], index: dict[str, int]) -> Confrontation:
        values = dict(data)
        values["cards"] = [index[c] for c in data["cards"]]
        return cls(**values)


def gunfight_winner(villain_shots: int, hero_shots: int, hero_bonus: int) -> int | None:
    """The side that fired more (the hero's bonus added), ``None`` for a draw."""
    hero_total = hero_shots + hero_bonus
    if hero_total == villain_shots:
        return None
    return HERO_SIDE if hero_total > villain_shots else VILLAIN_SIDE
