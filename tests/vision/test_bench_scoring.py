"""The card benchmark's scoring: which rendered card a reading is about."""

from __future__ import annotations

import numpy as np

from bench.cards import Tally, _attribute, score_scene
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


def test_a_reading_in_part_is_about_the_card_whose_outline_it_has() -> None:
    """A card read from one index corner while another card lies on its other one: the
    probe points at its first corner see the card on it, but the outline is its own."""
    under = CardTruth("croc", True, QUAD, (0.0, 0.0), 0.45, True)
    on_it = np.array([[90, 90], [130, 90], [130, 140], [90, 140]], float)  # on its corner
    top = CardTruth("back", False, on_it, (0.0, 0.0), 1.0, False)
    labels = np.zeros((300, 300), int)
    labels[100:189, 100:164] = 1
    labels[90:141, 90:131] = 2
    scene = RenderedScene(np.zeros((300, 300, 3), np.uint8), (under, top), np.eye(3), labels)
    reading = CardReading("croc", 0.9, QUAD + 1.0, True, False)
    assert _attribute(reading, scene) == 1


def test_a_wrong_reading_is_listed_with_its_scene() -> None:
    """The benchmark's list of wrong readings names the scene (0-based, in the run's
    order), so that ``bench_scene`` can rebuild it."""
    truth = CardTruth("h-7", True, QUAD, (0.0, 0.0), 1.0, True)
    labels = np.zeros((300, 300), int)
    labels[100:189, 100:164] = 1
    scene = RenderedScene(np.zeros((300, 300, 3), np.uint8), (truth,), np.eye(3), labels)
    tally = Tally(scenes=3)
    score_scene(scene, [CardReading("h-1", 0.9, QUAD, True, True)], tally)
    assert tally.wrong == 1
    assert tally.errors == [
        "scene 3: h-7 (up=True, vis=1.00) read as h-1 (complete=True, conf=0.90)"
    ]
