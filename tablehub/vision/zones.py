"""Table zones in table millimetres: where a card lies decides what it means.

Table coordinates: origin at the table corner to the hub's left, x along the hub's edge,
y away from the hub (so the hub sits at ``(width / 2, 0)``).  Default zones, computed
from the table size and seat count (up to 7 seats):

* ``reveal`` -- a spot just in front of the hub (hands laid down during the Blackout);
* ``discard-1``, ``discard-2``, ``discard-3`` -- three piles in a row between the reveal
  spot and the centre;
* ``trick`` -- the centre of the table;
* ``seat-1`` ... ``seat-N`` -- each player's area along the table's edge, clockwise from
  the hub's left, each an angular sector of the band between the edge and the centre.

Anything else is ``table``.  A configuration may replace or add zones (``[[table.zones]]``
with ``name`` and ``polygon`` in table mm); see ``default_zones(..., overrides=...)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
MAX_SEATS = 7
TABLE = "table"
# Zones checked first win where they overlap (small spots lie inside bigger areas).
PRIORITY = ("reveal", "discard-1", "discard-2", "discard-3", "trick")
# Zones where cards are laid on top of each other: a card covered there is under the newer
# card (``tablehub.vision.tracker``), not gone.
PILES = ("discard-1", "discard-2", "discard-3")


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        """Ray casting: is ``point`` inside the polygon (edges count as inside)?"""
        x, y = point
        inside = False
        pts = self.polygon
        for i in range(len(pts)):
            (x1, y1), (x2, y2) = pts[i - 1], pts[i]
            if (y1 > y) != (y2 > y):
                cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                if x < cross:
                    inside = not inside
                elif x == cross:
                    return True
        return inside


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[Point, ...]:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2))  # fmt: skip


def _edge_distance(width: float, depth: float, angle: float) -> float:
    """Distance from the table centre to its edge in direction ``angle``."""
    dx, dy = math.cos(angle), math.sin(angle)
    tx = (width / 2) / abs(dx) if abs(dx) > 1e-9 else math.inf
    ty = (depth / 2) / abs(dy) if abs(dy) > 1e-9 else math.inf
    return min(tx, ty)


def seat_angles(seats: int) -> list[float]:
    """The direction (radians, from the table centre) of each seat, clockwise from the hub's
    left; the hub's own edge (towards y = 0) is left free."""
    hub = -math.pi / 2  # towards y = 0
    gap = math.radians(50)  # the hub's share of the edge
    span = 2 * math.pi - 2 * gap
    # Clockwise on the table seen from above with y away from the hub is decreasing angle.
    return [hub - gap - span * (i + 0.5) / seats for i in range(seats)]


def seat_spot(
    width_mm: float, depth_mm: float, seats: int, seat: int, reach: float, side_mm: float = 0.0
) -> tuple[tuple[float, float], float]:
    """A spot in front of ``seat``: ``reach`` of the way from the table centre to its edge,
    ``side_mm`` along that edge; and the angle (degrees) of a card laid there facing the
    player.  Where the simulated tables lay a seat's cards."""
    angle = seat_angles(seats)[seat]
    dx, dy = math.cos(angle), math.sin(angle)
    edge = min(
        (width_mm / 2) / abs(dx) if abs(dx) > 1e-9 else math.inf,
        (depth_mm / 2) / abs(dy) if abs(dy) > 1e-9 else math.inf,
    )
    r = reach * edge
    x = width_mm / 2 + r * dx - side_mm * dy
    y = depth_mm / 2 + r * dy + side_mm * dx
    return (x, y), math.degrees(angle) + 90.0


def default_zones(
    width_mm: float,
    depth_mm: float,
    seats: int,
    overrides: Iterable[Zone] = (),
) -> list[Zone]:
    """The standard zones for a table of this size and seat count; ``overrides`` replace
    zones of the same name or add new ones.  ``ValueError`` for impossible input."""
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be 1..{MAX_SEATS}, got {seats}")
    if width_mm < 300 or depth_mm < 300:
        raise ValueError(f"table must be at least 300 x 300 mm, got {width_mm} x {depth_mm}")
    cx, cy = width_mm / 2, depth_mm / 2
    zones: dict[str, Zone] = {}
    zones["reveal"] = Zone("reveal", _rect(cx, 0.1 * depth_mm + 45, 160, 90))
    pile_y = 0.1 * depth_mm + 45 + 45 + 75
    for i, dx in enumerate((-110.0, 0.0, 110.0), start=1):
        zones[f"discard-{i}"] = Zone(f"discard-{i}", _rect(cx + dx, pile_y, 100, 130))
    trick_r = 0.22 * min(width_mm, depth_mm)
    zones["trick"] = Zone(
        "trick",
        tuple(
            (cx + trick_r * math.cos(a), cy + 40 + trick_r * math.sin(a))
            for a in (2 * math.pi * k / 24 for k in range(24))
        ),
    )
    angles = seat_angles(seats)
    half = (2 * math.pi - 2 * math.radians(50)) / seats / 2
    for n, angle in enumerate(angles, start=1):
        outer: list[Point] = []
        inner: list[Point] = []
        for k in range(7):
            a = angle - half + 2 * half * k / 6
            d = _edge_distance(width_mm, depth_mm, a)
            outer.append((cx + d * math.cos(a), cy + d * math.sin(a)))
            inner.append((cx + 0.55 * d * math.cos(a), cy + 0.55 * d * math.sin(a)))
        zones[f"seat-{n}"] = Zone(f"seat-{n}", (*outer, *reversed(inner)))
    for zone in overrides:
        if len(zone.polygon) < 3:
            raise ValueError(f"zone {zone.name!r} needs at least 3 polygon points")
        zones[zone.name] = zone
    return list(zones.values())


def zones_from_config(
    width_mm: float, depth_mm: float, seats: int, entries: Sequence[Mapping[str, object]]
) -> list[Zone]:
    """Zones from ``[[table.zones]]`` entries (``name``, ``polygon`` = [[x, y], ...])."""
    overrides = []
    for i, entry in enumerate(entries):
        name = entry.get("name")
        polygon = entry.get("polygon")
        if not isinstance(name, str) or not name:
            raise ValueError(f"table.zones[{i}].name must be a non-empty string")
        if not isinstance(polygon, list | tuple) or len(polygon) < 3:
            raise ValueError(f"table.zones[{i}].polygon must be a list of >= 3 [x, y] points")
        points: list[Point] = []
        for p in polygon:
            if not (isinstance(p, list | tuple) and len(p) == 2):
                raise ValueError(f"table.zones[{i}].polygon points must be [x, y] pairs")
            x, y = p
            if not isinstance(x, int | float) or not isinstance(y, int | float):
                raise ValueError(f"table.zones[{i}].polygon points must be numbers")
            points.append((float(x), float(y)))
        overrides.append(Zone(name, tuple(points)))
    return default_zones(width_mm, depth_mm, seats, overrides)


def zones_from_overrides(
    width_mm: float, depth_mm: float, seats: int, overrides: Iterable[object]
) -> list[Zone]:
    """Zones from already-checked configuration entries (objects with ``name`` and
    ``polygon``, as ``tablehub.config.ZoneOverride``)."""
    zones = [
        Zone(str(getattr(o, "name")), tuple((float(x), float(y)) for x, y in getattr(o, "polygon")))  # noqa: B009
        for o in overrides
    ]
    return default_zones(width_mm, depth_mm, seats, zones)


def zone_of(point: Point, zones: Sequence[Zone]) -> str:
    """The name of the zone that ``point`` (table mm) lies in, or ``"table"``."""
    by_name = {z.name: z for z in zones}
    for name in PRIORITY:
        zone = by_name.get(name)
        if zone is not None and zone.contains(point):
            return name
    for zone in zones:
        if zone.name not in PRIORITY and zone.contains(point):
            return zone.name
    return TABLE
