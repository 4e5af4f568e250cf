"""Template views the card comparison relies on being exact rearrangements."""

from __future__ import annotations

import numpy as np
import pytest

from tablehub.vision import match
from tablehub.vision.templates import build, grid_shape, to_cells, turn_cells


@pytest.mark.parametrize(
    "size_mm", [(63.0, 88.0), (63.0, 86.2), (88.0, 126.0), (41.0, 63.0), (57.5, 89.0)]
)
def test_turned_cells_are_the_cells_of_the_turned_card(size_mm: tuple[float, float]) -> None:
    w, h = grid_shape(size_mm)
    image = np.random.default_rng(1).random((h, w, 3), dtype=np.float32)
    turned = to_cells(np.ascontiguousarray(image[::-1, ::-1]), size_mm)
    assert np.array_equal(turn_cells(to_cells(image, size_mm)), turned)


def test_cell_mismatch_compares_every_cell_with_every_template() -> None:
    rng = np.random.default_rng(2)
    size = (63.0, 88.0)
    faces = {f"c{k}": rng.integers(0, 256, (176, 126, 3), np.uint8) for k in range(5)}
    group = build(faces, dict.fromkeys(faces, size)).groups[0]
    seen = group.cells[1][3] + rng.normal(0, 0.05, group.cells[1][3].shape).astype(np.float32)
    valid = rng.random(len(seen)) < 0.7
    blank = np.zeros((1, 1, 3), np.float32)  # the pixels: not used by the cell comparison
    view = match._View(
        [seen, turn_cells(seen)], [valid, valid[::-1].copy()], [None, None], [None, None],
        blank, blank[..., 0],
    )  # fmt: skip
    every = match._cell_mismatch(group, view, 1)
    dists = match._seen_mismatch(every, view)
    for o, cells in enumerate(view.cells):
        direct = ((cells[None] - group.cells[1]) ** 2).mean(-1).T[view.valid[o]]
        np.testing.assert_allclose(dists[o], direct, atol=1e-5)
    assert int(np.argmin(dists[0].sum(0))) == 3
    # A shortlist: its columns the same, the others left out (inf).
    short = match._only(every, np.array([1, 3]))
    assert np.array_equal(short[:, :, [1, 3]], every[:, :, [1, 3]])
    assert np.isinf(short[:, :, [0, 2, 4]]).all()


def test_index_shifts_are_the_index_corner_moved_a_pixel_at_a_time() -> None:
    size = (63.0, 88.0)
    w, h = grid_shape(size)
    pad = round(match.MARGIN_MM * 2)
    rng = np.random.default_rng(3)
    lk = match.Look(
        rng.random((h + 2 * pad, w + 2 * pad, 3), dtype=np.float32),
        np.full((h + 2 * pad, w + 2 * pad), 255, np.uint8),
        size,
        pad,
    )
    view = match._view(lk, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), (True, True))
    card = lk.refl[pad:-pad, pad:-pad]
    x0, y0, x1, y1 = match.INDEX_BOX
    s = match.INDEX_SHIFT
    for corner, seen in enumerate((card, card[::-1, ::-1])):
        shifts = view.shifts[corner]
        assert shifts is not None and len(shifts) == (2 * s + 1) ** 2
        for k, (dy, dx) in enumerate(
            (dy, dx) for dy in range(-s, s + 1) for dx in range(-s, s + 1)
        ):
            window = seen[y0 + dy : y1 + dy, x0 + dx : x1 + dx]
            assert np.array_equal(shifts[k], window.ravel())


def test_cell_differ_is_the_templates_cell_by_cell_difference_either_way_round() -> None:
    rng = np.random.default_rng(4)
    size = (63.0, 88.0)
    faces = {f"c{k}": rng.integers(0, 256, (176, 126, 3), np.uint8) for k in range(3)}
    group = build(faces, dict.fromkeys(faces, size)).groups[0]
    a, b = group.cells[2][0], group.cells[2][1]
    for turned, other in ((False, b), (True, turn_cells(b)), (False, b)):
        np.testing.assert_allclose(
            group.cell_differ(2, 0, 1, turned), ((a - other) ** 2).mean(-1), rtol=1e-6
        )


def test_a_cards_twins_are_the_cards_a_suit_sign_apart() -> None:
    """Twins: for each template, the others nearest it as coarse thumbnails, either way
    round (a card turned 180 degrees is the same card)."""
    size = (63.0, 88.0)
    grid = np.full((176, 126, 3), 240, np.uint8)
    a = grid.copy()
    a[20:60, 20:50] = 30  # a big mark at the top left
    near = a.copy()
    near[140:150, 100:110] = 30  # the same with a small sign
    far = grid.copy()
    far[100:160, 60:110] = 30  # another mark elsewhere
    turned = np.ascontiguousarray(near[::-1, ::-1])  # ``near`` upside down
    faces = {"a": a, "near": near, "far": far, "turned": turned}
    group = build(faces, dict.fromkeys(faces, size)).groups[0]
    twins = {group.labels[i]: [group.labels[j] for j in row] for i, row in enumerate(group.twins)}
    assert set(twins["a"]) == {"near", "turned"}
    assert twins["near"][0] == "turned" and twins["turned"][0] == "near"
