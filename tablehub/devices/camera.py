"""Cameras: one small interface, four sources.

* ``Picamera2Camera`` — the Camera Module 3 on a Pi (picamera2 from apt, imported lazily);
* ``OpenCVCamera`` — any UVC webcam through ``cv2.VideoCapture``;
* ``ReplayCamera`` — a folder of images or a video file, frame by frame (looping);
* ``SimulatedCamera`` — frames produced by code: a ``FrameSource`` callable (frame index ->
  image).  The card-vision table-scene renderer plugs in here; without one, a plain table
  surface is drawn.

Every ``read()`` returns an ``H x W x 3`` ``uint8`` BGR image (OpenCV's order) or raises
``CameraError`` with a message a person can act on.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tablehub.config import CameraConfig

log = logging.getLogger(__name__)

Frame = npt.NDArray[np.uint8]
FrameSource = Callable[[int], Frame]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CameraError(RuntimeError):
    """The camera cannot deliver a frame; the message says what to check."""


class Camera(ABC):
    description: str = "camera"
    in_loop: bool = False  # True: reading is cheap, the service may read on its event loop

    def __init__(self) -> None:
        self.frames_read = 0

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def _read(self) -> Frame: ...

    def read(self) -> Frame:
        """The next frame (blocking; the service calls it from a worker thread)."""
        frame = self._read()
        self.frames_read += 1
        return frame

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Camera:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _as_bgr(frame: Any, what: str) -> Frame:
    array = np.asarray(frame)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim != 3 or array.shape[2] not in (3, 4) or array.dtype != np.uint8:
        raise CameraError(f"{what} gave a frame of shape {array.shape} {array.dtype}")
    result: Frame = np.ascontiguousarray(array[:, :, :3])
    return result


class Picamera2Camera(Camera):
    """The Raspberry Pi camera through picamera2 (``sudo apt install python3-picamera2``)."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.size = (width, height)
        self.description = f"picamera2 {width}x{height}"
        self._cam: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as err:
            raise CameraError(
                "picamera2 is not available: on Raspberry Pi OS run "
                "'sudo apt install python3-picamera2' and create the venv with "
                "--system-site-packages"
            ) from err
        try:
            self._cam = Picamera2()
            # "RGB888" is B,G,R in memory: exactly what OpenCV expects
            config = self._cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}
            )
            self._cam.configure(config)
            self._cam.start()
        except (RuntimeError, IndexError, OSError) as err:
            self.close()
            raise CameraError(
                f"the Pi camera did not start ({err}); check the ribbon cable and that no "
                "other program uses the camera ('rpicam-hello --list-cameras')"
            ) from err

    def _read(self) -> Frame:
        if self._cam is None:
            raise CameraError("the camera is not open")
        return _as_bgr(self._cam.capture_array("main"), "picamera2")

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


class OpenCVCamera(Camera):
    """A USB webcam (or anything ``cv2.VideoCapture`` opens) by index or device path."""

    def __init__(self, device: int | str, width: int, height: int) -> None:
        super().__init__()
        self.device, self.width, self.height = device, width, height
        self.description = f"OpenCV camera {device} at {width}x{height}"
        self._cap: Any = None

    def open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(
                f"no camera at {self.device!r}: check that it is plugged in ('ls /dev/video*') "
                "and that the user is in the 'video' group"
            )
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._cap = cap

    def _read(self) -> Frame:
        if self._cap is None:
            raise CameraError("the camera is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.device!r} gave no frame (unplugged or busy?)")
        return _as_bgr(frame, f"camera {self.device!r}")

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ReplayCamera(Camera):
    """Frames from a folder of images (sorted by name) or a video file, looping."""

    def __init__(self, path: str | Path, loop: bool = True) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        self.loop = loop
        self.description = f"replay of {self.path}"
        self._images: list[Path] = []
        self._cap: Any = None
        self._index = 0

    def open(self) -> None:
        import cv2

        if self.path.is_dir():
            self._images = sorted(
                p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._images:
                raise CameraError(f"{self.path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        elif self.path.is_file():
            self._cap = cv2.VideoCapture(str(self.path))
            if not self._cap.isOpened():
                raise CameraError(f"{self.path} is not a video OpenCV can read")
        else:
            raise CameraError(f"{self.path} does not exist (camera.replay_path)")
        self._index = 0

    def _read(self) -> Frame:
        import cv2

        if self._images:
            if self._index >= len(self._images):
                if not self.loop:
                    raise CameraError(f"{self.path}: no more frames")
                self._index = 0
            path = self._images[self._index]
            self._index += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise CameraError(f"{path} is not an image OpenCV can read")
            return _as_bgr(image, str(path))
        if self._cap is None:
            raise CameraError("the replay is not open")
        ok, frame = self._cap.read()
        if not ok and self.loop and self._index > 0:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok:
            raise CameraError(f"{self.path}: no more frames")
        self._index += 1
        return _as_bgr(frame, str(self.path))

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._images = []


def plain_table(width: int, height: int) -> FrameSource:
    """The default simulated scene: an empty green baize with a little sensor noise."""

    def source(index: int) -> Frame:
        rng = np.random.default_rng(index)
        frame = np.empty((height, width, 3), dtype=np.uint8)
        frame[:] = (40, 110, 30)  # BGR baize
        noise = rng.integers(-6, 7, size=(height, width, 1), dtype=np.int16)
        result: Frame = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        return result

    return source


class SimulatedCamera(Camera):
    """Frames made by code: ``source(index)`` for index 0, 1, 2, ...  Swap the source at any
    time (``set_source``) to change the scene, as a renderer driven by a simulation does."""

    def __init__(
        self, width: int, height: int, source: FrameSource | None = None, in_loop: bool = False
    ) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.in_loop = in_loop
        self.source = source or plain_table(width, height)
        self.description = f"simulated camera {width}x{height}"
        self._open = False

    def set_source(self, source: FrameSource) -> None:
        self.source = source

    def open(self) -> None:
        self._open = True

    def _read(self) -> Frame:
        if not self._open:
            raise CameraError("the simulated camera is not open")
        return _as_bgr(self.source(self.frames_read), "the simulated frame source")

    def close(self) -> None:
        self._open = False


def make_camera(
    config: CameraConfig, simulated: bool = False, source: FrameSource | None = None
) -> Camera:
    """The camera the configuration asks for (``simulated`` forces the simulated one)."""
    if simulated or config.source == "simulated":
        return SimulatedCamera(config.width, config.height, source)
    if config.source == "picamera2":
        return Picamera2Camera(config.width, config.height)
    if config.source == "opencv":
        return OpenCVCamera(config.device, config.width, config.height)
    if config.source == "replay":
        return ReplayCamera(config.replay_path)
    raise CameraError(f"unknown camera source {config.source!r}")
