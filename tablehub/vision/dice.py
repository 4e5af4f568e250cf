"""Camera pip counting: find each die in a picture of a tray or table, read its top face,
tell its colour, and say "cocked" or "unreadable" rather than guess.

How it stays honest:
1. Dice are what differs from the (dark, matte) tray or mat: brighter, or another colour.
   Shadows are darker than the mat and so never count as dice.
2. Under the overhead camera a flat die's top face is an exact square of a known size
   anywhere in the picture (``dice_geometry``).  Top faces are fitted as such squares
   (``dice_faces``: the bevelled rim darkens along the outline; the pip grid centres it).
3. A fitted face is a flat die only if the rest of the picture agrees (``dice_flat``): the
   upright faces a flat die there would show are there, and nothing of the die shows
   beyond them.  A die that leans - even one whose top face points straight at the
   camera and so looks square - fails one or the other and is reported cocked.
4. Whatever no flat die explains is reported as dice that cannot be read (touching,
   cocked, or covered), never guessed.
5. Each flat die's top face is rectified and read position by position (``dice_read``);
   a face that does not show one layout clearly is reported unreadable.
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
from tablehub.vision import dice_colours, dice_read
from tablehub.vision.dice_faces import TopFace, face_quad, fit_top_face
from tablehub.vision.dice_flat import FlatCheck, check_flat, silhouette
from tablehub.vision.dice_geometry import DiceCamera

Image = NDArray[Any]  # BGR, 8 bit
Mask = NDArray[Any]  # 0/1, 8 bit (OpenCV's results are untyped)
Status = Literal["stable", "cocked", "unreadable"]

FACE_SIZE = dice_read.FACE_SIZE
read_square = dice_read.read_square
DEFAULT_FOCAL_RATIO = 0.875  # focal length / picture width when no camera is given
FOREGROUND = 25.0  # Lab distance from the mat that makes a pixel part of a die
SEED_DEPTH = 0.3  # a seed lies at least this deep (sides) inside a die's blob
SEED_SKIP = 0.25  # a seed this close (sides) to a face found is not fitted again
RESEARCH = 2  # times what no face explains is searched again
RESEED_DEPTH = 0.35  # ...where it is this deep (sides): most of a die's top face
MIN_DIE = 0.5  # a leftover blob of at least this many dice' areas is a die of its own


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
class _Die:
    face: TopFace
    outline: Mask  # the flat die's silhouette in the picture
    check: FlatCheck | None = None


def count_dice(image: Image, camera: DiceCamera | None = None) -> list[DieRead]:
    """Every die in ``image`` (BGR), in reading order (top to bottom, left to right)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("expected a colour (BGR) image")
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    mask = _foreground(lab)
    if camera is None:
        camera = _guess_camera(image, mask)
    side = camera.top_side_px
    img = image.astype(np.float32)
    dice = _find_flat_faces(img, mask, camera)
    reads: list[DieRead] = []
    explained = np.zeros_like(mask)
    for die in dice:
        explained |= die.outline
    for die in dice:
        others = np.zeros_like(mask)
        for other in dice:
            if other is not die:
                others |= other.outline
        die.check = check_flat(
            img, mask, camera, die.face.centre, die.face.yaw, die.face.body, others
        )
    touching = _touching(dice, side)
    for k, die in enumerate(dice):
        assert die.check is not None
        if not die.check.flat:
            colour = dice_read.colour_name(np.array(die.face.body))
            centre, why = die.check.centre, die.check.why
            reads.append(DieRead(None, colour, "cocked", centre, touching[k], why))
            continue
        square = dice_read.rectify(image, face_quad(camera, die.face.centre, die.face.yaw))
        result = dice_read.read_face(square)
        if result.value is None:
            reads.append(
                DieRead(None, result.colour, "unreadable", die.face.centre, touching[k], result.why)
            )
        else:
            reads.append(
                DieRead(result.value, result.colour, "stable", die.face.centre, touching[k])
            )
    reads += _leftovers(image, lab, mask, explained, dice, camera)
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


# --- top faces ----------------------------------------------------------------------------


def _seeds(
    mask: Mask, camera: DiceCamera, min_depth: float = SEED_DEPTH
) -> list[tuple[float, float]]:
    """Places worth fitting a top face at: deep inside the dice' blobs, and (a top face
    lies farther from the picture's middle than the die's sides) a little outwards."""
    side = camera.top_side_px
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    grow = max(3, round(0.4 * side) | 1)
    peaks = (depth >= min_depth * side) & (depth >= cv2.dilate(depth, np.ones((grow, grow))))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-depth[ys, xs])
    seeds: list[tuple[float, float]] = []
    for k in order:
        point = (float(xs[k]), float(ys[k]))
        if all(math.dist(point, s) >= 0.35 * side for s in seeds):
            seeds.append(point)
    cx, cy = camera.centre
    extra = []
    for x, y in seeds:
        dx, dy = x - cx, y - cy
        norm = math.hypot(dx, dy)
        if norm > side:
            extra.append((x + 0.3 * side * dx / norm, y + 0.3 * side * dy / norm))
    return seeds + extra


def _find_flat_faces(img: NDArray[np.float32], mask: Mask, camera: DiceCamera) -> list[_Die]:
    """Top faces that fit, best first, none overlapping another die (two dice cannot share
    the same place on the table).  Dice in contact make one blob whose deepest points lie
    between them: what the faces found do not explain is searched again, on its own."""
    side = camera.top_side_px
    candidates: list[TopFace] = []
    seeds = _seeds(mask, camera)
    chosen: list[_Die] = []
    for _ in range(1 + RESEARCH):
        found = len(candidates)
        for seed in seeds:
            if any(math.dist(seed, f.centre) < SEED_SKIP * side for f in candidates):
                continue  # this seed lies on a face already found
            face = fit_top_face(img, side, seed)
            if face is not None:
                candidates.append(face)
        if chosen and len(candidates) == found:
            break
        chosen = _choose(candidates, mask, camera)
        explained = np.zeros_like(mask)
        for die in chosen:
            explained |= die.outline
        grow = max(3, round(0.08 * side) | 1)
        rest = mask & (1 - cv2.dilate(explained, np.ones((grow, grow), np.uint8)))
        rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        seeds = _seeds(rest, camera, RESEED_DEPTH)
        if not seeds:
            break
    return chosen


def _choose(candidates: list[TopFace], mask: Mask, camera: DiceCamera) -> list[_Die]:
    side = camera.top_side_px
    chosen: list[_Die] = []
    for face in sorted(candidates, key=lambda f: -(f.score + 0.25 * f.fill)):
        if any(math.dist(face.centre, d.face.centre) < 0.95 * side for d in chosen):
            continue
        outline = silhouette(camera, face.centre, face.yaw, mask.shape)
        top = silhouette(camera, face.centre, face.yaw, mask.shape, top_only=True)
        x, y, half = round(face.centre[0]), round(face.centre[1]), round(side) + 2
        window = (slice(max(y - half, 0), y + half), slice(max(x - half, 0), x + half))
        covered = sum(int(np.count_nonzero(top[window] & d.outline[window])) for d in chosen)
        if covered > 0.4 * max(int(np.count_nonzero(top[window])), 1):
            continue  # part of a die already found (its side face)
        chosen.append(_Die(face, outline))
    return chosen


def _touching(dice: list[_Die], side: float) -> list[bool]:
    grown = [cv2.dilate(d.outline, np.ones((5, 5), np.uint8)) for d in dice]
    return [
        any(j != k and np.count_nonzero(grown[k] & dice[j].outline) for j in range(len(dice)))
        for k in range(len(dice))
    ]


# --- what no flat die explains ------------------------------------------------------------


def _leftovers(
    image: Image,
    lab: NDArray[np.float32],
    mask: Mask,
    explained: Mask,
    dice: list[_Die],
    camera: DiceCamera,
) -> list[DieRead]:
    """Blobs no flat die explains, as dice that cannot be read: alone and the size of one
    die, a die that leans (no square top face); otherwise unreadable dice in contact."""
    side = camera.top_side_px
    grow = max(3, round(0.08 * side) | 1)
    covered: Mask = cv2.dilate(explained, np.ones((grow, grow), np.uint8))
    for die in dice:
        if die.check is not None and not die.check.flat:
            covered |= die.check.region
    rest = (mask & (1 - covered)).astype(np.uint8)
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    one = float(np.count_nonzero(silhouette(camera, camera.centre, 0.0, mask.shape)))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(rest)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    reads = []
    for j in range(1, n):
        area = float(stats[j, cv2.CC_STAT_AREA])
        if area < MIN_DIE * one:
            continue
        part = labels == j
        centre = (float(cents[j][0]), float(cents[j][1]))
        colour = _colour_of(hsv, part)
        alone = not np.count_nonzero(cv2.dilate(part.astype(np.uint8), np.ones((5, 5))) & covered)
        count = max(1, round(area / one))
        if alone and count == 1:
            reads.append(DieRead(None, colour, "cocked", centre, False, "no square top face"))
            continue
        for _ in range(count):
            reads.append(DieRead(None, colour, "unreadable", centre, True, "touching"))
    return reads


def _colour_of(hsv: Mask, part: NDArray[Any]) -> str:
    pixels = hsv[part].astype(np.float32)
    if len(pixels) == 0:
        return dice_colours.UNKNOWN
    bright = pixels[pixels[:, 2] >= np.percentile(pixels[:, 2], 60)]
    sat = float(np.median(bright[:, 1]))
    hue = bright[:, 0] * (math.pi / 90)
    mean = math.atan2(float(np.sin(hue).mean()), float(np.cos(hue).mean()))
    return dice_colours.classify(
        (math.degrees(mean) / 2) % 180, sat, float(np.median(bright[:, 2]))
    )
