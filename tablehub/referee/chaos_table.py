"""Where things are on a Chaos in Gotham City table (pure geometry, table millimetres).

The referee needs two facts from the layout: which zone a card lies in (the vision layer
reports it) and, for a card in the trick area, which seat it was pushed in from.  Players
lay their card on their own side of the trick area, so the direction from the trick
centre to the card points at the player.  A card too close to the centre points at nobody.

Seats sit clockwise around the table (seat numbers grow clockwise), like the engine's.
The default geometry is the vision layer's (``tablehub.vision.zones``): table millimetres
with the hub at the middle of the ``y = 0`` edge, the location card on the reveal spot in
front of the hub, the trump pile and Catwoman's discards on two of the discard piles, the
trick in the centre, and seat areas ``seat-1`` ... ``seat-N`` clockwise from the hub's left
(engine seat 0 is ``seat-1``).
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
    "discard": "discard-3",  # Catwoman's face-down discards
    "seat": "seat-{number}",  # each seat's area (villain cards lie there); number = seat + 1
}
HUB_GAP_DEG = 50.0  # the hub's share of the table edge on each side (vision.zones)


@dataclass(frozen=True)
class TableLayout:
    trick_centre: tuple[float, float]
    seats: tuple[tuple[float, float], ...]  # each seat's position, clockwise
    zones: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ZONES))
    min_offset_mm: float = 12.0  # nearer the centre than this: direction unknown
    # Where the simulated table lays things: "location", "trump", "discard" -> (x, y).
    spots: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    def seat_zone(self, seat: int) -> str:
        return self.zones["seat"].format(seat=seat, number=seat + 1)

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

    def play_spot(self, seat: int, distance_mm: float = 90.0) -> tuple[float, float]:
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
            "spots": {k: list(v) for k, v in self.spots.items()},
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
            spots={k: (float(v[0]), float(v[1])) for k, v in dict(data.get("spots", {})).items()},
        )


def seat_angles(seats: int) -> list[float]:
    """Each seat's direction from the table centre (radians), clockwise from the hub's left
    (seen from above, y away from the hub: clockwise is decreasing angle)."""
    hub = -math.pi / 2
    gap = math.radians(HUB_GAP_DEG)
    span = 2 * math.pi - 2 * gap
    return [hub - gap - span * (i + 0.5) / seats for i in range(seats)]


def _edge_distance(width: float, depth: float, angle: float) -> float:
    dx, dy = math.cos(angle), math.sin(angle)
    tx = (width / 2) / abs(dx) if abs(dx) > 1e-9 else math.inf
    ty = (depth / 2) / abs(dy) if abs(dy) > 1e-9 else math.inf
    return min(tx, ty)


def default_layout(seats: int, width_mm: float = 900.0, depth_mm: float = 600.0) -> TableLayout:
    """The vision layer's default table: trick centre, seats and spots (see the docstring)."""
    cx, cy = width_mm / 2, depth_mm / 2
    positions = []
    for angle in seat_angles(seats):
        d = 0.775 * _edge_distance(width_mm, depth_mm, angle)  # the middle of the seat band
        positions.append((cx + d * math.cos(angle), cy + d * math.sin(angle)))
    piles_y = 0.1 * depth_mm + 45 + 45 + 75
    return TableLayout(
        trick_centre=(cx, cy + 40),
        seats=tuple(positions),
        spots={
            "location": (cx, 0.1 * depth_mm + 45),
            "trump": (cx - 110, piles_y),
            "discard": (cx + 110, piles_y),
        },
    )
