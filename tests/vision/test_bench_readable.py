"""The card benchmark's readable bar: a card counts only where what shows of it tells it
from every other card of the deck, at the camera's resolution."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from bench.readable import Distinguisher
from tablehub.vision.scene import CardTruth, RenderedScene

W, H = 63, 88  # mm; the faces are at 5 px/mm, the camera sees 2 px/mm


def _face(*squares: tuple[int, int]) -> Any:
    """A white card face with black 10 mm squares at the given top-left corners (mm)."""
    face = np.full((H * 5, W * 5, 3), 255, np.uint8)
    for x, y in squares:
        face[y * 5 : (y + 10) * 5, x * 5 : (x + 10) * 5] = 0
    return face


FACES = {
    "a": _face((4, 4)),
    "b": _face((4, 4), (26, 70)),  # the same top half as "a"; a second mark at the bottom
    "c": _face((40, 40)),
}


def _scene(shown_rows: slice) -> tuple[Any, RenderedScene]:
    """Card "a" upright at (20, 20) px, 2 px/mm, the given rows of its pixels in view."""
    corners = np.array([[20, 20], [20 + 2 * W, 20], [20 + 2 * W, 20 + 2 * H], [20, 20 + 2 * H]])
    labels = np.zeros((240, 170), np.int16)
    labels[shown_rows, 20 : 20 + 2 * W] = 1
    visible = float(np.count_nonzero(labels)) / (4 * W * H)
    truth = CardTruth("a", True, corners.astype(float), (0.0, 0.0), visible, True)
    image = np.zeros((240, 170, 3), np.uint8)
    return SimpleNamespace(blur_px=0.5), RenderedScene(image, (truth,), np.eye(3), labels)


def test_a_card_showing_only_what_another_card_shares_is_not_readable() -> None:
    judge = Distinguisher(FACES.__getitem__, list(FACES))
    scene, rendered = _scene(slice(20, 20 + H))  # the top half: "b" looks the same there
    assert judge.readable(scene, rendered) == [False]


def test_a_card_showing_what_tells_it_from_every_other_card_is_readable() -> None:
    judge = Distinguisher(FACES.__getitem__, list(FACES))
    scene, rendered = _scene(slice(20, 20 + 2 * H - 10))  # all but a strip: "b"'s mark shows
    assert judge.readable(scene, rendered) == [True]


def test_another_card_turned_round_can_be_the_look_alike() -> None:
    """Card "b" upside down has a mark where "a" has its own, and a second one low down:
    turned, it is "a"'s twin where only the top shows."""
    faces = {"a": FACES["a"], "b": _face((W - 14, H - 14), (26, 4))}
    judge = Distinguisher(faces.__getitem__, list(faces))
    scene, rendered = _scene(slice(20, 20 + 40))  # the top 20 mm
    assert judge.readable(scene, rendered) == [False]
    scene, rendered = _scene(slice(20, 20 + 2 * H - 10))  # all but 5 mm: the second mark
    assert judge.readable(scene, rendered) == [True]
