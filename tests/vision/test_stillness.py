"""A frame with nothing new reuses the last reading; any change a reader could see is new."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tablehub.vision.calibration import Calibration, TableGeometry
from tablehub.vision.cardart import standin_faces
from tablehub.vision.decks import DECKS
from tablehub.vision.identify import enroll_images
from tablehub.vision.reader import CardFrameReader
from tablehub.vision.scene import (
    Camera,
    CardPlacement,
    Hand,
    Scene,
    camera_homography,
    render_scene,
)
from tablehub.vision.stillness import StillFrames
from tablehub.vision.watch import CardWatcher
from tablehub.vision.zones import default_zones

# The lowest scale the benchmark reads at (a whole table in a 1280 x 720 frame): the
# smallest change a card's move makes in the thumbnail.
CAMERA = Camera(image_size=(1280, 720), target_mm=(600, 450), px_per_mm=1.0, tilt_deg=12)
CARD = CardPlacement("agi:bats-7", (600.0, 490.0), 20)
OTHER = CardPlacement("agi:hearts-q", (780.0, 400.0), -10)


def _frame(cards: list[CardPlacement], hands: list[Hand] = (), seed: int = 0, noise: float = 4.0):  # type: ignore[assignment,no-untyped-def]
    scene = Scene(faces=standin_faces(), cards=cards, hands=hands, texture="felt-green",
                  table_mm=(1200, 900), camera=CAMERA, noise=noise)  # fmt: skip
    return render_scene(scene, np.random.default_rng(seed)).image


def _still_after(first: np.ndarray) -> StillFrames:
    still = StillFrames()
    assert not still.unchanged(first)  # nothing to compare with: read
    return still


def test_camera_noise_is_nothing_new() -> None:
    still = _still_after(_frame([CARD, OTHER], seed=0))
    assert all(still.unchanged(_frame([CARD, OTHER], seed=k)) for k in (1, 2, 3))


@pytest.mark.parametrize(
    "change",
    [
        dataclasses.replace(CARD, centre_mm=(601.0, 490.0)),  # moved 1 mm
        dataclasses.replace(CARD, angle_deg=21.0),  # turned 1 degree
        dataclasses.replace(CARD, face_up=False),  # flipped
        dataclasses.replace(CARD, card_id="agi:bats-8"),  # swapped for another card
    ],
    ids=["moved", "turned", "flipped", "swapped"],
)
def test_a_card_changed_is_new(change: CardPlacement) -> None:
    still = _still_after(_frame([CARD, OTHER], seed=0))
    assert not still.unchanged(_frame([change, OTHER], seed=1))
    # ... and the changed frame is the one later frames are compared with.
    assert still.unchanged(_frame([change, OTHER], seed=2))


def test_a_card_laid_or_a_hand_coming_in_is_new() -> None:
    still = _still_after(_frame([OTHER], seed=0))
    assert not still.unchanged(_frame([CARD, OTHER], seed=1))
    hand = Hand(tip_mm=(600.0, 300.0), angle_deg=90, scale=1.1)
    assert not still.unchanged(_frame([CARD, OTHER], [hand], seed=2))


def test_another_frame_size_or_forgetting_reads_again() -> None:
    frame = _frame([CARD], seed=0)
    still = _still_after(frame)
    assert not still.unchanged(frame[:360, :640])
    assert not still.unchanged(frame)
    still.forget()
    assert not still.unchanged(frame)


def _deck():  # type: ignore[no-untyped-def]
    faces = standin_faces()
    ids = ["agi:bats-7", "agi:hearts-q", "agi:bats-8"]
    images = {i: faces(i) for i in ids}
    images["back"] = faces("agi:back")
    return enroll_images("agi", images, sizes_mm={i: DECKS["agi"].card(i).size_mm for i in ids})


def _watcher(reuse: bool) -> CardWatcher:
    h = camera_homography(CAMERA)
    cal = Calibration(np.linalg.inv(h), h, CAMERA.image_size, {}, 0.0,
                      TableGeometry(width_mm=1200, depth_mm=900))  # fmt: skip
    return CardWatcher(_deck(), cal, default_zones(1200, 900, 5), agree_frames=2,
                       reuse_still=reuse)  # fmt: skip


def test_the_watcher_reads_only_frames_with_something_new() -> None:
    """The same events as reading every frame; after each change only the frames the
    tracker wants to agree are read, the rest reuse their reading."""
    moved = dataclasses.replace(OTHER, centre_mm=(700.0, 400.0))
    frames = [_frame([CARD, OTHER], seed=k) for k in range(5)]
    frames += [_frame([CARD, moved], seed=k) for k in range(5, 10)]
    frames += [_frame([moved], seed=k) for k in range(10, 15)]
    runs = {}
    for reuse in (False, True):
        watcher = _watcher(reuse)
        log = [e for f in frames for e in watcher.process(f)]
        runs[reuse] = ([(e.change, e.card_id, e.zone) for e in log], watcher.frames_read)
    assert runs[True][0] == runs[False][0]
    assert [c for c, _, _ in runs[True][0]] == ["appeared", "appeared", "moved", "removed"]
    assert runs[False][1] == 15
    assert runs[True][1] == 6  # two per change: the tracker's agreeing frames


def test_a_reading_is_reused_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tablehub.vision.watch.MAX_REUSE", 3)
    watcher = _watcher(reuse=True)
    frame = _frame([CARD], seed=0)
    read = []
    for _ in range(10):
        before = watcher.frames_read
        watcher.process(frame)
        read.append(watcher.frames_read > before)
    assert read == [True, True, False, False, False, True, False, False, False, True]


def test_a_reread_reads_afresh() -> None:
    watcher = _watcher(reuse=True)
    reader = CardFrameReader(watcher, "agi")
    settled = [o for k in range(3) for o in reader(_frame([CARD], seed=k))]
    assert len(settled) == 1 and watcher.frames_read == 2
    reader.reread(None)
    again = [o for k in range(3, 6) for o in reader(_frame([CARD], seed=k))]
    assert len(again) == 1 and watcher.frames_read == 4
