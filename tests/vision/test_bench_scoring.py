"""The card benchmark's scoring: which rendered card a reading is about."""

from __future__ import annotations

import numpy as np

from bench.cards import _attribute
from tablehub.vision.identify import CardReading
from tablehub.vision.scene import CardTruth, RenderedScene

QUAD = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], float)


def test_a_whole_reading_is_about_the_card_on_top_of_one_with_the_same_outline() -> None:
    """A card lying exactly on another: the outline is both cards', the print the top's."""
    under = CardTruth("c-10", True, QUAD, (0.0, 0.0), 0.04, False)
    top = CardTruth("h-7", True, QUAD + 3.0, (0.0, 0.0), 0.99, True)
    scene = RenderedScene(
        np.zeros((300, 300, 3), np.uint8), (under, top), np.eye(3), np.zeros((300, 300), int)
    )
    reading = CardReading("h-7", 0.9, QUAD + 0.5, True, True)
    assert _attribute(reading, scene) == 2
