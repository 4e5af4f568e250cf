"""Where a die appears in the picture: the camera model shared by the dice renderer and the
pip counter.

The camera looks straight down at the tray or table (the tower's camera is fixed so; the
table camera's calibration supplies the same numbers).  Knowing the focal length, the height
and the die size, the counter can predict exactly what a die lying flat looks like at any
place and turn, and so tell a flat die from a cocked one instead of guessing.
World: millimetres, X right, Y down the picture, Z up from the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class DiceCamera:
    width: int = 640
    height: int = 480
    focal_px: float = 560.0
    camera_mm: float = 170.0  # lens height above the table
    die_mm: float = 16.0  # edge of a standard die
    cx: float | None = None  # principal point (default: picture centre)
    cy: float | None = None

    @property
    def centre(self) -> tuple[float, float]:
        cx = self.width / 2 if self.cx is None else self.cx
        cy = self.height / 2 if self.cy is None else self.cy
        return cx, cy

    @property
    def top_side_px(self) -> float:
        """A flat die's top face edge in pixels."""
        return self.focal_px * self.die_mm / (self.camera_mm - self.die_mm)

    def project(self, points: FloatArray) -> FloatArray:
        """(N, 3) world points -> (N, 2) pixels."""
        cx, cy = self.centre
        depth = self.camera_mm - points[:, 2]
        u = cx + self.focal_px * points[:, 0] / depth
        v = cy + self.focal_px * points[:, 1] / depth
        return np.stack([u, v], axis=1)

    def unproject(self, u: float, v: float, z: float) -> tuple[float, float]:
        """The world (X, Y) seen at pixel (u, v) on the plane at height ``z``."""
        cx, cy = self.centre
        depth = self.camera_mm - z
        return (u - cx) * depth / self.focal_px, (v - cy) * depth / self.focal_px


CUBE_CORNERS: FloatArray = np.array(
    [[x, y, z] for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)], dtype=np.float64
)


def rotation(yaw: float, tilt: float = 0.0, tilt_axis: float = 0.0) -> FloatArray:
    """Turn by ``yaw`` about the vertical after tilting by ``tilt`` about a horizontal axis
    at angle ``tilt_axis`` (radians)."""
    ax, ay = math.cos(tilt_axis), math.sin(tilt_axis)
    c, s = math.cos(tilt), math.sin(tilt)
    # Rodrigues for the axis (ax, ay, 0)
    k = np.array([[0, 0, ay], [0, 0, -ax], [-ay, ax, 0]], dtype=np.float64)
    tilt_m = np.eye(3) + s * k + (1 - c) * (k @ k)
    cy_, sy = math.cos(yaw), math.sin(yaw)
    yaw_m = np.array([[cy_, -sy, 0], [sy, cy_, 0], [0, 0, 1]], dtype=np.float64)
    result: FloatArray = yaw_m @ tilt_m
    return result


def cube_corners(centre_xy: tuple[float, float], side: float, rot: FloatArray) -> FloatArray:
    """The 8 corners of a die with this rotation, resting on the table (lowest corner z=0)."""
    pts = (CUBE_CORNERS * side) @ rot.T
    pts[:, 0] += centre_xy[0]
    pts[:, 1] += centre_xy[1]
    pts[:, 2] -= pts[:, 2].min()
    return pts


def flat_outline(camera: DiceCamera, top_centre_px: tuple[float, float], yaw: float) -> FloatArray:
    """The picture outline (convex hull, (N, 2) pixels) of a die lying flat whose top face is
    centred at ``top_centre_px`` and turned by ``yaw``."""
    s = camera.die_mm
    x, y = camera.unproject(top_centre_px[0], top_centre_px[1], s)
    corners = cube_corners((x, y), s, rotation(yaw))
    return camera.project(corners)


def flat_top_face(camera: DiceCamera, top_centre_px: tuple[float, float], yaw: float) -> FloatArray:
    """The 4 picture corners of that die's top face, in order around the face."""
    s = camera.die_mm
    x, y = camera.unproject(top_centre_px[0], top_centre_px[1], s)
    corners = cube_corners((x, y), s, rotation(yaw))
    top = corners[4:]  # z = +0.5 in CUBE_CORNERS order: (-,-),(+,-),(-,+),(+,+)
    return camera.project(top[[0, 1, 3, 2]])


# the die's four upright faces: (axis, sign) of the outward normal -> corners around the face
SIDE_FACES = {
    (0, 1): (1, 3, 7, 5),
    (0, -1): (0, 2, 6, 4),
    (1, 1): (2, 3, 7, 6),
    (1, -1): (0, 1, 5, 4),
}


def flat_side_faces(
    camera: DiceCamera, top_centre_px: tuple[float, float], yaw: float
) -> list[FloatArray]:
    """The picture quads (4, 2) of the upright faces the camera sees of that flat die: the
    ones turned towards the middle of the picture, thinner the nearer the die lies to it."""
    s = camera.die_mm
    x, y = camera.unproject(top_centre_px[0], top_centre_px[1], s)
    rot = rotation(yaw)
    corners = cube_corners((x, y), s, rot)
    eye = np.array([0.0, 0.0, camera.camera_mm])
    faces = []
    for (axis, sign), idx in SIDE_FACES.items():
        quad = corners[list(idx)]
        normal = rot[:, axis] * sign
        if float(normal @ (eye - quad.mean(axis=0))) > 1e-9:
            faces.append(camera.project(quad))
    return faces
