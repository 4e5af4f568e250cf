"""Where things are on a Chaos in Gotham City table (pure geometry, table millimetres).

The referee needs two facts from the layout: which zone a card lies in (the vision layer
reports it) and, for a card in the trick area, which seat it was pushed in from.  Players
lay their card on their own side of the trick area, so the direction from the trick
centre to the card points at the player.  A card too close to the centre points at nobody.

Seats sit clockwise around the table (seat numbers grow clockwise), like the engine's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

DEFAULT_ZONES: dict[str, str] = {
    "trick": "trick",  # the middle of the table: the current trick
    "location": "reveal",  # the open location card
    "trump": "discard-1",  # the face-up trump pile
    "discard": "discard-2",  # Catwoman's face-down discards
    "seat": "seat-{seat}",  # each seat's area (villain cards lie there), 0-based seat
}


@dataclass(frozen=True)
class TableLayout:
    trick_centre: tuple[float, float]
    seats: tuple[tuple[float, float], ...]  # each seat's position, clockwise
    zones: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ZONES))
    min_offset_mm: float = 12.0  # nearer the centre than this: direction unknown

    def seat_zone(self, seat: int) -> str:
        return self.zones["seat"].format(seat=seat)

    def seat_of_zone(self, zone: str) -> int | None:
        for seat in range(len(self.seats)):
            if self.seat_zone(seat) == zone:
                return seat
        return None

    def seat_angle(self, seat: int) -> float:
        x, y = self.seats[seat]
        return math.atan2(y - self.trick_centre[1], x - self.trick_centre[0])

    def seat_towards(self, point: Sequence[float]) -> int | None:
        """The seat a card at ``point`` (in the trick area) was laid from, if it is clear."""
        dx = point[0] - self.trick_centre[0]
        dy = point[1] - self.trick_centre[1]
        if math.hypot(dx, dy) < self.min_offset_mm:
            return None
        angle = math.atan2(dy, dx)

        def gap(seat: int) -> float:
            d = abs(angle - self.seat_angle(seat)) % (2 * math.pi)
            return min(d, 2 * math.pi - d)

        return min(range(len(self.seats)), key=gap)

    def play_spot(self, seat: int, distance_mm: float = 70.0) -> tuple[float, float]:
        """Where a player at ``seat`` lays a card in the trick area."""
        angle = self.seat_angle(seat)
        return (
            self.trick_centre[0] + distance_mm * math.cos(angle),
            self.trick_centre[1] + distance_mm * math.sin(angle),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "trick_centre": list(self.trick_centre),
            "seats": [list(s) for s in self.seats],
            "zones": dict(self.zones),
            "min_offset_mm": self.min_offset_mm,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableLayout:
        centre = data["trick_centre"]
        zones = {**DEFAULT_ZONES, **dict(data.get("zones", {}))}
        return cls(
            trick_centre=(float(centre[0]), float(centre[1])),
            seats=tuple((float(x), float(y)) for x, y in data["seats"]),
            zones=zones,
            min_offset_mm=float(data.get("min_offset_mm", 12.0)),
        )


def default_layout(seats: int, width_mm: float = 900.0, depth_mm: float = 600.0) -> TableLayout:
    """Seats evenly round an oval table, seat 0 on the hub's side, numbers growing clockwise
    (in the camera's top view, x to the right and y away from the hub)."""
    cx, cy = width_mm / 2, depth_mm / 2
    positions = []
    for seat in range(seats):
        angle = -math.pi / 2 + 2 * math.pi * seat / seats
        positions.append(
            (cx + 0.45 * width_mm * math.cos(angle), cy + 0.45 * depth_mm * math.sin(angle))
        )
    return TableLayout(trick_centre=(cx, cy), seats=tuple(positions))
