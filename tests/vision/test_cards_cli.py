"""The cards and calibrate commands, end to end on rendered images."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from tablehub.vision.cardart import render_back, render_face
from tablehub.vision.decks import DECKS
from tablehub.vision.enroll import EnrollError, enroll_with_camera
from tablehub.vision.finder import find_cards
from tablehub.vision.identify import enroll_images, read_cards
from tablehub.vision.scene import Camera, CardPlacement, Scene, render_scene

IDS = ["chaos:red-6", "chaos:blue-6", "chaos:green-2", "chaos:loc-wayne-tower", "chaos:yellow-9"]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _faces() -> dict[str, np.ndarray]:
    deck = DECKS["chaos"]
    faces = {i: render_face(deck.card(i), 6.0) for i in IDS}
    faces["chaos:back"] = render_back(deck, 6.0)
    return faces


def _scene(cards: list[CardPlacement], seed: int = 1) -> np.ndarray:
    faces = _faces()
    scene = Scene(
        faces=faces.__getitem__,
        cards=cards,
        texture="wood",
        camera=Camera(image_size=(1280, 720), target_mm=(450, 450), px_per_mm=2.0, tilt_deg=15),
    )
    return render_scene(scene, np.random.default_rng(seed)).image


def _write_deck(folder: Path, photo: bool = False) -> None:
    folder.mkdir()
    for card_id, face in _faces().items():
        name = "back" if card_id.endswith(":back") else card_id
        image = face
        if photo:  # a flat photo: the card on a table, some margin round it
            bgr = face[..., :3].copy()
            bgr[face[..., 3] < 128] = (40, 90, 40)
            image = cv2.copyMakeBorder(bgr, 60, 60, 60, 60, cv2.BORDER_CONSTANT,
                                       value=(40, 90, 40))  # fmt: skip
        cv2.imwrite(str(folder / f"{name}.png"), image)


def test_enroll_from_dir_then_identify_json(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_deck(tmp_path / "scans", photo=True)
    assert main(["cards", "enroll", "--deck", "mychaos", "--from", str(tmp_path / "scans")]) == 0
    assert (data_dir / "decks" / "mychaos" / "deck.json").is_file()
    frame = _scene(
        [
            CardPlacement("chaos:red-6", (380, 430), 25),
            CardPlacement("chaos:blue-6", (520, 470), -40),
            CardPlacement("chaos:green-2", (450, 330), 100, face_up=False),
        ]
    )
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), frame)
    capsys.readouterr()
    assert main(["cards", "identify", "--deck", "mychaos", str(image), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["image"] == str(image)
    ids = sorted(c["id"] or "" for c in out["cards"])
    assert ids == ["", "chaos:blue-6", "chaos:red-6"]
    down = [c for c in out["cards"] if c["id"] is None]
    assert down[0]["face_up"] is False
    for card in out["cards"]:
        assert len(card["corners"]) == 4 and 0 <= card["confidence"] <= 1


def test_a_flat_photo_is_outlined_at_the_card_edge(tmp_path: Path) -> None:
    """A card photographed flat and square has perfectly straight sides, which the contour
    keeps only as their two ends: the sides are still fitted, not the rounded corners'
    chords (they were 4-7 px inside and half a degree askew, enough to enrol a red 6 that
    did not read again)."""
    _write_deck(tmp_path / "scans", photo=True)
    photo = cv2.imread(str(tmp_path / "scans" / "chaos:red-6.png"))
    found = find_cards(photo, min_card_px=0.3 * min(photo.shape[:2]))
    outline = max(found.outlines, key=lambda o: cv2.contourArea(o.corners.astype(np.float32)))
    h, w = _faces()["chaos:red-6"].shape[:2]
    edge = np.array([[60, 60], [60 + w, 60], [60 + w, 60 + h], [60, 60 + h]]) - 0.5
    nearest = [float(np.linalg.norm(outline.corners - c, axis=1).min()) for c in edge]
    assert max(nearest) < 1.5, outline.corners


def test_unknown_card_is_not_guessed() -> None:
    """A card that was never enrolled reads as unknown (or not at all), never as another."""
    faces = _faces()
    images = {k: v for k, v in faces.items() if k != "chaos:yellow-9"}
    images["back"] = images.pop("chaos:back")
    deck = enroll_images("t", images)
    frame = _scene([CardPlacement("chaos:yellow-9", (450, 450), 10)])
    assert all(r.card_id is None for r in read_cards(frame, deck))


def test_duplicates_are_flagged() -> None:
    faces = _faces()
    images = dict(faces)
    images["back"] = images.pop("chaos:back")
    deck = enroll_images("t", images, counts={i: 1 for i in IDS})
    frame = _scene(
        [CardPlacement("chaos:red-6", (380, 450), 0), CardPlacement("chaos:red-6", (540, 450), 90)]
    )
    readings = [r for r in read_cards(frame, deck) if r.card_id]
    assert [r.card_id for r in readings] == ["chaos:red-6"] * 2
    assert all(r.duplicate for r in readings)


def test_enroll_errors_are_clear(tmp_path: Path, data_dir: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "x.png").write_bytes(b"not a png")
    assert main(["cards", "enroll", "--deck", "d", "--from", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert "back.png" in err and "not a readable image" in err
    assert main(["cards", "enroll", "--deck", "Bad Name!", "--standin"]) == 2
    assert main(["cards", "identify", "--deck", "nothere", str(tmp_path / "x.png")]) == 2
    assert "no enrolled deck" in capsys.readouterr().err


def test_camera_enrollment_walkthrough() -> None:
    """The guided enrollment waits for each card to lie still, then for it to go."""
    order = ["chaos:red-6", "chaos:loc-wayne-tower"]
    frames: list[np.ndarray] = []
    empty = _scene([])
    for card_id in [*order, "chaos:back"]:
        frames += [empty] * 2
        up = not card_id.endswith("back")
        shown = card_id if up else "chaos:green-2"
        frames += [_scene([CardPlacement(shown, (450, 450), 5, face_up=up)])] * 5
    frames += [empty] * 3
    feed = iter(frames)
    said: list[str] = []
    images = enroll_with_camera(
        [(i, DECKS["chaos"].card(i).name) for i in order], lambda: next(feed), said.append
    )
    assert set(images) == {*order, "back"}
    assert said[0].startswith("Card 1 of 3: Red 6")
    assert said[-1] == "All cards enrolled."
    deck = enroll_images("cam", images)
    frame = _scene([CardPlacement("chaos:loc-wayne-tower", (430, 470), 60)], seed=9)
    assert [r.card_id for r in read_cards(frame, deck)] == ["chaos:loc-wayne-tower"]
    with pytest.raises(EnrollError, match="no single, still card"):
        enroll_with_camera([("chaos:red-6", "Red 6")], lambda: empty, said.append, max_frames=5)


def test_calibrate_command(tmp_path: Path, data_dir: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert main(["calibrate", "--print-markers", str(tmp_path / "m.png")]) == 0
    assert cv2.imread(str(tmp_path / "m.png")) is not None
    assert main(["calibrate", "--print-markers", str(tmp_path / "m.txt")]) == 2
    frame = tmp_path / "f.png"
    cv2.imwrite(str(frame), _scene([]))
    assert main(["calibrate", "--image", str(frame)]) == 1
    assert "need at least 2" in capsys.readouterr().err
    assert main(["calibrate", "--image", str(frame), "--check"]) == 1
