"""The table-scene renderer: a pure function from a scene description to a camera frame.

It feeds the simulated camera, the game demos, the tests and the benchmarks::

    from tablehub.vision.scene import Scene, CardPlacement, Camera, render_scene, random_scene
    from tablehub.vision.cardart import standin_faces

    scene = Scene(
        faces=standin_faces(),                      # card id -> BGRA straight image
        cards=[CardPlacement("agi:bats-7", (450, 450), angle_deg=20),
               CardPlacement("agi:hearts-q", (520, 470), angle_deg=-5, face_up=False)],
        camera=Camera(image_size=(2304, 1296), target_mm=(450, 450), px_per_mm=2.0,
                      tilt_deg=15),
    )
    rendered = render_scene(scene, np.random.default_rng(1))
    rendered.image        # BGR uint8 frame, shape (1296, 2304, 3)
    rendered.cards        # ground truth per card: id, face_up, corners in pixels,
                          # visible fraction, whether an index corner shows
    rendered.table_to_image   # 3x3 homography, table millimetres -> pixels

Coordinates: the table is in millimetres, origin at one corner, x to the right and y away
from the hub ("down" in a straight top view).  A card's ``angle_deg`` turns it clockwise
in that view; its corners are reported top-left, top-right, bottom-right, bottom-left of
the upright card.  The face-down side of card ``deck:x`` is the image ``deck:back``.

Realism knobs, all in the ``Scene``: several table textures, perspective (camera tilt up to
about 35 degrees, yaw, roll), scale (``px_per_mm``), uneven light and colour cast, glare
spots, card shadows, sleeves (tint, gloss, a wider edge), hands/arms over the table,
clutter (mugs, coins, tokens, dice, notes, pencils), blur, sensor noise and JPEG.
``random_scene`` draws a varied scene for tests and benchmarks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]
FloatArray = NDArray[Any]
Canvas = NDArray[Any]
FaceSource = Callable[[str], Image]
TEXTURES = ("wood", "felt-green", "felt-blue", "white", "dark", "cloth")


@dataclass(frozen=True)
class Sleeve:
    tint: tuple[int, int, int] = (240, 240, 240)  # BGR of the sleeve film
    opacity: float = 0.12  # how much the film veils the card
    margin_mm: float = 1.5  # the sleeve is this much wider than the card on each side
    gloss: float = 0.35  # strength of the specular streak


@dataclass(frozen=True)
class CardPlacement:
    card_id: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    face_up: bool = True
    sleeve: Sleeve | None = None
    size_mm: tuple[float, float] | None = None  # default: from the face image at 5 px/mm
    lift_mm: float = 0.0  # height above the table (cards in a pile), for the shadow


@dataclass(frozen=True)
class Hand:
    """A hand and forearm reaching over the table from ``angle_deg`` (0: from the right)."""

    tip_mm: tuple[float, float]  # roughly where the fingertips are
    angle_deg: float
    skin: tuple[int, int, int] = (120, 160, 210)
    scale: float = 1.0


@dataclass(frozen=True)
class Clutter:
    kind: str  # "mug", "coin", "token", "die", "note", "pencil"
    centre_mm: tuple[float, float]
    size_mm: float
    colour: tuple[int, int, int]
    angle_deg: float = 0.0


@dataclass(frozen=True)
class Decal:
    """Something flat printed on the table (a calibration marker): BGR image and where its
    TL, TR, BR, BL corners lie in table millimetres."""

    image: NDArray[Any]
    corners_mm: NDArray[Any]


@dataclass(frozen=True)
class Camera:
    image_size: tuple[int, int] = (2304, 1296)  # width, height
    target_mm: tuple[float, float] = (450.0, 450.0)  # table point in the image centre
    px_per_mm: float = 2.0  # scale at the target
    tilt_deg: float = 0.0  # optical axis from the vertical
    tilt_dir_deg: float = 90.0  # which way the camera leans (0: camera to the left)
    yaw_deg: float = 0.0  # image rotation about the optical axis
    distance_mm: float = 900.0


@dataclass(frozen=True)
class Glare:
    centre_mm: tuple[float, float]
    radius_mm: float
    strength: float  # 0..1 added brightness at the centre


@dataclass(frozen=True)
class Lighting:
    brightness: float = 1.0
    gradient: float = 0.0  # relative brightness change across the frame
    gradient_dir_deg: float = 0.0
    vignette: float = 0.1
    colour_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R
    glare: tuple[Glare, ...] = ()


@dataclass
class Scene:
    faces: FaceSource
    cards: Sequence[CardPlacement] = ()
    table_mm: tuple[float, float] = (900.0, 900.0)
    texture: str = "wood"
    texture_seed: int = 0
    hands: Sequence[Hand] = ()
    clutter: Sequence[Clutter] = ()
    decals: Sequence[Decal] = ()
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    blur_px: float = 0.0
    noise: float = 2.0  # sensor noise sigma in grey levels
    jpeg_quality: int | None = 90  # None: no JPEG round trip


@dataclass(frozen=True)
class CardTruth:
    card_id: str
    face_up: bool
    corners_px: FloatArray  # 4x2: TL, TR, BR, BL of the upright card
    centre_mm: tuple[float, float]
    visible: float  # fraction of the card's area that the camera sees
    index_visible: bool  # one of the two index corners shows (almost) whole


@dataclass(frozen=True)
class RenderedScene:
    image: Image
    cards: tuple[CardTruth, ...]
    table_to_image: FloatArray
    labels: NDArray[Any]  # per pixel: 1-based index of the card seen there, 0 table, -1 other


# --- geometry ------------------------------------------------------------------------------


def camera_homography(camera: Camera) -> FloatArray:
    """Table millimetres -> image pixels for a pinhole camera looking at ``target_mm``."""
    tilt = math.radians(camera.tilt_deg)
    lean = math.radians(camera.tilt_dir_deg)
    forward = np.array([math.sin(tilt) * math.cos(lean), math.sin(tilt) * math.sin(lean), 1.0])
    forward[2] = math.cos(tilt)
    forward /= np.linalg.norm(forward)
    target = np.array([camera.target_mm[0], camera.target_mm[1], 0.0])
    centre = target - camera.distance_mm * forward
    yaw = math.radians(camera.yaw_deg)
    hint = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    x_axis = hint - hint.dot(forward) * forward
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(forward, x_axis)
    rot = np.stack([x_axis, y_axis, forward])
    f = camera.px_per_mm * camera.distance_mm
    w, h = camera.image_size
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    homography: FloatArray = k @ extrinsic
    out: FloatArray = homography / homography[2, 2]
    return out


def camera_centre_mm(camera: Camera) -> FloatArray:
    """Where the camera is: table millimetres, z negative above the table."""
    tilt = math.radians(camera.tilt_deg)
    lean = math.radians(camera.tilt_dir_deg)
    forward = np.array([math.sin(tilt) * math.cos(lean), math.sin(tilt) * math.sin(lean), 0.0])
    forward[2] = math.cos(tilt)
    target = np.array([camera.target_mm[0], camera.target_mm[1], 0.0])
    out: FloatArray = target - camera.distance_mm * forward / np.linalg.norm(forward)
    return out


def view_angle_deg(camera: Camera, point_mm: tuple[float, float]) -> float:
    """How obliquely the camera sees a table point (0: straight down)."""
    c = camera_centre_mm(camera)
    ray = np.array([point_mm[0], point_mm[1], 0.0]) - c
    return math.degrees(math.acos(abs(ray[2]) / float(np.linalg.norm(ray))))


def project(h: FloatArray, points: FloatArray) -> FloatArray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out: FloatArray = cv2.perspectiveTransform(pts, h).reshape(-1, 2)
    return out


def card_corners_mm(
    centre: tuple[float, float], size: tuple[float, float], angle_deg: float
) -> FloatArray:
    """TL, TR, BR, BL of a card of ``size`` (w, h) turned clockwise by ``angle_deg``."""
    w, h = size
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    out: FloatArray = local @ rot.T + np.array(centre)
    return out


# --- textures -------------------------------------------------------------------------------


def _noise(rng: np.random.Generator, shape: tuple[int, int], blur: float) -> FloatArray:
    n: Any = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), blur)
    out: FloatArray = (n / (n.std() + 1e-6)).astype(np.float64)
    return out


def table_texture(kind: str, size: tuple[int, int], seed: int) -> Image:
    """A table surface ``size`` (w, h) pixels at about 0.5 px/mm."""
    rng = np.random.default_rng(seed)
    w, h = size
    if kind == "wood":
        base = np.array(rng.choice([(60, 100, 150), (40, 70, 110), (90, 140, 190)]), np.float64)
        yy = np.arange(h, dtype=np.float64)[:, None] + 25 * _noise(rng, (h, w), 40)
        grain = np.sin(yy / rng.uniform(2, 4.5)) * 0.5 + 0.5
        shade = 1.0 + 0.12 * grain + 0.05 * _noise(rng, (h, w), 1.5)
    elif kind.startswith("felt"):
        base = np.array((60, 110, 40) if kind == "felt-green" else (120, 70, 30), np.float64)
        shade = 1.0 + 0.06 * _noise(rng, (h, w), 0.7) + 0.04 * _noise(rng, (h, w), 15)
    elif kind == "white":
        base = np.array((222, 226, 228), np.float64)
        shade = 1.0 + 0.015 * _noise(rng, (h, w), 1) + 0.02 * _noise(rng, (h, w), 30)
    elif kind == "dark":
        base = np.array((35, 32, 30), np.float64)
        shade = 1.0 + 0.08 * _noise(rng, (h, w), 2)
    elif kind == "cloth":
        base = np.array(rng.choice([(80, 60, 140), (150, 150, 90), (110, 120, 160)]), np.float64)
        xx, yy = np.meshgrid(np.arange(w), np.arange(h))
        check = ((xx // 15 + yy // 15) % 2).astype(np.float64)
        shade = 0.85 + 0.25 * check + 0.04 * _noise(rng, (h, w), 1)
    else:
        raise ValueError(f"unknown table texture {kind!r}; expected one of {', '.join(TEXTURES)}")
    img = np.clip(shade[..., None] * base[None, None, :], 0, 255)
    out: Image = img.astype(np.uint8)
    return out


# --- drawing ---------------------------------------------------------------------------------


def _prepare_face(face: Image, target_px: float) -> Image:
    """Pre-shrink a face so the perspective warp does not alias (about 1.5 px per output px)."""
    h = face.shape[0]
    want = max(8, int(target_px * 1.5))
    if h > want:
        scale = want / h
        face = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return face


def _warp_into(
    canvas: Canvas,
    labels: NDArray[Any],
    label: int,
    src: Image,
    src_quad: FloatArray,
    dst_quad: FloatArray,
    opacity: float = 1.0,
) -> None:
    """Warp a BGRA image onto ``canvas`` (float BGR) where ``dst_quad`` lands, with alpha."""
    hgt, wid = canvas.shape[:2]
    x0, y0 = np.floor(dst_quad.min(0)).astype(int) - 2
    x1, y1 = np.ceil(dst_quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getPerspectiveTransform(
        src_quad.astype(np.float32), (dst_quad - [x0, y0]).astype(np.float32)
    )
    warped = cv2.warpPerspective(
        src, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    alpha = warped[..., 3:4].astype(np.float32) * np.float32(opacity / 255.0)
    roi = canvas[y0:y1, x0:x1]
    roi *= 1.0 - alpha
    roi += alpha * warped[..., :3]
    if label != 0:
        labels[y0:y1, x0:x1][alpha[..., 0] > 0.5] = label


def _fill(
    canvas: Canvas,
    labels: NDArray[Any] | None,
    polys: list[FloatArray],
    colour: Sequence[float],
    alpha: float = 1.0,
    blur: float = 0.0,
) -> None:
    """Paint polygons (image px) with optional soft edge; occludes ``labels`` (-1)."""
    hgt, wid = canvas.shape[:2]
    allpts = np.concatenate(polys)
    pad = int(3 * blur) + 2
    x0, y0 = np.maximum(np.floor(allpts.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(allpts.max(0)).astype(int) + pad, [wid, hgt])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    for p in polys:  # one at a time: overlapping parts must not cancel out
        cv2.fillPoly(mask, [np.round((p - [x0, y0]) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
    if blur > 0:
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
    a = mask[..., None] * np.float32(alpha)
    roi = canvas[y0:y1, x0:x1]
    roi *= 1.0 - a
    roi += a * np.asarray(colour, np.float32)
    if labels is not None:
        labels[y0:y1, x0:x1][mask > 0.5] = -1


def _circle_poly(centre: Any, radius: float, n: int = 24) -> FloatArray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], 1)


def _hand_polys(hand: Hand) -> list[FloatArray]:
    """Palm, fingers and forearm of a hand, in table millimetres."""
    a = math.radians(hand.angle_deg)
    back = np.array([math.cos(a), math.sin(a)])  # from the tips towards the arm
    side = np.array([-back[1], back[0]])
    s = hand.scale
    tip = np.array(hand.tip_mm)
    palm_c = tip + back * 95 * s
    polys = [_ellipse(palm_c, 55 * s, 45 * s, back)]
    for k, (off, length) in enumerate(((-30, 70), (-10, 82), (10, 78), (28, 62))):
        base = palm_c + side * off * s - back * 30 * s
        end = base - back * length * s
        polys.append(_capsule(base, end, 9 * s))
        if k == 0:
            thumb_base = palm_c + side * 48 * s
            polys.append(_capsule(thumb_base, thumb_base - back * 40 * s + side * 25 * s, 11 * s))
    arm_start = palm_c + back * 40 * s
    arm_end = arm_start + back * 700
    polys.append(_capsule(arm_start, arm_end, 42 * s))
    return polys


def _ellipse(c: FloatArray, along: float, across: float, axis: FloatArray) -> FloatArray:
    t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    side = np.array([-axis[1], axis[0]])
    out: FloatArray = c + np.outer(np.cos(t) * along, axis) + np.outer(np.sin(t) * across, side)
    return out


def _capsule(p: FloatArray, q: FloatArray, r: float) -> FloatArray:
    d = q - p
    angle = math.atan2(d[1], d[0])
    t1 = np.linspace(angle + np.pi / 2, angle + 3 * np.pi / 2, 10)
    t2 = np.linspace(angle - np.pi / 2, angle + np.pi / 2, 10)
    a = np.stack([p[0] + r * np.cos(t1), p[1] + r * np.sin(t1)], 1)
    b = np.stack([q[0] + r * np.cos(t2), q[1] + r * np.sin(t2)], 1)
    out: FloatArray = np.concatenate([a, b])
    return out


def _draw_clutter(canvas: Canvas, labels: NDArray[Any], h: FloatArray, item: Clutter) -> None:
    c = np.array(item.centre_mm)
    s = item.size_mm
    shadow = project(h, _circle_poly(c + np.array([4, 4]), s / 2))
    if item.kind == "mug":
        _fill(
            canvas,
            None,
            [project(h, _circle_poly(c + np.array([8, 8]), s / 2))],
            (0, 0, 0),
            0.35,
            6,
        )
        _fill(canvas, labels, [project(h, _circle_poly(c, s / 2))], item.colour)
        inner = tuple(v * 0.4 for v in item.colour)
        _fill(canvas, labels, [project(h, _circle_poly(c, s / 2 - 6))], inner)
        handle = card_corners_mm((c[0] + s / 2 + 10, c[1]), (22, 12), item.angle_deg)
        _fill(canvas, labels, [project(h, handle)], item.colour)
    elif item.kind in ("coin", "token"):
        _fill(canvas, None, [shadow], (0, 0, 0), 0.3, 2)
        _fill(canvas, labels, [project(h, _circle_poly(c, s / 2))], item.colour)
        if item.kind == "coin":
            ring = tuple(min(255.0, v * 1.25) for v in item.colour)
            _fill(canvas, None, [project(h, _circle_poly(c, s / 3))], ring, 0.6)
    elif item.kind == "die":
        body = card_corners_mm(tuple(c), (s, s), item.angle_deg)
        _fill(canvas, None, [project(h, body + 3)], (0, 0, 0), 0.3, 2)
        _fill(canvas, labels, [project(h, body)], item.colour)
        pip = (20, 20, 20) if sum(item.colour) > 300 else (235, 235, 235)
        for dx, dy in ((-0.25, -0.25), (0.0, 0.0), (0.25, 0.25)):
            _fill(
                canvas,
                None,
                [project(h, _circle_poly(c + np.array([dx * s, dy * s]), s * 0.09))],
                pip,
            )
    elif item.kind == "note":
        body = card_corners_mm(tuple(c), (s, s), item.angle_deg)
        _fill(canvas, labels, [project(h, body)], item.colour)
    elif item.kind == "pencil":
        body = card_corners_mm(tuple(c), (7, s), item.angle_deg)
        _fill(canvas, None, [project(h, body + 3)], (0, 0, 0), 0.3, 2)
        _fill(canvas, labels, [project(h, body)], item.colour)
    else:
        raise ValueError(f"unknown clutter kind {item.kind!r}")


def _light_field(scene: Scene, shape: tuple[int, int]) -> Canvas:
    hgt, wid = shape
    lt = scene.lighting
    small = (max(2, wid // 16), max(2, hgt // 16))
    xs = np.linspace(-1, 1, small[0])[None, :]
    ys = np.linspace(-1, 1, small[1])[:, None]
    a = math.radians(lt.gradient_dir_deg)
    field_ = lt.brightness * (1 + lt.gradient * 0.5 * (xs * math.cos(a) + ys * math.sin(a)))
    field_ = field_ * (1 - lt.vignette * (xs**2 + ys**2) / 2)
    full: Canvas = cv2.resize(field_.astype(np.float32), (wid, hgt), interpolation=cv2.INTER_LINEAR)
    return full


def _glare(canvas: Canvas, h: FloatArray, glare: Glare) -> None:
    c = project(h, np.array([glare.centre_mm]))[0]
    edge = project(h, np.array([[glare.centre_mm[0] + glare.radius_mm, glare.centre_mm[1]]]))[0]
    r = max(2.0, float(np.linalg.norm(edge - c)))
    hgt, wid = canvas.shape[:2]
    x0, y0 = int(max(0, c[0] - 3 * r)), int(max(0, c[1] - 3 * r))
    x1, y1 = int(min(wid, c[0] + 3 * r)), int(min(hgt, c[1] + 3 * r))
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d2 = ((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (r * r)
    canvas[y0:y1, x0:x1] += (glare.strength * 255.0 * np.exp(-d2))[..., None].astype(np.float32)


# --- the renderer ----------------------------------------------------------------------------


def _card_size(placement: CardPlacement, face: Image) -> tuple[float, float]:
    if placement.size_mm is not None:
        return placement.size_mm
    return face.shape[1] / 5.0, face.shape[0] / 5.0


def render_scene(scene: Scene, rng: np.random.Generator) -> RenderedScene:
    """Render ``scene`` as the camera would see it; ``rng`` drives noise only."""
    cam = scene.camera
    wid, hgt = cam.image_size
    h = camera_homography(cam)
    # The table surface, generated at 1 px/mm and projected.
    tw, th = int(scene.table_mm[0] / 2), int(scene.table_mm[1] / 2)
    texture = table_texture(scene.texture, (tw, th), scene.texture_seed)
    half = np.diag([0.5, 0.5, 1.0])
    floor = (45.0, 50.0, 55.0)
    canvas = cv2.warpPerspective(
        texture,
        h @ np.linalg.inv(half),
        (wid, hgt),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=floor,
    ).astype(np.float32)
    labels = np.zeros((hgt, wid), np.int32)
    for decal in scene.decals:
        img = decal.image
        dh, dw = img.shape[:2]
        bgra = np.dstack([img, np.full((dh, dw), 255, np.uint8)])
        src = np.array([[0, 0], [dw, 0], [dw, dh], [0, dh]], np.float64)
        _warp_into(canvas, labels, 0, bgra, src, project(h, decal.corners_mm))
    truths: list[tuple[CardPlacement, FloatArray, tuple[float, float]]] = []
    px_scale = cam.px_per_mm
    for n, placement in enumerate(scene.cards, start=1):
        deck = placement.card_id.partition(":")[0]
        face_id = placement.card_id if placement.face_up else f"{deck}:back"
        face = scene.faces(face_id)
        size = _card_size(placement, scene.faces(placement.card_id))
        corners_mm = card_corners_mm(placement.centre_mm, size, placement.angle_deg)
        corners_px = project(h, corners_mm)
        # Shadow: a soft dark copy, shifted away from the light.
        off = 1.5 + placement.lift_mm
        _fill(
            canvas,
            None,
            [project(h, corners_mm + np.array([off, off * 1.3]))],
            (0, 0, 0),
            0.35,
            2.0,
        )
        small = _prepare_face(face, size[1] * px_scale)
        sh, sw = small.shape[:2]
        src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64)
        if placement.sleeve is not None:
            sl = placement.sleeve
            big = (size[0] + 2 * sl.margin_mm, size[1] + 2 * sl.margin_mm)
            sleeve_px = project(h, card_corners_mm(placement.centre_mm, big, placement.angle_deg))
            _fill(canvas, labels, [sleeve_px], sl.tint, 0.55, 0.6)
            labels[labels == -1] = 0  # the sleeve edge does not hide anything
        _warp_into(canvas, labels, n, small, src, corners_px)
        if placement.sleeve is not None:
            sl = placement.sleeve
            _fill(canvas, None, [corners_px], sl.tint, sl.opacity, 0.0)
            streak = card_corners_mm(
                placement.centre_mm, (size[0] * 0.25, size[1] * 1.05), placement.angle_deg + 30
            )
            _fill(canvas, None, [project(h, streak)], (255, 255, 255), sl.gloss * 0.5, 6.0)
        truths.append((placement, corners_px, size))
    for item in scene.clutter:
        _draw_clutter(canvas, labels, h, item)
    for hand in scene.hands:
        polys_mm = _hand_polys(hand)
        shadow = [project(h, p + np.array([25, 35])) for p in polys_mm]
        _fill(canvas, None, shadow, (0, 0, 0), 0.3, 10.0)
        _fill(canvas, labels, [project(h, p) for p in polys_mm], hand.skin, 1.0, 0.8)
    # Light, glare, colour cast.
    canvas *= _light_field(scene, (hgt, wid))[..., None]
    canvas *= np.array(scene.lighting.colour_gain, np.float32)[None, None, :]
    for glare in scene.lighting.glare:
        _glare(canvas, h, glare)
    if scene.noise > 0:
        canvas += rng.standard_normal(canvas.shape, dtype=np.float32) * np.float32(scene.noise)
    image: Any = np.clip(canvas, 0, 255).astype(np.uint8)
    if scene.blur_px > 0:
        image = cv2.GaussianBlur(image, (0, 0), scene.blur_px)
    if scene.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
        if ok:
            image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    cards = tuple(
        _truth(n, placement, corners_px, size, labels, h)
        for n, (placement, corners_px, size) in enumerate(truths, start=1)
    )
    return RenderedScene(image=image, cards=cards, table_to_image=h, labels=labels.astype(np.int16))


def _truth(
    n: int,
    placement: CardPlacement,
    corners_px: FloatArray,
    size: tuple[float, float],
    labels: NDArray[Any],
    h: FloatArray,
) -> CardTruth:
    hgt, wid = labels.shape
    x0, y0 = np.maximum(np.floor(corners_px.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(corners_px.max(0)).astype(int) + 1, [wid, hgt])
    area = float(cv2.contourArea(corners_px.astype(np.float32)))
    seen = float(np.count_nonzero(labels[y0:y1, x0:x1] == n)) if x1 > x0 and y1 > y0 else 0.0
    visible = min(1.0, seen / area) if area > 0 else 0.0
    index_ok = False
    cw, ch = size
    m = cv2.getPerspectiveTransform(
        np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32),
        corners_px.astype(np.float32),
    )
    for fx, fy in ((0.0, 0.0), (1.0, 1.0)):  # top-left and bottom-right index corners
        # The index patch: 10 x 18 mm, 2 mm in from the corner.
        sx = 1 if fx == 0 else -1
        sy = 1 if fy == 0 else -1
        local = np.array(
            [
                [fx * cw + sx * 2, fy * ch + sy * 2],
                [fx * cw + sx * 12, fy * ch + sy * 2],
                [fx * cw + sx * 12, fy * ch + sy * 20],
                [fx * cw + sx * 2, fy * ch + sy * 20],
            ]
        )
        patch = cv2.perspectiveTransform(local.reshape(-1, 1, 2), m).reshape(-1, 2)
        px0, py0 = np.maximum(np.floor(patch.min(0)).astype(int), 0)
        px1, py1 = np.minimum(np.ceil(patch.max(0)).astype(int) + 1, [wid, hgt])
        if px1 <= px0 or py1 <= py0:
            continue
        mask = np.zeros((py1 - py0, px1 - px0), np.uint8)
        cv2.fillPoly(mask, [np.round(patch - [px0, py0]).astype(np.int32)], 1)
        total = int(mask.sum())
        mine = labels[py0:py1, px0:px1] == n
        if total and np.count_nonzero(mine & (mask == 1)) >= 0.97 * total:
            index_ok = True
    return CardTruth(
        card_id=placement.card_id,
        face_up=placement.face_up,
        corners_px=corners_px,
        centre_mm=placement.centre_mm,
        visible=visible,
        index_visible=index_ok,
    )


# --- random scenes for tests and benchmarks -------------------------------------------------


def random_scene(
    faces: FaceSource,
    card_ids: Sequence[str],
    rng: np.random.Generator,
    *,
    n_cards: int = 12,
    image_size: tuple[int, int] = (2304, 1296),
    px_per_mm: tuple[float, float] = (1.8, 3.0),
    max_tilt_deg: float = 25.0,
    max_view_deg: float = 35.0,
    hands: float = 0.25,
    overlap: float = 0.3,
    sleeves: float = 0.3,
    face_down: float = 0.1,
    clutter: int = 3,
    hard: bool = True,
) -> Scene:
    """A varied scene with ``n_cards`` distinct cards from ``card_ids`` (ids may repeat if
    fewer), laid out alone, in piles and in fans inside the camera's view, each seen at no
    more than ``max_view_deg`` from straight above (camera tilt plus the lens's angle)."""
    scale = float(rng.uniform(*px_per_mm))
    tilt = float(rng.uniform(0, max_tilt_deg))
    table = (1200.0, 1000.0)
    camera = Camera(
        image_size=image_size,
        target_mm=(600.0 + rng.uniform(-50, 50), 500.0 + rng.uniform(-50, 50)),
        px_per_mm=scale,
        tilt_deg=tilt,
        tilt_dir_deg=float(rng.uniform(0, 360)),
        yaw_deg=float(rng.uniform(-20, 20)),
        distance_mm=float(rng.uniform(700, 1300)),
    )
    h = camera_homography(camera)
    inv = np.linalg.inv(h)
    chosen = list(rng.permutation(len(card_ids))[: max(n_cards, 0)])
    while len(chosen) < n_cards:
        chosen.append(int(rng.integers(len(card_ids))))
    placements: list[CardPlacement] = []
    occupied: list[FloatArray] = []
    wid, hgt = image_size
    margin = 60.0
    sleeve_tint = _bgr(rng.integers(180, 256, 3))
    sleeve_on = rng.random() < sleeves
    i = 0
    attempts = 0
    while i < len(chosen) and attempts < 400:
        attempts += 1
        card_id = card_ids[chosen[i]]
        face = faces(card_id)
        size = (face.shape[1] / 5.0, face.shape[0] / 5.0)
        group = 1
        if rng.random() < overlap and i + 1 < len(chosen):
            group = min(len(chosen) - i, int(rng.integers(2, 5)))
        px = rng.uniform(margin, wid - margin)
        py = rng.uniform(margin, hgt - margin)
        centre = project(inv, np.array([[px, py]]))[0]
        angle = float(rng.uniform(-180, 180))
        fan = rng.random() < 0.5
        group_cards: list[CardPlacement] = []
        for k in range(group):
            cid = card_ids[chosen[i + k]]
            if fan:
                a = angle + k * rng.uniform(12, 20)
                pivot = np.array(centre)
                rad = math.radians(a)
                c = pivot + 40 * np.array([math.sin(rad), -math.cos(rad)])
                c = c + k * np.array([math.cos(rad), math.sin(rad)]) * 4
            else:
                a = angle + rng.uniform(-8, 8)
                rad = math.radians(angle)
                shift = np.array([math.cos(rad), math.sin(rad)]) * rng.uniform(16, 26)
                c = np.array(centre) + k * shift + rng.uniform(-2, 2, 2)
            group_cards.append(
                CardPlacement(
                    cid,
                    (float(c[0]), float(c[1])),
                    float(a),
                    face_up=bool(rng.random() >= face_down),
                    sleeve=Sleeve(tint=sleeve_tint) if sleeve_on else None,
                    lift_mm=0.3 * k,
                )
            )
        if any(view_angle_deg(camera, g.centre_mm) > max_view_deg for g in group_cards):
            continue
        quads = [project(h, card_corners_mm(g.centre_mm, size, g.angle_deg)) for g in group_cards]
        allpts = np.concatenate(quads)
        if (
            (allpts < 10).any()
            or (allpts[:, 0] > wid - 10).any()
            or (allpts[:, 1] > hgt - 10).any()
        ):
            continue
        hull = cv2.convexHull(allpts.astype(np.float32))
        if any(_overlaps(hull, other) for other in occupied):
            continue
        occupied.append(hull)
        placements.extend(group_cards)
        i += group
    hand_list: list[Hand] = []
    if rng.random() < hands and placements:
        target = placements[int(rng.integers(len(placements)))].centre_mm
        hand_list.append(
            Hand(
                tip_mm=(target[0] + rng.uniform(-30, 30), target[1] + rng.uniform(-30, 30)),
                angle_deg=float(rng.uniform(0, 360)),
                skin=_bgr(_SKINS[int(rng.integers(len(_SKINS)))]),
                scale=float(rng.uniform(0.85, 1.15)),
            )
        )
    items: list[Clutter] = []
    for _ in range(int(rng.integers(0, clutter + 1))):
        for _try in range(20):
            p = project(inv, np.array([[rng.uniform(0, wid), rng.uniform(0, hgt)]]))[0]
            kind = str(rng.choice(["mug", "coin", "token", "die", "note", "pencil"]))
            size_mm = {"mug": 85, "coin": 24, "token": 30, "die": 16, "note": 76, "pencil": 170}[
                kind
            ]
            blob = project(h, _circle_poly(p, size_mm * 0.6 + 10, 12)).astype(np.float32)
            if not any(_overlaps(blob, other) for other in occupied):
                occupied.append(blob)
                items.append(
                    Clutter(
                        kind,
                        (float(p[0]), float(p[1])),
                        float(size_mm),
                        _bgr(rng.integers(20, 240, 3)),
                        float(rng.uniform(0, 180)),
                    )
                )
                break
    glare: tuple[Glare, ...] = ()
    if hard and rng.random() < 0.4 and placements:
        g = placements[int(rng.integers(len(placements)))].centre_mm
        glare = (
            Glare(
                (g[0] + rng.uniform(-20, 20), g[1] + rng.uniform(-20, 20)),
                float(rng.uniform(6, 14)),
                float(rng.uniform(0.2, 0.5)),
            ),
        )
    lighting = Lighting(
        brightness=float(rng.uniform(0.7, 1.1)),
        gradient=float(rng.uniform(0, 0.6 if hard else 0.2)),
        gradient_dir_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.3)),
        colour_gain=(
            float(rng.uniform(0.85, 1.12)),
            float(rng.uniform(0.85, 1.12)),
            float(rng.uniform(0.85, 1.12)),
        ),
        glare=glare,
    )
    return Scene(
        faces=faces,
        cards=placements,
        table_mm=table,
        texture=str(rng.choice(TEXTURES)),
        texture_seed=int(rng.integers(1 << 30)),
        hands=hand_list,
        clutter=items,
        camera=camera,
        lighting=lighting,
        blur_px=float(rng.uniform(0, 1.2 if hard else 0.5)),
        noise=float(rng.uniform(1, 5 if hard else 2)),
        jpeg_quality=int(rng.integers(60, 95)) if hard else 92,
    )


def _bgr(values: Any) -> tuple[int, int, int]:
    return (int(values[0]), int(values[1]), int(values[2]))


_SKINS = ((120, 160, 210), (90, 130, 180), (60, 90, 140), (40, 60, 100), (140, 180, 225))


def _overlaps(a: NDArray[Any], b: NDArray[Any]) -> bool:
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2), b.reshape(-1, 1, 2))
    return bool(inter > 1.0)
