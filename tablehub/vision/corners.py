"""Card poses on the table from a calibrated frame (pure: image and homography in, poses out).

With a table calibration every card is a rectangle of known size in table millimetres, so
finding cards becomes finding *corners*: two straight edges meeting at a right angle.  A
corner is the primitive that survives piles, fans and hands -- a card half under another
still shows one or two corners, and the index that identifies a poker-style card sits in
a corner.  Each corner gives two whole-card hypotheses per card size (its first edge the
short side or the long side); hypotheses seen from several corners merge.  A card lying on
another of the same white paper shows that side only as a thin line, too faint for the
edge map: a long edge that ends where such a line starts square to it is a corner too
(``_weak_corners``, looked for on the full-resolution frame).  Where even that line is
lost (blur, the same paper), the end of a long edge is a corner with one arm: its
hypotheses have rough poses and come last (``Hypotheses.late``).

Every hypothesis is then fitted to the frame's edges as a rigid rectangle of the known size
(a few rounds of nearest-edge matching and a weighted 2-D Procrustes fit, all hypotheses at
once), which gives sub-millimetre poses and an *edge support*: the share of its outline
that lies on an edge.  ``refine`` sharpens the poses on the full-resolution frame and
notes which outline samples show an edge that runs along the side (``straight``): a card
back's checks over a card's hidden outline give steps across it, not edges along it.  The
identifier decides which hypotheses are cards.

Edges come from a working copy of the frame halved until it is at most ``WORK_WIDTH`` wide;
geometry happens in table millimetres through the homography.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
WORK_WIDTH = 1400
MIN_ARM_MM = 7.0  # shortest straight edge that counts as a corner's arm
CORNER_GAP_MM = 9.0  # rounded corners (up to about 7 mm): the arms end this close to their crossing
SQUARE_DEG = 12.0  # how far from a right angle a corner may look
SAMPLES_PER_SIDE = 16
WHOLE_FIRST = 0.5  # edge support at a corner's first guess worth a full fit at once
WHOLE_SUPPORT = 0.9  # edge support of a card seen whole


@dataclass(frozen=True)
class EdgeMap:
    """Edges of a frame's working copy and the map from table millimetres to its pixels."""

    edges: Array  # uint8, 255 on an edge
    nearest: Array  # int32 (h, w): index into ``points`` of the nearest edge pixel
    points_mm: Array  # (n, 2) every edge pixel on the table (mm)
    normals_mm: Array  # (n, 2) unit gradient direction there, in table mm
    mm_to_work: Array  # 3x3
    work_to_mm: Array  # 3x3
    shrink: float  # working copy / frame


@dataclass(frozen=True)
class Hypotheses:
    """Card rectangles on the table: ``centre`` (n, 2) mm, ``angle`` (n,) radians of the
    card's short side (its x axis), ``size`` (n, 2) mm (w, h), ``support`` (n,) 0..1."""

    centre: Array
    angle: Array
    size: Array
    support: Array
    corners_seen: Array  # (n,) how many detected corners proposed it
    edges: Array | None = None  # (n, 4 * SAMPLES_PER_SIDE) bool: an edge at each outline point
    straight: Array | None = None  # (n, 4 * SAMPLES_PER_SIDE) bool: ... running along the side
    late: Array | None = None  # (n,) bool: a rough pose (one arm seen), examined last
    blurred: Array | None = None  # (n,) support counting blurred sides too (``refine_blurred``)
    # (n,) int: for a spare outline (``OUTDONE_KEPT``), the hypothesis that outdid it: it
    # is examined where that one is not read; -1 for every other
    spare_of: Array | None = None
    # (n, 4 * SAMPLES_PER_SIDE) bool: ``edges`` and, for a card seen whole in a blurred
    # frame, its blurred sides (``refine_blurred``): where its corners show
    corner_edges: Array | None = None

    def __len__(self) -> int:
        return len(self.angle)

    def quad(self, i: int) -> Array:
        """TL, TR, BR, BL (mm) of hypothesis ``i`` (read-only)."""
        out: Array = self._quads[i]
        return out

    @functools.cached_property
    def _quads(self) -> Array:
        """Every ``quad``, worked out once (the reader asks for them over and over)."""
        out = self.quads()
        out.flags.writeable = False
        return out

    def quads(self) -> Array:
        """(n, 4, 2): every ``quad`` at once."""
        return rect_corners(self.centre, self.angle, self.size)


def rect_corners(centre: Array, angle: Array, size: Array) -> Array:
    """TL, TR, BR, BL (mm) of cards of ``size`` (n, 2) whose x axis points along ``angle``
    (n,), centred at ``centre`` (n, 2): (n, 4, 2)."""
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    w, h = size[:, 0:1] / 2, size[:, 1:2] / 2
    ux, uy = np.concatenate([c, s], 1), np.concatenate([-s, c], 1)
    out: Array = np.stack(
        [
            centre - w * ux - h * uy,
            centre + w * ux - h * uy,
            centre + w * ux + h * uy,
            centre - w * ux + h * uy,
        ],
        1,
    )
    return out


def transform(h: Array, points: Array) -> Array:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    if len(pts) == 0:
        return np.zeros((0, 2))
    out: Array = cv2.perspectiveTransform(pts, h).reshape(-1, 2)
    return out


def edge_map(image: Array, table_to_image: Array) -> EdgeMap:
    """Canny edges of the frame's working copy (every colour channel, thresholds above the
    table's own texture) and what the pose fit needs from them."""
    work = image
    shrink = 1.0
    while work.shape[1] > WORK_WIDTH:
        work = cv2.pyrDown(work)
        shrink *= 0.5
    blur = cv2.GaussianBlur(work, (0, 0), 1.0)
    # The table's own texture: the median gradient of a sparse grey sample.
    grey = cv2.cvtColor(blur[::3, ::3], cv2.COLOR_BGR2GRAY).astype(np.float32)
    texture = np.hypot(np.diff(grey, axis=1)[:-1], np.diff(grey, axis=0)[:, :-1])
    median = float(np.median(texture)) * 4 / 3  # Sobel-scaled, about
    low = min(max(20.0, 1.6 * median), 80.0)
    edges = cv2.Canny(blur, low, 2.5 * low, L2gradient=True)
    _, labels = cv2.distanceTransformWithLabels(
        255 - edges, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
    )
    found = cv2.findNonZero(edges)  # row by row, as the labels are numbered
    xy = found.reshape(-1, 2) if found is not None else np.zeros((0, 2), np.int32)
    xs, ys = xy[:, 0], xy[:, 1]
    points = xy.astype(np.float32)
    # Gradient direction at edge pixels (central differences; colour edges: the strongest
    # channel's gradient).
    h, w = edges.shape
    x0, x1 = np.maximum(xs - 1, 0), np.minimum(xs + 1, w - 1)
    y0, y1 = np.maximum(ys - 1, 0), np.minimum(ys + 1, h - 1)
    cgx = (blur[ys, x1].astype(np.int16) - blur[ys, x0]).astype(np.float32)
    cgy = (blur[y1, xs].astype(np.int16) - blur[y0, xs]).astype(np.float32)
    if cgx.ndim == 2:
        pick = np.argmax(cgx * cgx + cgy * cgy, axis=1)
        rows = np.arange(len(pick))
        cgx, cgy = cgx[rows, pick], cgy[rows, pick]
    norm = np.maximum(np.hypot(cgx, cgy), 1e-6)
    normals = np.stack([cgx / norm, cgy / norm], 1)
    mm_to_work = np.diag([shrink, shrink, 1.0]) @ table_to_image
    work_to_mm = np.linalg.inv(mm_to_work)
    both = transform(work_to_mm, np.concatenate([points, points + 0.5 * normals]))
    points_mm = both[: len(points)]
    step = both[len(points) :] - points_mm
    normals_mm = step / np.maximum(np.hypot(step[:, 0], step[:, 1]), 1e-9)[:, None]
    return EdgeMap(
        edges=edges,
        nearest=np.subtract(labels, 1, out=labels),
        points_mm=points_mm,
        normals_mm=normals_mm,
        mm_to_work=mm_to_work,
        work_to_mm=work_to_mm,
        shrink=shrink,
    )


def _segments(em: EdgeMap, min_px: float) -> tuple[Array, Array]:
    """Straight pieces of the edge contours: start and end points in table mm."""
    contours, _ = cv2.findContours(em.edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    starts, ends = [], []
    for contour in contours:
        if len(contour) < 2 * min_px:
            continue
        poly = cv2.approxPolyDP(contour, 1.2, False).reshape(-1, 2)
        if len(poly) < 2:
            continue
        starts.append(poly[:-1])
        ends.append(poly[1:])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    a = np.concatenate(starts).astype(np.float64)
    b = np.concatenate(ends).astype(np.float64)
    keep = np.hypot(*(b - a).T) >= min_px
    mm = transform(em.work_to_mm, np.concatenate([a[keep], b[keep]]))
    n = int(keep.sum())
    return mm[:n], mm[n:]


def _corners(a: Array, b: Array) -> tuple[Array, Array, Array]:
    """Right-angled corners from pairs of segments whose ends meet: (points, angles, arms)
    where the angle is the direction of the corner's first arm (clockwise order) and
    ``arms`` (n, 2) the lengths of the first and second arm."""
    length = np.hypot(*(b - a).T)
    keep = length >= MIN_ARM_MM
    a, b, length = a[keep], b[keep], length[keep]
    n = len(a)
    if n < 2:
        return np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2))
    d = (b - a) / length[:, None]
    ends = np.concatenate([a, b])
    away = np.concatenate([d, -d])  # from each end along its segment
    seg = np.concatenate([np.arange(n), np.arange(n)])
    # Candidate pairs: ends close together, arms roughly square, different segments.
    order = np.argsort(ends[:, 0])
    xs = ends[order, 0]
    reach = 2 * CORNER_GAP_MM
    lo = np.searchsorted(xs, xs - reach, "left")
    hi = np.searchsorted(xs, xs + reach, "right")
    counts = hi - lo
    first = np.repeat(np.arange(len(xs)), counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    second = lo[first] + offsets
    i, j = order[first], order[second]
    sel = (seg[i] < seg[j]) & (np.abs(ends[i, 1] - ends[j, 1]) <= reach)
    i, j = i[sel], j[sel]
    u, w = away[i], away[j]
    cos = np.abs((u * w).sum(1))
    sel = cos < math.sin(math.radians(SQUARE_DEG))
    i, j, u, w = i[sel], j[sel], u[sel], w[sel]
    # Where the two lines cross; both ends must lie near it.
    det = u[:, 0] * (-w[:, 1]) - (-w[:, 0]) * u[:, 1]
    rhs = ends[j] - ends[i]
    t = (rhs[:, 0] * (-w[:, 1]) - (-w[:, 0]) * rhs[:, 1]) / det
    s = (u[:, 0] * rhs[:, 1] - u[:, 1] * rhs[:, 0]) / det
    sel = (np.abs(t) <= CORNER_GAP_MM) & (np.abs(s) <= CORNER_GAP_MM)
    point = ends[i] + t[:, None] * u
    point, u, w = point[sel], u[sel], w[sel]
    arms = np.stack([length[seg[i[sel]]], length[seg[j[sel]]]], 1)
    u2, w2, arms = _clockwise(u, w, arms)
    # Square the corner: the first arm's direction, averaged with the second's turned back.
    ang_u = np.arctan2(u2[:, 1], u2[:, 0])
    ang_w = np.arctan2(w2[:, 1], w2[:, 0]) - math.pi / 2
    diff = (ang_w - ang_u + math.pi) % (2 * math.pi) - math.pi
    return point, ang_u + diff / 2, arms


def _clockwise(u: Array, w: Array, arms: Array) -> tuple[Array, Array, Array]:
    """A corner's two arm directions (and lengths) in clockwise order: the first arm is
    the one the second turns from."""
    swap = (u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]) < 0
    first = np.where(swap[:, None], w, u)
    second = np.where(swap[:, None], u, w)
    return first, second, np.where(swap[:, None], arms[:, ::-1], arms)


def _in_frame(px: Array, shape: tuple[int, ...]) -> Array:
    """Which whole-pixel points ``px`` (n, 2: x, y) lie inside an image of ``shape``."""
    hgt, wid = shape[:2]
    out: Array = (px[:, 0] >= 0) & (px[:, 0] < wid) & (px[:, 1] >= 0) & (px[:, 1] < hgt)
    return out


WEAK_ARM_MM = 10.0  # a straight edge this long may end at a corner whose other arm is faint
WEAK_LINE = 6.0  # grey levels: a faint arm is a line this much darker than the paper either
# side of it (or a step of twice this), at every point along it checked
WEAK_BACK_MM = 7.0  # how far beyond a segment's end its corner may lie (a rounded corner,
# an edge map's contour that stops short)
LONE_END_MM = 6.0  # a segment's end this close to a corner found is that corner's
BARE_ARM_MM = 15.0  # a straight edge this long may end at a corner whose other arm is lost
BARE_BACK_MM = 3.0  # how far past such an edge's end its corner lies (the typical rounding)
LATE_FITTED = 60  # rough poses fitted (those whose outline first lies best on edges)


def _weak_corners(
    image: Array,
    table_to_image: Array,
    em: EdgeMap,
    a: Array,
    b: Array,
    strong: Array,
    whole: Hypotheses,
) -> tuple[tuple[Array, Array, Array], tuple[Array, Array, Array]]:
    """Corners with one strong arm (a segment from ``a`` to ``b``) and one faint one, as
    ``_corners`` gives them.  A card lying on a card of the same white paper shows that
    side only as a thin line, too faint for the edge map; in a fan or a pile that side is
    often all that shows next to a corner whose other side lies on the table.  Second:
    the corners at the ends of long segments where no faint arm shows (``_bare_arms``)."""
    ends, inward, lengths = _lone_ends(em, a, b, strong, whole)
    if len(ends) == 0:
        none = np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2))
        return none, none
    points, angles, arms, found = _faint_arms(image, table_to_image, ends, inward, lengths)
    bare = lengths >= BARE_ARM_MM
    bare[found] = False
    return (points, angles, arms), _bare_arms(ends[bare], inward[bare], lengths[bare])


def _bare_arms(ends: Array, inward: Array, lengths: Array) -> tuple[Array, Array, Array]:
    """Corners with one arm alone: at the end of a long straight edge where nothing shows
    of the side square to it (a card on one of the same paper, the line between them
    lost to blur), on either side of it, ``BARE_BACK_MM`` past the end (the corner's
    rounding).  The poses are rough along the edge; they are examined last."""
    square = np.stack([-inward[:, 1], inward[:, 0]], 1)
    point = ends - BARE_BACK_MM * inward
    arm_lengths = np.stack([lengths, np.zeros(len(ends))], 1)
    pts, angs, arms = [], [], []
    for side in (square, -square):
        first, _, arm = _clockwise(inward, side, arm_lengths)
        pts.append(point)
        angs.append(np.arctan2(first[:, 1], first[:, 0]))
        arms.append(arm)
    return np.concatenate(pts), np.concatenate(angs), np.concatenate(arms)


def _lone_ends(
    em: EdgeMap, a: Array, b: Array, strong: Array, whole: Hypotheses
) -> tuple[Array, Array, Array]:
    """Ends of long segments with no corner found near them (``strong``), not inside a
    card seen whole (its print): (ends, unit vectors from each end along its segment,
    segment lengths), mm."""
    length = np.hypot(*(b - a).T)
    keep = length >= WEAK_ARM_MM
    a, b, length = a[keep], b[keep], length[keep]
    along = (b - a) / length[:, None]
    ends = np.concatenate([a, b])
    inward = np.concatenate([along, -along])
    lengths = np.concatenate([length, length])
    near_corner: Array = np.zeros_like(em.edges)
    at = np.round(transform(em.mm_to_work, strong)).astype(np.int32)
    at = at[_in_frame(at, em.edges.shape)]
    near_corner[at[:, 1], at[:, 0]] = 255
    reach = 2 * max(round(LONE_END_MM * work_scale(em)), 1) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    near_corner = cv2.dilate(near_corner, disc)
    px = np.round(transform(em.mm_to_work, ends)).astype(np.int32)
    lone = _in_frame(px, em.edges.shape)
    lone[lone] = near_corner[px[lone, 1], px[lone, 0]] == 0
    if len(whole):
        lone[lone] = ~_explained(ends[lone], whole)
    return ends[lone], inward[lone], lengths[lone]


def _faint_arms(
    image: Array, table_to_image: Array, ends: Array, inward: Array, lengths: Array
) -> tuple[Array, Array, Array, Array]:
    """Corners at segment ends with a faint line square to the segment, on either side:
    profiles of the frame (grey, full resolution) along the segment, back from its end,
    at points 4 to 14 mm out (past a rounded corner), must each show the line at one
    place.  (points, angles, arms) as ``_corners`` gives them, and which end each is at."""
    across = np.arange(-WEAK_BACK_MM, 0.51, 0.25)  # (P,) mm along ``inward``
    out = np.arange(4.0, 14.1, 2.0)  # (K,) mm along the faint arm
    square = np.stack([-inward[:, 1], inward[:, 0]], 1)
    arm = np.stack([square, -square], 1)  # (m, 2, 2): the faint arm, either side
    # Frame pixels as a local affine map of mm (perspective is flat over 14 mm).
    base = transform(table_to_image, ends)
    per_out = transform(table_to_image, (ends[:, None] + arm).reshape(-1, 2)).reshape(-1, 2, 2)
    per_out -= base[:, None]
    per_across = transform(table_to_image, ends + inward) - base
    px = (
        base[:, None, None, None]
        + out[None, None, :, None, None] * per_out[:, :, None, None]
        + across[None, None, None, :, None] * per_across[:, None, None, None]
    ).astype(np.float32)  # (m, 2, K, P, 2)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    vals = _sample(grey, px.reshape(-1, 2))[:, 0].reshape(px.shape[:-1])
    line = np.minimum(vals[..., :-4], vals[..., 4:]) - vals[..., 2:-2]  # 1 mm either side
    step = np.abs(vals[..., 4:] - vals[..., :-4])
    hit = (line >= WEAK_LINE) | (step >= 2 * WEAK_LINE)  # (m, 2, K, P - 4)
    hit = hit | np.roll(hit, 1, -1) | np.roll(hit, -1, -1)  # a quarter mm either way
    everywhere = hit.all(2)  # (m, 2, P - 4): the line at this place at every point out
    found = everywhere.any(2)
    e, side = np.nonzero(found)
    where = np.argmax(everywhere[e, side], axis=1)
    point = ends[e] + across[2:-2][where][:, None] * inward[e]
    arm_lengths = np.stack([lengths[e], np.full(len(e), out[-1])], 1)  # strong, faint
    first, _, arms = _clockwise(inward[e], arm[e, side], arm_lengths)
    return point, np.arctan2(first[:, 1], first[:, 0]), arms, e


def _from_corners(
    points: Array, angles: Array, arms: Array, votes: Array, sizes: Sequence[tuple[float, float]]
) -> tuple[Array, Array, Array, Array]:
    """Two card rectangles per corner and size: the first arm as the short side, and as
    the long side (unless an arm is too long for the short side).  Returns centres, angles
    (of each card's x axis), sizes and votes."""
    centres, angs, dims, vs = [], [], [], []
    for w, h in sizes:
        for first_short in (True, False):
            fits = (arms[:, 0 if first_short else 1] <= w + 6) & (arms.max(1) <= h + 6)
            points_, votes_ = points[fits], votes[fits]
            a = angles[fits] if first_short else angles[fits] - math.pi / 2
            # The corner is the card's TL (short side first) or its TR (long side first);
            # in both the card's x axis runs along ``a`` and its y axis along ``a + 90``.
            ux = np.stack([np.cos(a), np.sin(a)], 1)
            uy = np.stack([-np.sin(a), np.cos(a)], 1)
            if first_short:
                c = points_ + ux * (w / 2) + uy * (h / 2)
            else:
                c = points_ - ux * (w / 2) + uy * (h / 2)
            centres.append(c)
            angs.append(a)
            dims.append(np.tile([w, h], (len(a), 1)))
            vs.append(votes_)
    return (
        np.concatenate(centres),
        np.concatenate(angs),
        np.concatenate(dims).astype(float),
        np.concatenate(vs),
    )


def _group(keys: Array) -> tuple[Array, Array]:
    """Group rows of integer ``keys``: (group index per row, number of groups), groups in
    the order of their keys.  Rows are packed into one integer where it fits (a sort of
    numbers, far faster than one of rows)."""
    rel = keys - keys.min(0)
    span = [int(v) + 1 for v in rel.max(0)]
    if math.prod(span) < 2**62:
        packed = np.zeros(len(keys), np.int64)
        for col, n in enumerate(span):
            packed = packed * n + rel[:, col]
        _, inverse = np.unique(packed, return_inverse=True)
    else:
        _, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    return inverse, np.array(int(inverse.max()) + 1 if len(inverse) else 0)


def _merge_corners(points: Array, angles: Array, arms: Array) -> tuple[Array, Array, Array, Array]:
    """One corner per cluster (the same corner is found on both sides of a thin edge and
    from overlapping segments): mean point and angle, longest arms, how many merged."""
    if len(points) == 0:
        return points, angles, arms, np.zeros(0)
    keys = np.stack(
        [
            np.floor(points[:, 0] / 2.0),
            np.floor(points[:, 1] / 2.0),
            np.floor(np.mod(angles, 2 * math.pi) / math.radians(6)),
        ],
        1,
    ).astype(np.int64)
    group, count = _group(keys)
    n = int(count)
    votes = np.bincount(group, minlength=n).astype(float)
    mean = np.stack([np.bincount(group, points[:, k], n) for k in (0, 1)], 1) / votes[:, None]
    vec = np.stack([np.bincount(group, np.cos(angles), n), np.bincount(group, np.sin(angles), n)])
    longest = np.zeros((n, 2))
    np.maximum.at(longest, group, arms)
    return mean, np.arctan2(vec[1], vec[0]), longest, votes


def _merge(
    centre: Array, angle: Array, size: Array, votes: Array, tol_mm: float = 4.0
) -> Hypotheses:
    """One hypothesis per distinct rectangle (a card's rectangle is the same turned 180
    degrees), counting the corners that proposed it."""
    folded = np.mod(angle, math.pi)
    keys = np.stack(
        [
            np.floor(centre[:, 0] / tol_mm),
            np.floor(centre[:, 1] / tol_mm),
            np.floor(folded / math.radians(4)),
            size[:, 0],
            size[:, 1],
        ],
        1,
    ).astype(np.int64)
    if len(keys) == 0:
        empty = np.zeros(0)
        return Hypotheses(np.zeros((0, 2)), empty, np.zeros((0, 2)), empty, empty)
    group, count = _group(keys)
    n = int(count)
    total = np.bincount(group, votes, n)
    cen: Array = np.stack([np.bincount(group, centre[:, k] * votes, n) for k in (0, 1)], 1)
    cen = cen / total[:, None]
    # Angles mod 180: average the doubled angle.
    vec = np.stack(
        [
            np.bincount(group, np.cos(2 * angle) * votes, n),
            np.bincount(group, np.sin(2 * angle) * votes, n),
        ]
    )
    ang = np.arctan2(vec[1], vec[0]) / 2
    first = np.zeros(n, int)
    first[group[::-1]] = np.arange(len(group))[::-1]
    return Hypotheses(cen, ang, size[first], np.zeros(n), total)


def _suppress(hyp: Hypotheses, tol_mm: float = 3.0, tol_deg: float = 3.0) -> Hypotheses:
    """Fitted hypotheses that converged onto one rectangle: keep the best supported."""
    order = np.argsort(-hyp.support, kind="stable")
    folded = np.mod(hyp.angle, math.pi)
    # same[k, i]: hypothesis i is the rectangle of hypothesis k
    dang = np.abs((folded[:, None] - folded[None, :] + math.pi / 2) % math.pi - math.pi / 2)
    rel = hyp.centre[:, None, :] - hyp.centre[None, :, :]
    same = (
        (np.hypot(rel[..., 0], rel[..., 1]) < tol_mm)
        & (dang < math.radians(tol_deg))
        & (np.abs(hyp.size[:, None, 0] - hyp.size[None, :, 0]) < 1.0)
        & (np.abs(hyp.size[:, None, 1] - hyp.size[None, :, 1]) < 1.0)
    )
    kept: list[int] = []
    taken = np.zeros(len(hyp), bool)
    for i in order:
        if not taken[i]:
            kept.append(int(i))
            taken |= same[i]
    return take(hyp, np.array(kept, int))


def _placed(centre: Array, angle: Array, local: Array, local_normals: Array) -> tuple[Array, Array]:
    """Outline samples and their normals (card-local mm) turned and moved to each card's
    pose on the table: (n, samples, 2) each."""
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    world = np.stack(
        [
            centre[:, 0:1] + c * local[..., 0] - s * local[..., 1],
            centre[:, 1:2] + s * local[..., 0] + c * local[..., 1],
        ],
        2,
    )
    normal = np.stack(
        [
            c * local_normals[..., 0] - s * local_normals[..., 1],
            s * local_normals[..., 0] + c * local_normals[..., 1],
        ],
        2,
    )
    return world, normal


def _outline_samples(size: Array) -> tuple[Array, Array]:
    """Points along each card outline in card coordinates (centre origin), with the
    outward normal of their side; rounded corners left out.  (n, S, 2) each."""
    t = (np.arange(SAMPLES_PER_SIDE) + 0.5) / SAMPLES_PER_SIDE
    t = 0.12 + 0.76 * t  # keep off the rounded corners
    w = size[:, 0:1] / 2
    h = size[:, 1:2] / 2
    along_x = -w + 2 * w * t[None, :]
    along_y = -h + 2 * h * t[None, :]
    one = np.ones_like(along_x)
    pts = np.concatenate(
        [
            np.stack([along_x, -h * one], 2),  # top
            np.stack([w * one, along_y], 2),  # right
            np.stack([along_x, h * one], 2),  # bottom
            np.stack([-w * one, along_y], 2),  # left
        ],
        1,
    )
    k = SAMPLES_PER_SIDE
    normals = np.concatenate(
        [np.tile(v, (k, 1)) for v in ([0, -1], [1, 0], [0, 1], [-1, 0])]
    ).astype(float)
    return pts, np.broadcast_to(normals, pts.shape)


def fit(
    hyp: Hypotheses, em: EdgeMap, reach_mm: Sequence[float] = (4.0, 3.0, 2.0, 1.5)
) -> Hypotheses:
    """Fit every hypothesis to the edges as a rigid rectangle; set its edge support."""
    n = len(hyp)
    if n == 0:
        return hyp
    local, local_normals = _outline_samples(hyp.size)
    centre = hyp.centre.copy()
    angle = hyp.angle.copy()
    support = np.zeros(n)
    if len(em.points_mm) == 0:
        return Hypotheses(centre, angle, hyp.size, support, hyp.corners_seen)
    rounds = len(reach_mm)
    for r in range(rounds + 1):
        world, normal = _placed(centre, angle, local, local_normals)
        inside, d_n, dist2 = _edge_offsets(em, world, normal)
        reach = reach_mm[r] if r < rounds else 1.5
        weight = (inside & (dist2 <= reach * reach)).astype(float)
        support = weight.mean(1)
        if r == rounds:
            break
        # Only the offset across the side counts (an edge point slides along its side).
        goal = world + d_n[..., None] * normal
        centre, angle = _procrustes(world, goal, weight, centre, angle)
    return Hypotheses(centre, angle, hyp.size, support, hyp.corners_seen)


def _edge_offsets(em: EdgeMap, world: Array, normal: Array) -> tuple[Array, Array, Array]:
    """For outline points ``world`` (with side normals ``normal``; (n, S, 2) mm): whether
    the nearest edge pixel is in the frame and runs along the side (its gradient across
    it, either way), its offset across the side, and its squared distance."""
    hgt, wid = em.edges.shape
    px = transform(em.mm_to_work, world.reshape(-1, 2))
    xi = np.round(px[:, 0]).astype(np.int32)
    yi = np.round(px[:, 1]).astype(np.int32)
    inside = (xi >= 0) & (xi < wid) & (yi >= 0) & (yi < hgt)
    near = em.nearest.ravel().take(np.clip(yi, 0, hgt - 1) * wid + np.clip(xi, 0, wid - 1))
    shape = world.shape[:2]
    offset = em.points_mm.take(near, 0).reshape(world.shape) - world
    edge_normal = em.normals_mm.take(near, 0).reshape(world.shape)
    nx, ny = normal[..., 0], normal[..., 1]
    along = np.abs(edge_normal[..., 0] * nx + edge_normal[..., 1] * ny) > 0.85
    d_n = offset[..., 0] * nx + offset[..., 1] * ny
    dist2 = offset[..., 0] * offset[..., 0] + offset[..., 1] * offset[..., 1]
    return inside.reshape(shape) & along, d_n, dist2


def _procrustes(
    src: Array, dst: Array, weight: Array, centre: Array, angle: Array
) -> tuple[Array, Array]:
    """The rigid motion of each rectangle that best moves ``src`` onto ``dst`` (weighted);
    rectangles with too little support stay where they are."""
    wsum = weight.sum(1)
    enough = wsum >= 6
    ws = np.maximum(wsum, 1e-9)[:, None]
    cs = np.einsum("nsk,ns->nk", src, weight) / ws
    cd = np.einsum("nsk,ns->nk", dst, weight) / ws
    a = src - cs[:, None, :]
    b = dst - cd[:, None, :]
    dot = (weight * (a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1])).sum(1)
    crs = (weight * (a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0])).sum(1)
    rot = np.arctan2(crs, dot)
    rot = np.where(enough, np.clip(rot, -0.1, 0.1), 0.0)
    c, s = np.cos(rot), np.sin(rot)
    rel = centre - cs
    new_centre = cd + np.stack([c * rel[:, 0] - s * rel[:, 1], s * rel[:, 0] + c * rel[:, 1]], 1)
    new_centre = np.where(enough[:, None], new_centre, centre)
    return new_centre, angle + rot


def find_hypotheses(
    image: Array, table_to_image: Array, sizes: Sequence[tuple[float, float]]
) -> tuple[Hypotheses, EdgeMap]:
    """Card rectangles (table mm) proposed by the corners in ``image``, fitted to its
    edges, best supported first."""
    em = edge_map(image, table_to_image)
    scale = work_scale(em)
    a, b = _segments(em, max(4.0, MIN_ARM_MM * scale))
    found = _corners(a, b)
    points, angles, arms, votes = _merge_corners(*found)
    hyp = _merge(*_from_corners(points, angles, arms, votes, sizes))
    # A quick look at the edges first: most hypotheses from a corner lie on the table.
    first = fit(hyp, em, reach_mm=())
    # Cards seen whole (edges all round) first: corners inside them are their print, and
    # their own corners need no other hypotheses.
    whole = fit(take(hyp, np.nonzero(first.support >= WHOLE_FIRST)[0]), em)
    whole = _suppress(take(whole, np.nonzero(whole.support >= WHOLE_SUPPORT)[0]))
    faint, bare = _weak_corners(image, table_to_image, em, a, b, found[0], whole)
    weak = _merge_corners(*faint)
    if len(whole) or len(weak[0]):
        points, angles, arms, votes = (
            np.concatenate([x, y]) for x, y in zip((points, angles, arms, votes), weak, strict=True)
        )
        keep = ~_explained(points, whole)
        points, angles, arms, votes = points[keep], angles[keep], arms[keep], votes[keep]
        hyp = _merge(*_from_corners(points, angles, arms, votes, sizes))
        first = fit(hyp, em, reach_mm=())
    rest = take(hyp, np.nonzero(first.support >= 0.15)[0])
    rest = _suppress(fit(rest, em))
    rest = take(rest, np.nonzero(~_same_as(rest, whole))[0])
    out = _concat(whole, rest)
    order = np.argsort(-(out.support + 0.05 * np.minimum(out.corners_seen, 4)))
    out = take(out, order)
    out = _with_spares(out, _outdone(out))
    late = _late(bare, take(out, np.nonzero(spare_of(out) < 0)[0]), whole, em, sizes)
    return _concat(out, late, late=True), em


def _late(
    bare: tuple[Array, Array, Array],
    found: Hypotheses,
    whole: Hypotheses,
    em: EdgeMap,
    sizes: Sequence[tuple[float, float]],
) -> Hypotheses:
    """Hypotheses from corners with one arm (``_bare_arms``), fitted, best supported
    first; none that is one ``found`` already."""
    points, angles, arms = bare
    keep = ~_explained(points, whole)
    points, angles, arms = points[keep], angles[keep], arms[keep]
    hyp = _merge(*_from_corners(points, angles, arms, np.ones(len(points)), sizes))
    first = fit(hyp, em, reach_mm=()).support
    best = np.argsort(-first, kind="stable")[:LATE_FITTED]
    hyp = _suppress(fit(take(hyp, best[first[best] >= 0.15]), em))
    hyp = take(hyp, np.nonzero(~_same_as(hyp, found))[0])
    return take(hyp, np.argsort(-hyp.support, kind="stable"))


OUTDONE_KEPT = 0.5  # an outline outdone with this much of it on edges is kept as a spare


def _with_spares(hyp: Hypotheses, by: Array) -> Hypotheses:
    """The hypotheses not outdone (``by`` -1), then as spares those outdone that lie on
    edges for the most part (``OUTDONE_KEPT``: a card at the bottom of a fan, the other
    size's outline from its corner running along the cards on it), each marked with the
    one that outdid it: a spare is examined only where that one is not read (where it is
    read, the spare is its corner)."""
    kept = np.flatnonzero(by < 0)
    spares = np.flatnonzero((by >= 0) & (hyp.support >= OUTDONE_KEPT))
    new_index = np.full(len(hyp), -1)
    new_index[kept] = np.arange(len(kept))
    out = take(hyp, np.concatenate([kept, spares]).astype(int))
    spare_of = np.concatenate([np.full(len(kept), -1), new_index[by[spares]]])
    return replace(out, spare_of=spare_of)


def _outdone(hyp: Hypotheses, margin: float = 0.15) -> Array:
    """Per hypothesis, the one that outdoes it (-1: none): a clearly better supported one
    with a corner where it has one, sides along its sides (the other card size, or the
    other way round, proposed by the same corner: the better one shows its far sides;
    this one's lie on bare table, or along the cards on it)."""
    n = len(hyp)
    out = np.full(n, -1)
    if n < 2:
        return out
    quads = hyp.quads()  # (n, 4, 2), best supported first
    folded = np.mod(hyp.angle, math.pi / 2)
    for i in range(n):
        if out[i] >= 0:
            continue
        later = np.arange(i + 1, n)
        later = later[(hyp.support[later] < hyp.support[i] - margin) & (out[later] < 0)]
        if len(later) == 0:
            continue
        turn = np.abs((folded[later] - folded[i] + math.pi / 4) % (math.pi / 2) - math.pi / 4)
        later = later[turn < math.radians(4)]
        if len(later) == 0:
            continue
        d = np.hypot(
            *(quads[later][:, :, None, :] - quads[i][None, None, :, :]).transpose(3, 0, 1, 2)
        )
        out[later[d.min(axis=(1, 2)) < 3.0]] = i
    return out


def _card_frame(points: Array, hyp: Hypotheses) -> tuple[Array, Array]:
    """``points`` in every hypothesis's card coordinates: (m, n, 2) x, y from its centre."""
    rel = points[None, :, :] - hyp.centre[:, None, :]
    c, s = np.cos(hyp.angle)[:, None], np.sin(hyp.angle)[:, None]
    x = rel[..., 0] * c + rel[..., 1] * s
    y = -rel[..., 0] * s + rel[..., 1] * c
    return x, y


def _explained(points: Array, whole: Hypotheses, margin_mm: float = 4.0) -> Array:
    """Corners inside a whole card (its print) or at one of its corners."""
    if len(points) == 0:
        return np.zeros(0, bool)
    x, y = _card_frame(points, whole)
    hw, hh = whole.size[:, 0:1] / 2, whole.size[:, 1:2] / 2
    inside = (np.abs(x) < hw - margin_mm) & (np.abs(y) < hh - margin_mm)
    at_corner = (np.abs(np.abs(x) - hw) < margin_mm) & (np.abs(np.abs(y) - hh) < margin_mm)
    out: Array = np.asarray((inside | at_corner).any(0))
    return out


def _same_as(hyp: Hypotheses, other: Hypotheses, tol_mm: float = 4.0) -> Array:
    """Which of ``hyp`` coincide with one of ``other`` (same rectangle, either way up)."""
    if len(hyp) == 0 or len(other) == 0:
        return np.zeros(len(hyp), bool)
    dc = np.hypot(*(hyp.centre[:, None, :] - other.centre[None, :, :]).transpose(2, 0, 1))
    da = np.abs((hyp.angle[:, None] - other.angle[None, :] + math.pi / 2) % math.pi - math.pi / 2)
    ds = np.abs(hyp.size[:, None, :] - other.size[None, :, :]).max(2)
    out: Array = ((dc < tol_mm) & (da < math.radians(4)) & (ds < 1.0)).any(1)
    return out


def _concat(a: Hypotheses, b: Hypotheses, late: bool = False) -> Hypotheses:
    """``a`` then ``b``; ``late``: ``b`` is to be examined after every one of ``a``.
    Spares (``spare_of``) are kept only in ``a``."""
    return Hypotheses(
        np.concatenate([a.centre, b.centre]),
        np.concatenate([a.angle, b.angle]),
        np.concatenate([a.size, b.size]),
        np.concatenate([a.support, b.support]),
        np.concatenate([a.corners_seen, b.corners_seen]),
        late=np.concatenate([np.zeros(len(a), bool), np.full(len(b), late)]),
        spare_of=np.concatenate([spare_of(a), np.full(len(b), -1)]),
    )


def work_scale(em: EdgeMap) -> float:
    """Working-copy pixels per mm at the smallest scale in view (for length limits)."""
    h, w = em.edges.shape
    corners = transform(em.work_to_mm, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    px = transform(em.mm_to_work, np.concatenate([corners, corners + np.array([10.0, 0.0])]))
    return float(np.hypot(*(px[4:] - px[:4]).T).min() / 10)


def take(hyp: Hypotheses, idx: Array) -> Hypotheses:
    return Hypotheses(
        hyp.centre[idx],
        hyp.angle[idx],
        hyp.size[idx],
        hyp.support[idx],
        hyp.corners_seen[idx],
        None if hyp.edges is None else hyp.edges[idx],
        None if hyp.straight is None else hyp.straight[idx],
        None if hyp.late is None else hyp.late[idx],
        None if hyp.blurred is None else hyp.blurred[idx],
        None if hyp.spare_of is None else _renumbered(hyp.spare_of, idx, len(hyp)),
        None if hyp.corner_edges is None else hyp.corner_edges[idx],
    )


def spare_of(hyp: Hypotheses) -> Array:
    """``hyp.spare_of``, with -1 for every hypothesis where it is not set."""
    return np.full(len(hyp), -1) if hyp.spare_of is None else hyp.spare_of


def _renumbered(spare_of: Array, idx: Array, n: int) -> Array:
    """``spare_of`` of the hypotheses ``idx`` taken, pointing at their new indices (-1
    where the one that outdid a spare is not taken)."""
    new_index = np.full(n, -1)
    new_index[np.asarray(idx, int)] = np.arange(len(np.atleast_1d(idx)))
    old = spare_of[idx]
    out: Array = np.where(old >= 0, new_index[np.maximum(old, 0)], -1)
    return out


def refine(
    image: Array,
    table_to_image: Array,
    hyp: Hypotheses,
    reach_mm: Sequence[float] = (2.5, 1.2),
    step_mm: float = 0.25,
    min_step: float = 6.0,
    gap: int = 2,
) -> Hypotheses:
    """Sharpen poses on the full-resolution frame: along every side, the strongest edge
    across it (a profile of the frame's colour channels), then a rigid fit; points far
    from the fitted outline are dropped in the next round.  Support: the share of the
    outline with an edge within half a millimetre."""
    n = len(hyp)
    if n == 0:
        return hyp
    local, local_normals = _outline_samples(hyp.size)
    centre = hyp.centre.copy()
    angle = hyp.angle.copy()
    support = np.zeros(n)
    hgt, wid = image.shape[:2]
    keep = np.ones(local.shape[:2], bool)
    wide = (gap - 2) * step_mm / 2  # the profile reaches this much further for a wider step
    for r, reach in enumerate([*reach_mm, 0.6]):
        offsets = np.arange(-reach - wide, reach + wide + 1e-9, step_mm)
        world, normal = _placed(centre, angle, local, local_normals)
        probe = world[:, :, None, :] + offsets[None, None, :, None] * normal[:, :, None, :]
        px = transform(table_to_image, probe.reshape(-1, 2)).astype(np.float32)
        vals = _sample(image, px)
        vals = vals.reshape(n, local.shape[1], len(offsets), -1)
        strength, t = _side_steps(vals, offsets, gap, step_mm)
        inside = (
            ((px[:, 0] >= 1) & (px[:, 0] < wid - 2) & (px[:, 1] >= 1) & (px[:, 1] < hgt - 2))
            .reshape(n, local.shape[1], len(offsets))
            .all(2)
        )
        edge = (strength >= min_step) & inside
        if r == len(reach_mm):
            at = edge & (np.abs(t) <= 0.5)
            support = at.mean(1)
            found = world + t[..., None] * normal
            straight = at & _along_side(image, table_to_image, found, normal, strength)
            break
        weight = (edge & keep).astype(float)
        goal = world + t[..., None] * normal
        centre, angle = _procrustes(world, goal, weight, centre, angle)
        # Points whose edge lies far from the fitted side are something else (print,
        # shadow, another card): leave them out of the next round.
        keep = keep & (np.abs(t) <= max(reach * 0.6, 0.8))
    return Hypotheses(
        centre, angle, hyp.size, support, hyp.corners_seen, at, straight, hyp.late,
        spare_of=hyp.spare_of,
    )  # fmt: skip


def _side_steps(vals: Array, offsets: Array, gap: int, step_mm: float) -> tuple[Array, Array]:
    """The strongest step across each side in profiles ``vals`` (n, S, K, channels) taken
    at ``offsets`` (K,) mm, over ``gap`` samples: its strength (grey levels, the strongest
    channel's) and where it lies (mm, to a fraction of a sample)."""
    steps = np.abs(vals[:, :, gap:] - vals[:, :, :-gap])
    diff = steps[..., 0]
    for ch in range(1, steps.shape[-1]):
        diff = np.maximum(diff, steps[..., ch])
    best = np.argmax(diff, axis=2)
    strength = np.take_along_axis(diff, best[..., None], 2)[..., 0]
    # Sub-sample peak: a parabola through the best and its neighbours.
    lo = np.take_along_axis(diff, np.maximum(best - 1, 0)[..., None], 2)[..., 0]
    hi = np.take_along_axis(diff, np.minimum(best + 1, diff.shape[2] - 1)[..., None], 2)[..., 0]
    den = lo - 2 * strength + hi
    frac = np.where(np.abs(den) > 1e-6, 0.5 * (lo - hi) / np.where(den == 0, 1, den), 0.0)
    mid = (offsets[gap:] + offsets[:-gap]) / 2
    out: Array = mid[best] + np.clip(frac, -0.5, 0.5) * step_mm
    return strength, out


BLUR_STEP_PX = 1.5  # a blurred side's step is measured over this many pixels ...
BLUR_PX_PER_MM = 2.0  # ... in frames with fewer pixels per mm than this
BLUR_SURE = 0.85  # ... for outlines less sharp than this all round (``identify``'s sure pose)
BLUR_WHOLE = 0.7  # ... which show this much of themselves measured so: cards seen whole


def refine_blurred(
    image: Array, table_to_image: Array, hyp: Hypotheses, least: float, step_mm: float = 0.25
) -> Hypotheses:
    """``hyp`` (as ``refine`` gives them) with those supported under ``least`` refined
    again with each side's step measured over ``BLUR_STEP_PX`` pixels, where the frame has
    under ``BLUR_PX_PER_MM``: at low resolution a blurred side's step over a fraction of
    a millimetre is too small to count (a whole card on a pale table in a blurred
    frame).  Those then supported ``least`` or better take that pose and its edges;
    ``blurred`` holds that support (the share of the outline sharp stays ``support``).
    Those supported ``least`` or better but under ``BLUR_SURE`` keep their pose and edges;
    where measured so they show ``BLUR_WHOLE`` of themselves (a card seen whole in a
    blurred frame, its outline half sharp), those edges count where its corners show
    (``corner_edges``, ``corner_shown``), so its index corners are compared, only so.
    (Refitted instead, some moved a pip column off onto another card's print and were
    misread; an outline showing less so is a strip under cards or a hand, whose blurred
    sides the steps may be: one over a hand got a corner and was read as a joker; and as
    its edges, they made the sides of cards on a fan's bottom card look like its own.)"""
    blurred = hyp.support.copy()
    weak = np.nonzero(hyp.support < BLUR_SURE)[0]
    if len(weak) == 0:
        return replace(hyp, blurred=blurred)
    centre = hyp.centre[weak]
    at = transform(table_to_image, centre)
    step = transform(table_to_image, centre + np.array([1.0, 0.0])) - at
    ppm = np.hypot(step[:, 0], step[:, 1])  # px per mm at each
    weak = weak[ppm < BLUR_PX_PER_MM]
    if len(weak) == 0:
        return replace(hyp, blurred=blurred)
    ppm_mean = float(ppm[ppm < BLUR_PX_PER_MM].mean())
    gap = max(3, round(BLUR_STEP_PX / (step_mm * ppm_mean)))
    half = weak[hyp.support[weak] >= least]
    weak = weak[hyp.support[weak] < least]
    if len(half) and hyp.edges is not None:
        seen = refine(image, table_to_image, take(hyp, half), reach_mm=(), gap=gap)
        whole = seen.support >= BLUR_WHOLE
        if seen.edges is not None and whole.any():
            corner_edges = hyp.edges.copy()
            corner_edges[half[whole]] |= seen.edges[whole]
            hyp = replace(hyp, corner_edges=corner_edges)
    if len(weak) == 0:
        return replace(hyp, blurred=blurred)
    again = refine(image, table_to_image, take(hyp, weak), gap=gap)
    took = again.support >= least
    idx = weak[took]
    blurred[idx] = again.support[took]

    def put(into: Array, rows: Array | None) -> Array:
        """``into`` with the refitted hypotheses' rows taken from ``rows`` (``again``'s)."""
        if rows is None:
            return into
        out = into.copy()
        out[idx] = rows[took]
        return out

    return replace(
        hyp,
        centre=put(hyp.centre, again.centre),
        angle=put(hyp.angle, again.angle),
        edges=None if hyp.edges is None else put(hyp.edges, again.edges),
        straight=None if hyp.straight is None else put(hyp.straight, again.straight),
        blurred=blurred,
        corner_edges=None if hyp.corner_edges is None else put(hyp.corner_edges, again.edges),
    )


ALONG_MM = 1.0  # an edge runs along its side where the frame, this far either way along
ALONG_SHARE = 0.7  # the side, changes less than this share of the step across it ...
ALONG_FLOOR = 15.0  # ... or less than this (grey levels: the noise along a faint side,
# white card on white, is as large as its step)


def _along_side(
    image: Array, table_to_image: Array, found: Array, normal: Array, across: Array
) -> Array:
    """Whether the edges ``found`` (n, S, 2) mm, with step ``across`` over the side, run
    along the side (normals ``normal``): the frame barely changes along it there.  A card
    side is straight; a pattern's edges (the checks of a back over a card's outline) are
    not, and change along the side about as much as across it."""
    tangent = np.stack([-normal[..., 1], normal[..., 0]], -1)
    probe = np.concatenate([found + ALONG_MM * tangent, found - ALONG_MM * tangent])
    px = transform(table_to_image, probe.reshape(-1, 2)).astype(np.float32)
    vals = _sample(image, px).reshape(2, *found.shape[:2], -1)
    change = np.abs(vals[0] - vals[1]).max(-1)  # the strongest channel's
    out: Array = change < np.maximum(ALONG_SHARE * across, ALONG_FLOOR)
    return out


def corner_shown(
    hyp: Hypotheses, i: int, reach_mm: float = 24.0, need: float = 0.6
) -> tuple[bool, bool]:
    """Whether the outline shows (edges along both sides, ``reach_mm`` from the corner)
    at the top-left and the bottom-right corner of hypothesis ``i``: where a card's index
    may be read.  (A corner whose sides do not show is under something else.)"""
    edges = hyp.corner_edges if hyp.corner_edges is not None else hyp.edges
    if edges is None:
        return True, True
    out = []
    for near in _near_corners(float(hyp.size[i][0]), float(hyp.size[i][1]), reach_mm):
        out.append(bool(near.any() and edges[i][near].mean() >= need))
    return out[0], out[1]


@functools.lru_cache(maxsize=32)
def _near_corners(width: float, height: float, reach_mm: float) -> tuple[Array, Array]:
    """Which outline samples of a card of this size lie within ``reach_mm`` of its
    top-left and of its bottom-right corner (the same for every card of the size)."""
    local, _ = _outline_samples(np.array([[width, height]]))
    pts = local[0]
    w, h = width / 2, height / 2
    tl, br = (np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) <= reach_mm for cx, cy in ((-w, -h), (w, h)))
    return tl, br


def outline_points(hyp: Hypotheses) -> Array:
    """The outline sample points (mm) of every hypothesis, (n, S, 2) in the order of
    ``edges``."""
    local, _ = _outline_samples(hyp.size)
    c, s = np.cos(hyp.angle), np.sin(hyp.angle)
    rot = np.stack([np.stack([c, s], 1), np.stack([-s, c], 1)], 1)  # (n, 2, 2), transposed
    out: Array = local @ rot + hyp.centre[:, None, :]
    return out


def _sample(image: Array, px: Array) -> Array:
    """Bilinear samples of ``image`` at float pixel positions (m, 2) -> (m, channels)."""
    m = len(px)
    cols = 256
    rows = -(-m // cols)
    pad = np.zeros((rows * cols, 2), np.float32)
    pad[:m] = px
    out = cv2.remap(
        image,
        pad[:, 0].reshape(rows, cols),
        pad[:, 1].reshape(rows, cols),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    result: Array = out.reshape(rows * cols, -1)[:m].astype(np.float32)
    return result
