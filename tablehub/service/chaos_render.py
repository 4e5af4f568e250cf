"""Camera frames of the simulated Chaos in Gotham City table (the vision layer's renderer).

``TableRenderer`` draws what lies on the simulated table (``chaos_sim.Placed``) with the
stand-in card art, as the overhead camera would see it: a wooden table, the hub at the top
edge, cards turned a little as people lay them.  The demo keeps a frame of every complete
trick; the frames are also what a vision reader reads once one is plugged in.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.service.chaos_sim import Placed
from tablehub.vision.cardart import standin_faces
from tablehub.vision.scene import Camera, CardPlacement, Scene, render_scene


class TableRenderer:
    def __init__(
        self,
        table_mm: tuple[float, float] = (900.0, 600.0),
        image_size: tuple[int, int] = (1280, 720),
        seed: int = 0,
    ) -> None:
        width, depth = table_mm
        scale = min(image_size[0] / width, image_size[1] / depth) * 0.97
        self.table_mm = table_mm
        self.camera = Camera(
            image_size=image_size, target_mm=(width / 2, depth / 2), px_per_mm=scale
        )
        self.faces = standin_faces()
        self.seed = seed
        self.frames = 0

    def scene(self, placed: Mapping[str, Placed]) -> Scene:
        cards = [
            CardPlacement(p.card_id, p.centre, p.angle_deg, p.face_up) for p in placed.values()
        ]
        return Scene(
            faces=self.faces,
            cards=cards,
            table_mm=self.table_mm,
            texture="wood",
            texture_seed=self.seed,
            camera=self.camera,
        )

    def render(self, placed: Mapping[str, Placed]) -> NDArray[Any]:
        """One BGR frame of the table as it is now."""
        self.frames += 1
        rendered = render_scene(self.scene(placed), np.random.default_rng((self.seed, self.frames)))
        image: NDArray[Any] = rendered.image
        return image

    def save(self, placed: Mapping[str, Placed], path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), self.render(placed))
        return path
