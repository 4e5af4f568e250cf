"""The service's card reader (``tablehub.vision.reader``): calibration and the game's deck
from the data directory, frames from the simulated camera fed by the scene renderer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tablehub.config import Config, SeatsConfig, TableConfig
from tablehub.devices.camera import SimulatedCamera
from tablehub.observations import CardEvent
from tablehub.vision import storage
from tablehub.vision.calibration import Calibration, TableGeometry
from tablehub.vision.cardart import standin_faces
from tablehub.vision.decks import DECKS
from tablehub.vision.reader import GAME_DECKS, ReaderUnavailable, make_frame_reader
from tablehub.vision.scene import Camera, CardPlacement, Scene, camera_homography, frame_source

CAMERA = Camera(image_size=(1280, 720), target_mm=(600, 450), px_per_mm=1.9, tilt_deg=10)
TRICK = (600.0, 490.0)
IDS = ["agi:bats-7", "agi:hearts-q", "agi:riddles-3"]


def _config(root: Path) -> Config:
    return replace(
        Config(),
        data_dir=root,
        seats=SeatsConfig(("A", "B", "C", "D", "E")),
        table=TableConfig(width_mm=1200.0, depth_mm=900.0),
    )


def _calibrate(root: Path) -> None:
    h = camera_homography(CAMERA)
    geometry = TableGeometry(width_mm=1200, depth_mm=900)
    storage.save_calibration(
        Calibration(np.linalg.inv(h), h, CAMERA.image_size, {}, 0.0, geometry), root
    )


def _enrol(root: Path) -> None:
    faces = standin_faces(8.0)
    images = {i: faces(i) for i in IDS}
    images["back"] = faces("agi:back")
    storage.save_deck("agi", images, {i: DECKS["agi"].card(i).size_mm for i in IDS}, root=root)


def test_every_game_deck_is_a_known_stand_in_deck() -> None:
    assert set(GAME_DECKS.values()) <= set(DECKS)


def test_without_a_calibration_the_message_names_the_command(tmp_path: Path) -> None:
    with pytest.raises(ReaderUnavailable, match="run `tablehub calibrate`"):
        make_frame_reader(_config(tmp_path), "almost-got-im", root=tmp_path)


def test_without_the_games_deck_the_message_names_the_command(tmp_path: Path) -> None:
    _calibrate(tmp_path)
    with pytest.raises(ReaderUnavailable, match="tablehub cards enroll --deck chaos"):
        make_frame_reader(_config(tmp_path), "chaos-in-gotham", root=tmp_path)


def test_a_damaged_calibration_is_a_clear_message(tmp_path: Path) -> None:
    storage.calibration_path(tmp_path).write_text("{not json")
    with pytest.raises(ReaderUnavailable, match=r"damaged.*run `tablehub calibrate` again"):
        make_frame_reader(_config(tmp_path), "almost-got-im", root=tmp_path)


def test_a_game_without_cards_has_no_reader(tmp_path: Path) -> None:
    assert make_frame_reader(_config(tmp_path), "high-card", root=tmp_path) is None


def test_frames_from_the_simulated_camera_become_card_events(tmp_path: Path) -> None:
    _calibrate(tmp_path)
    _enrol(tmp_path)
    reader = make_frame_reader(_config(tmp_path), "almost-got-im", root=tmp_path, agree_frames=2)
    assert reader is not None and reader.deck == "agi"
    card = CardPlacement("agi:bats-7", TRICK, 15)
    pile = CardPlacement("agi:hearts-q", (490.0, 300.0), -5)  # discard-1 on this table
    # each state of the table held for four frames (the tracker wants two that agree)
    table = [[]] * 4 + [[card, pile]] * 4 + [[pile]] * 4

    def scene_at(i: int) -> Scene:
        return Scene(faces=standin_faces(), cards=table[min(i, len(table) - 1)],
                     table_mm=(1200, 900), camera=CAMERA, texture="felt-green")  # fmt: skip

    events: list[tuple[str, str | None, str]] = []
    with SimulatedCamera(1280, 720, frame_source(scene_at, seed=3)) as camera:
        for _ in table:
            events += [
                (e.change, e.card_id, e.zone)
                for e in reader(camera.read())
                if isinstance(e, CardEvent)
            ]
        assert sorted(events) == [
            ("appeared", "agi:bats-7", "trick"),
            ("appeared", "agi:hearts-q", "discard-1"),
            ("removed", "agi:bats-7", "trick"),
        ]
        reader.reread("discard-1")  # the hub asks: what lies there is reported again
        again = [(e.change, e.card_id) for f in range(4) for e in reader(camera.read())]
        assert again == [("appeared", "agi:hearts-q")]


def test_a_frame_of_another_size_than_calibrated_is_not_read(tmp_path: Path) -> None:
    _calibrate(tmp_path)
    _enrol(tmp_path)
    reader = make_frame_reader(_config(tmp_path), "almost-got-im", root=tmp_path, agree_frames=1)
    assert reader is not None
    small = np.zeros((360, 640, 3), np.uint8)
    assert reader(small) == []


def test_tablehub_run_uses_the_reader_or_says_what_to_run(tmp_path: Path) -> None:
    """The runner's camera hook: without a calibration the hub runs without the camera and
    says which command to run; once set up, the camera feeds this reader."""
    from types import SimpleNamespace

    from tablehub.service.app import Devices
    from tablehub.service.runner import RunOptions, _attach_camera

    config = _config(tmp_path)
    config = replace(config, camera=replace(config.camera, source="simulated"))
    lines: list[str] = []
    hub = SimpleNamespace(devices=Devices(), transcript=lines.append)
    health: dict[str, object] = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLEHUB_DATA_DIR", str(tmp_path))
        _attach_camera(config, RunOptions(), hub, "almost-got-im", None, health)  # type: ignore[arg-type]
        assert hub.devices.camera is None and hub.devices.reader is None
        assert any("camera not started" in ln and "tablehub calibrate" in ln for ln in lines)
        assert getattr(health["camera"], "state", None) == "failed"
        _calibrate(tmp_path)
        _enrol(tmp_path)
        _attach_camera(config, RunOptions(), hub, "almost-got-im", None, health)  # type: ignore[arg-type]
    assert isinstance(hub.devices.camera, SimulatedCamera)
    assert getattr(hub.devices.reader, "deck", None) == "agi"
