"""The camera as a dice source for the hub: frames in, ``DiceEvent("camera", ...)`` out.

A throw is reported once the picture has stopped changing and the camera reads the same
dice in ``settle_frames`` frames in a row; the same dice are not reported again until the
tray changes (a new throw may show the same faces: the picture changing is what tells),
or the referee asks for a re-read.  A still picture is not counted again.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from tablehub.observations import DiceEvent, DieReading, Observation
from tablehub.vision.dice import DieRead, count_dice
from tablehub.vision.dice_geometry import DiceCamera

MOVED = 3.0  # mean grey change (0-255) of the small picture that says the tray changed
Counter = Callable[[npt.NDArray[np.uint8], DiceCamera | None], list[DieRead]]


class DiceFrameReader:
    """A ``FrameReader`` (``tablehub.service.app``) for a camera over the dice tray."""

    reads_dice = True  # the hub's dice re-reads come here too

    def __init__(
        self,
        camera: DiceCamera | None = None,
        settle_frames: int = 2,
        counter: Counter = count_dice,
    ) -> None:
        self.camera = camera  # calibrated geometry; None: guessed from each frame
        self.settle_frames = settle_frames
        self.counter = counter
        self.frames = 0
        self._seen: tuple[DieReading, ...] | None = None
        self._streak = 0
        self._reported: tuple[DieReading, ...] | None = None
        self._small: npt.NDArray[np.float32] | None = None

    def __call__(self, frame: npt.NDArray[np.uint8]) -> list[Observation]:
        self.frames += 1
        moved = self._moved(frame)
        dice = self._seen
        if moved or dice is None:
            reads = self.counter(frame, self.camera)
            dice = tuple(sorted((d.to_reading() for d in reads), key=_order))
        if moved or dice != self._seen:
            self._seen, self._streak = dice, 0
            self._reported = None  # the dice moved: what settles next is a new reading
        self._streak += 1
        if not dice or self._streak < self.settle_frames or dice == self._reported:
            return []
        self._reported = dice
        return [DiceEvent("camera", dice, throw_id=f"frame-{self.frames}")]

    def _moved(self, frame: npt.NDArray[np.uint8]) -> bool:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (80, 60), interpolation=cv2.INTER_AREA).astype(np.float32)
        last, self._small = self._small, small
        return last is not None and float(np.mean(np.abs(small - last))) > MOVED

    def reread(self, zone: str | None) -> None:
        """Report what lies in the tray again (the next settled reading)."""
        self._reported = None


def _order(d: DieReading) -> tuple[str, int, str]:
    return (d.colour, d.value or 0, d.status)
