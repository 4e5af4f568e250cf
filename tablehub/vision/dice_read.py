"""Reading one die's top face, rectified to a square: its colour and its value - or why not.

A face is body colour with pips on a 3 x 3 grid: dark pips on a white die, white pips on a
coloured one; every pip of a face has the same size and colour.  Glare adds white light:
lighter, soft, and on a coloured die it keeps the body's tint (the differences between the
colour channels stay) until it burns out.

The reading goes position by position: each of the nine grid points is a pip, empty, or
cannot be told (glare burnt out over it, a mark unlike the other pips).  The value is the
one layout every told position agrees with; if positions that cannot be told leave two
values possible, or the told ones fit no layout, the face is unreadable.  Only the centre
can turn one value into another (2/3 and 4/5); a wrong corner or edge position makes an
impossible layout, so a misread there is caught rather than guessed.
Pure: arrays in, a verdict out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision import dice_colours

Image = NDArray[Any]
FloatImage = NDArray[np.float32]
Cell = tuple[int, int]

FACE_SIZE = 64  # rectified top face, pixels per side
GRID: list[Cell] = [(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)]
# the six layouts in both quarter turns (a square face turned by 90 degrees is still itself)
LAYOUTS: dict[int, tuple[frozenset[Cell], ...]] = {
    1: (frozenset({(0, 0)}),),
    2: (frozenset({(-1, -1), (1, 1)}), frozenset({(-1, 1), (1, -1)})),
    3: (frozenset({(-1, -1), (0, 0), (1, 1)}), frozenset({(-1, 1), (0, 0), (1, -1)})),
    4: (frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)}),),
    5: (frozenset({(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)}),),
    6: (
        frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)}),
        frozenset({(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)}),
    ),
}
OFFSET_RANGE = (0.21, 0.35)  # pip grid spacing, in sides (dice differ; 0.25-0.31 usual)
RADIUS_RANGE = (0.045, 0.23)  # pip radius, in sides (a big single pip up to 0.2)
PIP_CONTRAST = 0.35  # a pip differs from the body by at least this (relative)
PIP_LEVEL = 0.5  # pip-ness above which a pixel belongs to a mark
EMPTY_LEVEL = 0.22  # an empty position's mean pip-ness stays below this
FULL_LEVEL = 0.6  # a pip position's mean pip-ness (middle of the disc) is above this
ALIKE_RADIUS = 0.3  # pips of one face differ in radius by at most this fraction
PIP_ALIKE = 0.12  # white pips of one face differ per channel by at most this (relative)
TINTED = 0.7  # glare: keeps this much of the body's channel spread (a white pip: < 0.45)
NEUTRAL = 0.5  # a white pip's middle keeps at most this much of it
LIGHTENED = 0.3  # a dark pip under glare: still this much darker than the glare around
BURNT = 248.0  # a channel this bright has lost what was under it


@dataclass(frozen=True)
class FaceRead:
    value: int | None
    colour: str
    why: str = ""  # when unreadable: the reason (never shown to players)
    margin: float = 0.0  # how clearly the positions were told (0-1), for diagnostics


@dataclass(frozen=True)
class _Mark:
    x: float  # face coordinates, sides, centre 0
    y: float
    radius: float  # sides
    level: float  # mean pip-ness of its middle
    colour: tuple[float, float, float]  # BGR of its middle


@dataclass
class _Face:
    img: FloatImage  # BGR, float
    u: FloatImage  # face coordinates of each pixel, sides, centre 0
    v: FloatImage
    body: NDArray[np.float32]
    dark_pips: bool
    pipness: FloatImage  # 0 body .. 1 pip
    tint: FloatImage  # channel spread / the body's (glare keeps 1, a white pip ~0)
    brightness: FloatImage  # mean of the channels


def rectify(image: Image, quad: NDArray[Any], size: int = FACE_SIZE) -> Image:
    """The face inside ``quad`` (4 picture points in order around it) as a size x size
    square."""
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32) - 0.5
    matrix = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32), dst)
    out: Image = cv2.warpPerspective(
        image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return out


def _coords(size: int, span: float = 0.5) -> tuple[FloatImage, FloatImage]:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    return ((xx + 0.5) / size - 0.5) * 2 * span, ((yy + 0.5) / size - 0.5) * 2 * span


def _inside_rounded(u: FloatImage, v: FloatImage, half: float, corner: float) -> NDArray[Any]:
    qx = np.maximum(np.abs(u) - (half - corner), 0)
    qy = np.maximum(np.abs(v) - (half - corner), 0)
    inside: NDArray[Any] = (np.abs(u) <= half) & (np.abs(v) <= half) & (qx**2 + qy**2 <= corner**2)
    return inside


def body_colour(square: FloatImage, mask: NDArray[Any]) -> NDArray[np.float32]:
    """The face's own colour: the median of the pixels like the majority (pips, glare out)."""
    pixels = square[mask].reshape(-1, 3)
    body = np.median(pixels, axis=0)
    for _ in range(3):
        scale = max(float(np.linalg.norm(body)), 8.0)
        near = np.linalg.norm(pixels - body, axis=1) < 0.22 * scale
        if near.sum() < 0.3 * len(pixels):
            break
        body = np.median(pixels[near], axis=0)
    result: NDArray[np.float32] = body.astype(np.float32)
    return result


def colour_name(body_bgr: NDArray[Any]) -> str:
    pixel = np.clip(np.round(body_bgr), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0]
    return dice_colours.classify(float(h), float(s), float(v))


def read_square(square: Image) -> tuple[int | None, str]:
    """The value on a rectified top face (square, give or take a few per cent of place and
    turn), or (None, reason)."""
    result = read_face(square)
    return result.value, result.why


def read_face(square: Image) -> FaceRead:
    """Colour and value of a rectified top face (BGR, square, the face filling it)."""
    size = square.shape[0]
    img = square.astype(np.float32)
    u, v = _coords(size)
    interior = _inside_rounded(u, v, 0.43, 0.1)
    body = body_colour(img, interior)
    colour = colour_name(body)
    dark_pips = colour == "white" or (colour == dice_colours.UNKNOWN and _is_neutral(body))
    pipness = _pipness(img, body, interior, dark_pips)
    if pipness is None:
        return FaceRead(None, colour, "no pips")
    spread = img.max(axis=2) - img.min(axis=2)
    tint = spread / max(float(body.max() - body.min()), 8.0)
    face = _Face(img, u, v, body, dark_pips, pipness, tint, img.mean(axis=2))
    return _decide(face, _marks(face), colour)


def _is_neutral(body: NDArray[Any]) -> bool:
    return float(body.max() - body.min()) < 0.25 * max(float(body.max()), 1.0)


def _pipness(
    img: FloatImage, body: NDArray[np.float32], interior: NDArray[Any], dark_pips: bool
) -> FloatImage | None:
    """Per pixel, how far from the body towards a pip (0 body, 1 pip), or None when
    nothing on the face stands out as a pip would."""
    if dark_pips:
        feature = -img.mean(axis=2)  # darker: more pip
        base = -float(body.mean())
    else:
        feature = img.min(axis=2)  # the body's weakest channel lights up in a white pip
        base = float(body.min())
    scale = max(float(body.max()), 10.0)
    rel = (feature - base) / scale
    values = rel[interior]
    # the pips' own level: the top of the distribution (pips cover 2-45% of the face)
    top = float(np.percentile(values, 99.0))
    if top < PIP_CONTRAST:
        return None
    level = float(np.median(values[values > 0.5 * top]))
    if level < PIP_CONTRAST:
        return None
    out: FloatImage = (rel / level).astype(np.float32)
    return out


def _marks(face: _Face, span: float = 0.5, rim: float = 0.42) -> list[_Mark]:
    """Round marks on the face: the peaks of the distance to the edge of the pip-coloured
    area (pips that blur into each other or into the rim still have their own peak).
    ``span``: half the width the picture covers, in sides; ``rim``: marks farther out than
    this are the face's dark rim."""
    size = face.img.shape[0] / (2 * span)  # pixels per side
    u, v = face.u, face.v
    within = _inside_rounded(u, v, span - 0.015, 0.14 + span - 0.5)
    binary = ((face.pipness > PIP_LEVEL) & within).astype(np.uint8)
    dist = cv2.distanceTransform(binary, cv2.DIST_L2, 3)
    smallest = RADIUS_RANGE[0] * size * 0.7
    peaks = (dist >= smallest) & (dist >= cv2.dilate(dist, np.ones((5, 5), np.uint8)) - 1e-3)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-dist[ys, xs])
    marks: list[_Mark] = []
    taken: list[tuple[float, float, float]] = []
    for k in order:
        py, px = int(ys[k]), int(xs[k])
        r = float(dist[py, px]) + 0.5
        if any(math.hypot(px - qx, py - qy) < max(r, qr) for qx, qy, qr in taken):
            continue  # a plateau or the shoulder of a pip already taken
        taken.append((px, py, r))
        x, y = float(u[py, px]), float(v[py, px])
        if max(abs(x), abs(y)) > rim:
            continue  # the dark rim of the face, not a pip
        core = (u - x) ** 2 + (v - y) ** 2 <= (0.6 * r / size) ** 2
        mid = np.median(face.img[core], axis=0)
        level = float(face.pipness[core].mean())
        marks.append(_Mark(x, y, r / size, level, (float(mid[0]), float(mid[1]), float(mid[2]))))
    return marks


GRID_SPAN = 0.72  # the neighbourhood searched for a face's pips, half-width in sides


def find_grid(
    image: Image, centre: tuple[float, float], yaw: float, side: float
) -> tuple[tuple[float, float], float] | None:
    """Where the pip grid of the face roughly at (``centre``, ``yaw``) is centred, and how
    it is turned (picture pixels, radians): every layout is symmetric about the face's
    centre, so its pips place the face better than its outline.  None without pips."""
    size = round(2 * GRID_SPAN * FACE_SIZE)
    c, s = math.cos(yaw), math.sin(yaw)
    half = GRID_SPAN * side
    quad = np.array(
        [
            (centre[0] + c * x - s * y, centre[1] + s * x + c * y)
            for x, y in ((-half, -half), (half, -half), (half, half), (-half, half))
        ]
    )
    img = rectify(image, quad, size).astype(np.float32)
    u, v = _coords(size, GRID_SPAN)
    interior = _inside_rounded(u, v, 0.43, 0.1)
    body = body_colour(img, interior)
    dark_pips = colour_name(body) == "white" or _is_neutral(body)
    pipness = _pipness(img, body, interior, dark_pips)
    if pipness is None:
        return None
    spread = img.max(axis=2) - img.min(axis=2)
    tint = spread / max(float(body.max() - body.min()), 8.0)
    face = _Face(img, u, v, body, dark_pips, pipness, tint, img.mean(axis=2))
    near_body = np.linalg.norm(img - body, axis=2) < 0.3 * max(float(np.linalg.norm(body)), 8.0)
    marks = [
        m
        for m in _marks(face, GRID_SPAN, GRID_SPAN)
        if m.level >= FULL_LEVEL
        and _pip_coloured(face, m)
        and max(abs(m.x), abs(m.y)) < 0.66
        and m.radius <= RADIUS_RANGE[1]
        and _surrounded(face, m, near_body)
    ]
    if not marks:
        return None
    typical = float(np.median([m.radius for m in marks]))
    marks = [m for m in marks if 0.6 * typical <= m.radius <= 1.6 * typical]
    if not marks:
        return None  # two marks of very different sizes: no grid to centre on
    middle = complex(float(np.mean([m.x for m in marks])), float(np.mean([m.y for m in marks])))
    shifted = [replace(m, x=m.x - middle.real, y=m.y - middle.imag) for m in marks]
    grid = _fit_grid(shifted)
    if grid is None:
        return None
    offset_centre, turn, _ = grid
    fx, fy = middle.real + offset_centre.real, middle.imag + offset_centre.imag
    x, y = fx * side, fy * side
    found = (centre[0] + c * x - s * y, centre[1] + s * x + c * y)
    if len(marks) < 2:
        turn = 0.0  # a lone pip says nothing of the turn
    return found, yaw + turn


def _surrounded(face: _Face, mark: _Mark, near_body: NDArray[Any]) -> bool:
    """A pip lies on the face: body colour around most of it (the mat between dice, dark
    like a black pip, does not)."""
    d2 = (face.u - mark.x) ** 2 + (face.v - mark.y) ** 2
    ring = (d2 > (1.3 * mark.radius) ** 2) & (d2 <= (1.8 * mark.radius) ** 2)
    return bool(ring.any()) and float(near_body[ring].mean()) >= 0.4


def _decide(face: _Face, marks: list[_Mark], colour: str) -> FaceRead:
    strong = [m for m in marks if m.level >= FULL_LEVEL and _pip_coloured(face, m)]
    if not strong:
        return FaceRead(None, colour, "no pips")
    if len(strong) > 9:
        return FaceRead(None, colour, "too many marks")
    grid = _fit_grid(strong)
    if grid is None:
        return FaceRead(None, colour, "pips off the grid")
    centre, turn, offset = grid
    cos_t, sin_t = math.cos(turn), math.sin(turn)
    du, dv = face.u - centre.real, face.v - centre.imag
    face.u = (cos_t * du + sin_t * dv).astype(np.float32)
    face.v = (-sin_t * du + cos_t * dv).astype(np.float32)
    marks = [_to_grid(m, centre, turn) for m in marks]
    strong = [m for m in marks if m.level >= FULL_LEVEL and _pip_coloured(face, m)]
    away = [m for m in strong if _cell(m, offset) not in (None, (0, 0))]
    reference = away or strong
    radius = float(np.median([m.radius for m in reference]))
    if radius > RADIUS_RANGE[1]:
        return FaceRead(None, colour, "a blot bigger than a pip")
    glare = _glare(face, [m for m in strong if _cell(m, offset) is not None])
    if glare is None:
        return FaceRead(None, colour, "glare that cannot be modelled")
    pip = np.median(
        np.array([np.array(m.colour) - glare.at(m.x, m.y) for m in reference]), axis=0
    ).astype(np.float32)
    unsure: set[Cell] = set()
    for m in marks:
        cell = _cell(m, offset)
        if cell is not None:
            # pips of a face are alike in size (a lone pip may be bigger: the 1); glare
            # shrinks a dark pip and swells a white one
            low, high = 1 - ALIKE_RADIUS, 1 + ALIKE_RADIUS
            if face.dark_pips:
                low = 0.0
            if len(away) >= 2 and not low * radius <= m.radius <= high * radius:
                unsure.add(cell)
            continue
        if m.level >= FULL_LEVEL and _explained_by_glare(face, m, glare, pip) is False:
            return FaceRead(None, colour, "a pip-like mark off the grid")
    states: dict[Cell, str] = {}
    margins = []
    for gx, gy in GRID:
        state, margin = _position(face, gx * offset, gy * offset, radius, glare, pip)
        if (gx, gy) in unsure and state == "pip":
            state, margin = "unsure", 0.0
        states[(gx, gy)] = state
        margins.append(margin)
    possible = {
        value
        for value, layouts in LAYOUTS.items()
        for layout in layouts
        if all(s == "unsure" or (s == "pip") == (cell in layout) for cell, s in states.items())
    }
    if len(possible) != 1:
        why = "no die face has these pips" if not possible else "a pip position cannot be told"
        return FaceRead(None, colour, why, min(margins))
    (value,) = possible
    return FaceRead(value, colour, "", min(margins))


@dataclass(frozen=True)
class _Glare:
    """Glare on the face as a Gaussian spot of added white light (log: a paraboloid);
    ``at`` gives the light it adds at a point (0 without glare)."""

    coef: tuple[float, float, float, float] | None  # log E = a + b u + c v + d (u^2 + v^2)

    def at(self, u: Any, v: Any) -> Any:
        if self.coef is None:
            return np.zeros_like(np.asarray(u, dtype=np.float32))
        a, b, c, d = self.coef
        return np.exp(np.minimum(a + b * u + c * v + d * (u * u + v * v), 7.0))


def _glare(face: _Face, pips_at: list[_Mark]) -> _Glare | None:
    """Fit the glare from the body pixels it lightens (not burnt out, away from pips).
    None if there is glare but it does not fit one soft spot."""
    img = face.img
    # white light adds alike to every channel: the weakest one burns out last
    weakest = img.min(axis=2)
    excess = weakest - float(face.body.min())
    pips = np.zeros(weakest.shape, dtype=bool)
    for m in pips_at:  # the pips and their blurred rims
        pips |= (face.u - m.x) ** 2 + (face.v - m.y) ** 2 <= (m.radius + 0.06) ** 2
    if face.dark_pips:
        pips |= face.pipness > 0.25
    area = _inside_rounded(face.u, face.v, 0.4, 0.1) & ~pips & (weakest < BURNT)
    body_noise = float(np.median(np.abs(excess[area]))) * 1.5 + 2.0 if area.any() else 4.0
    floor = max(8.0, 4.0 * body_noise)
    lit = area & (excess >= floor)
    if int(lit.sum()) < 6:
        return _Glare(None)
    u, v, e = face.u[lit], face.v[lit], excess[lit]
    design = np.stack([np.ones_like(u), u, v, u * u + v * v], axis=1).astype(np.float64)
    weight = np.sqrt(e).astype(np.float64)
    coef, *_ = np.linalg.lstsq(design * weight[:, None], np.log(e) * weight, rcond=None)
    a, b, c, d = (float(x) for x in coef)
    if d >= -2.0:  # not a spot (a broad wash of light): the model does not hold
        return _Glare(None) if float(e.max()) < 3 * floor else None
    glare = _Glare((a, b, c, d))
    fitted = glare.at(u, v)
    if float(np.median(np.abs(fitted - e))) > 0.25 * float(np.median(e)) + body_noise:
        return None
    return glare


def _explained_by_glare(face: _Face, mark: _Mark, glare: _Glare, pip: NDArray[Any]) -> bool:
    """Whether a mark off the grid is glare rather than a pip (True: glare)."""
    fraction, separation = _pip_fraction(face, mark.x, mark.y, mark.radius, glare, pip)
    if separation < MIN_SEPARATION or fraction < 0.5:
        return True
    return _local_contrast(face, mark.x, mark.y, mark.radius, pip) < 0.5


MIN_SEPARATION = 40.0  # a pip and no pip must differ by this much in the picture to tell
PIP_FRACTION = 0.62  # a pip position shows at least this much of a pip
EMPTY_FRACTION = 0.3  # an empty one at most this much


def _pip_fraction(
    face: _Face, px: float, py: float, radius: float, glare: _Glare, pip: NDArray[Any]
) -> tuple[float, float]:
    """How much of a pip the middle of a disc shows (0 none, 1 a whole pip), given the glare
    over it, and how far apart a pip and no pip would look there."""
    d2 = (face.u - px) ** 2 + (face.v - py) ** 2
    core = d2 <= (0.6 * radius) ** 2
    if not core.any():
        return 0.5, 0.0
    light = glare.at(face.u[core], face.v[core])[:, None]
    seen = face.img[core].astype(np.float32)
    empty = np.clip(face.body[None, :] + light, 0, 255)
    full = np.clip(pip[None, :] + light, 0, 255)
    diff = full - empty
    power = float((diff * diff).sum())
    separation = math.sqrt(power / max(len(seen), 1))
    if separation < 1e-3:
        return 0.5, 0.0
    fraction = float(((seen - empty) * diff).sum()) / power
    return fraction, separation


def _position(
    face: _Face, px: float, py: float, radius: float, glare: _Glare, pip: NDArray[Any]
) -> tuple[str, float]:
    """pip | empty | unsure for one grid point, and how clearly (0-1)."""
    fraction, separation = _pip_fraction(face, px, py, radius, glare, pip)
    if separation < MIN_SEPARATION:
        return "unsure", 0.0  # glare burnt out whatever was there
    local = _local_contrast(face, px, py, radius, pip)
    if fraction >= PIP_FRACTION or (face.dark_pips and local >= LIGHTENED_PIP):
        return "pip", min(1.0, max(fraction - PIP_FRACTION, 0.0) / (1 - PIP_FRACTION))
    if fraction <= EMPTY_FRACTION and local <= FLAT:
        return "empty", min(1.0, (EMPTY_FRACTION - fraction) / EMPTY_FRACTION)
    return "unsure", 0.0


LIGHTENED_PIP = 0.25  # a dark disc this much darker than around it: a pip under glare
FLAT = 0.12  # an empty position is at most this much more pip-like than around it


def _local_contrast(face: _Face, px: float, py: float, radius: float, pip: NDArray[Any]) -> float:
    """How much more pip-like the middle of a disc is than the ring around it (a pip: about
    1), measured so that glare does not count: on a white die glare only lightens (away from
    a dark pip); on a coloured die only the loss of tint counts, which white light over the
    body does not cause."""
    d2 = (face.u - px) ** 2 + (face.v - py) ** 2
    core = d2 <= (0.6 * radius) ** 2
    ring = (d2 > (1.25 * radius) ** 2) & (d2 <= (1.7 * radius) ** 2)
    if not core.any() or not ring.any():
        return 0.0
    direction = pip.astype(np.float32) - face.body
    if not face.dark_pips:
        direction = direction - direction.mean()  # only the change of tint
    norm = float(np.linalg.norm(direction))
    if norm < 1e-3:
        return 0.0
    step = face.img[core].mean(axis=0) - np.median(face.img[ring], axis=0)
    return float(step @ direction) / (norm * norm)


def _cell(mark: _Mark, offset: float) -> Cell | None:
    gx, gy = round(mark.x / offset), round(mark.y / offset)
    if abs(gx) > 1 or abs(gy) > 1:
        return None
    if math.hypot(mark.x - gx * offset, mark.y - gy * offset) > 0.3 * offset:
        return None
    return gx, gy


def _pip_coloured(face: _Face, mark: _Mark) -> bool:
    """Dark marks on a white die are pips (glare never darkens); on a coloured die a white
    pip is neutral, while glare keeps the body's tint until it burns out."""
    if face.dark_pips:
        return True
    b, g, r = mark.colour
    return max(b, g, r) - min(b, g, r) <= NEUTRAL * float(face.body.max() - face.body.min())


def _fit_grid(marks: list[_Mark]) -> tuple[complex, float, float] | None:
    """The pip grid (centre, turn, spacing) that fits the marks best: a similarity from
    grid points to the face, refitted after each assignment of marks to grid points.
    Every layout is symmetric about the centre, so the centre is well defined."""
    points = [complex(m.x, m.y) for m in marks]
    centre, scale = 0j, complex(0.28, 0)  # scale: spacing and turn as one complex number
    away = [p for p in points if abs(p) > 0.12]
    if away:
        scale = complex(float(np.median([max(abs(p.real), abs(p.imag)) for p in away])), 0)
    for _ in range(3):
        pairs = []
        for p in points:
            g = (p - centre) / scale
            gx, gy = round(g.real), round(g.imag)
            if abs(gx) <= 1 and abs(gy) <= 1 and abs(g - complex(gx, gy)) <= 0.35:
                pairs.append((complex(gx, gy), p))
        cells = {g for g, _ in pairs}
        if len(cells) >= 2:
            a = np.array([[1, g] for g, _ in pairs], dtype=np.complex128)
            b = np.array([p for _, p in pairs], dtype=np.complex128)
            solution = np.linalg.lstsq(a, b, rcond=None)[0]
            centre, scale = complex(solution[0]), complex(solution[1])
        elif len(cells) == 1:
            (g,) = cells
            centre = complex(np.mean([p for _, p in pairs])) - g * scale
        else:
            return None
    offset, turn = abs(scale), math.atan2(scale.imag, scale.real)
    if not OFFSET_RANGE[0] <= offset <= OFFSET_RANGE[1] or abs(turn) > math.radians(12):
        return None
    if abs(centre) > 0.1:
        return None
    return centre, turn, offset


def _to_grid(mark: _Mark, centre: complex, turn: float) -> _Mark:
    z = (complex(mark.x, mark.y) - centre) * complex(math.cos(-turn), math.sin(-turn))
    return replace(mark, x=z.real, y=z.imag)
