"""Copies of one design on a pile: the identifier's pose jitter, and copies laid on copies.

``python -m bench.pile_pose [--cards N] [--frames F] [--quick]``

The card tracker tells a Get Adler! card laid on an identical one apart by the top card's
new pose (``tablehub.vision.tracker``: ``POSE_MM``, ``POSE_DEG``).  Two figures say whether
those tolerances fit:

1. *jitter*: one card lies still on the discard pile; the frames differ only in sensor
   noise.  How far the pose the identifier reads (centre and angle from its corners) strays
   from that card's mean pose, frame to frame.  It must stay under the tolerance, or a card
   lying still would be taken for a new one.
2. *copies*: a copy laid by hand on its twin (``sim_camera.lay``: a few mm and degrees off);
   each pair is rendered and read frame by frame through a ``CardTracker`` as the simulated
   camera does.  How many give exactly one "appeared" event (seen), none (missed: laid
   within the tolerance; the player is asked to lay it again), or more (false).  The
   "truth" column is the same with the renderer's exact poses.

At the two scales the demo uses: 1 px/mm (``--vision truth``) and 2 px/mm (``--vision
real``, a table camera's).  The image is a 360 x 300 mm window around the pile.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import cv2
import numpy as np

from tablehub.service.sim_camera import enrolled_standin, lay
from tablehub.vision.cardart import standin_faces
from tablehub.vision.identify import EnrolledDeck, read_cards
from tablehub.vision.scene import Camera, CardPlacement, RenderedScene, Scene, render_scene
from tablehub.vision.tracker import POSE_DEG, POSE_MM, CardTracker, Sighting, card_pose
from tablehub.vision.zones import default_zones

QUICK_ARGS = ["--cards", "6", "--frames", "4"]
TABLE_MM = (900.0, 600.0)
WINDOW_MM = (360.0, 300.0)
DESIGNS = ("adler:pistol", "adler:escape", "adler:question", "adler:arrest", "adler:magnifier")
Point = tuple[float, float]


def _pile() -> Point:
    zone = next(z for z in default_zones(*TABLE_MM, 4) if z.name == "discard-2")
    xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def _render(cards: list[CardPlacement], scale: float, seed: int) -> RenderedScene:
    pile = _pile()
    size = (round(WINDOW_MM[0] * scale), round(WINDOW_MM[1] * scale))
    scene = Scene(
        faces=standin_faces(),
        cards=cards,
        table_mm=TABLE_MM,
        texture="felt-blue",
        camera=Camera(image_size=size, target_mm=pile, px_per_mm=scale),
        noise=1.5,
        jpeg_quality=None,
    )
    return render_scene(scene, np.random.default_rng(seed))


def _pose(corners_px: np.ndarray, rendered: RenderedScene) -> tuple[Point, float]:
    to_table = np.linalg.inv(rendered.table_to_image)
    points = np.asarray(corners_px, np.float64).reshape(1, -1, 2)
    corners = cv2.perspectiveTransform(points, to_table)[0]
    return card_pose([(float(x), float(y)) for x, y in corners])


def _read(rendered: RenderedScene, deck: EnrolledDeck | None, scale: float) -> list[Sighting]:
    """One frame's sightings: the identifier's, or (``deck`` None) the renderer's truth."""
    out = []
    if deck is None:
        for c in rendered.cards:
            if c.visible >= 0.5:
                centre, angle = _pose(c.corners_px, rendered)
                out.append(Sighting(c.card_id, c.face_up, 0.99, centre, angle))
        return out
    for r in read_cards(rendered.image, deck, px_per_mm=scale):
        centre, angle = _pose(r.corners, rendered)
        out.append(
            Sighting(r.card_id, r.face_up, r.confidence, centre, angle if r.complete else None)
        )
    return out


def _turn(a: float, b: float) -> float:
    d = (a - b) % 180.0
    return min(d, 180.0 - d)


def jitter(deck: EnrolledDeck, scale: float, cards: int, frames: int) -> tuple[list[float], ...]:
    """Distances (mm) and turns (degrees) of each reading from its card's mean pose."""
    rng = random.Random(1)
    mm: list[float] = []
    deg: list[float] = []
    for n in range(cards):
        spot, angle = lay(rng, _pile())
        card = CardPlacement(DESIGNS[n % len(DESIGNS)], spot, angle)
        poses = []
        for f in range(frames):
            seen = _read(_render([card], scale, seed=1000 * n + f), deck, scale)
            poses += [(s.centre_mm, s.angle_deg) for s in seen if s.angle_deg is not None]
        if len(poses) < 2:
            continue
        cx = statistics.fmean(p[0][0] for p in poses)
        cy = statistics.fmean(p[0][1] for p in poses)
        base = poses[0][1] or 0.0
        mean = base + statistics.fmean(((a or 0.0) - base + 90) % 180 - 90 for _, a in poses)
        mm += [math.dist(c, (cx, cy)) for c, _ in poses]
        deg += [_turn(a or 0.0, mean) for _, a in poses]
    return mm, deg


def copies(deck: EnrolledDeck | None, scale: float, cards: int) -> tuple[int, int, int]:
    """(seen, missed, false) of ``cards`` copies laid on their twins."""
    rng = random.Random(2)
    seen = missed = false = 0
    for n in range(cards):
        design = DESIGNS[n % len(DESIGNS)]
        lower = CardPlacement(design, *lay(rng, _pile()))
        upper = CardPlacement(design, *lay(rng, _pile()), lift_mm=0.5)
        tracker = CardTracker(default_zones(*TABLE_MM, 4), agree_frames=2, forget_frames=2,
                              copies=True)  # fmt: skip
        events = []
        for f, cards_now in enumerate([[lower]] * 3 + [[lower, upper]] * 4):
            rendered = _render(cards_now, scale, seed=5000 * n + f)
            events += [e for e in tracker.update(_read(rendered, deck, scale)) if f >= 3]
        appeared = [e for e in events if e.change == "appeared"]
        if len(events) == len(appeared) == 1:
            seen += 1
        elif not events:
            missed += 1
        else:
            false += 1
    return seen, missed, false


def _q(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else math.nan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=40, help="cards (and pairs) per scale")
    parser.add_argument("--frames", type=int, default=8, help="frames per still card")
    parser.add_argument("--quick", action="store_true", help="6 cards, 4 frames")
    args = parser.parse_args()
    if args.quick:
        args.cards, args.frames = 6, 4
    cv2.setNumThreads(1)
    deck = enrolled_standin("adler")
    print(f"tolerance: {POSE_MM} mm, {POSE_DEG} degrees (tablehub.vision.tracker)")
    for scale in (1.0, 2.0):
        started = time.perf_counter()
        mm, deg = jitter(deck, scale, args.cards, args.frames)
        print(
            f"{scale:.0f} px/mm jitter of a still card ({len(mm)} readings): centre p50 "
            f"{_q(mm, 0.5):.2f} p95 {_q(mm, 0.95):.2f} max {max(mm, default=math.nan):.2f} mm; "
            f"angle p50 {_q(deg, 0.5):.2f} p95 {_q(deg, 0.95):.2f} "
            f"max {max(deg, default=math.nan):.2f} deg"
        )
        truth = copies(None, scale, args.cards)
        real = copies(deck, scale, args.cards)
        print(
            f"{scale:.0f} px/mm copies laid on twins ({args.cards}): seen/missed/false "
            f"truth {truth[0]}/{truth[1]}/{truth[2]}, identifier {real[0]}/{real[1]}/{real[2]} "
            f"({time.perf_counter() - started:.0f} s)"
        )


if __name__ == "__main__":
    main()
