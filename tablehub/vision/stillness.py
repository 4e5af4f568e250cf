"""Whether a camera frame shows anything new since the last frame read (pure).

Reading a frame's cards takes a fifth of a second on a desktop here and several times that
on a Pi. But most frames at a table show nothing new: players think, talk and look at
their hands. A frame that matches the last frame read, thumbnail pixel by thumbnail
pixel, to within the camera's noise holds the same cards, so its reading is reused.

Anything a reader could see changes some thumbnail pixels by far more than noise does:
a card placed, moved by a millimetre or turned by a degree, flipped or swapped, or a
hand coming in. This was measured on rendered scenes, in grey levels of an 8 x 8 pixel
average:

- camera noise moves a thumbnail pixel by at most 3 levels;
- a card moved by 1 mm changes one by 16 levels or more;
- a card turned by 1 degree changes one by 9 levels or more.

A slow drift (the light fading) adds up against the last frame *read*, not the previous
frame, so it is read again once it shows. Even so, a frame is read anew after
``max_reuse`` reuses, as a bound on how stale a reading can get.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]

THUMB_PX = 8  # frame pixels per thumbnail pixel, each way
CHANGE_LEVEL = 6.0  # grey levels a thumbnail pixel may move by before the frame is new
MAX_REUSE = 15  # frames in a row that may reuse one reading


def thumbnail(frame: Array) -> Array:
    """The frame in grey, averaged over ``THUMB_PX`` squares (float32)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape[:2]
    size = (max(w // THUMB_PX, 1), max(h // THUMB_PX, 1))
    out: Array = cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return out


class StillFrames:
    """Tells a frame that shows nothing new since the last frame read.

    ``unchanged(frame)`` answers for each frame in camera order. When it says False, the
    caller reads that frame, and it becomes the frame that later ones are compared with.
    """

    def __init__(self, level: float = CHANGE_LEVEL, max_reuse: int = MAX_REUSE) -> None:
        self.level = level
        self.max_reuse = max_reuse
        self._last: Array | None = None
        self._reused = 0

    def unchanged(self, frame: Array) -> bool:
        """Whether ``frame`` shows what the last frame read showed."""
        thumb = thumbnail(frame)
        last = self._last
        if (
            last is not None
            and last.shape == thumb.shape
            and self._reused < self.max_reuse
            and float(np.abs(thumb - last).max()) <= self.level
        ):
            self._reused += 1
            return True
        self._last = thumb
        self._reused = 0
        return False

    def forget(self) -> None:
        """Read the next frame whatever it shows."""
        self._last = None
