"""Whether a camera frame shows anything new since the last frame read (pure).

Reading a frame's cards takes a fifth of a second on a desktop here and several times that
on a Pi. But most frames at a table show nothing new: players think, talk and look at
their hands. A frame that matches the last frame read, thumbnail pixel by thumbnail
pixel, to within the camera's noise, holds the same cards; ``CardWatcher`` reuses its
reading (once the tracker's agreeing frames have been read: see there).

Anything a reader could see changes some thumbnail pixels by far more than noise does:
a card placed, moved by a millimetre or turned by a degree, flipped or swapped, or a
hand coming in. This was measured on rendered scenes, in grey levels of an 8 x 8 pixel
average:

- camera noise moves a thumbnail pixel by at most 3 levels;
- a card moved by 1 mm changes one by 16 levels or more;
- a card turned by 1 degree changes one by 9 levels or more.

A slow drift (the light fading) adds up against the frame last seen to change, not the
previous frame, so it counts as a change once it shows.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]

THUMB_PX = 8  # frame pixels per thumbnail pixel, each way
CHANGE_LEVEL = 6.0  # grey levels a thumbnail pixel may move by before the frame is new


def thumbnail(frame: Array) -> Array:
    """The frame in grey, averaged over ``THUMB_PX`` squares (float32)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape[:2]
    size = (max(w // THUMB_PX, 1), max(h // THUMB_PX, 1))
    out: Array = cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return out


class StillFrames:
    """Tells a frame that shows nothing new since the last change.

    ``unchanged(frame)`` answers for each frame in camera order. A frame that it says is
    new becomes the one that later frames are compared with.
    """

    def __init__(self, level: float = CHANGE_LEVEL) -> None:
        self.level = level
        self._last: Array | None = None

    def unchanged(self, frame: Array) -> bool:
        """Whether ``frame`` shows what the frame of the last change showed."""
        thumb = thumbnail(frame)
        last = self._last
        if (
            last is not None
            and last.shape == thumb.shape
            and float(np.abs(thumb - last).max()) <= self.level
        ):
            return True
        self._last = thumb
        return False

    def forget(self) -> None:
        """Take the next frame as new, whatever it shows."""
        self._last = None
