"""Is the die whose top face was found lying flat?

The camera model predicts everything a flat die with that top face shows: its upright
faces turned towards the middle of the picture (wider the farther out it lies), and
nothing beyond them.  A leaning die breaks the prediction somewhere:
* it shows more: a face leaning up beside the top face ("excess"), or
* it shows less: the upright faces a flat die there would show are missing, because the
  die leans towards the camera - the case where its top face looks square ("deficit").
Pixels other flat dice explain are left out of both counts, and so are blobs big enough
to be dice of their own.
Pure: arrays in, a verdict out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.dice_geometry import (
    DiceCamera,
    flat_outline,
    flat_side_faces,
    flat_top_face,
)

Mask = NDArray[Any]

EXCESS_MAX = 0.05  # die beyond a flat die's outline, in top-face areas
SIDE_LIGHT = 0.22  # an upright face is at least this bright against the top (ambient light)
SIDE_TINT = 24.0  # and within this many degrees of the body's colour (pips on it included)
SIDE_MIN = 0.06  # upright faces thinner than this (top-face areas) are not judged
OWN_DIE = 0.8  # a blob this many dice' areas big is a die of its own, not excess


@dataclass(frozen=True)
class FlatCheck:
    flat: bool
    why: str
    excess: float
    deficit: float  # upright faces missing
    centre: tuple[float, float]  # of everything the die shows (for a leaning die)
    region: Mask  # the pixels the die shows, flat outline included


def silhouette(
    camera: DiceCamera,
    centre: tuple[float, float],
    yaw: float,
    shape: tuple[int, ...],
    top_only: bool = False,
) -> Mask:
    """The picture area (0/1 mask of ``shape``) of a flat die with this top face."""
    points = flat_top_face(camera, centre, yaw) if top_only else flat_outline(camera, centre, yaw)
    hull = cv2.convexHull(np.round(points * 4).astype(np.int32))
    out = np.zeros(shape[:2], dtype=np.uint8)
    cv2.fillConvexPoly(out, hull, 1, lineType=cv2.LINE_8, shift=2)
    return out


def _polygon(points: NDArray[Any], shape: tuple[int, ...]) -> Mask:
    out = np.zeros(shape[:2], dtype=np.uint8)
    cv2.fillConvexPoly(out, np.round(points * 4).astype(np.int32), 1, cv2.LINE_8, shift=2)
    return out


def check_flat(
    img: NDArray[np.float32],
    mask: Mask,
    camera: DiceCamera,
    centre: tuple[float, float],
    yaw: float,
    body: tuple[float, float, float],
    others: Mask,
) -> FlatCheck:
    """Whether the die with this top face lies flat (see the module docstring)."""
    side = camera.top_side_px
    area = side * side
    outline = silhouette(camera, centre, yaw, mask.shape)
    top = silhouette(camera, centre, yaw, mask.shape, top_only=True)
    corners = flat_outline(camera, centre, yaw)
    pad = int(side) + 4
    y0 = max(int(corners[:, 1].min()) - pad, 0)
    y1 = min(int(corners[:, 1].max()) + pad + 1, mask.shape[0])
    x0 = max(int(corners[:, 0].min()) - pad, 0)
    x1 = min(int(corners[:, 0].max()) + pad + 1, mask.shape[1])
    win = (slice(y0, y1), slice(x0, x1))
    fg, own, theirs = mask[win], outline[win], others[win]
    tolerance = max(2, round(0.05 * side))
    near: Mask = cv2.dilate(own, np.ones((2 * tolerance + 1, 2 * tolerance + 1), np.uint8))
    reach = max(3, round(0.3 * side))
    band = cv2.dilate(own, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) & (1 - near)
    # what shows beyond the outline, other dice (found or big enough to be one) left out
    beyond = (fg & (1 - near) & (1 - theirs)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(beyond, connectivity=8)
    small = np.zeros(n, dtype=bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < OWN_DIE * float(np.count_nonzero(own))
    stray = small[labels] & (band > 0)
    excess = float(np.count_nonzero(stray)) / area
    # the upright faces a flat die shows here: are they there?  An upright face has the
    # body's colour in less light (ambient light at least); the mat under a leaning die,
    # in its shadow, does not
    missing: list[str] = []
    for quad in flat_side_faces(camera, centre, yaw):
        face = _polygon(quad - np.array([x0, y0]), fg.shape) & (1 - theirs)
        face &= 1 - cv2.dilate(top[win], np.ones((3, 3), np.uint8))
        if int(np.count_nonzero(face)) < SIDE_MIN * area:
            continue
        seen = np.median(img[win][face > 0], axis=0)
        why = _not_a_side(seen, np.asarray(body, dtype=np.float32))
        if why:
            missing.append(why)
    deficit = float(len(missing))
    # everything the die shows: its flat outline and what sticks out of it
    attached = small[labels] & (cv2.dilate(stray.astype(np.uint8), np.ones((3, 3))) > 0)
    region = np.zeros_like(mask)
    region[win] = own | attached.astype(np.uint8)
    ry, rx = np.nonzero(region & mask)
    middle = (float(rx.mean()), float(ry.mean())) if len(rx) else centre
    if excess > EXCESS_MAX:
        return FlatCheck(False, f"{excess:.2f} beyond a flat die", excess, deficit, middle, region)
    if missing:
        why = "an upright face a flat die shows there is missing: " + missing[0]
        return FlatCheck(False, why, excess, deficit, middle, region)
    return FlatCheck(True, "", excess, deficit, centre, region)


def _not_a_side(seen: NDArray[Any], body: NDArray[Any]) -> str:
    """Why the colour ``seen`` where an upright face should be is not one ("" if it is)."""
    norm = max(float(np.linalg.norm(body)), 1e-3)
    along = float(seen @ body) / norm
    light = along / norm
    if light < SIDE_LIGHT:
        return f"too dark ({light:.2f} of the top)"
    angle = math.degrees(math.acos(min(1.0, along / max(float(np.linalg.norm(seen)), 1e-3))))
    if angle > SIDE_TINT:
        return f"another colour ({angle:.0f} degrees off)"
    return ""
