"""Render realistic pictures of thrown dice, with the truth about each die, for tests and
benchmarks of the pip counter and for the virtual tower's camera mode.

A true 3-D scene, drawn with OpenCV: each die is a cube with a pose (place, turn, and for a
cocked die a tilt as it leans on a neighbour or the tray wall), seen through the same
pinhole camera the counter assumes (``dice_geometry.DiceCamera``).  Every visible face is a
textured square (body colour, rounded bevelled edges, pips in one of several styles)
warped into the picture by its homography and shaded by a point light (Lambert, plus a
specular glare spot); dice cast soft shadows and contact shadows on a felt, wood or tray
background; the frame gets uneven light, vignetting, sensor noise, slight defocus and JPEG
compression.  Drawn at twice the size and reduced, for anti-aliasing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.dice_colours import BODY_BGR, PIP_BGR
from tablehub.vision.dice_geometry import DiceCamera, cube_corners, rotation

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]

SS = 2  # supersampling
TEX = 128  # face texture size
CASES = (
    "plain",
    "rotated",
    "perspective",
    "glare",
    "shadow",
    "touching",
    "cocked",
    "dim",
    "blur",
    "crowded",
)
PIP_STYLES = ("painted", "drilled", "small", "large")

# cube faces: (normal axis, sign) -> indices into CUBE_CORNERS, ordered around the face
FACES = {
    (2, 1): (4, 5, 7, 6),  # top
    (2, -1): (0, 1, 3, 2),
    (0, 1): (1, 3, 7, 5),
    (0, -1): (0, 2, 6, 4),
    (1, 1): (2, 3, 7, 6),
    (1, -1): (0, 1, 5, 4),
}
LAYOUT = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


@dataclass
class DieSpec:
    value: int  # the face on top (for a cocked die: the face that would have been)
    colour: str
    x: float  # mm, table coordinates of the die's centre
    y: float
    yaw: float
    tilt: float = 0.0  # radians; > 0: cocked
    tilt_axis: float = 0.0
    pip_style: str = "painted"
    glare: float = 0.0  # strength of this die's specular spot (0-1)


@dataclass
class Scene:
    camera: DiceCamera
    dice: list[DieSpec]
    background: str = "felt"
    background_bgr: tuple[int, int, int] = (40, 38, 36)
    light: tuple[float, float, float] = (60.0, -80.0, 400.0)  # mm
    ambient: float = 0.4
    exposure: float = 1.0
    noise: float = 2.5
    blur: float = 0.0
    jpeg: int = 90
    seed: int = 0
    case: str = "plain"
    touching: set[int] = field(default_factory=set)  # indices of dice that touch another


@dataclass(frozen=True)
class DieTruth:
    value: int | None  # None unless stable
    colour: str
    status: str  # "stable" or "cocked"
    centre: tuple[float, float]  # pixels
    touching: bool


# --- scenes -------------------------------------------------------------------------------


def random_scene(rng: random.Random, case: str = "plain", colours: tuple[str, ...] = ()) -> Scene:
    """A plausible throw for one hard case (see CASES)."""
    if case not in CASES:
        raise ValueError(f"unknown case {case!r}")
    width, height = 640, 480
    camera_mm = rng.uniform(150, 230)
    focal = rng.uniform(480, 640) * (camera_mm / 170)
    if case == "perspective":
        focal *= 0.75  # a wide lens: dice at the edges show their sides
        camera_mm *= 0.8
    camera = DiceCamera(width, height, focal, camera_mm, 16.0)
    half_w = camera.unproject(0, 0, 0)[0]
    half_h = camera.unproject(0, 0, 0)[1]
    n = {"crowded": rng.randint(8, 12), "touching": rng.randint(2, 5)}.get(case, rng.randint(1, 6))
    palette = colours or ("white", "green", "purple", "red")
    styles = PIP_STYLES
    dice: list[DieSpec] = []
    touching: set[int] = set()
    margin = 14.0
    for i in range(n):
        for _attempt in range(60):
            yaw = rng.uniform(0, math.pi / 2) if case != "plain" else rng.uniform(-0.15, 0.15)
            spec = DieSpec(
                value=rng.randint(1, 6),
                colour=rng.choice(palette),
                x=rng.uniform(half_w + margin, -half_w - margin),
                y=rng.uniform(half_h + margin, -half_h - margin),
                yaw=yaw,
                pip_style=rng.choice(styles),
            )
            if case == "perspective" and rng.random() < 0.7:
                # push towards the corners
                spec.x = math.copysign(rng.uniform(0.55, 0.85) * -half_w, rng.uniform(-1, 1))
                spec.y = math.copysign(rng.uniform(0.5, 0.8) * -half_h, rng.uniform(-1, 1))
            if case == "touching" and i > 0 and rng.random() < 0.85:
                anchor = dice[rng.randrange(len(dice))]
                if not _place_touching(spec, anchor, dice, rng, camera):
                    continue
                touching.add(i)
                touching.add(dice.index(anchor))
                break
            if case == "cocked" and (i == 0 or rng.random() < 0.35):
                spec.tilt = math.radians(rng.uniform(22, 42))
                spec.tilt_axis = rng.uniform(0, 2 * math.pi)
            if not _overlaps(spec, dice, 2.0) and _inside(camera, spec):
                break
        else:
            continue
        dice.append(spec)
    scene = Scene(camera=camera, dice=dice, touching=touching, case=case)
    _dress(scene, rng)
    return scene


def _dress(scene: Scene, rng: random.Random) -> None:
    case = scene.case
    scene.background = rng.choice(("felt", "wood", "tray"))
    scene.background_bgr = {
        "felt": rng.choice([(70, 40, 25), (45, 45, 45), (30, 30, 60), (60, 30, 30)]),
        "wood": (rng.randint(25, 45), rng.randint(45, 65), rng.randint(70, 95)),
        "tray": (rng.randint(18, 35),) * 3,
    }[scene.background]
    angle = rng.uniform(0, 2 * math.pi)
    slant = rng.uniform(0.0, 0.6)  # light direction from vertical (tan)
    height = rng.uniform(300, 600)
    scene.light = (math.cos(angle) * slant * height, math.sin(angle) * slant * height, height)
    scene.ambient = rng.uniform(0.35, 0.5)
    scene.exposure = rng.uniform(0.9, 1.1)
    scene.noise = rng.uniform(1.0, 4.0)
    scene.blur = rng.uniform(0.0, 0.5)
    scene.jpeg = rng.randint(80, 95)
    for die in scene.dice:
        die.glare = rng.uniform(0.0, 0.35)
    if case == "glare":
        for die in scene.dice:
            die.glare = rng.uniform(0.5, 1.0)
    elif case == "shadow":
        height = rng.uniform(120, 220)
        slant = rng.uniform(0.8, 1.6)
        scene.light = (math.cos(angle) * slant * height, math.sin(angle) * slant * height, height)
        scene.ambient = rng.uniform(0.25, 0.35)
    elif case == "dim":
        scene.exposure = rng.uniform(0.45, 0.65)
        scene.noise = rng.uniform(4.0, 7.0)
    elif case == "blur":
        scene.blur = rng.uniform(0.9, 1.6)
        scene.jpeg = rng.randint(60, 80)
    scene.seed = rng.randrange(1 << 30)


def _footprint(spec: DieSpec, grow: float = 0.0) -> NDArray[np.float32]:
    half = 8.0 + grow / 2
    c, s = math.cos(spec.yaw), math.sin(spec.yaw)
    pts = [
        (spec.x + c * dx - s * dy, spec.y + s * dx + c * dy)
        for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))
    ]
    return np.array(pts, dtype=np.float32)


def _overlaps(spec: DieSpec, dice: list[DieSpec], gap: float) -> bool:
    mine = _footprint(spec, gap + (9.0 if spec.tilt else 0.0))
    for other in dice:
        theirs = _footprint(other, 9.0 if other.tilt else 0.0)
        area, _ = cv2.intersectConvexConvex(mine, theirs)
        if area > 0:
            return True
    return False


def _inside(camera: DiceCamera, spec: DieSpec, margin: float = 4.0) -> bool:
    corners = cube_corners(
        (spec.x, spec.y), camera.die_mm, rotation(spec.yaw, spec.tilt, spec.tilt_axis)
    )
    px = camera.project(corners)
    return bool(
        px[:, 0].min() >= margin
        and px[:, 1].min() >= margin
        and px[:, 0].max() <= camera.width - margin
        and px[:, 1].max() <= camera.height - margin
    )


def _place_touching(
    spec: DieSpec, anchor: DieSpec, dice: list[DieSpec], rng: random.Random, camera: DiceCamera
) -> bool:
    """Put ``spec`` against ``anchor`` with a gap of 0-0.6 mm and no overlap."""
    if rng.random() < 0.6:
        spec.yaw = anchor.yaw + rng.uniform(-0.05, 0.05)
    direction = rng.uniform(0, 2 * math.pi)
    lo, hi = 8.0, 30.0
    for _ in range(30):
        mid = (lo + hi) / 2
        spec.x = anchor.x + math.cos(direction) * mid
        spec.y = anchor.y + math.sin(direction) * mid
        area, _ = cv2.intersectConvexConvex(_footprint(spec), _footprint(anchor))
        if area > 0:
            lo = mid
        else:
            hi = mid
    gap = rng.uniform(0.0, 0.6)
    spec.x = anchor.x + math.cos(direction) * (hi + gap)
    spec.y = anchor.y + math.sin(direction) * (hi + gap)
    others = [d for d in dice if d is not anchor]
    return not _overlaps(spec, others, 0.3) and _inside(camera, spec)


# --- drawing ------------------------------------------------------------------------------


def _face_values(top: int, rng: random.Random) -> dict[tuple[int, int], int]:
    adjacent = [v for v in range(1, 7) if v not in (top, 7 - top)]
    front = rng.choice(adjacent)
    right = rng.choice([v for v in adjacent if v not in (front, 7 - front)])
    return {
        (2, 1): top,
        (2, -1): 7 - top,
        (1, 1): front,
        (1, -1): 7 - front,
        (0, 1): right,
        (0, -1): 7 - right,
    }


def _texture(
    value: int, colour: str, style: str, rng: random.Random, glare: tuple[float, float, float]
) -> tuple[FloatImage, FloatImage]:
    """A face: (TEX, TEX, 3) colour in 0-1 and (TEX, TEX) alpha (rounded corners)."""
    body = np.array(BODY_BGR[colour], dtype=np.float32) / 255
    body = np.clip(body * rng.uniform(0.92, 1.06), 0, 1)
    pip = np.array(PIP_BGR[colour], dtype=np.float32) / 255
    tex = np.empty((TEX, TEX, 3), dtype=np.float32)
    tex[:] = body
    tex += (
        np.random.default_rng(rng.randrange(1 << 30)).normal(0, 0.012, tex.shape).astype(np.float32)
    )
    yy, xx = np.mgrid[0:TEX, 0:TEX].astype(np.float32) / (TEX - 1) * 2 - 1
    # rounded, bevelled edges: darker towards the rim, transparent at the corners
    radius = 0.3
    qx = np.maximum(np.abs(xx) - (1 - radius), 0)
    qy = np.maximum(np.abs(yy) - (1 - radius), 0)
    corner = np.sqrt(qx**2 + qy**2) / radius
    edge = np.maximum(np.maximum(np.abs(xx), np.abs(yy)), corner)
    alpha = np.clip((1.0 - corner) * TEX / 4, 0, 1).astype(np.float32)
    bevel = np.clip((edge - 0.82) / 0.18, 0, 1)
    tex *= (1 - 0.45 * bevel**1.5)[..., None]
    offset = rng.uniform(0.25, 0.31) if style != "large" else rng.uniform(0.27, 0.31)
    pip_r = {"painted": 0.1, "drilled": 0.105, "small": 0.075, "large": 0.125}[style]
    pip_r *= rng.uniform(0.92, 1.08)
    big_one = value == 1 and rng.random() < 0.3
    scale = 8
    canvas = np.zeros((TEX * scale, TEX * scale), dtype=np.uint8)
    for gx, gy in LAYOUT[value]:
        cx = (gx * offset * 2 * 0.5 + 0.5) * (TEX - 1) * scale
        cy = (gy * offset * 2 * 0.5 + 0.5) * (TEX - 1) * scale
        r = pip_r * (1.5 if big_one else 1.0) * TEX * scale
        cv2.circle(canvas, (round(cx), round(cy)), round(r), 255, -1)
    mask = cv2.resize(canvas, (TEX, TEX), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if style == "drilled":
        # a concave pip: darker rim (shadowed wall), paint a shade lighter in the middle
        inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=2)
        rim = np.clip(mask - inner, 0, 1)
        pip_colour = pip[None, None, :] * (1 - 0.35 * rim[..., None]) + 0.03
    else:
        pip_colour = pip[None, None, :] * np.ones_like(mask)[..., None]
    tex = (tex * (1 - mask[..., None]) + pip_colour * mask[..., None]).astype(np.float32)
    glare_x, glare_y, strength = glare
    if strength > 0:
        sigma = rng.uniform(0.07, 0.16)
        spot = np.exp(-((xx - glare_x) ** 2 + (yy - glare_y) ** 2) / (2 * sigma**2)) * strength
        tex = tex + spot[..., None] * 0.9
    return np.clip(tex, 0, 1.6), alpha


def _background(scene: Scene, rng: random.Random, w: int, h: int) -> FloatImage:
    base = np.array(scene.background_bgr, dtype=np.float32) / 255
    gen = np.random.default_rng(rng.randrange(1 << 30))
    img = np.empty((h, w, 3), dtype=np.float32)
    img[:] = base
    if scene.background == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(-0.3, 0.3)
        t = yy * math.cos(angle) + xx * math.sin(angle)
        warp = cv2.GaussianBlur(gen.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25) * 60
        grain = 0.5 + 0.5 * np.sin((t + warp) / rng.uniform(3, 7))
        streak = cv2.GaussianBlur(gen.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3)
        img *= (0.85 + 0.18 * grain + 0.05 * streak)[..., None]
    fibre = cv2.GaussianBlur(gen.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
    img *= (1 + 0.08 * fibre)[..., None]
    return img


def render(scene: Scene) -> tuple[Image, list[DieTruth]]:
    """The picture (BGR, 8 bit) and the truth for each die."""
    rng = random.Random(scene.seed)
    cam = scene.camera
    big = DiceCamera(
        cam.width * SS,
        cam.height * SS,
        cam.focal_px * SS,
        cam.camera_mm,
        cam.die_mm,
        None if cam.cx is None else cam.cx * SS,
        None if cam.cy is None else cam.cy * SS,
    )
    w, h = big.width, big.height
    img = _background(scene, rng, w, h)
    light = np.array(scene.light, dtype=np.float64)
    cam_pos = np.array([0.0, 0.0, cam.camera_mm])

    # shadows first, all on the table
    shade = np.zeros((h, w), dtype=np.float32)
    contact = np.zeros((h, w), dtype=np.float32)
    poses = []
    for die in scene.dice:
        rot = rotation(die.yaw, die.tilt, die.tilt_axis)
        corners = cube_corners((die.x, die.y), cam.die_mm, rot)
        poses.append((rot, corners))
        k = light[2] / np.maximum(light[2] - corners[:, 2], 1e-3)
        on_table = light + (corners - light) * k[:, None]
        on_table[:, 2] = 0
        hull = cv2.convexHull(big.project(on_table).astype(np.float32))
        cv2.fillConvexPoly(shade, np.round(hull).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
        base = corners.copy()
        base[:, 2] = 0
        hull = cv2.convexHull(big.project(base).astype(np.float32))
        cv2.fillConvexPoly(contact, np.round(hull).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    softness = 3 + 6 * (light[2] / 400)
    shade_soft = np.asarray(cv2.GaussianBlur(shade, (0, 0), softness * SS), dtype=np.float32)
    contact_soft = np.asarray(cv2.GaussianBlur(contact, (0, 0), 2.5 * SS), dtype=np.float32)
    img *= (1 - 0.55 * shade_soft - 0.35 * contact_soft)[..., None]

    # dice, farthest from the camera first
    order = sorted(
        range(len(scene.dice)),
        key=lambda i: -float(np.linalg.norm(poses[i][1].mean(axis=0) - cam_pos)),
    )
    truths: list[DieTruth | None] = [None] * len(scene.dice)
    for i in order:
        die = scene.dice[i]
        rot, corners = poses[i]
        values = _face_values(die.value, rng)
        centre3 = corners.mean(axis=0)
        for (axis, sign), idx in FACES.items():
            normal = rot[:, axis] * sign
            face_centre = corners[list(idx)].mean(axis=0)
            to_cam = cam_pos - face_centre
            if float(normal @ to_cam) <= 0:
                continue
            to_light = light - face_centre
            to_light /= np.linalg.norm(to_light)
            diffuse = max(0.0, float(normal @ to_light))
            view = to_cam / np.linalg.norm(to_cam)
            half = to_light + view
            half /= np.linalg.norm(half)
            spec = max(0.0, float(normal @ half)) ** 30
            glare = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), die.glare * spec)
            tex, alpha = _texture(values[(axis, sign)], die.colour, die.pip_style, rng, glare)
            turn = rng.randrange(4)
            tex, alpha = np.rot90(tex, turn), np.rot90(alpha, turn)
            quad = big.project(corners[list(idx)]).astype(np.float32)
            _paste(img, tex * (scene.ambient + (1 - scene.ambient) * diffuse), alpha, quad)
        top = corners[list(FACES[(2, 1)])].mean(axis=0) if not die.tilt else centre3
        u, v = cam.project(top[None, :])[0]
        truths[i] = DieTruth(
            value=None if die.tilt else die.value,
            colour=die.colour,
            status="cocked" if die.tilt else "stable",
            centre=(float(u), float(v)),
            touching=i in scene.touching,
        )

    # the camera: uneven light, vignetting, exposure, defocus, noise, compression
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    ramp_angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx / w - 0.5) * math.cos(ramp_angle) + (yy / h - 0.5) * math.sin(ramp_angle)
    gain = scene.exposure * (1 - 0.25 * r2) * (1 + rng.uniform(0.0, 0.3) * ramp)
    img *= gain[..., None]
    tint = np.array([rng.uniform(0.94, 1.06), 1.0, rng.uniform(0.94, 1.06)], dtype=np.float32)
    img *= tint
    small = cv2.resize(img, (cam.width, cam.height), interpolation=cv2.INTER_AREA)
    if scene.blur > 0.05:
        small = cv2.GaussianBlur(small, (0, 0), scene.blur)
    gen = np.random.default_rng(rng.randrange(1 << 30))
    small = np.asarray(small, dtype=np.float32) * 255
    small += gen.normal(0, scene.noise, small.shape).astype(np.float32)
    out = np.clip(small, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
    if ok:
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return out, [t for t in truths if t is not None]


def _paste(img: FloatImage, tex: FloatImage, alpha: FloatImage, quad: NDArray[np.float32]) -> None:
    """Warp a face texture onto ``quad`` (4 picture points) and blend it in."""
    x0 = max(math.floor(quad[:, 0].min()) - 2, 0)
    y0 = max(math.floor(quad[:, 1].min()) - 2, 0)
    x1 = min(math.ceil(quad[:, 0].max()) + 2, img.shape[1])
    y1 = min(math.ceil(quad[:, 1].max()) + 2, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([[0, 0], [TEX - 1, 0], [TEX - 1, TEX - 1], [0, TEX - 1]], dtype=np.float32)
    dst = quad - np.array([x0, y0], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(np.ascontiguousarray(tex), matrix, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(np.ascontiguousarray(alpha), matrix, size, flags=cv2.INTER_LINEAR)
    roi = img[y0:y1, x0:x1]
    roi *= 1 - a[..., None]
    roi += warped * a[..., None]


def render_throw(
    values: list[tuple[int, str]],
    rng: random.Random,
    cocked: float = 0.0,
    camera: DiceCamera | None = None,
) -> tuple[Image, list[DieTruth], DiceCamera]:
    """A tray picture of these (value, colour) dice, for the virtual tower's camera mode,
    with the (calibrated) camera that took it (``camera``: a fixed one over the tray)."""
    scene = random_scene(rng, "plain")
    scene.dice = []
    if camera is not None:
        scene.camera = camera
    cam = scene.camera
    half_w, half_h = cam.unproject(0, 0, 0)
    for value, colour in values:
        for _ in range(200):
            spec = DieSpec(
                value=value,
                colour=colour,
                x=rng.uniform(half_w + 14, -half_w - 14),
                y=rng.uniform(half_h + 14, -half_h - 14),
                yaw=rng.uniform(0, math.pi / 2),
                pip_style=rng.choice(PIP_STYLES),
                glare=rng.uniform(0, 0.3),
            )
            if rng.random() < cocked:
                spec.tilt = math.radians(rng.uniform(22, 42))
                spec.tilt_axis = rng.uniform(0, 2 * math.pi)
            if not _overlaps(spec, scene.dice, 2.0) and _inside(cam, spec):
                scene.dice.append(spec)
                break
    image, truth = render(scene)
    return image, truth, cam
