"""Finding a die's top face in the picture: the square a flat die shows the camera.

Under the overhead camera a flat die's top face is an exact square of a known size
(``DiceCamera.top_side_px``) wherever it lies; only its place and turn are unknown.  Its
edge is always marked the same way: the rounded, bevelled rim darkens towards the edge,
so along the square's outline the face's own colour dips - against the mat, a neighbour,
or the die's own side face, however alike in shade.  The fit looks for the place and turn
whose outline runs along that dip while the inside is the face's own colour.

Pure: arrays in, a pose out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision import dice_read

FloatImage = NDArray[np.float32]

# sample points in face coordinates (sides, centre 0)
_T = np.linspace(-0.3, 0.3, 9)  # along each edge, clear of the rounded corners
_NORMALS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))
INNER = 0.41  # just inside the bevel
EDGE = 0.5
_GRID = np.linspace(-0.34, 0.34, 7)
RATIO_SPREAD = 0.22  # brightness ratio to the body that still counts as the body
TINT_SPREAD = 0.12  # chromaticity difference that still counts as the body
MIN_SCORE = 0.25  # an outline with less dip than this is not a face's edge


@dataclass(frozen=True)
class TopFace:
    centre: tuple[float, float]  # pixels
    yaw: float  # radians, modulo a quarter turn
    score: float  # mean dip along the outline (0-1)
    fill: float  # how much of the inside is the face's own colour (0-1)
    body: tuple[float, float, float]  # BGR
    sides: tuple[float, float, float, float]  # dip along each edge


def _outline_points(inner: float, edge: float) -> tuple[NDArray[Any], NDArray[Any]]:
    """(M, 2) face-coordinate points just inside the edge and on it, for the four edges."""
    ins, ons = [], []
    for nx, ny in _NORMALS:
        tx, ty = -ny, nx
        for t in _T:
            ins.append((nx * inner + tx * t, ny * inner + ty * t))
            ons.append((nx * edge + tx * t, ny * edge + ty * t))
    return np.array(ins), np.array(ons)


_INS, _ONS = _outline_points(INNER, EDGE)
_INTERIOR = np.array([(x, y) for y in _GRID for x in _GRID])
_ALL = np.concatenate([_INTERIOR, _INS, _ONS])
_N_IN, _N_EDGE = len(_INTERIOR), len(_INS)


def sample(img: FloatImage, xs: NDArray[Any], ys: NDArray[Any]) -> FloatImage:
    """Bilinear samples of ``img`` at picture points (any shape) -> shape + (3,)."""
    shape = np.shape(xs)
    rows = shape[0] if len(shape) == 2 else 1  # OpenCV maps stay under 32767 a side
    mx = np.asarray(xs, dtype=np.float32).reshape(rows, -1)
    my = np.asarray(ys, dtype=np.float32).reshape(rows, -1)
    out: NDArray[Any] = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    result: FloatImage = out.reshape(*shape, 3)
    return result


def _to_picture(
    points: NDArray[Any], cx: NDArray[Any], cy: NDArray[Any], yaw: NDArray[Any], side: float
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Face points (M, 2) under N poses -> picture x, y of shape (N, M)."""
    c, s = np.cos(yaw)[:, None], np.sin(yaw)[:, None]
    u, v = points[None, :, 0] * side, points[None, :, 1] * side
    return cx[:, None] + c * u - s * v, cy[:, None] + s * u + c * v


def _dot(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    """Per-pixel dot product over the colour axis (numpy sums a 3-long axis slowly)."""
    result: NDArray[Any] = a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]
    return result


def membership(colours: NDArray[Any], body: NDArray[Any]) -> NDArray[Any]:
    """How much each colour (..., 3) is the face's own body colour (..., 3) (0-1): the same
    chromaticity at the same brightness.  The bevel, pips, glare, side faces in another
    light and the mat all fall short."""
    norm2 = np.maximum(_dot(body, body), 64.0)  # |body|, at least 8
    ratio = _dot(colours, body) / norm2  # brightness along the body's colour
    off2 = np.maximum(_dot(colours, colours) / norm2 - ratio * ratio, 0.0)  # across it
    tint = np.maximum(TINT_SPREAD, 6.0 / np.sqrt(norm2))  # dark faces: noise matters more
    result: NDArray[Any] = np.exp(-(((ratio - 1) / RATIO_SPREAD) ** 2) - off2 / (tint * tint))
    return result


def _body(inside: NDArray[Any]) -> NDArray[Any]:
    """The body colour among (N, M, 3) samples of N faces' insides.  Pips can be half of
    them (a six with big pips): a coloured body is its most tinted part (pips are white),
    a white one its lightest (pips are black)."""
    b, g, r = inside[..., 0], inside[..., 1], inside[..., 2]
    chroma = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    light = (b + g + r) / 3
    k = int(0.8 * (inside.shape[1] - 1))
    coloured = np.partition(chroma, k, axis=1)[:, k] > 0.3 * np.partition(light, k, axis=1)[:, k]
    key = np.where(coloured[:, None], chroma, light)
    keep = max(3, int(0.45 * inside.shape[1]))
    order = np.argpartition(-key, keep - 1, axis=1)[:, :keep]  # the keep largest
    top = np.take_along_axis(inside, order[:, :, None], axis=1)
    result: NDArray[Any] = np.median(top, axis=1)
    return result


def score_poses(
    img: FloatImage, cx: NDArray[Any], cy: NDArray[Any], yaw: NDArray[Any], side: float
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]:
    """For N poses: (outline dip, inside fill, body colour (N, 3), dip per edge (N, 4))."""
    xs, ys = _to_picture(_ALL, cx, cy, yaw, side)
    samples = sample(img, xs, ys)  # (N, inside + outline points, 3), one remap
    inside = samples[:, :_N_IN]
    body = _body(inside)
    member = membership(samples, body[:, None, :])
    fill = (member[:, :_N_IN] > 0.5).mean(axis=1)
    m_in = member[:, _N_IN : _N_IN + _N_EDGE]
    m_on = member[:, _N_IN + _N_EDGE :]
    dip = np.clip(m_in - m_on, -0.5, 1.0)
    per_edge = dip.reshape(len(cx), 4, len(_T)).mean(axis=2)
    return dip.mean(axis=1), fill, body, per_edge


def fit_top_face(
    img: FloatImage, side: float, seed: tuple[float, float], reach: float = 0.3
) -> TopFace | None:
    """The flat die's top face nearest ``seed``: a coarse search over place (within
    ``reach`` sides) and turn, then a fine one.  None if no outline shows a face's edge."""
    steps = np.linspace(-reach, reach, 7) * side
    yaws = np.radians(np.arange(0.0, 90.0, 7.5))
    gx, gy, gt = np.meshgrid(steps + seed[0], steps + seed[1], yaws, indexing="ij")
    cx, cy, yaw = gx.ravel(), gy.ravel(), gt.ravel()
    score, fill, _, _ = score_poses(img, cx, cy, yaw, side)
    total = score + 0.25 * fill
    order = np.argsort(-total)
    best = [order[0]] + [k for k in order[1:3] if total[k] > 0.9 * total[order[0]]]
    results = [_refine(img, side, cx[k], cy[k], yaw[k]) for k in best]
    face = max(results, key=lambda f: f.score + 0.25 * f.fill)
    face = _settle_on_pips(img, side, face)
    if face.score < MIN_SCORE:
        return None
    return face


def _settle_on_pips(img: FloatImage, side: float, face: TopFace) -> TopFace:
    """Move the face onto its pip grid (a row of pips can pass for an edge; the grid's
    centre is the face's centre), if the outline there still shows the face's edge."""
    grid = dice_read.find_grid(img, face.centre, face.yaw, side)
    if grid is None:
        return face
    (x, y), t = grid
    moved = _pose(img, side, x, y, t)
    if moved.score + 0.25 * moved.fill < 0.8 * (face.score + 0.25 * face.fill):
        return face
    return moved


_MOVES = np.array([(dx, dy, dt) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dt in (-1, 0, 1)])


def _refine(img: FloatImage, side: float, x: float, y: float, t: float) -> TopFace:
    best = -1e9
    for step, turn in ((0.05, 2.5), (0.02, 1.0), (0.008, 0.4)):
        scale = np.array([step * side, step * side, math.radians(turn)])
        for _ in range(6):
            moves = _MOVES * scale
            cx, cy, yaw = x + moves[:, 0], y + moves[:, 1], t + moves[:, 2]
            totals = _total(img, side, cx, cy, yaw)
            k = int(np.argmax(totals))
            if totals[k] <= best + 1e-6:
                break
            best, x, y, t = float(totals[k]), float(cx[k]), float(cy[k]), float(yaw[k])
    return _pose(img, side, x, y, t)


def _pose(img: FloatImage, side: float, x: float, y: float, t: float) -> TopFace:
    score, fill, body, per_edge = score_poses(
        img, np.array([x]), np.array([y]), np.array([t]), side
    )
    return TopFace(
        (x, y),
        t % (math.pi / 2),
        float(score[0]),
        float(fill[0]),
        (float(body[0, 0]), float(body[0, 1]), float(body[0, 2])),
        (
            float(per_edge[0, 0]),
            float(per_edge[0, 1]),
            float(per_edge[0, 2]),
            float(per_edge[0, 3]),
        ),
    )


def _total(img: FloatImage, side: float, cx: Any, cy: Any, yaw: Any) -> NDArray[Any]:
    score, fill, _, _ = score_poses(
        img,
        np.atleast_1d(cx).astype(float),
        np.atleast_1d(cy).astype(float),
        np.atleast_1d(yaw).astype(float),
        side,
    )
    result: NDArray[Any] = score + 0.25 * fill
    return result


def face_quad(camera: Any, centre: tuple[float, float], yaw: float) -> NDArray[np.float64]:
    """The 4 picture corners of a flat top face (in order around it)."""
    side = camera.top_side_px
    c, s = math.cos(yaw), math.sin(yaw)
    pts = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    return np.array(
        [(centre[0] + side * (c * u - s * v), centre[1] + side * (s * u + c * v)) for u, v in pts]
    )
