"""Frames in, stable card events out: the finder, identifier and tracker wired together.

    watcher = CardWatcher(deck, calibration, zones)
    for frame in camera:                      # BGR frames from tablehub.devices.camera
        for event in watcher.process(frame):  # tablehub.observations.CardEvent
            ...

Positions are converted to table millimetres with the calibration (without one, pixel
coordinates stand in and every zone is "table"), and so is each card's pose (centre and
angle from the corners of a complete outline; a card read from its corner has none): the
tracker tells copies of one design on a pile apart by it (``piles``: the zones where cards
are laid on each other).  A frame that shows nothing new (``tablehub.vision.stillness``)
reuses the last reading, once the frames the tracker wants to agree have been read since
the last change (a reading is settled on as much evidence as before), and for at most
``MAX_REUSE`` frames in a row.  Regions covered by something that is not a readable card (a
hand, an arm, a mug, a pile) are "occluded": a card last seen there is not declared removed
while it is hidden, nor seen in a new pose, so a hand passing over the table produces no
events.
Pure: no camera, no clock; the caller feeds frames.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.observations import CardEvent
from tablehub.vision.calibration import Calibration
from tablehub.vision.identify import CardReading, EnrolledDeck, Thresholds, read_frame
from tablehub.vision.stillness import StillFrames
from tablehub.vision.tracker import CardTracker, Sighting, card_pose
from tablehub.vision.zones import PILES, Zone

Array = NDArray[Any]
MAX_REUSE = 15  # frames in a row that may reuse one reading (a bound on how stale it gets)


class CardWatcher:
    def __init__(
        self,
        deck: EnrolledDeck,
        calibration: Calibration | None,
        zones: Sequence[Zone] = (),
        *,
        agree_frames: int = 3,
        forget_frames: int = 3,
        thresholds: Thresholds | None = None,
        piles: Collection[str] = PILES,
        copies: bool = False,
        reuse_still: bool = True,
    ) -> None:
        self.deck = deck
        self.calibration = calibration
        self.thresholds = thresholds
        self.tracker = CardTracker(
            zones if calibration is not None else (),
            agree_frames=agree_frames,
            forget_frames=forget_frames,
            match_mm=35.0 if calibration is not None else 60.0,
            piles=piles,
            copies=copies,
        )
        self.agree_frames = agree_frames
        self.still = StillFrames() if reuse_still else None
        self._last: tuple[list[CardReading], list[Array]] | None = None
        self._still_reads = 0  # frames read in a row without a change
        self._reused = 0  # frames in a row that reused the last reading
        self.frames_read = 0  # frames whose cards were read (the rest reused a reading)

    def _to_mm(self, points_px: Array) -> Array:
        if self.calibration is None:
            return np.asarray(points_px, np.float64).reshape(-1, 2)
        return self.calibration.to_table(points_px)

    def _read(self, frame: Array) -> tuple[list[CardReading], list[Array]]:
        """The frame's cards and covers: read, or the last reading if nothing changed."""
        still = self.still is not None and self.still.unchanged(frame)
        if (
            still
            and self._last is not None
            and self._still_reads >= self.agree_frames
            and self._reused < MAX_REUSE
        ):
            self._reused += 1
            return self._last
        h = self.calibration.table_to_image if self.calibration is not None else None
        self._last = read_frame(frame, self.deck, self.thresholds, table_to_image=h)
        self._still_reads = self._still_reads + 1 if still else 1
        self._reused = 0
        self.frames_read += 1
        return self._last

    def forget(self, zone: str | None) -> None:
        """Forget what was settled in ``zone`` (or everywhere), and read the next frame
        afresh: the cards there are reported again as they are read now."""
        self.tracker.forget(zone)
        if self.still is not None:
            self.still.forget()

    def process(self, frame: Array) -> list[CardEvent]:
        """One frame: the events that became certain with it."""
        readings, covers = self._read(frame)
        sightings = []
        for r in readings:
            corners = [(float(x), float(y)) for x, y in self._to_mm(r.corners)]
            centre, angle = card_pose(corners)
            # A card read from its corner has a guessed outline: its pose is no evidence.
            pose = angle if r.complete else None
            sightings.append(Sighting(r.card_id, r.face_up, r.confidence, centre, pose))
        hulls = [h.astype(np.float32).reshape(-1, 1, 2) for h in covers]
        to_image = self.calibration.to_image if self.calibration is not None else None

        def occluded(point_mm: tuple[float, float]) -> bool:
            p = np.array([point_mm], np.float64)
            px = to_image(p)[0] if to_image is not None else p[0]
            return any(
                cv2.pointPolygonTest(h, (float(px[0]), float(px[1])), False) >= 0 for h in hulls
            )

        return self.tracker.update(sightings, occluded)
