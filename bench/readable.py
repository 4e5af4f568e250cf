"""Which rendered cards a reader could read at all: the benchmark's honest bar.

A card counts as *readable* (``bench.cards`` then expects its id) when it shows enough:
at least 60% of it, or -- face up -- one of its index corners whole (the renderer's own
``visible`` / ``index_visible``).  That is necessary, not sufficient: a card can show a
corner whose index, at the camera's resolution, looks the same as another card's (a "6"
and an "8" five pixels high), or a strip that is the same on two cards (the left pips of
a 7 and an 8).  No reader can tell those apart from the pixels, so they are not counted
as readable, and the benchmark says how many were left out and how they were read.

The test is on the card designs themselves, not on any reader: the part of the card the
camera sees (from the renderer's label image) is compared with the same part of every
other card of the same size, either way up, both blurred to what the camera resolves
there (its pixel size and the scene's blur).  The card is *distinguishable* when, against
every other card, at least ``MIN_PIXELS`` camera pixels differ by at least ``MIN_CONTRAST``
of full scale in some colour channel.  The bar is low on purpose (three pixels of 20%
contrast is less than a human needs): doubtful cases stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

from tablehub.vision.scene import CardTruth, RenderedScene, Scene

GRID = 2.0  # px/mm of the comparison
MIN_PIXELS = 3.0  # camera pixels that must differ
MIN_CONTRAST = 0.2  # of full scale, in one colour channel


def shows(truth: CardTruth) -> bool:
    """The renderer's bar: at least 60% of the card shows, or a face-up card's index
    corner does."""
    return truth.visible >= 0.6 or (truth.face_up and truth.index_visible)


class Distinguisher:
    """Caches the card designs on the comparison grid (``faces``: id -> BGRA image)."""

    def __init__(self, faces: Callable[[str], Any], ids: Sequence[str]) -> None:
        self.faces = faces
        self.ids = list(ids)
        self._grids: dict[tuple[str, tuple[int, int]], Any] = {}

    def _grid(self, card_id: str, shape: tuple[int, int]) -> Any:
        key = (card_id, shape)
        if key not in self._grids:
            face = self.faces(card_id)
            bgr = face[..., :3].astype(np.float32)
            if face.shape[2] == 4:
                alpha = face[..., 3:4].astype(np.float32) / 255
                bgr = bgr * alpha + 255 * (1 - alpha)
            self._grids[key] = cv2.resize(bgr, shape, interpolation=cv2.INTER_AREA)
        return self._grids[key]

    def readable(self, scene: Scene, rendered: RenderedScene) -> list[bool]:
        """Per rendered card: readable by the renderer's bar and distinguishable."""
        out = []
        for n, truth in enumerate(rendered.cards, start=1):
            seen = shows(truth)
            if not seen or not truth.face_up or truth.visible >= 0.97:
                out.append(seen)
                continue
            out.append(self.distinguishable(truth, n, scene, rendered))
        return out

    def distinguishable(
        self, truth: CardTruth, n: int, scene: Scene, rendered: RenderedScene
    ) -> bool:
        face = self.faces(truth.card_id)
        w_mm, h_mm = face.shape[1] / 5.0, face.shape[0] / 5.0
        shape = (round(w_mm * GRID), round(h_mm * GRID))
        w, h = shape
        grid = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        m = cv2.getPerspectiveTransform(grid, truth.corners_px.astype(np.float32))
        seen = cv2.warpPerspective(
            (rendered.labels == n).astype(np.uint8),
            m,
            shape,
            flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
        ).astype(bool)
        if not seen.any():
            return False
        # What the camera resolves there: its pixel (a box about 1/p mm wide) and the
        # scene's blur, on the 2 px/mm grid.
        side = float(np.linalg.norm(truth.corners_px[1] - truth.corners_px[0]))
        p = side / w_mm  # camera px per mm at this card
        sigma = GRID * math.hypot(0.5 / p, scene.blur_px / p)
        # Only the pixels seen are compared: the designs' colours there (N x 3), and for
        # the other card turned round, those of the pixels opposite (flat index reversed).
        where = np.flatnonzero(seen)
        opposite = seen.size - 1 - where
        mine = cv2.GaussianBlur(self._grid(truth.card_id, shape), (0, 0), sigma)
        mine_seen = mine.reshape(-1, 3)[where]
        need = MIN_PIXELS * (GRID / p) ** 2  # grid pixels per camera pixel, times three
        for other in self.ids:
            if other == truth.card_id:
                continue
            of = self.faces(other)
            if abs(of.shape[1] / 5.0 - w_mm) > 1 or abs(of.shape[0] / 5.0 - h_mm) > 1:
                continue
            theirs = cv2.GaussianBlur(self._grid(other, shape), (0, 0), sigma).reshape(-1, 3)
            for pixels in (where, opposite):
                d = np.abs(mine_seen - theirs[pixels])
                differ = np.maximum(np.maximum(d[:, 0], d[:, 1]), d[:, 2]) >= 255 * MIN_CONTRAST
                if float(np.count_nonzero(differ)) < need:
                    return False
        return True
