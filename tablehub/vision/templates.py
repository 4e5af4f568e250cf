"""Enrolled card faces as matching templates on a fixed millimetre grid (pure).

A card on a calibrated table has a known size in millimetres, so every face -- enrolled or
seen -- is compared on the same grid: ``GRID`` pixels per mm, the card's interior cut into
square *cells* of ``CELL`` pixels.  Both sides are turned into *reflectance* first: each
colour channel divided by a smooth estimate of the local paper white (a dilation, then a
blur).  An even light, a colour cast or a brightness gradient cancel out; what is left is
what is printed.  Glare, a hand or a card lying on top spoil only the cells they touch,
and the identifier counts each cell's mismatch only up to a cap, so they cannot outvote
the cells that show the card.

Three views of every template, from coarse to fine:

* ``coarse`` -- a blurred thumbnail at ``COARSE`` px/mm: cheap to compare with every card
  and tolerant of a pose a few millimetres off (the shortlist);
* ``align`` -- grey at 1 px/mm, to find the small shift that lines a shortlisted card up;
* ``cells`` -- the full grid, cell by cell, for the decision.

The fine views are made at a few blur levels (``BLURS``): the frame's own resolution
decides which one a seen card is compared with (a card seen at 1 px/mm is soft on the
2 px/mm grid; comparing it with a sharp template would count the softness as a mismatch).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
BACK = "back"
GRID = 2.0  # pixels per mm of the comparison grid
CELL = 6  # cell side in grid pixels (3 mm)
INSET_MM = 1.5  # the card's edge (rounded corners, a sleeve's rim) is left out
BLURS = (0.8, 1.2, 1.7, 2.3)  # template blur (grid px); see ``blur_level``
COARSE = 4  # grid pixels per coarse pixel (0.5 px/mm)
INDEX_MM = (1.0, 1.0, 12.5, 21.0)  # the top-left index corner (x0, y0, x1, y1), mm
INDEX_BOX = tuple(round(v * 2.0) for v in INDEX_MM)  # the same in grid pixels
DEFAULT_SIZE_MM = (63.0, 88.0)
MAX_CELL_PAIRS = 2_000  # template pairs kept by ``SizeGroup.cell_differ`` (under 10 MB)
INKED = 0.01  # a cell's mean squared difference from plain paper above which it shows print


def blur_level(frame_px_per_mm: float) -> int:
    """Which of ``BLURS`` matches a card seen at this frame scale (measured on rendered
    scenes: the blur that best fits whole cards seen at each scale)."""
    for level, least in enumerate((2.2, 1.7, 1.3)):
        if frame_px_per_mm >= least:
            return level
    return 3


def grid_shape(size_mm: tuple[float, float]) -> tuple[int, int]:
    """(width, height) in grid pixels of a card of ``size_mm`` (multiples of ``COARSE``)."""
    return round(size_mm[0] * GRID / COARSE) * COARSE, round(size_mm[1] * GRID / COARSE) * COARSE


def cell_layout(size_mm: tuple[float, float]) -> tuple[int, int, int, int]:
    """(x0, y0, columns, rows) of the cells inside a card on the grid."""
    w, h = grid_shape(size_mm)
    inset = round(INSET_MM * GRID)
    cols = (w - 2 * inset) // CELL
    rows = (h - 2 * inset) // CELL
    x0 = (w - cols * CELL) // 2
    y0 = (h - rows * CELL) // 2
    return x0, y0, cols, rows


_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def reflectance(image: Array) -> Array:
    """Each channel over its local paper white (float32, about 0..1).  The paper is the
    brightest nearby (a dilation over about 8 mm), smoothed; worked out at a quarter of
    the grid's resolution, which is plenty for light that changes slowly."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(w // 4, 1), max(h // 4, 1)), interpolation=cv2.INTER_AREA)
    paper = cv2.GaussianBlur(cv2.dilate(small, _KERNEL), (0, 0), 1.25)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    out: Array = img / np.maximum(paper, 12.0)
    return out


def to_cells(image: Array, size_mm: tuple[float, float]) -> Array:
    """(cells, CELL*CELL*channels) rows of a grid image, cells row by row."""
    x0, y0, cols, rows = cell_layout(size_mm)
    inner = image[y0 : y0 + rows * CELL, x0 : x0 + cols * CELL]
    c = inner.reshape(rows, CELL, cols, CELL, -1).transpose(0, 2, 1, 3, 4)
    out: Array = np.ascontiguousarray(c.reshape(rows * cols, -1), dtype=np.float32)
    return out


def turn_cells(cells: Array) -> Array:
    """``to_cells`` of the same grid image turned 180 degrees: the cells lie symmetrically
    in the card (its width and height are even, so are the margins), so turning reverses
    their order and each one's pixels: all the pixels in reverse order, each pixel's
    channels kept (one flip of a pixels x channels table, row by row)."""
    n = len(cells)
    pixels = np.ascontiguousarray(cells).reshape(n * CELL * CELL, -1)
    out: Array = cv2.flip(pixels, 0).reshape(n, -1)
    return out


def to_coarse(refl: Array) -> Array:
    """A grid image as the coarse thumbnail (float32, h/COARSE x w/COARSE x channels)."""
    h, w = refl.shape[:2]
    blurred = cv2.GaussianBlur(refl, (0, 0), COARSE * 0.6)
    out: Array = cv2.resize(blurred, (w // COARSE, h // COARSE), interpolation=cv2.INTER_AREA)
    return out


def to_align(refl: Array) -> Array:
    """A grid image as the grey 1 px/mm view used to line cards up."""
    grey = cv2.cvtColor(refl, cv2.COLOR_BGR2GRAY) if refl.ndim == 3 else refl
    out: Array = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return out


def straight_bgr(card: Array) -> Array:
    """An enrollment image as a straight portrait BGR card (alpha composited on white)."""
    if card.ndim == 2:
        card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
    if card.shape[2] == 4:
        alpha = card[..., 3:4].astype(np.float32) / 255.0
        card = (card[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    h, w = card.shape[:2]
    if w > h:
        card = cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE)
    return card


@dataclass
class SizeGroup:
    """The templates of every card of one size (and the back in that size)."""

    size_mm: tuple[float, float]
    labels: list[str]  # card id or "back", one per template
    coarse: Array  # (N, h/4, w/4, 3) coarse thumbnails
    coarse_sq: Array  # (N, D) their flattened squares
    align: list[Array]  # per blur level: (N, h/2, w/2) grey
    cells: list[Array]  # per blur level: (N, cells, P)
    by_cell: list[Array]  # per blur level: (cells, P, N), the same card by card within a
    # cell (one batched product compares a seen card with every template)
    energy: list[Array]  # per blur level: (N, cells) squared norms
    inked: Array  # (cells, N) bool: the cell shows print, not plain paper
    index: list[Array]  # per blur level: (N, 2, h, w, 3) the index corners, top-left first
    index_energy: list[Array]  # per blur level: (N, 2) their squared norms
    index_columns: list[Array]  # per blur level: (h * w * 3, N * 2) the index corners as
    # columns, top-left and bottom-right turned per card (a contiguous right-hand side
    # for the product with every shift of a seen corner: a third faster than ``index``'s
    # transpose)
    index_inked: Array  # (N, 2) bool: the index corner shows print (a joker's may be bare)
    twins: Array  # (N, TWINS) per template, the others likeliest to pass for it (the
    # nearest coarse thumbnails, either way round): compared cell by cell along with it
    _turned: dict[tuple[int, int], Array] = field(default_factory=dict, repr=False)
    _index_pairs: dict[int, Array] = field(default_factory=dict, repr=False)
    _index_squares: dict[int, Array] = field(default_factory=dict, repr=False)
    _index_print: dict[int, Array] = field(default_factory=dict, repr=False)
    _cell_pairs: dict[tuple[int, int, int, bool], Array] = field(default_factory=dict, repr=False)

    def turned_cells(self, level: int, n: int) -> Array:
        """(cells, P) of template ``n`` turned 180 degrees (made when first needed)."""
        key = (level, n)
        if key not in self._turned:
            self._turned[key] = turn_cells(self.cells[level][n])
        return self._turned[key]

    def cell_differ(self, level: int, a: int, b: int, turned: bool) -> Array:
        """(cells,) mean squared difference, cell by cell, between templates ``a`` and
        ``b`` (``turned``: ``b`` turned 180 degrees), made when first asked: a card read
        is measured against the same few rivals frame after frame."""
        key = (level, a, b, turned)
        found = self._cell_pairs.get(key)
        if found is None:
            if len(self._cell_pairs) >= MAX_CELL_PAIRS:
                self._cell_pairs.clear()
            other = self.turned_cells(level, b) if turned else self.cells[level][b]
            found = np.square(self.cells[level][a] - other).mean(-1)
            self._cell_pairs[key] = found
        return found

    def index_squares(self, level: int) -> Array:
        """``index_columns`` squared, value by value (made when first needed): an index
        corner seen in part is compared only where it shows."""
        if level not in self._index_squares:
            self._index_squares[level] = np.square(self.index_columns[level])
        return self._index_squares[level]

    def index_print(self, level: int) -> Array:
        """(N * 2,) each index corner's own print: its summed squared difference from plain
        paper (made when first needed)."""
        if level not in self._index_print:
            columns = self.index_columns[level]
            self._index_print[level] = (
                self.index_energy[level].ravel() - 2 * columns.sum(0) + len(columns)
            )
        return self._index_print[level]

    def index_pairs(self, level: int) -> Array:
        """(N * 2, N * 2) summed squared differences between every two index corners
        (card ``n``'s corner ``c`` at ``2 * n + c``), made when first needed: how unlike
        two cards' indices are is asked of many pairs in every frame."""
        if level not in self._index_pairs:
            flat = self.index[level].reshape(len(self.labels) * 2, -1)
            self._index_pairs[level] = np.stack([np.square(flat - row).sum(1) for row in flat])
        return self._index_pairs[level]


@dataclass
class Enrolled:
    """All templates of a deck, grouped by card size."""

    groups: list[SizeGroup] = field(default_factory=list)

    def group_for(self, size_mm: tuple[float, float]) -> SizeGroup | None:
        for g in self.groups:
            if abs(g.size_mm[0] - size_mm[0]) < 1.0 and abs(g.size_mm[1] - size_mm[1]) < 1.0:
                return g
        return None

    @property
    def sizes(self) -> list[tuple[float, float]]:
        return [g.size_mm for g in self.groups]


def grid_image(card: Array, size_mm: tuple[float, float]) -> Array:
    """A straight card image resampled onto the comparison grid (float32 BGR)."""
    out: Array = cv2.resize(
        straight_bgr(card), grid_shape(size_mm), interpolation=cv2.INTER_AREA
    ).astype(np.float32)
    return out


TWINS = 2  # twins kept per template (see ``_twins``)


def _twins(coarse: Array) -> Array:
    """(N, TWINS) for each template the others nearest it, as coarse thumbnails either
    way round (a spades queen's twin is the clubs queen: a suit sign apart)."""
    n = len(coarse)
    flat = coarse.reshape(n, -1).astype(np.float64)
    turned = coarse[:, ::-1, ::-1].reshape(n, -1).astype(np.float64)
    sq = (flat * flat).sum(1)
    both = sq[:, None] + sq[None]
    d = np.minimum(both - 2 * flat @ flat.T, both - 2 * flat @ turned.T)
    np.fill_diagonal(d, np.inf)
    out: Array = np.argsort(d, axis=1, kind="stable")[:, : min(TWINS, n - 1)]
    return out


def build(images: Mapping[str, Array], sizes_mm: Mapping[str, tuple[float, float]]) -> Enrolled:
    """Templates for every card (``"back"`` in every size the deck has)."""
    by_size: dict[tuple[float, float], list[str]] = {}
    for card_id in images:
        if card_id == BACK:
            continue
        by_size.setdefault(sizes_mm.get(card_id, DEFAULT_SIZE_MM), []).append(card_id)
    groups = []
    for size, ids in sorted(by_size.items()):
        labels = [*ids, BACK] if BACK in images else list(ids)
        grids = [grid_image(images[label], size) for label in labels]
        cells, energy, align, index = [], [], [], []
        for sigma in BLURS:
            refl = np.stack([reflectance(cv2.GaussianBlur(g, (0, 0), sigma)) for g in grids])
            c = np.stack([to_cells(r, size) for r in refl])  # (N, cells, P)
            cells.append(c)
            energy.append((c * c).sum(-1))
            align.append(np.stack([to_align(r) for r in refl]))
            x0, y0, x1, y1 = INDEX_BOX
            index.append(
                np.stack(
                    [np.stack([r[y0:y1, x0:x1], r[::-1, ::-1][y0:y1, x0:x1]]) for r in refl]
                ).copy()
            )
        coarse = np.stack([to_coarse(r) for r in refl])  # the last level: the most blurred
        sharp = cells[0]
        inked = np.ascontiguousarray((((sharp - 1.0) ** 2).mean(-1) > INKED).T)
        coarse_sq = (coarse * coarse).reshape(len(labels), -1)
        index_inked = ((index[0] - 1.0) ** 2).mean(axis=(2, 3, 4)) > INKED
        twins = _twins(coarse)
        groups.append(
            SizeGroup(
                size,
                labels,
                coarse,
                coarse_sq,
                align,
                cells,
                [np.ascontiguousarray(c.transpose(1, 2, 0)) for c in cells],
                energy,
                inked,
                index,
                [(i * i).reshape(len(labels), 2, -1).sum(-1) for i in index],
                [np.ascontiguousarray(i.reshape(len(labels) * 2, -1).T) for i in index],
                index_inked,
                twins,
            )
        )
    return Enrolled(groups)
