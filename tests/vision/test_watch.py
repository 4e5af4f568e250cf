"""Frames to events: a card laid, a hand passing over it, the card flipped and taken."""

from __future__ import annotations

import numpy as np

from tablehub.vision.calibration import Calibration, TableGeometry
from tablehub.vision.cardart import standin_faces
from tablehub.vision.decks import DECKS
from tablehub.vision.identify import enroll_images
from tablehub.vision.scene import (
    Camera,
    CardPlacement,
    Hand,
    Scene,
    camera_homography,
    render_scene,
)
from tablehub.vision.watch import CardWatcher
from tablehub.vision.zones import default_zones

CAMERA = Camera(image_size=(1280, 720), target_mm=(600, 450), px_per_mm=1.9, tilt_deg=12)
TRICK = (600.0, 490.0)


def _deck():  # type: ignore[no-untyped-def]
    faces = standin_faces()
    ids = ["agi:bats-7", "agi:hearts-q", "agi:riddles-3", "agi:diamonds-10"]
    images = {i: faces(i) for i in ids}
    images["back"] = faces("agi:back")
    return enroll_images("agi", images, sizes_mm={i: DECKS["agi"].card(i).size_mm for i in ids})


def _frame(cards: list[CardPlacement], hands: list[Hand] = (), seed: int = 0):  # type: ignore[assignment,no-untyped-def]
    scene = Scene(faces=standin_faces(), cards=cards, hands=hands, texture="felt-blue",
                  table_mm=(1200, 900), camera=CAMERA)  # fmt: skip
    return render_scene(scene, np.random.default_rng(seed)).image


def test_events_from_frames() -> None:
    h = camera_homography(CAMERA)
    cal = Calibration(np.linalg.inv(h), h, CAMERA.image_size, {}, 0.0,
                      TableGeometry(width_mm=1200, depth_mm=900))  # fmt: skip
    watcher = CardWatcher(_deck(), cal, default_zones(1200, 900, 5), agree_frames=2)
    card = CardPlacement("agi:bats-7", TRICK, 20)
    other = CardPlacement("agi:hearts-q", (780.0, 400.0), -10)
    log = []
    empty = _frame([])
    for frame in [empty, _frame([card, other]), _frame([card, other], seed=1)]:
        log += watcher.process(frame)
    assert sorted((e.change, e.card_id, e.zone) for e in log) == [
        ("appeared", "agi:bats-7", "trick"),
        ("appeared", "agi:hearts-q", "table"),
    ]
    # A hand reaches over the trick card and leaves again: no event.
    log = []
    for k, dx in enumerate((-60.0, -20.0, 20.0, 60.0)):
        hand = Hand(tip_mm=(TRICK[0] + dx, TRICK[1] + 10), angle_deg=90, scale=1.1)
        log += watcher.process(_frame([card, other], [hand], seed=k))
    log += watcher.process(_frame([card, other], seed=7))
    assert log == []
    # Turned face down, then taken away.
    down = CardPlacement("agi:bats-7", TRICK, 20, face_up=False)
    log = [e for f in (_frame([down, other]), _frame([down, other], seed=3))
           for e in watcher.process(f)]  # fmt: skip
    assert [(e.change, e.card_id, e.face_up) for e in log] == [("flipped", None, False)]
    log = [e for f in (_frame([other]), _frame([other], seed=4), _frame([other], seed=5))
           for e in watcher.process(f)]  # fmt: skip
    assert [(e.change, e.zone) for e in log] == [("removed", "trick")]


def test_renderer_feeds_the_simulated_camera() -> None:
    from tablehub.devices.camera import SimulatedCamera
    from tablehub.vision.scene import frame_source

    small = Camera(image_size=(640, 360), target_mm=(600, 450), px_per_mm=0.9)
    scenes = [
        Scene(faces=standin_faces(), cards=[CardPlacement("agi:bats-7", TRICK, 0)], camera=small),
        Scene(faces=standin_faces(), cards=[], camera=small),
    ]
    with SimulatedCamera(640, 360, frame_source(lambda i: scenes[min(i, 1)], seed=2)) as cam:
        first, second = cam.read(), cam.read()
    assert first.shape == (360, 640, 3)
    assert frame_source(lambda i: scenes[0], seed=2)(0).tobytes() == first.tobytes()
    assert np.abs(first.astype(int) - second.astype(int)).mean() > 1  # the card went away


def test_a_copy_laid_on_its_twin_is_seen_by_its_pose() -> None:
    """Two copies of one card on a discard pile: the identity never changes, the top card's
    pose (from the identifier's corners) does.  A hand over the pile adds nothing."""
    camera = Camera(image_size=(1280, 720), target_mm=(520, 330), px_per_mm=1.9, tilt_deg=12)
    h = camera_homography(camera)
    cal = Calibration(np.linalg.inv(h), h, camera.image_size, {}, 0.0,
                      TableGeometry(width_mm=1200, depth_mm=900))  # fmt: skip
    watcher = CardWatcher(_deck(), cal, default_zones(1200, 900, 5), agree_frames=2, copies=True)
    pile = (490.0, 300.0)  # discard-1
    lower = CardPlacement("agi:bats-7", pile, -2.0)
    upper = CardPlacement("agi:bats-7", (pile[0] + 6.0, pile[1] - 4.0), 6.0, lift_mm=0.5)

    def frames(cards: list[CardPlacement], seeds: range, hands: list[Hand] = ()):  # type: ignore[assignment,no-untyped-def]
        scene = Scene(faces=standin_faces(), cards=cards, hands=hands, texture="felt-blue",
                      table_mm=(1200, 900), camera=camera)  # fmt: skip
        out = []
        for seed in seeds:
            frame = render_scene(scene, np.random.default_rng(seed)).image
            out += [(e.change, e.card_id, e.zone) for e in watcher.process(frame)]
        return out

    assert frames([lower], range(3)) == [("appeared", "agi:bats-7", "discard-1")]
    assert frames([lower, upper], range(10, 14)) == [("appeared", "agi:bats-7", "discard-1")]
    hand = Hand(tip_mm=(pile[0] + 10, pile[1] + 20), angle_deg=90, scale=1.1)
    assert (
        frames([lower, upper], range(20, 23), [hand]) + frames([lower, upper], range(30, 33)) == []
    )
    assert frames([lower], range(40, 44)) == [("removed", "agi:bats-7", "discard-1")]
