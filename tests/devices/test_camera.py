"""Cameras: replay from folders and videos, simulated frames, clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablehub.config import CameraConfig
from tablehub.devices.camera import (
    CameraError,
    OpenCVCamera,
    Picamera2Camera,
    ReplayCamera,
    SimulatedCamera,
    make_camera,
)


def numbered(i: int, w: int = 64, h: int = 48) -> np.ndarray:
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:, :, 2] = 10 * i  # red channel tells the frame
    return frame


def test_replay_folder_in_name_order_and_loops(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), numbered(i))
    (tmp_path / "notes.txt").write_text("ignored")
    with ReplayCamera(tmp_path) as cam:
        reds = [int(cam.read()[0, 0, 2]) for _ in range(4)]
    assert reds == [0, 10, 20, 0]
    with ReplayCamera(tmp_path, loop=False) as cam:
        for _ in range(3):
            cam.read()
        with pytest.raises(CameraError, match="no more frames"):
            cam.read()


def test_replay_video(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for i in range(3):
        writer.write(numbered(i * 10))
    writer.release()
    with ReplayCamera(path) as cam:
        frames = [cam.read() for _ in range(4)]
    assert all(f.shape == (48, 64, 3) and f.dtype == np.uint8 for f in frames)
    reds = [int(f[:, :, 2].mean()) for f in frames]
    assert reds[0] < 20 and reds[1] == pytest.approx(100, abs=10) and reds[3] < 20


def test_replay_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist"):
        ReplayCamera(tmp_path / "nope").open()
    with pytest.raises(CameraError, match="holds no images"):
        ReplayCamera(tmp_path).open()
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"not a video")
    with pytest.raises(CameraError, match="not a video"):
        ReplayCamera(bad).open()


def test_simulated_camera_uses_the_frame_source() -> None:
    cam = make_camera(CameraConfig(source="simulated", width=80, height=60))
    assert isinstance(cam, SimulatedCamera)
    with cam:
        baize = cam.read()
        assert baize.shape == (60, 80, 3)
        assert baize[:, :, 1].mean() > baize[:, :, 2].mean()  # green table
        cam.set_source(lambda i: numbered(i, 80, 60))
        assert int(cam.read()[0, 0, 2]) == 10  # index counts on: frame 1
    gray = SimulatedCamera(10, 10, lambda i: np.full((10, 10), 7, np.uint8))
    with gray:
        assert gray.read().shape == (10, 10, 3)
    broken = SimulatedCamera(10, 10, lambda i: np.zeros((10,), np.float64))  # type: ignore[arg-type,return-value]
    with broken, pytest.raises(CameraError, match="shape"):
        broken.read()


def test_missing_devices_say_what_to_do() -> None:
    with pytest.raises(CameraError, match="no camera at '/dev/video99'"):
        OpenCVCamera("/dev/video99", 640, 480).open()
    with pytest.raises(CameraError, match="python3-picamera2"):
        Picamera2Camera(640, 480).open()
    assert isinstance(
        make_camera(CameraConfig(source="picamera2"), simulated=True), SimulatedCamera
    )
