"""Camera pip counting: find each die in a picture of a tray or table, read its top face,
tell its colour, and say "cocked" or "unreadable" rather than guess.

How it stays honest:
1. Dice are what differs from the (dark, matte) tray or mat: brighter, or another colour.
   Shadows are darker than the mat and so never count as dice.
2. Each blob is fitted with the silhouette of a die lying flat (the camera model predicts
   it exactly, ``dice_geometry``), then the top face is "snapped": the region of the face's
   own body colour, pips filled, must be one square of the size a flat die shows there.
3. What the picture shows beyond the flat die's silhouette (a leaning die's other face)
   makes the die "cocked".  Touching dice are cut apart along the dark seams of their
   bevelled edges; each top face that snaps is read (flagged ``touching``) and whatever no
   flat die explains is reported unreadable.
4. The top face is rectified to a square.  Marks on it are pips (black on white dice,
   white on coloured ones, alike, crisp) or glare (lighter, tinted, soft) which is set
   aside.  The pips must sit on the 3 x 3 grid in one of the six layouts, and every empty
   grid point must show clean body colour - or glare with no pip showing through it.
Pure: an image in, readings out; no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.observations import DieReading
from tablehub.vision import dice_colours, dice_pips
from tablehub.vision.dice_geometry import DiceCamera, flat_outline, flat_top_face

Image = NDArray[Any]  # BGR, 8 bit
Mask = NDArray[Any]  # 0/1, 8 bit (OpenCV's results are untyped)
Status = Literal["stable", "cocked", "unreadable"]

FACE_SIZE = 64  # rectified top face, pixels
DEFAULT_FOCAL_RATIO = 0.875  # focal length / picture width when no camera is given
FOREGROUND = 25.0  # Lab distance from the mat that makes a pixel part of a die
SEAM_DEPTH = 14.0  # how much darker a bevel seam is than its surroundings (L units)
PIP_CONTRAST = 45.0  # Lab distance of a pip from the face's body colour
PIP_CHROMA = 22.0  # pips are black or white (colours.py): chroma at most this
PIP_ALIKE = 28.0  # Lab distance between a face's pips
LAYOUTS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(0, 0)}),
    2: frozenset({(-1, -1), (1, 1)}),
    3: frozenset({(-1, -1), (0, 0), (1, 1)}),
    4: frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)}),
    5: frozenset({(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)}),
    6: frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)}),
}


@dataclass(frozen=True)
class DieRead:
    value: int | None  # 1-6, None unless stable
    colour: str
    status: Status
    centre: tuple[float, float]  # pixels
    touching: bool = False
    why: str = ""  # for unreadable / cocked: the reason (debugging, never shown to players)

    def to_reading(self) -> DieReading:
        return DieReading(value=self.value, colour=self.colour, status=self.status)

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "colour": self.colour,
            "status": self.status,
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
            "touching": self.touching,
        }


@dataclass
class _Face:
    centre: tuple[float, float]
    yaw: float
    outline: NDArray[np.float64]
    quad: NDArray[np.float64]


def count_dice(image: Image, camera: DiceCamera | None = None) -> list[DieRead]:
    """Every die in ``image`` (BGR), in reading order (top to bottom, left to right)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("expected a colour (BGR) image")
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = _foreground(lab)
    if camera is None:
        camera = _guess_camera(image, mask)
    side = camera.top_side_px
    top_area = side * side
    faces_mask = _faces(lab, mask, side)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    reads: list[DieRead] = []
    for comp in range(1, n):
        area = stats[comp, cv2.CC_STAT_AREA]
        if area < 0.35 * top_area:
            continue
        x, y, w, h = (int(v) for v in stats[comp, :4])
        pad = int(side)
        x0, y0 = max(x - pad, 0), max(y - pad, 0)
        x1, y1 = min(x + w + pad, image.shape[1]), min(y + h + pad, image.shape[0])
        region = (labels[y0:y1, x0:x1] == comp).astype(np.uint8)
        reads += _read_component(
            image, lab, hsv, region, faces_mask[y0:y1, x0:x1] & region, (x0, y0), camera
        )
    reads.sort(key=lambda r: (round(r.centre[1] / max(side, 1)), r.centre[0]))
    return reads


# --- segmentation -------------------------------------------------------------------------


def _foreground(lab: NDArray[np.float32]) -> Mask:
    small = lab[::4, ::4].reshape(-1, 3)
    bg = np.median(small, axis=0)
    d_l = np.maximum(lab[..., 0] - bg[0], 0)
    d_a = lab[..., 1] - bg[1]
    d_b = lab[..., 2] - bg[2]
    dist = np.sqrt(d_l**2 + 1.5 * (d_a**2 + d_b**2))
    mask = (dist > FOREGROUND).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return _fill_holes(mask)


def _fill_holes(mask: Mask) -> Mask:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=-1)
    return filled


def _guess_camera(image: Image, mask: Mask) -> DiceCamera:
    """No calibration: assume a usual lens and take the die size from the blobs."""
    h, w = image.shape[:2]
    focal = DEFAULT_FOCAL_RATIO * w
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    sizes = sorted(math.sqrt(float(stats[i, cv2.CC_STAT_AREA])) for i in range(1, n))
    sizes = [s for s in sizes if s >= 20]  # specks are not dice
    # a lone die's blob is its top face plus a little side: the smaller half are lone dice
    side = float(np.percentile(sizes, 25)) * 0.92 if sizes else 40.0
    die = 16.0
    return DiceCamera(w, h, focal, die + focal * die / side, die)


def _faces(lab: NDArray[np.float32], mask: Mask, side: float) -> Mask:
    """The dice's faces: the foreground cut along the dark seams of the bevelled edges."""
    light = np.clip(lab[..., 0], 0, 255).astype(np.uint8)
    k = max(3, round(side * 0.12) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    seams = cv2.morphologyEx(light, cv2.MORPH_BLACKHAT, kernel)
    grad = cv2.morphologyEx(light, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    body = (seams < SEAM_DEPTH) & (grad < 40) & (mask > 0)
    faces: Mask = cv2.morphologyEx(body.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return faces


# --- one blob of dice ---------------------------------------------------------------------

FLAT_EXCESS = 0.03  # blob beyond the flat-die silhouette of its top face: a leaning die
MORE_THAN_ONE = 0.4  # so much beyond it: another die is there too
SINGLE_MAX = 1.45  # blob area / one flat die's silhouette area above which dice touch


class _Fitter:
    """Fits flat-die silhouettes (place and turn of the top face) to a blob."""

    def __init__(self, region: Mask, origin: tuple[int, int], camera: DiceCamera):
        self.region = region
        self.origin = np.array(origin, dtype=np.float64)
        self.camera = camera
        self.canvas = np.zeros_like(region)

    def silhouette(self, centre: tuple[float, float], yaw: float) -> Mask:
        outline = flat_outline(self.camera, centre, yaw) - self.origin
        hull = cv2.convexHull(np.round(outline * 4).astype(np.int32))
        self.canvas[:] = 0
        cv2.fillConvexPoly(self.canvas, hull, 1, lineType=cv2.LINE_8, shift=2)
        return self.canvas

    def iou(self, centre: tuple[float, float], yaw: float) -> float:
        sil = self.silhouette(centre, yaw)
        inter = int(np.count_nonzero(sil & self.region))
        union = int(np.count_nonzero(sil | self.region))
        return inter / union if union else 0.0

    def mismatch(self, centre: tuple[float, float], yaw: float) -> tuple[float, float]:
        """(blob beyond the silhouette, silhouette beyond the blob), each / silhouette area."""
        sil = self.silhouette(centre, yaw)
        total = max(1, int(np.count_nonzero(sil)))
        deficit = int(np.count_nonzero(sil & (1 - self.region))) / total
        grown = cv2.dilate(sil, np.ones((5, 5), np.uint8))
        excess = int(np.count_nonzero(self.region & (1 - grown))) / total
        return excess, deficit

    def fit(
        self, start: tuple[float, float], yaws: list[float]
    ) -> tuple[tuple[float, float], float, float]:
        """The flat die (top-face centre, turn) whose silhouette best overlaps the blob."""
        score = self.iou
        best = (start, 0.0, -9.0)
        for yaw in yaws:
            value = score(start, yaw)
            if value > best[2]:
                best = (start, yaw, value)
        (cx, cy), yaw, value = best
        for step, turn in (
            (2.0, math.radians(3)),
            (1.0, math.radians(1)),
            (0.5, math.radians(0.5)),
        ):
            improved = True
            while improved:
                improved = False
                for dx, dy, dt in (
                    (step, 0, 0),
                    (-step, 0, 0),
                    (0, step, 0),
                    (0, -step, 0),
                    (0, 0, turn),
                    (0, 0, -turn),
                ):
                    cand = score((cx + dx, cy + dy), yaw + dt)
                    if cand > value + 1e-6:
                        cx, cy, yaw, value = cx + dx, cy + dy, yaw + dt, cand
                        improved = True
        return (cx, cy), yaw, value


YAWS = [math.radians(a) for a in range(0, 90, 6)]


def _start_for(camera: DiceCamera, blob_centre: tuple[float, float]) -> tuple[float, float]:
    """Where the top face is if the blob's centre is the silhouette's centre."""
    outline = flat_outline(camera, blob_centre, 0.0)
    shift = outline.mean(axis=0) - np.array(blob_centre)
    return (blob_centre[0] - float(shift[0]), blob_centre[1] - float(shift[1]))


def _read_component(
    image: Image,
    lab: NDArray[np.float32],
    hsv: Mask,
    region: Mask,
    faces: Mask,
    origin: tuple[int, int],
    camera: DiceCamera,
) -> list[DieRead]:
    ox, oy = origin
    ys, xs = np.nonzero(region)
    blob_centre = (float(xs.mean()) + ox, float(ys.mean()) + oy)
    fitter = _Fitter(region, origin, camera)
    one = int(np.count_nonzero(fitter.silhouette(_start_for(camera, blob_centre), 0.0)))
    area = len(xs)
    if area <= SINGLE_MAX * one:
        fit_centre, fit_yaw, _ = fitter.fit(_start_for(camera, blob_centre), YAWS)
        side = camera.top_side_px
        starts = [(fit_centre, fit_yaw), (blob_centre, fit_yaw)] + [
            ((fit_centre[0] + dx * side, fit_centre[1] + dy * side), fit_yaw)
            for dx, dy in ((0.3, 0), (-0.3, 0), (0, 0.3), (0, -0.3))
        ]
        for start, start_yaw in starts:  # a poor silhouette (dark sides, shadow): try around
            centre, yaw, square = _snap(lab, camera, start, start_yaw)
            if square:
                break
        colour = _colour_of(hsv, lab, region, origin)
        if not square:
            return [DieRead(None, colour, "cocked", blob_centre, False, "no square top face")]
        excess, _deficit = fitter.mismatch(centre, yaw)
        if excess > MORE_THAN_ONE:  # far more than one die's worth: dice in contact
            return _read_touching(image, lab, hsv, region, faces, origin, camera, one)
        if excess > FLAT_EXCESS:
            why = f"{excess:.2f} beyond a flat die"
            return [DieRead(None, colour, "cocked", blob_centre, False, why)]
        face = _face(camera, centre, yaw)
        return [_read_face(image, face, False)]
    return _read_touching(image, lab, hsv, region, faces, origin, camera, one)


RING_MATCH = 22.0  # Lab distance: the same surface


SNAP_PATCH = 96  # pixels for 1.5 sides
_ELLIPSE7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
SNAP_LOG: list[tuple[float, float, float, float]] | None = None


def _snap(
    lab: NDArray[np.float32], camera: DiceCamera, centre: tuple[float, float], yaw: float
) -> tuple[tuple[float, float], float, bool]:
    """Lock a roughly placed top face onto the picture: the region of its body colour,
    holes (pips) filled, gives the face's exact centre and turn.  False if it does not
    look like one square face of the expected size."""
    side = camera.top_side_px
    span = 1.5 * side
    scale = SNAP_PATCH / span
    ok = False
    previous = False
    good: tuple[tuple[float, float], float] | None = None
    for _ in range(4):  # re-centre on what was found: a poor start still converges
        c, s_ = math.cos(yaw), math.sin(yaw)
        # patch (x, y) -> image: centre + R(yaw) @ ((x, y) - mid) / scale
        mid = SNAP_PATCH / 2
        to_image = np.array(
            [
                [c / scale, -s_ / scale, centre[0] - (c * mid - s_ * mid) / scale],
                [s_ / scale, c / scale, centre[1] - (s_ * mid + c * mid) / scale],
            ]
        )
        patch = cv2.warpAffine(
            lab,
            to_image,
            (SNAP_PATCH, SNAP_PATCH),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        q = int(SNAP_PATCH * 0.4 / 1.5)  # 0.4 side around the middle: pips are a minority
        core = patch[int(mid) - q : int(mid) + q, int(mid) - q : int(mid) + q].reshape(-1, 3)
        body = np.median(core, axis=0)
        spread = np.sqrt(((core - body) ** 2).sum(axis=1))
        limit = float(np.clip(2.5 * np.median(spread), 12.0, 25.0))  # noise sets the bar
        distance = np.sqrt(((patch - body) ** 2).sum(axis=2))
        # the direction of the picture's centre, turned into the patch
        ccx, ccy = camera.centre
        inward = (
            c * (ccx - centre[0]) + s_ * (ccy - centre[1]),
            -s_ * (ccx - centre[0]) + c * (ccy - centre[1]),
        )
        found = None
        for tighten in (1.0, 0.7, 0.5):  # a dim side face close in shade: tighten the bar
            found = _square_region(distance < max(limit * tighten, 8.0), side * scale, q, inward)
            if found is None or found[1]:
                break
        if found is None:
            return centre, yaw, False
        (px, py, angle), ok = found
        ix = to_image[0, 0] * px + to_image[0, 1] * py + to_image[0, 2]
        iy = to_image[1, 0] * px + to_image[1, 1] * py + to_image[1, 2]
        turn = math.radians(((angle + 45) % 90) - 45)
        centre, yaw = (float(ix), float(iy)), yaw + turn
        if ok:
            good = (centre, yaw)
            if previous:
                break
        previous = ok
    if good is not None:
        return good[0], good[1], True
    return centre, yaw, False


def _square_region(
    same_colour: NDArray[np.bool_], size: float, q: int, inward: tuple[float, float]
) -> tuple[tuple[float, float, float], bool] | None:
    """The face region around the patch middle: ((x, y, angle), looks like a top face)."""
    same: Mask = same_colour.astype(np.uint8)
    # rejoin strips a big pip near the rim cut off; the bevels between faces stay open
    same = cv2.morphologyEx(same, cv2.MORPH_CLOSE, _ELLIPSE7)
    same = cv2.morphologyEx(same, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(same, connectivity=4)
    mid = SNAP_PATCH // 2
    middle = labels[mid - q : mid + q, mid - q : mid + q]
    counts = np.bincount(middle.ravel(), minlength=n)
    counts[0] = 0
    label = int(np.argmax(counts))  # the middle may be a pip: take the main surface
    if label == 0:
        return None
    # pieces a row of big pips cut off the same face lie wholly within the face's square
    keep = [label]
    half = 0.5 * size
    for other in range(1, n):
        if other == label:
            continue
        x, y, w, h, area = stats[other]
        if area >= 0.04 * size * size and (
            mid - half <= x and x + w <= mid + half and mid - half <= y and y + h <= mid + half
        ):
            keep.append(other)
    blob = np.isin(labels, keep).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))  # pips at the rim: notches
    (px, py), (w, h), angle = cv2.minAreaRect(hull)
    short, long_ = min(w, h), max(w, h)
    if 0.8 * size <= short <= 1.08 * size and 1.08 * size < long_ <= 1.4 * size:
        # a side face of nearly the same shade ran on: a flat die shows its sides towards
        # the picture's centre, so keep the square at the far end of the long axis
        a = math.radians(angle if w >= h else angle + 90)
        axis = (math.cos(a), math.sin(a))
        if axis[0] * inward[0] + axis[1] * inward[1] > 0:
            axis = (-axis[0], -axis[1])
        shift = (long_ - short) / 2
        px, py = px + axis[0] * shift, py + axis[1] * shift
        square = cv2.boxPoints(((px, py), (short, short), angle)).astype(np.int32)
        canvas = np.zeros_like(blob)
        cv2.fillConvexPoly(canvas, square, 1)
        cover = float(np.count_nonzero(canvas & _fill_holes(blob))) / max(short * short, 1.0)
        return (float(px), float(py), float(angle)), cover >= 0.85
    ok = (
        0.7 * size <= short
        and long_ <= 1.08 * size
        and short / long_ >= 0.85
        and cv2.contourArea(hull) / max(w * h, 1.0) >= 0.78  # rounded corners
    )
    return (float(px), float(py), float(angle)), ok


def _face(camera: DiceCamera, centre: tuple[float, float], yaw: float) -> _Face:
    return _Face(centre, yaw, flat_outline(camera, centre, yaw), flat_top_face(camera, centre, yaw))


def _read_touching(
    image: Image,
    lab: NDArray[np.float32],
    hsv: Mask,
    region: Mask,
    faces: Mask,
    origin: tuple[int, int],
    camera: DiceCamera,
    one: int,
) -> list[DieRead]:
    """Dice in contact: every face cut out along the seams is tried as a top face; those
    that lock on as a square of the right size are read, and what no flat die explains
    is reported unreadable (never guessed)."""
    side = camera.top_side_px
    ox, oy = origin
    n, labels, stats, cents = cv2.connectedComponentsWithStats(faces, connectivity=4)
    fitter = _Fitter(region, origin, camera)
    fitted: list[_Face] = []
    order = sorted(range(1, n), key=lambda i: -int(stats[i, cv2.CC_STAT_AREA]))
    for i in order:
        if stats[i, cv2.CC_STAT_AREA] < 0.3 * side * side:
            continue
        blob = (labels == i).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_, _), (_, _), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        start = (float(cents[i][0]) + ox, float(cents[i][1]) + oy)
        centre, yaw, square = _snap(lab, camera, start, math.radians(angle))
        if not square or any(math.dist(centre, f.centre) < 0.6 * side for f in fitted):
            continue
        fitted.append(_face(camera, centre, yaw))
    grow = max(2, round(side * 0.08))
    for _ in range(3):  # a die whose top face no seam cut out: look inside what is left
        parts = _leftovers(region, fitted, fitter, grow, side)
        added = False
        for area, _part, centre in parts:
            if area < 0.6 * one:
                continue
            found, yaw, square = _snap(lab, camera, centre, 0.0)
            if square and not any(math.dist(found, f.centre) < 0.6 * side for f in fitted):
                fitted.append(_face(camera, found, yaw))
                added = True
        if not added:
            break
    reads: list[DieRead] = []
    leaning: set[int] = set()
    for area, part, centre in _leftovers(region, fitted, fitter, grow, side):
        near = cv2.dilate(part, np.ones((2 * grow + 3, 2 * grow + 3), np.uint8))
        owners = [
            k
            for k, f in enumerate(fitted)
            if np.count_nonzero(near & fitter.silhouette(f.centre, f.yaw).copy())
        ]
        if owners and area < 0.6 * one:
            leaning.update(owners)  # whatever sticks out of a flat die: it may lean
            continue
        colour = _colour_of(hsv, lab, part, origin)
        for _ in range(max(1, round(area / one))):
            reads.append(DieRead(None, colour, "unreadable", centre, True, "touching"))
    for k, face in enumerate(fitted):
        if k in leaning:
            colour = _square_colour(_rectify(image, face))
            reads.append(DieRead(None, colour, "cocked", face.centre, True, "beyond a flat die"))
        else:
            reads.append(_read_face(image, face, True))
    return reads


def _leftovers(
    region: Mask, fitted: list[_Face], fitter: _Fitter, grow: int, side: float
) -> list[tuple[int, Mask, tuple[float, float]]]:
    """The parts of a blob no fitted flat die explains: (area, mask, centre in the picture)."""
    explained = np.zeros_like(region)
    for face in fitted:
        explained |= fitter.silhouette(face.centre, face.yaw)
    explained = cv2.dilate(explained, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    rest = (region & (1 - explained)).astype(np.uint8)
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m, labels, stats, cents = cv2.connectedComponentsWithStats(rest)
    ox, oy = fitter.origin
    out = []
    for j in range(1, m):
        area = int(stats[j, cv2.CC_STAT_AREA])
        if area >= 0.25 * side * side:
            centre = (float(cents[j][0]) + ox, float(cents[j][1]) + oy)
            out.append((area, (labels == j).astype(np.uint8), centre))
    return out


# --- reading one top face -----------------------------------------------------------------


def _rectify(image: Image, face: _Face) -> Image:
    dst = np.array(
        [[0, 0], [FACE_SIZE - 1, 0], [FACE_SIZE - 1, FACE_SIZE - 1], [0, FACE_SIZE - 1]],
        dtype=np.float32,
    )
    matrix = cv2.getPerspectiveTransform(face.quad.astype(np.float32), dst)
    out: Image = cv2.warpPerspective(image, matrix, (FACE_SIZE, FACE_SIZE), flags=cv2.INTER_LINEAR)
    return out


def _face_colour(image: Image, hsv: Mask, face: _Face) -> str:
    square = _rectify(image, face)
    return _square_colour(square)


def _square_colour(square: Image) -> str:
    s = FACE_SIZE
    inner = square[s // 8 : -s // 8, s // 8 : -s // 8]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    sat_median = float(np.median(hsv[:, 1]))
    if sat_median < dice_colours.BY_NAME["white"].min_saturation:
        return dice_colours.classify(0, sat_median, float(np.median(hsv[:, 2])))
    coloured = hsv[hsv[:, 1] >= sat_median * 0.7]
    hue = coloured[:, 0] * (math.pi / 90)  # circular mean (red wraps round)
    mean = math.atan2(float(np.sin(hue).mean()), float(np.cos(hue).mean()))
    h = (math.degrees(mean) / 2) % 180
    return dice_colours.classify(h, sat_median, float(np.median(hsv[:, 2])))


def _colour_of(
    hsv: Mask,
    lab: NDArray[np.float32],
    blob: Mask,
    origin: tuple[int, int],
) -> str:
    ox, oy = origin
    h, w = blob.shape
    pixels = hsv[oy : oy + h, ox : ox + w][blob > 0].astype(np.float32)
    if len(pixels) == 0:
        return dice_colours.UNKNOWN
    bright = pixels[pixels[:, 2] >= np.percentile(pixels[:, 2], 60)]
    sat = float(np.median(bright[:, 1]))
    hue = bright[:, 0] * (math.pi / 90)
    mean = math.atan2(float(np.sin(hue).mean()), float(np.cos(hue).mean()))
    return dice_colours.classify(
        (math.degrees(mean) / 2) % 180, sat, float(np.median(bright[:, 2]))
    )


def _read_face(image: Image, face: _Face, touching: bool) -> DieRead:
    square = _rectify(image, face)
    colour = _square_colour(square)

    def unreadable(why: str) -> DieRead:
        return DieRead(None, colour, "unreadable", face.centre, touching, why)

    value, why = read_square(square)
    if value is None:
        return unreadable(why)
    return DieRead(value, colour, "stable", face.centre, touching)


def read_square(square: Image) -> tuple[int | None, str]:
    """The value on a rectified top face (FACE_SIZE square, give or take a few per cent of
    place and turn), or (None, reason).  The pips themselves give the grid's turn.

    Marks on the face are pips or glare: pips are black on a white die and white on a
    coloured one, all alike, crisp-edged; glare is lighter than the body, takes its tint
    and fades out.  Glare is set aside - unless it sits where a pip could be hidden."""
    s = FACE_SIZE
    lab = cv2.cvtColor(square, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    u = xx / (s - 1) - 0.5  # face coordinates in sides, centre 0
    v = yy / (s - 1) - 0.5
    inner = (np.abs(u) < 0.44) & (np.abs(v) < 0.44)
    core = (np.abs(u) < 0.36) & (np.abs(v) < 0.36)
    body = np.median(lab[core], axis=0)
    diff = np.sqrt(((lab - body) ** 2).sum(axis=2))
    body_chroma = math.hypot(float(body[1]) - 128, float(body[2]) - 128)
    dark_pips = body_chroma < PIP_CHROMA  # a white die (however dimly lit)
    mark_mask = ((diff > PIP_CONTRAST) & inner).astype(np.uint8)
    mark_mask = cv2.morphologyEx(mark_mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mark_mask, connectivity=8)
    pips: list[tuple[float, float]] = []
    areas: list[float] = []
    pip_mask = np.zeros((s, s), dtype=bool)
    glare: list[tuple[float, float, float]] = []  # centre and radius, face units
    hearts: list[NDArray[np.float32]] = []  # each pip's colour
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area < 0.004 * s * s:
            continue  # speck of noise
        blob = labels == i
        strong = diff[blob]
        heart = strong >= np.percentile(strong, 60)  # blur mixes a pip's rim with the body
        colour = np.median(lab[blob][heart], axis=0)
        cx, cy = (float(cents[i][0]) / (s - 1) - 0.5, float(cents[i][1]) / (s - 1) - 0.5)
        lighter = float(colour[0]) > float(body[0])
        chroma = math.hypot(float(colour[1]) - 128, float(colour[2]) - 128)
        crisp = float((strong > 0.75 * np.percentile(strong, 90)).mean())
        if lighter and (dark_pips or chroma > PIP_CHROMA or crisp < 0.35):
            glare.append((cx, cy, math.sqrt(area / math.pi) / (s - 1)))
            continue
        if not lighter and not dark_pips:
            return None, "a dark smudge on the face"
        if area > 0.16 * s * s:
            return None, "a blot bigger than a pip"
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if min(w, h) / max(w, h) < 0.55 or area / (w * h) < 0.5:
            return None, "a mark that is not round"
        pips.append((cx, cy))
        areas.append(area)
        hearts.append(colour)
        pip_mask |= blob
    if not pips:
        return None, "no pips"
    if len(pips) > 6:
        return None, "more than six marks"
    if len(pips) > 1 and max(areas) > 2.6 * min(areas):
        return None, "pips of different sizes"
    # uniform body: a face straddling two faces of a leaning die is not a top face
    plain = inner & ~pip_mask & (mark_mask == 0)
    plain = cv2.erode(plain.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    if plain.any() and float((diff[plain] > RING_MATCH).mean()) > 0.2:
        return None, "not one uniform face"
    value = dice_pips.face_value(pips, (0.0, 0.0), 1.0)
    if value is None:
        return None, "no die face has these pips"
    grid = _grid(pips, value)
    if grid is None:
        return None, "pips off the grid"
    pip_colour = np.median(lab[pip_mask & (diff >= np.percentile(diff[pip_mask], 60))], axis=0)
    if not dark_pips and any(
        float(np.sqrt(((c - pip_colour) ** 2).sum())) > PIP_ALIKE for c in hearts
    ):
        return None, "pips of different colours"  # a white glint among white pips
    # every empty grid point must look like body, not like a pip, and be free of glare:
    # either could hide a pip there
    to_pip = np.sqrt(((lab - pip_colour) ** 2).sum(axis=2))
    pip_like = to_pip < diff
    radius = min(0.08, math.sqrt(float(np.median(areas)) / math.pi) / (s - 1))
    chroma_map = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    for px, py in grid:
        d2 = (u - px) ** 2 + (v - py) ** 2
        disk = d2 <= radius**2
        if not disk.any():
            continue
        if not any(math.hypot(gx - px, gy - py) < gr + radius for gx, gy, gr in glare):
            if float(pip_like[disk].mean()) > 0.15:
                return None, "something on an empty pip position"
            continue
        # glare here: a pip under it would still show against the glare around it,
        # darker (black pips) or less tinted (white pips) - unless the glare burns out
        ring = (d2 > (1.4 * radius) ** 2) & (d2 <= (2.3 * radius) ** 2)
        if float((lab[..., 0][disk] > 250).mean()) > 0.5:
            return None, "glare burns out a pip position"
        if dark_pips:
            if float(np.median(lab[..., 0][disk])) < float(np.median(lab[..., 0][ring])) - 25:
                return None, "a pip under glare"
        elif float(np.median(chroma_map[disk])) < float(np.median(chroma_map[ring])) - 10:
            return None, "a pip under glare"
    return value, ""


def _grid(pips: list[tuple[float, float]], value: int) -> list[tuple[float, float]] | None:
    """The empty grid points of this face, the grid turned and scaled to fit the pips."""
    cx = sum(p[0] for p in pips) / len(pips)
    cy = sum(p[1] for p in pips) / len(pips)
    if value == 1:
        # no turn from one pip; the rectified face is square to the axes: the usual grid
        r = 0.28
        return [(gx * r, gy * r) for gx in (-1, 0, 1) for gy in (-1, 0, 1) if gx or gy]
    far = max(
        ((a, b) for a in pips for b in pips if a < b),
        key=lambda ab: (ab[0][0] - ab[1][0]) ** 2 + (ab[0][1] - ab[1][1]) ** 2,
    )
    (x0, y0), (x1, y1) = far
    angle = math.atan2(y1 - y0, x1 - x0) - math.pi / 4
    r = math.hypot(x1 - x0, y1 - y0) / (2 * math.sqrt(2))
    if value == 6:
        r = math.hypot(x1 - x0, y1 - y0) / (2 * math.sqrt(2))
    c, s_ = math.cos(angle), math.sin(angle)
    cells: set[tuple[int, int]] = set()
    for x, y in pips:
        dx, dy = x - cx, y - cy
        gx = (c * dx + s_ * dy) / r
        gy = (-s_ * dx + c * dy) / r
        ix, iy = round(gx), round(gy)
        if abs(ix) > 1 or abs(iy) > 1 or math.hypot(gx - ix, gy - iy) > 0.3:
            return None
        cells.add((ix, iy))
    if _layout_value(frozenset(cells)) != value:
        return None
    empty = []
    for ix in (-1, 0, 1):
        for iy in (-1, 0, 1):
            if (ix, iy) in cells:
                continue
            empty.append((cx + r * (c * ix - s_ * iy), cy + r * (s_ * ix + c * iy)))
    return empty


def _layout_value(cells: frozenset[tuple[int, int]]) -> int | None:
    transposed = frozenset((y, x) for x, y in cells)
    mirrored = frozenset((-x, y) for x, y in cells)
    for value, layout in LAYOUTS.items():
        if cells == layout or transposed == layout or mirrored == layout:
            return value
    return None
