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
    view = match._View([seen, turn_cells(seen)], [valid, valid[::-1].copy()], [None, None])
    dists = match._cell_mismatch(group, view, 1)
    for o, cells in enumerate(view.cells):
        direct = ((cells[None] - group.cells[1]) ** 2).mean(-1).T[view.valid[o]]
        np.testing.assert_allclose(dists[o], direct, atol=1e-5)
    assert int(np.argmin(dists[0].sum(0))) == 3
