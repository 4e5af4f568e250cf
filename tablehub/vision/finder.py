"""Finding card outlines in a frame (pure: image in, candidate quadrilaterals out).

Two kinds of candidate:

* **outlines** -- a closed four-sided contour with a card's proportions (edges from Canny on
  every colour channel, so white cards on a white table still show by their shadow edge);
  corners are refined by fitting straight lines to the contour's sides, which copes with
  rounded corners and sleeves.
* **corner hypotheses** -- for cards overlapping in a pile or fan, or partly under a hand:
  every convex, roughly right-angled corner of a merged blob is a card corner; the card is
  hypothesised from that corner, the two edge directions and the card size (from a full
  side seen in the blob, else the scale of complete cards nearby).  The identifier then reads
  only the corner index of such a candidate.

The finder works on a copy shrunk to at most ``WORK_WIDTH`` pixels wide; every coordinate
it returns is in the full frame.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
WORK_WIDTH = 1280
ASPECT_RANGE = (1.12, 1.85)  # long side / short side, allowing for perspective


@dataclass(frozen=True)
class Outline:
    """A complete card outline: corners clockwise (in image coordinates) from a corner at
    the start of a short side, in full-frame pixels."""

    corners: Array  # 4x2 float


@dataclass(frozen=True)
class Blob:
    """A merged region that is not a single card (pile, fan, hand over cards, clutter)."""

    polygon: Array  # Nx2 float, full-frame pixels
    area: float  # full-frame pixels


@dataclass(frozen=True)
class Found:
    outlines: tuple[Outline, ...]
    blobs: tuple[Blob, ...]
    scale: float  # full frame / work image


def _edges(work: Array) -> Array:
    """Canny edges of every Lab channel, with thresholds just above the table's own texture
    (its median gradient): a white card on a white table shows only a faint edge, while
    felt and wood grain must not drown the cards in noise."""
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab)
    edges: Array = np.zeros(work.shape[:2], np.uint8)
    for c in range(3):
        channel = cv2.GaussianBlur(lab[..., c], (3, 3), 0)
        grad = cv2.magnitude(
            cv2.Sobel(channel, cv2.CV_32F, 1, 0), cv2.Sobel(channel, cv2.CV_32F, 0, 1)
        )
        lo = max(10.0, 1.6 * float(np.median(grad[::3, ::3])))
        edges = cv2.bitwise_or(edges, cv2.Canny(channel, lo, 2.4 * lo, L2gradient=True))
    return edges


def _order_clockwise(quad: Array) -> Array:
    """Corners clockwise on screen, starting at the start of a short side."""
    centre = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(ang)]  # clockwise in image coordinates (y down)
    side0 = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])
    side1 = np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])
    if side0 > side1:
        quad = np.roll(quad, -1, axis=0)
    return quad


def _dense(contour: Array) -> Array:
    """The contour's points with its straight runs filled in at 1 px steps: a chain
    approximation keeps only the ends of a perfectly straight side (a scan, a flat photo),
    which leaves nothing to fit a line to between the corners."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    step = np.roll(pts, -1, axis=0) - pts
    counts = np.maximum(1, np.ceil(np.abs(step).max(axis=1))).astype(int)
    start = np.repeat(np.arange(len(pts)), counts)
    frac = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    filled: Array = pts[start] + step[start] * (frac / counts[start])[:, None]
    return filled.astype(np.float32)


def _refine(contour: Array, quad: Array) -> Array:
    """Intersect straight lines fitted to the contour near each side of ``quad``."""
    pts = _dense(contour)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 4:
            return quad
        t = ((pts - a) @ ab) / (length * length)
        dist = np.abs((pts[:, 0] - a[0]) * ab[1] - (pts[:, 1] - a[1]) * ab[0]) / length
        sel = pts[(t > 0.15) & (t < 0.85) & (dist < max(2.0, 0.04 * length))]
        if len(sel) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    refined = np.array(out, np.float64)
    if np.abs(refined - quad).max() > 0.12 * np.linalg.norm(quad[2] - quad[0]):
        return quad
    return refined


def _quad_ok(quad: Array, min_side: float) -> bool:
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    short = (sides[0] + sides[2]) / 2
    long_ = (sides[1] + sides[3]) / 2
    if short < min_side:
        return False
    aspect = long_ / short
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return False
    # Opposite sides of a card under moderate perspective are of similar length.
    if min(sides[0], sides[2]) / max(sides[0], sides[2]) < 0.7:
        return False
    if min(sides[1], sides[3]) / max(sides[1], sides[3]) < 0.7:
        return False
    return bool(cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)))


def _rect_fallback(contour: Array, dist: Array, min_side: float) -> Array | None:
    """A card whose outline is not one closed contour (a faint edge on a light table, a
    nick, glare on its edge): accept the four-sided convex hull of an edge cluster if
    edges run along most of its perimeter, then refine the sides."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2).astype(np.float64)
        if len(approx) <= 4:
            break
    if len(approx) != 4:
        approx = np.zeros((4, 2))  # not a quadrilateral: only the longest sides can help
    quad: Array | None = _order_clockwise(approx)
    if quad is None or not _quad_ok(quad, min_side) or _support(quad, dist) < 0.8:
        quad = _longest_sides(hull)
        if quad is None or not _quad_ok(quad, min_side) or _support(quad, dist) < 0.8:
            return None
    quad = _order_clockwise(_refine(contour, quad))
    return quad if _quad_ok(quad, min_side) else None


def _longest_sides(hull: Array) -> Array | None:
    """A quadrilateral from the four longest sides of a convex hull (a card whose hull
    picked up a few spurs of table texture: the spurs make short sides)."""
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.01 * peri, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 4:
        return None
    lengths = np.array([np.linalg.norm(poly[(i + 1) % n] - poly[i]) for i in range(n)])
    sides = sorted(np.argsort(-lengths)[:4])
    corners = []
    for k in range(4):
        i, j = sides[k - 1], sides[k]
        p1, d1 = poly[i], poly[(i + 1) % n] - poly[i]
        p2, d2 = poly[j], poly[(j + 1) % n] - poly[j]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t[0] * d1)
    return _order_clockwise(np.array(corners))


def _support(quad: Array, dist: Array) -> float:
    """The fraction of the quad's perimeter that lies within 2 px of an edge pixel."""
    pts = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        n = max(2, int(np.linalg.norm(b - a) / 2))
        t = np.linspace(0.05, 0.95, n)[:, None]
        pts.append(a + t * (b - a))
    p = np.round(np.concatenate(pts)).astype(int)
    h, w = dist.shape
    inside = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
    if not inside.any():
        return 0.0
    near = dist[p[inside, 1], p[inside, 0]] <= 2.0
    return float(near.sum()) / len(p)


def _opened(bridged: Array, outer: Sequence[Array], min_side: float) -> list[Array]:
    """Outer boundaries again after cutting thin bridges and spurs: a card touching
    another at a corner, or wood grain running into a card's edge, no longer spoil its
    four straight sides."""
    k = max(3, int(min_side * 0.25)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: list[Array] = []
    h, w = bridged.shape
    for contour in outer:
        x, y, cw, ch = cv2.boundingRect(contour)
        if min(cw, ch) < min_side:
            continue
        x0, y0, x1, y1 = max(x - k, 0), max(y - k, 0), min(x + cw + k, w), min(y + ch + k, h)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(mask, [contour - np.array([x0, y0])], -1, 255, -1)
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out.extend(p + np.array([x0, y0]) for p in parts)
    return out


def iou(a: Array, b: Array) -> float:
    """Intersection over union of two convex polygons."""
    amin, amax, bmin, bmax = a.min(0), a.max(0), b.min(0), b.max(0)
    if (amin > bmax).any() or (bmin > amax).any():
        return 0.0  # bounding boxes apart: the common, cheap case
    inter, _ = cv2.intersectConvexConvex(
        a.astype(np.float32).reshape(-1, 1, 2), b.astype(np.float32).reshape(-1, 1, 2)
    )
    ua = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / ua) if ua > 0 else 0.0


def find_cards(image: Array, min_card_px: float = 40.0) -> Found:
    """Card outlines and merged blobs in a BGR frame.  ``min_card_px``: the shortest card
    side (full-frame pixels) worth reporting."""
    hgt, wid = image.shape[:2]
    scale = max(1.0, wid / WORK_WIDTH)
    work = (
        image
        if scale == 1.0
        else cv2.resize(
            image, (round(wid / scale), round(hgt / scale)), interpolation=cv2.INTER_AREA
        )
    )
    edges = _edges(work)
    # Every closed edge loop (a card lying on another shows its own outline inside the
    # pile), and the outer boundary of each edge cluster after bridging small gaps (a card
    # whose faint edge is broken in places on a light table).
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    bridged = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    outer, _ = cv2.findContours(bridged, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_side = min_card_px / scale
    contours = list(contours) + list(outer) + _opened(bridged, outer, min_side)
    dist = cv2.distanceTransform(255 - edges, cv2.DIST_L2, 3)
    min_area = min_side * min_side * ASPECT_RANGE[0] * 0.8
    max_area = 0.9 * work.shape[0] * work.shape[1]
    quads: list[tuple[float, Array]] = []
    blobs: list[Blob] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if hull_area < min_area or hull_area > max_area:
            continue
        peri = cv2.arcLength(contour, True)
        approx = cv2.approxPolyDP(contour, 0.025 * peri, True).reshape(-1, 2).astype(np.float64)
        if len(approx) == 4:
            quad = _order_clockwise(approx)
            if _quad_ok(quad, min_side):
                quad = _order_clockwise(_refine(contour, quad))
                qarea = cv2.contourArea(quad.astype(np.float32))
                if qarea > 0 and area / qarea > 0.85 and _quad_ok(quad, min_side):
                    quads.append((qarea, quad))
                    continue
        rect = _rect_fallback(contour, dist, min_side)
        if rect is not None:
            quads.append((float(cv2.contourArea(rect.astype(np.float32))), rect))
            continue
        if hull_area > 2 * min_area:
            # An open edge chain (broken outline) is read by its hull.
            shape = contour if area > 0.5 * hull_area else hull
            poly = cv2.approxPolyDP(shape, 0.008 * peri, True).reshape(-1, 2)
            blobs.append(Blob(poly.astype(np.float64) * scale, hull_area * scale * scale))
    # The same outline seen twice (both sides of an edge line): keep the outer one.  Nested
    # outlines that differ more (a card's printed frame, a card lying on a bigger card)
    # are all kept; the identifier chooses among them.
    quads.sort(key=lambda q: -q[0])
    kept = _suppress([q for _, q in quads], 0.85)
    outlines = tuple(Outline(q * scale) for q in kept)
    # A blob worth reading is bigger than one card (a pile, a fan, a hand over cards).
    if quads:
        card_area = float(np.median([a for a, _ in quads])) * scale * scale
        blobs = [b for b in blobs if b.area > 1.1 * card_area]
    blobs = _distinct_blobs(blobs, outlines)
    return Found(outlines=outlines, blobs=tuple(blobs), scale=scale)


def _suppress(polygons: Sequence[Array], limit: float) -> list[Array]:
    """Keep each polygon unless it overlaps an earlier kept one by IoU >= ``limit``."""
    kept: list[Array] = []
    boxes = np.zeros((len(polygons), 4))
    for poly in polygons:
        box = np.concatenate([poly.min(0), poly.max(0)])
        if kept:
            k = boxes[: len(kept)]
            near = np.nonzero(
                (k[:, 0] <= box[2])
                & (box[0] <= k[:, 2])
                & (k[:, 1] <= box[3])
                & (box[1] <= k[:, 3])
            )[0]
            if any(iou(poly, kept[i]) >= limit for i in near):
                continue
        boxes[len(kept)] = box
        kept.append(poly)
    return kept


def _distinct_blobs(blobs: list[Blob], outlines: tuple[Outline, ...]) -> list[Blob]:
    """Drop blobs that are just one outline seen again (the other side of its edge)."""
    out: list[Blob] = []
    hulls: list[Array] = []
    for blob in sorted(blobs, key=lambda b: -b.area):
        hull = cv2.convexHull(blob.polygon.astype(np.float32)).reshape(-1, 2)
        if any(iou(hull, o.corners) > 0.8 for o in outlines):
            continue
        if any(iou(hull, h) > 0.9 for h in hulls):
            continue
        out.append(blob)
        hulls.append(hull)
    return out


def outermost(outlines: Sequence[Outline]) -> list[Outline]:
    """Outlines not lying inside a bigger one (drops printed frames inside a card)."""
    areas = [float(cv2.contourArea(o.corners.astype(np.float32))) for o in outlines]
    out = []
    for i, o in enumerate(outlines):
        c = o.corners.mean(0)
        inside = any(
            areas[j] > areas[i]
            and cv2.pointPolygonTest(
                p.corners.astype(np.float32), (float(c[0]), float(c[1])), False
            )
            > 0
            for j, p in enumerate(outlines)
        )
        if not inside:
            out.append(o)
    return out


@dataclass(frozen=True)
class CornerHypothesis:
    """A card hypothesised from one visible corner: ``corners`` start at that corner and go
    clockwise along the short side first (as an upright card's TL, TR, BR, BL)."""

    corners: Array
    landscape: bool  # the corner's first clockwise edge is a long side


def _convex_corners(poly: Array, min_long: float) -> list[tuple[int, Array, Array, float, float]]:
    """Convex, roughly square corners of a polygon: (index, u, w, |u edge|, |w edge|) with
    unit edge directions ordered clockwise on screen (u x w > 0).  One of the two edges
    may be short (a fan shows only a sliver of the next card's side): its direction is then
    taken square to the long one."""
    n = len(poly)
    orient = 1.0 if cv2.contourArea(poly.astype(np.float32), oriented=True) > 0 else -1.0
    out = []
    for i in range(n):
        v, prev, nxt = poly[i], poly[i - 1], poly[(i + 1) % n]
        e_in, e_out = nxt - v, prev - v
        la, lb = float(np.linalg.norm(e_in)), float(np.linalg.norm(e_out))
        if max(la, lb) < min_long or min(la, lb) < 3.0:
            continue
        cross = float(e_in[0] * e_out[1] - e_in[1] * e_out[0])
        if cross * orient < 0:  # concave corner: two cards crossing
            continue
        u, w = e_in / la, e_out / lb
        if min(la, lb) < 0.2 * min_long / 0.25:
            # Square the short edge to the long one, on its side.
            if la >= lb:
                w = np.array([-u[1], u[0]]) * np.sign(u[0] * w[1] - u[1] * w[0] or 1.0)
            else:
                u = np.array([w[1], -w[0]]) * np.sign(u[0] * w[1] - u[1] * w[0] or 1.0)
        elif abs(float(u @ w)) > math.cos(math.radians(55)):
            continue
        if u[0] * w[1] - u[1] * w[0] < 0:
            u, w, la, lb = w, u, lb, la
        out.append((i, u, w, la, lb))
    return out


def corner_hypotheses(
    blob: Blob, card_mm: tuple[float, float], px_per_mm: float
) -> list[CornerHypothesis]:
    """Card hypotheses from the convex, roughly square corners of ``blob``: the corner as
    the card's top-left, upright (portrait) and turned a quarter (landscape)."""
    poly = blob.polygon
    if len(poly) < 4:
        return []
    short, long_ = card_mm[0] * px_per_mm, card_mm[1] * px_per_mm
    out: list[CornerHypothesis] = []
    for i, u, w, _, _ in _convex_corners(poly, 0.25 * short):
        v = poly[i]
        for landscape in (False, True):
            a, b = (long_, short) if landscape else (short, long_)
            quad = np.array([v, v + a * u, v + a * u + b * w, v + b * w])
            out.append(CornerHypothesis(quad, landscape))
    return out


def _straight_runs(poly: Array, corners: Mapping[int, object]) -> list[tuple[int, int]]:
    """Pairs of square corners joined by a straight stretch of the outline (one polygon
    edge, or a few whose inner vertices are shadow steps lying close to the line)."""
    n = len(poly)
    pairs = []
    for i in corners:
        for step in range(1, 5):
            j = (i + step) % n
            if j == i:
                break
            p, q = poly[i], poly[j]
            d = q - p
            length = float(np.linalg.norm(d))
            if length < 1e-6:
                break
            inner = [poly[(i + k) % n] for k in range(1, step)]
            off = [abs(float((v - p)[0] * d[1] - (v - p)[1] * d[0])) / length for v in inner]
            if any(o > max(4.0, 0.03 * length) for o in off):
                break
            if j in corners:
                pairs.append((i, j))
    return pairs


def side_hypotheses(blob: Blob, aspects: Sequence[float]) -> list[Array]:
    """Whole cards from one whole side seen in a blob: an edge between two square corners
    (the top card of a pile or fan, two cards touching).  The side is taken as the card's
    short side and as its long side; the identifier keeps what matches."""
    poly = blob.polygon
    n = len(poly)
    if n < 4:
        return []
    corners = {i: (u, w) for i, u, w, _, _ in _convex_corners(poly, 10.0)}
    out: list[Array] = []
    for i, j in _straight_runs(poly, corners):
        p, q = poly[i], poly[j]
        side = q - p
        length = float(np.linalg.norm(side))
        if length < 20:
            continue
        # The card lies on the side of the edge where both corners' other edges go.
        normal = np.array([-side[1], side[0]]) / length
        inward = corners[i][0] + corners[i][1] + corners[j][0] + corners[j][1]
        if float(normal @ inward) < 0:
            normal = -normal
        for aspect in aspects:
            for depth in (length * aspect, length / aspect):
                quad = np.array([p, q, q + depth * normal, p + depth * normal])
                out.append(_order_clockwise(quad))
    return out
