"""Lining a card's print up with its template (``match._align``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.cards import standin_deck
from tablehub.vision import match
from tablehub.vision.templates import blur_level

PX_PER_MM = 4.0


def _look_turned(card_id: str, turn_deg: float) -> tuple[match.SizeGroup, match.Look, int, int]:
    """A straight card alone on a grey table at 4 px/mm, looked at through an outline
    turned ``turn_deg`` about the card's middle: its print is turned that much the other
    way in the look."""
    deck, faces, _ = standin_deck("agi")
    face = cv2.resize(faces(card_id), (252, 352), interpolation=cv2.INTER_AREA)
    image = np.full((600, 500, 3), 90, np.uint8)
    image[124:476, 124:376] = face[..., :3]
    table_to_image = np.diag([PX_PER_MM, PX_PER_MM, 1.0])
    group = deck.templates.groups[0]
    w, h = group.size_mm
    centre = np.array([250.0, 300.0]) / PX_PER_MM
    a = np.radians(turn_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    square = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    quad = square @ rot.T + centre
    lk = match.look(image, table_to_image, quad, (w, h), [])
    return group, lk, group.labels.index(card_id), blur_level(PX_PER_MM)


@pytest.mark.parametrize("turn_deg", [-3.0, 3.0])
def test_a_card_a_few_degrees_off_its_outline_is_lined_up_turned(turn_deg: float) -> None:
    """An outline 3 degrees off the card (a blurred side, a sleeve): the turn ECC finds
    moves the template's top-left corner over 2 px on the 1 px/mm view while its middle
    stays put.  Judged by how far the corner moved, the turn was thrown away as a jump,
    and a bats 6 seen whole was read as a bats 4 (agi 1280x720 seed 7 scene 375)."""
    group, lk, n, level = _look_turned("agi:bats-6", turn_deg)
    warp = match._align(group, lk, n, 0, level)
    assert abs(float(warp[1, 0])) == pytest.approx(abs(np.radians(turn_deg)), abs=0.01)
    assert np.sign(warp[1, 0]) == -np.sign(turn_deg)


@pytest.mark.parametrize("shift", [(0.4, 0.0), (0.0, -0.3), (0.35, 0.25)])
def test_a_shift_alone_is_made_exact_where_a_turn_is_not_found(
    shift: tuple[float, float],
) -> None:
    """Where ECC finds no turn (it does not converge, or turns too far), the whole-pixel
    shift of the template match is made exact all the same: half a pixel off on the
    1 px/mm view is half a millimetre, enough to put a small print's strokes off."""
    group, _, n, level = _look_turned("agi:bats-6", 0.0)
    tmpl = group.align[level][n]
    moved = cv2.warpAffine(
        tmpl, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), tmpl.shape[::-1],
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    view = cv2.copyMakeBorder(moved, 3, 3, 3, 3, cv2.BORDER_REPLICATE)
    start = np.float32([[1, 0, 3], [0, 1, 3]])
    mask = np.full(view.shape, 255, np.uint8)
    warp = match._shift_only(tmpl, view, start, mask)
    assert warp[:, 2] - start[:, 2] == pytest.approx(shift, abs=0.08)
