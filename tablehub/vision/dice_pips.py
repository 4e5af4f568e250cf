"""Is this set of pip centres a die face, and which?  Shared by the hub's pip counter and the
tower firmware (copied to the board as ``dice_pips.py``), so MicroPython-compatible: plain
functions, no ``__future__``, no numpy.

The test is rotation- and scale-free: the sorted pairwise distances of the pips, divided by
the largest, must match the canonical layout of that many pips, the pips must be centred on
the face, and their spread must be plausible for the face size.  A set that fits no layout
is not counted: the caller reports the die unreadable rather than guess.
"""

import math

# Pip positions on a face in units of the pip offset (a third of the way in from the edge
# on most dice; the spread check below allows 0.18-0.36 of the side).
LAYOUTS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
MIN_OFFSET = 0.18  # pip offset from the face centre, in sides
MAX_OFFSET = 0.36
SHAPE_TOLERANCE = 0.09  # of the largest pip distance
CENTRE_TOLERANCE = 0.15  # of the side


def _pair_distances(points: list[tuple[float, float]]) -> list[float]:
    out = []
    for i in range(len(points)):
        xi, yi = points[i]
        for j in range(i + 1, len(points)):
            dx = points[j][0] - xi
            dy = points[j][1] - yi
            out.append(math.sqrt(dx * dx + dy * dy))
    out.sort()
    return out


def _canonical() -> dict[int, tuple[list[float], float]]:
    table = {}
    for n, layout in LAYOUTS.items():
        pts = [(float(x), float(y)) for x, y in layout]
        dists = _pair_distances(pts)
        largest = dists[-1] if dists else 1.0
        table[n] = ([d / largest for d in dists], largest)
    return table


_CANON = _canonical()


def face_value(
    points: list[tuple[float, float]], centre: tuple[float, float], side: float
) -> int | None:
    """The value shown by pips at ``points`` on a face centred at ``centre`` with edge
    ``side`` (all in the same, roughly square-pixel, frame), or None if it fits no face."""
    n = len(points)
    if n not in LAYOUTS or side <= 0:
        return None
    cx = sum(p[0] for p in points) / n
    cy = sum(p[1] for p in points) / n
    if math.sqrt((cx - centre[0]) ** 2 + (cy - centre[1]) ** 2) > CENTRE_TOLERANCE * side:
        return None
    if n == 1:
        return 1
    dists = _pair_distances(points)
    largest = dists[-1]
    canon, canon_largest = _CANON[n]
    offset = largest / canon_largest / side  # the pip offset this layout implies
    if not MIN_OFFSET <= offset <= MAX_OFFSET:
        return None
    for i in range(len(canon)):  # no zip(strict=) on MicroPython
        if abs(dists[i] / largest - canon[i]) > SHAPE_TOLERANCE:
            return None
    return n
