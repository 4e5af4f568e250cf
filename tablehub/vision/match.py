"""Comparing one card hypothesis with the enrolled faces on the millimetre grid (pure).

``look`` warps the card's rectangle (with a margin) out of the full-resolution frame
straight onto the comparison grid -- one ``warpPerspective`` through the calibration --
and ``identify`` then

1. ranks the cards by their coarse thumbnails (both upright orientations): cheap, and
   tolerant of a pose a few millimetres off;
2. lines the card up with the best of them (a shift by template matching at 1 px/mm,
   then ECC for a small turn): the finder's pose may be a few millimetres off where a
   card's edge cannot be seen (a white card on a white card).  Cards of a deck share
   their layout, so this lines the card up whichever card it is;
3. compares the likeliest cards (``COARSE_SHORTLIST`` of them; all of them unless one
   explains a card seen whole) cell by cell (3 mm cells,
   each cell's mismatch capped, so a hand or glare spoils only the cells it touches), adds
   the evidence of the index corners (each lined up on its own: a glyph is small; one
   partly under cards read, where it shows), and
   decides: the best card must explain enough printed cells and beat every other card by
   a margin measured against how different the two cards are where the card can be seen;
   a card seen only in part must show an index corner, and must beat every rival on
   cells that show print (where it looks blank it may be under another card's paper).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.templates import (
    BACK,
    CELL,
    COARSE,
    GRID,
    INDEX_BOX,
    SizeGroup,
    cell_layout,
    grid_shape,
    reflectance,
    to_align,
    to_cells,
    to_coarse,
    turn_cells,
)

Array = NDArray[Any]
CAP = 0.03  # a cell's mismatch counts up to this much (mean squared reflectance difference)
GOOD = 0.012  # a cell this close is explained by the template
MARGIN_MM = 3.0  # the observation reaches this far beyond the hypothesised card
INDEX_SHORTLIST = 8  # cards whose index corners are compared
TWINS_OF = 4  # the coarse favourites whose twins (``SizeGroup.twins``) are compared too
COARSE_SHORTLIST = 24  # cards (by their coarse thumbnails) compared cell by cell; every
# card is, unless the best of them explains a card seen whole (the coarse thumbnails of a
# card partly hidden by something unread can rank the right card out: rg upgrade-19 was
# read as upgrade-17)
MAX_INDEX_DISAGREE = 4.0  # capped cells another card's index corner may fit better by
DISAGREE_MARGIN = 0.25  # ... unless seen whole with a sharp outline -- and where the index
# in view is another card's exactly or nearer (``Decision.index_fit`` -1 or less), by
# this margin (a bats 10 on a pile read as the riddles 10 at 0.12, index fit -1.7; dev
# seeds: right such readings 0.31 and up; a spades 7 whose index leans to the clubs 7,
# fit -0.6, right at 0.17)
BACK_INDEX_LEAD = 10.0  # capped cells: a back seen in part whose index corner fits this much
# better than any face's index needs no share of its cells explained (dev scenes: 25 to 90)
PART_EXPLAINED = 0.45  # share of the cells seen a card seen in part must explain (right
# readings on rendered scenes: 99.7% explained more; less is an outline that is no card)
LITTLE_PRINT = 25  # a card seen in part, read from fewer printed cells than this, must
LITTLE_PRINT_SHOWN = 3.0  # ... show this gap (capped cells) over every rival on its print
BLIND_INDEX = 0.2  # capped cells: an index corner that fits other cards this nearly as
BLIND_INDEX_SHOWN = 2.0  # well tells nothing (a suit sign too small, or covered): then a
# card seen in part must show this gap over every rival on its print
INDEX_FIT = 0.5  # a card seen in part is read from its index corner alone where every
# other card's index fits worse by this share of how different the two are (``_index_fit``;
# dev seeds 202/101/303 with 0.5 instead of 0.6: +3/+2/+5 cards, none wrong)
INDEX_DENIAL = 0.2  # capped cells by which another card's index, told apart from this
# card's, may fit the index corners of a card seen in part better (``Decision.distinct_lead``)
WHOLE_DENIAL_EXPLAINED = 0.85  # ... but not of a card in view all round explaining this share
# of its cells (by DISAGREE_MARGIN over every other card; 1,000 chaos scenes: 13 such 8s
# and locations read, a pose 10 mm off a diamonds 6 explaining 0.75 read as the 3)
INDEX_DENIAL_SHARE = 0.2  # ... counted only where that is also this share of how different
# the two indices are (a pose a little off, shade or blur, shift a large index's fit by a
# little of that difference, either way)
INDEX_WEAK = 0.3  # an index corner in view told from every other card's (``INDEX_DISTINCT``)
# that fits this card by under this share of the nearest difference (``_index_fit``)
# speaks for it only weakly: a corner mostly covered, or another card's print where the
# pose puts the index.  A card seen in part with such a corner must explain
# ``WEAK_INDEX_EXPLAINED`` of what shows or show ``WEAK_INDEX_SHOWN`` over every rival on
# its print (full benchmark: chaos numbers half under other cards read as the 7, whose
# numeral is slight, with index fits 0.21-0.25 and 50-62% explained; rendered scenes,
# 3,400 parts read right: none so weak that explained under 70% with a gap under 5;
# dev seeds 202/101/303: no reading changed)
WEAK_INDEX_EXPLAINED = 0.7
WEAK_INDEX_SHOWN = 5.0
INDEX_DISTINCT = 0.3  # capped cells: indices less different than this cannot be told apart
INDEX_EXPLAINED = 0.8  # ... and the card explains this share of the cells seen
INDEX_MIN_MARGIN = 0.1  # ... and beats its closest rival on the whole view by this margin
# (rendered scenes, two seeds: about 1.3% more cards read, mostly strips of fans)
# A card seen in part whose printed index corner shows, the rest hidden by a hand or by
# cards not read, is read from that corner where the print round it is its own: the cells
# within one of CORNER_ZONES_MM (x, y from the corner) explained as CORNER_EXPLAINED of
# those seen and CORNER_INKED_SHARE of their print, and its index fits better than every
# other card's by CORNER_LEAD (capped cells).  Dev seeds 202/101/303, 20 scenes of every
# deck at both sizes: +13/+11/+13 cards, none wrong, with the first zone alone.  The
# narrower zones (each still round the whole index, INDEX_MM) are for a strip of a fan
# under a card not read, whose print the first zone's outer cells catch: +6/+6/+3 more,
# none wrong.  CORNER_EXPLAINED 0.85 rather than 0.9: +2/+3/+1, none wrong.
CORNER_ZONES_MM = ((24.0, 33.0), (15.0, 33.0), (24.0, 24.0), (12.0, 33.0), (15.0, 24.0))
CORNER_EXPLAINED = 0.85
CORNER_INKED_SHARE = 0.6
CORNER_LEAD = 0.2
NO_INDEX_MARGIN = 0.25  # normalised margin a card seen in part, no index corner, must show
INDEX_DOUBT_SHOWN = 5.0  # ... and then, for a card seen in part, the gap its print must
# show over every rival (rendered scenes: wrong partial readings mostly had both)
HALF_EXPLAINED = 0.6  # a card seen in part explaining less of what shows than this (the
# rest another card's print, or a pose that is off) must have its index corner for it:
# printed, in view, and fitting it by ``BLIND_INDEX`` over any other card's (rendered
# scenes: such readings were wrong; a joker's bare corner, or none in view, says nothing)
# A card read from little print (a 3 of pips is mostly blank) matches by chance inside
# other print: it must explain most of what is seen where it lies.
FEW_INKED = 20
CLEAN_MARGIN = 0.3  # a card seen in part, under half and no index corner, is read only
# with this margin and nearly every cell it shows explained (``CLEAN_SHARE``)
CLEAN_SHARE = 0.97  # of a card's cells seen, the share explained when nothing lies on it
WHOLE_EXPLAINED = 0.55  # a card seen whole must explain this share of its cells (a back,
# which names no card, may lie half under a card read wrongly as lying on it)
EXPLAINED_SHARE = 0.67
RIVALS = 5  # closest other cards the margin is measured against
INDEX_SHIFT = 2  # grid pixels each way an index corner may move to line up
INDEX_PART = 0.6  # an index corner partly hidden by cards read on it is compared where it
# shows, if this share of it shows at every small shift (benchmark, 3,600 scenes: 94 more
# cards read, no more wrong; at 0.4 on the dev seeds a misposed outline was read wrong)
PART_FIT = 0.05  # ... and counts only where some card's index fits it to within this
# share of its own print there (parts that read right: 0.01-0.03; parts that read wrong:
# 0.08-0.88 -- an outline a corner off, its index region bare paper or another card's)
NO_INDEX_FIT = 0.2  # an index corner in view shows an index only where some card's index
# fits it to within this share of its own print (whole corners read right: 0.01-0.3; the
# full benchmark's agi parts read as the riddles 7, whose index is slight, from a corner of
# bare paper: 0.91-0.96; parts read wrong from a corner a hand or a pose 2-3 mm off smears,
# where every card's index fits about as badly: 0.24-0.40); a card seen in part whose index
# is printed where a corner in view shows none is not read (0.2 rather than 0.5, with the
# outline test of ``identify.SHIFTED_POSE``: benchmark agi, chaos, Get Adler! and Rogues
# Gallery 1280x720 seed 7, 2,000 scenes each, 10 of 37 misreadings gone and 35 of 82,194
# cards fewer; dev seeds 202/101: +0/-4 cards, none wrong)
BACK_NO_INDEX_FIT = 0.5  # ... for a back, whose fine pattern aliases at the camera's
# resolution (see ``clear``): its corners read right fit at 0.2-0.3, clearly better than
# any face's
COVER_GROW_MM = 1.5  # a card lying on top also shades this much round it
INDEX_INKED = 5  # printed cells enough for a card read from its index corner (a strip
# of a fan shows its index and little else: 6 or 7 cells at 2 px/mm; dev seeds 202/101:
# +5/+2 cards read with 5 instead of 8, none wrong; 3 gave one card more)
MIN_INKED_SHARE = 0.5  # of the printed cells in view, the share the card must explain
BARE = 0.004  # a cell this close to plain paper looks bare
BARE_WEIGHT = 0.25  # what a bare-looking cell can count against a card printed there
FAR_GAP = 15.0  # capped cells: a card seen whole whose closest rival's extra mismatch is
FAR_MARGIN = 0.05  # ... this large, its margin this or more and this share of its cells
FAR_EXPLAINED = 0.78  # explained is read at a margin under ``min_margin``
FAR_INDEX_LEAN = 1.0  # capped cells: ... where no other card's index fits its corners
# better by more than this
CLEAR_MARGIN = 0.35  # normalised margin of a card seen whole over every other (0.5: ideal)
# A card whose cells seen are nearly all explained (PART_CLEAR_EXPLAINED) by a clear margin
# (PART_CLEAR_MARGIN) is read with a gap over its closest rival of PART_CLEAR_GAP capped
# cells rather than ``min_gap``: strips of Get Adler!'s 5+ and 6+ cards (one index, one
# frame) and of Rogues Gallery's accomplices differ from each other's by 2-3 capped cells,
# and such strips, every cell of them explained at margins of 0.3-0.45, went unread.
# Benchmark, seed 7, 1280x720, 300 scenes each: Get Adler! +7 cards, rg +3, heruka +1,
# oc-white +1 (heruka one wrong fewer), agi and chaos the same, none lost; the share
# explained aside: Get Adler! +10, rg +3, and a Rogues Gallery hero 10 read as the 14 at a
# pose 3 mm off (85% explained, margin 0.36, gap 2.6).
PART_CLEAR_MARGIN = 0.3
PART_CLEAR_GAP = 2.0
PART_CLEAR_EXPLAINED = 0.9
NOT_A_CARD = 0.08  # coarse mismatch (mean squared, per pixel) beyond any card
# A look whose coarse thumbnail is this unlike every card's (much of it hidden by something
# not cut out: a hand, a card not read) is read only where it explains most of what shows
# (``EXPLAINED_SHARE``) or its index corner names it clearly (``MAX_INDEX_DISAGREE``).
# Dev seeds 202/101/303, NOT_A_CARD 0.05 -> 0.08 with this guard: +11/+8/+6 cards, none
# wrong (without the guard: a strip of a disguise card read as a character card).
UNLIKE_ANY = 0.05
# A doubtful outline (barely supported, partly under cards read) shown this little, whose
# coarse thumbnail fits its best card nearly as badly as the typical card, is taken for no
# card without a closer look (rendered scenes: at 0.7 such outlines were never read; dev
# seeds 202/101/303 at 0.85: +3/+0/+3 cards, none wrong -- strips of fans under cards read).
# At 0.93 (benchmark, seed 7, 1280x720, 1,000 agi/chaos scenes, 400 rg/adler): agi +2,
# chaos +1, rg +7, adler +9 cards, wrong readings as before, about 2% more time a frame:
# decks of alike cards (Get Adler!'s 5+ and 6+ cards print the plain card's picture) rank
# a strip's own card little ahead of the median card.
PHANTOM_SHOWN = 0.5
PHANTOM_FIT = 0.93  # the best card's coarse mismatch against the median card's


def grid_to_mm(quad_mm: Array, size_mm: tuple[float, float], margin_mm: float = 0.0) -> Array:
    """3x3 map from grid pixels of the upright card (its top-left ``margin_mm`` outside
    the card) to table mm (``quad_mm``: TL TR BR BL)."""
    w, h = size_mm
    ux = (quad_mm[1] - quad_mm[0]) / w
    uy = (quad_mm[3] - quad_mm[0]) / h
    s = 1.0 / GRID
    origin = quad_mm[0] - margin_mm * (ux + uy)
    out: Array = np.array(
        [[ux[0] * s, uy[0] * s, origin[0]], [ux[1] * s, uy[1] * s, origin[1]], [0.0, 0.0, 1.0]]
    )
    return out


@dataclass(frozen=True)
class Look:
    """A hypothesised card on the grid, with ``MARGIN_MM`` all round."""

    refl: Array  # (H, W, 3) reflectance
    mask: Array  # (H, W) uint8: 255 where the frame shows this card (not off-frame/covered)
    size_mm: tuple[float, float]
    pad: int  # margin in grid pixels
    obs: Array | None = None  # (H, W, 3) the frame's colours

    def foreign(self, bare: float | None = None) -> Array:
        """uint8 (H, W): 255 on a plain stretch of a colour no card's paper has, at least
        ``bare`` of the local white (``FOREIGN_BARE`` by default)."""
        if self.obs is None:
            return np.zeros(self.mask.shape, np.uint8)
        light = FOREIGN_BARE if bare is None else bare
        return _foreign(self.obs, self.refl, self.mask, self.pad, light)

    def without_foreign(self, bare: float | None = None) -> Look:
        """The look with plain stretches of a foreign colour (``foreign``) taken as hidden."""
        foreign = self.foreign(bare)
        if not foreign.any():
            return self
        return replace(self, mask=np.where(foreign > 0, 0, self.mask).astype(np.uint8))

    @property
    def card_mask(self) -> Array:
        p = self.pad
        out: Array = self.mask[p:-p, p:-p]
        return out


def look(
    image: Array,
    table_to_image: Array,
    quad_mm: Array,
    size_mm: tuple[float, float],
    covers_mm: list[Array],
    margin_mm: float = MARGIN_MM,
) -> Look:
    """The card in ``quad_mm`` (and a margin) on the grid; ``covers_mm``: polygons (mm)
    known to lie on it, cut out of the mask (with their shadow)."""
    pad = round(margin_mm * GRID)
    w, h = grid_shape(size_mm)
    big = (w + 2 * pad, h + 2 * pad)
    g2m = grid_to_mm(quad_mm, size_mm, pad / GRID)
    m = table_to_image @ g2m
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    obs = cv2.warpPerspective(image, m, big, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    hgt, wid = image.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [big[0], 0], [big[0], big[1]], [0, big[1]]]], np.float64), m
    )[0]
    inside = (
        (corners.min(0) >= 1).all()
        and (corners[:, 0] < wid - 2).all()
        and (corners[:, 1] < hgt - 2).all()
    )
    mask: Array
    if inside:
        mask = np.full((big[1], big[0]), 255, np.uint8)
    else:
        mask = cv2.warpPerspective(
            np.full((hgt, wid), 255, np.uint8), m, big, flags=flags, borderValue=0
        )
    if covers_mm:
        inv = np.linalg.inv(g2m)
        for poly in covers_mm:
            pts = cv2.perspectiveTransform(
                grow(poly, COVER_GROW_MM).reshape(-1, 1, 2).astype(np.float64), inv
            )
            cv2.fillPoly(mask, [np.round(pts.reshape(-1, 2) * 4).astype(np.int32)], 0, 8, 2)
    return Look(reflectance(obs), mask, size_mm, pad, obs)


FOREIGN_CHROMA = 0.15  # a plain stretch whose colour differs from the card's paper by this
# much (each channel against their mean, relative to the paper's) is no card's paper
FOREIGN_BARE = 0.9  # ... where every channel is at least this share of the local white
FOREIGN_BARE_LOOSE = 0.7  # ... or this share, for a second look at a card not read
# (``identify._identify``): fingers shaded between the knuckles.  Taking 0.8 or 0.7 for
# FOREIGN_BARE itself read more parts, but coloured panels of cards seen whole went too
# (a Saboteur role was misread, agi 1280x720 seed 7 scene 899).


def _foreign(obs: Array, refl: Array, mask: Array, pad: int, light: float) -> Array:
    """uint8 (H, W): 255 where a plain stretch of another colour than the card's paper
    lies (a hand, a sleeve of someone's shirt): the local reflectance takes any plain
    surface for white paper, so such a stretch looks like bare paper; its colour against
    the card's own paper (the brightest of the card in view) tells it apart."""
    hgt, wid = mask.shape
    half = (wid // 2, hgt // 2)  # 1 px/mm: plenty for stretches many millimetres wide
    small = cv2.resize(obs, half, interpolation=cv2.INTER_AREA).astype(np.float32)
    q = pad // 2
    inner = (slice(q, half[1] - q), slice(q, half[0] - q))
    shown = small[inner][cv2.resize(mask, half, interpolation=cv2.INTER_NEAREST)[inner] > 0]
    if len(shown) < 50:
        return np.zeros(mask.shape, np.uint8)
    k = int(0.97 * (len(shown) - 1))
    paper = np.partition(shown, k, axis=0)[k]
    # (the channels one by one: numpy reduces a short last axis slowly)
    b, g, r = cv2.split(small * (3.0 / np.maximum(paper, 1.0)))
    grey = np.maximum(b + g + r, 1e-3)
    chroma = np.maximum(np.maximum(np.abs(b / grey - 1 / 3), np.abs(g / grey - 1 / 3)),
                        np.abs(r / grey - 1 / 3)) * 3  # fmt: skip
    rb, rg, rr = cv2.split(cv2.resize(refl, half, interpolation=cv2.INTER_AREA))
    bare = np.minimum(np.minimum(rb, rg), rr) >= light
    core = ((chroma > FOREIGN_CHROMA) & bare).astype(np.uint8)
    core = cv2.morphologyEx(core, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    near = cv2.dilate(core, np.ones((5, 5), np.uint8))
    out = ((near > 0) & (chroma > 0.6 * FOREIGN_CHROMA)).astype(np.uint8) * 255
    full: Array = cv2.resize(out, (wid, hgt), interpolation=cv2.INTER_NEAREST)
    return full


SHIFT_MM = 4.0  # how far off its outline hypothesis ``coarse_shift`` looks for a card
# (the print's frame lies 2-4 mm inside a card's edge on the stand-in backs); a whole
# number of coarse pixels


def coarse_shift(group: SizeGroup, lk: Look) -> tuple[float, float] | None:
    """Where, within its margin (``look`` with ``SHIFT_MM``) along its own axes, in coarse
    pixels (2 mm), the look fits a card of ``group`` best, if one fits there at all
    (``NOT_A_CARD``) and not where the outline lies: an outline drawn to a card's printed
    frame on a table as light as its border (the border's edges lost), as a shift in mm.
    The look must show the card whole (no mask)."""
    thumb = to_coarse(lk.refl)
    k = lk.pad // COARSE
    w, h = grid_shape(lk.size_mm)
    th, tw = h // COARSE, w // COARSE
    offsets = [(dx, dy) for dy in range(-k, k + 1) for dx in range(-k, k + 1)]
    windows = [thumb[k + dy : k + dy + th, k + dx : k + dx + tw] for dx, dy in offsets]
    x = np.stack([win.ravel() for win in windows] + [win[::-1, ::-1].ravel() for win in windows])
    t = group.coarse.reshape(len(group.labels), -1)
    ssd = group.coarse_sq.sum(1)[:, None] - 2 * t @ x.T + (x * x).sum(1)[None, :]
    best = ssd.min(0) / x.shape[1]
    j = int(np.argmin(best)) % len(offsets)
    dx, dy = offsets[j]
    if float(best.min()) > NOT_A_CARD or (dx, dy) == (0, 0):
        return None
    return dx * COARSE / GRID, dy * COARSE / GRID


def grow(poly: Array, by_mm: float) -> Array:
    """A convex polygon (mm) grown outwards by about ``by_mm``."""
    c = poly.mean(0)
    rel = poly - c
    r = np.maximum(np.hypot(rel[:, 0], rel[:, 1]), 1e-6)[:, None]
    out: Array = c + rel * (1 + by_mm * 1.42 / r)
    return out


def px_per_mm(table_to_image: Array, point_mm: Array) -> float:
    """Frame pixels per table mm at a table point."""
    c = np.asarray(point_mm, np.float64)
    p = np.array([[c, c + np.array([1.0, 0.0]), c + np.array([0.0, 1.0])]], np.float64)
    q = cv2.perspectiveTransform(p, table_to_image)[0]
    j = np.stack([q[1] - q[0], q[2] - q[0]])
    return float(math.sqrt(abs(np.linalg.det(j))))


def _turn(a: Array, orientation: int) -> Array:
    return a if orientation == 0 else a[::-1, ::-1]


def _turned(a: Array, orientation: int) -> Array:
    """``_turn`` as a contiguous image (a flip copies whole pixels, numpy a value at a
    time)."""
    out: Array = np.ascontiguousarray(a) if orientation == 0 else cv2.flip(a, -1)
    return out


@dataclass(frozen=True)
class Decision:
    label: str | None  # a card id, BACK, or None (not sure)
    best: str  # the best label, even when not sure
    orientation: int  # 0: as hypothesised, 1: turned 180 degrees
    shift_mm: tuple[float, float]  # in the card's own axes (x along its short side)
    explained: int  # cells the best card explains
    inked: int  # of those, cells where the card shows print (not plain paper)
    seen: int  # cells seen
    margin: float  # normalised margin over the closest rival (0.5: as expected)
    gap: float  # the rival's extra mismatch, in capped cells
    rival: str
    index_seen: tuple[bool, bool] = (False, False)  # top-left, bottom-right index corner
    expected: float = 0.0  # the closest rival's expected gap (capped cells)
    shown_gap: float = 0.0  # the least gap over a rival counted on cells that show print
    card_like: bool = False  # the best card explains the print: a card, if not sure which
    index_lead: float = float("inf")  # how much better its index corners fit than any
    # other likely card's (capped cells; negative: another fits better; inf: none seen)
    index_fit: float = 0.0  # how clearly its index corners tell it from every other card
    # (``_index_fit``; 0: none seen, or another card's index is too alike)
    whole_view: bool = False  # seen whole, and its outline sharp or every cell explained
    # (nothing lies on it)
    size_lead: float = float("inf")  # how much better its index corners fit than any card
    # of another size's (capped cells; inf: seen whole, no index corner seen, or the deck
    # has one size); a card seen in part is not read below -MAX_INDEX_DISAGREE
    index_best: str = ""  # the card whose index corners fit those in view best ("": none seen)
    distinct_lead: float = float("inf")  # ``index_lead`` over the cards whose index in view
    # can be told from this card's (``INDEX_DISTINCT``) and fits better by a share of their
    # difference (``INDEX_DENIAL_SHARE``; inf: none seen, or none such)
    whole: bool = False  # nine tenths of its cells or more in view
    # Per cell of the card as hypothesised (not turned), row by row: 1 where the best card
    # explains it, 0 where not, -1 where hidden (``cells``); so too for the best few cards
    # (``INDEX_SHORTLIST``) either way round, 1 where any of them explains it (``any_cells``);
    # None for a card nine tenths in view (``whole``)
    cells: Array | None = field(default=None, compare=False, repr=False)
    any_cells: Array | None = field(default=None, compare=False, repr=False)

    @property
    def explained_share(self) -> float:
        """Of the cells seen, the share the best card explains."""
        return self.explained / max(self.seen, 1)


NOTHING = Decision(None, "", 0, (0.0, 0.0), 0, 0, 0, 0.0, 0.0, "")


def _coarse_scores(group: SizeGroup, lk: Look) -> Array:
    """(2, N) mean squared coarse mismatch of every template, both orientations (masked
    sums of squares as matrix products)."""
    p = lk.pad
    thumb = to_coarse(np.ascontiguousarray(lk.refl[p:-p, p:-p]))
    wgt = cv2.resize(lk.card_mask, thumb.shape[1::-1], interpolation=cv2.INTER_AREA) >= 252
    x = np.stack([thumb.ravel(), _turned(thumb, 1).ravel()])  # (2, D)
    w = np.repeat(np.stack([wgt.ravel(), wgt[::-1, ::-1].ravel()]), 3, axis=1).reshape(2, -1)
    w = w.astype(np.float32)
    t = group.coarse.reshape(len(group.labels), -1)  # (N, D)
    ssd = group.coarse_sq @ w.T - 2 * t @ (w * x).T + ((w * x * x).sum(1))[None, :]
    out: Array = (ssd / np.maximum(w.sum(1), 1.0)[None, :]).T
    return out


def _align(group: SizeGroup, lk: Look, n: int, o: int, level: int) -> Array:
    """The rigid motion (2x3, grid pixels of the look turned ``o``: template point ->
    look point, margin excluded) that best lines template ``n`` up with the card: a
    shift by template matching at 1 px/mm over the margin, then ECC for a small turn as
    well (even a sharp outline can be a degree off: a sleeve's, or one with a shadow)."""
    view = to_align(_turned(lk.refl, o))
    mask = _turned(lk.mask, o)
    tmpl = group.align[level][n]
    th, tw = tmpl.shape
    tmask = cv2.resize(
        mask[lk.pad : -lk.pad, lk.pad : -lk.pad], (tw, th), interpolation=cv2.INTER_NEAREST
    )
    if tmask.min() == 0:
        res = cv2.matchTemplate(view, tmpl, cv2.TM_SQDIFF, mask=(tmask > 0).astype(np.float32))
    else:
        res = cv2.matchTemplate(view, tmpl, cv2.TM_SQDIFF)
    _, _, (bx, by), _ = cv2.minMaxLoc(res)
    # template (1 px/mm) -> view (1 px/mm)
    start: Array = np.array([[1, 0, bx], [0, 1, by]], np.float32)
    vmask = cv2.resize(mask, view.shape[::-1], interpolation=cv2.INTER_NEAREST)
    warp = _ecc(tmpl, view, start, vmask, cv2.MOTION_EUCLIDEAN)
    if warp is None or not _believable(warp, start, (tw, th)):
        warp = _shift_only(tmpl, view, start, vmask)
    return _to_grid(warp, lk.pad)


def _believable(warp: Array, start: Array, size: tuple[int, int]) -> bool:
    """Whether ECC's ``warp`` of a template of ``size`` (w, h) turns a few degrees at most
    and keeps the template's middle within 2 px of where the shift found put it (not its
    top-left corner: a turn about that corner moves it that far by itself)."""
    middle = np.array([size[0] / 2, size[1] / 2], np.float32)
    jump = warp[:, :2] @ middle + warp[:, 2] - (middle + start[:, 2])
    return abs(float(warp[0, 1])) <= 0.06 and float(np.abs(jump).max()) <= 2.0


def _to_grid(warp: Array, pad: int) -> Array:
    """A motion on the 1 px/mm views in grid pixels (x_grid = 2 x + 0.5), relative to the
    card's hypothesised place (``pad``: the look's margin)."""
    out: Array = warp.astype(np.float64).copy()
    out[:, 2] = out[:, 2] * 2 - out[:, :2] @ np.array([0.5, 0.5]) + 0.5 - pad
    return out


def _shift_only(tmpl: Array, view: Array, start: Array, vmask: Array) -> Array:
    """ECC for a shift alone from ``start`` (where a turn does not converge, or goes off):
    the template match's whole-pixel shift made exact (kept within 1 px of it)."""
    warp = _ecc(tmpl, view, start, vmask, cv2.MOTION_TRANSLATION)
    if warp is None or float(np.abs(warp[:, 2] - start[:, 2]).max()) > 1.0:
        return start
    return warp


def _ecc(tmpl: Array, view: Array, start: Array, vmask: Array, motion: int) -> Array | None:
    """ECC's motion (2x3) of ``tmpl`` onto ``view`` from ``start``, or None where it does
    not converge (``motion``: a turn and shift, or a shift alone)."""
    try:
        found: Any = cv2.findTransformECC(
            tmpl,
            view,
            start.copy(),
            motion,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 12, 1e-3),
            vmask,
            1,
        )
    except cv2.error:
        return None
    return np.asarray(found[1])


def _turn_warp(warp: Array, size_mm: tuple[float, float]) -> Array:
    """The same motion seen in the look turned 180 degrees."""
    w, h = grid_shape(size_mm)
    f = np.array([[-1.0, 0.0, w - 1], [0.0, -1.0, h - 1], [0.0, 0.0, 1.0]])
    m = np.vstack([warp, [0.0, 0.0, 1.0]])
    out: Array = (f @ m @ f)[:2]
    return out


def _cell_valid(mask: Array, size_mm: tuple[float, float], need: float = 0.8) -> Array:
    x0, y0, cols, rows = cell_layout(size_mm)
    shown = mask[y0 : y0 + rows * CELL, x0 : x0 + cols * CELL]
    if shown.min() == 255:  # nothing hides the card
        return np.ones(rows * cols, bool)
    inner = shown.astype(np.float32) / 255
    frac = inner.reshape(rows, CELL, cols, CELL).mean(axis=(1, 3)).ravel()
    out: Array = frac >= need
    return out


@dataclass(frozen=True)
class _View:
    """The card lined up with the templates, as hypothesised (``o`` 0) and turned."""

    cells: list[Array]  # per orientation: (cells, P)
    valid: list[Array]  # per orientation: (cells,) bool
    shifts: list[Array | None]  # per corner of the unturned view (top-left, bottom-right
    # turned to the top-left): every small shift of its index region, (shifts, D), if seen
    masks: list[Array | None]  # per corner: (D,) 1 where its index region shows at every
    # shift, 0 where cards on it hide it (None: it all shows)
    image: Array  # (h, w, 3) the card on the grid, unturned
    shown: Array  # (h, w) uint8: 255 where the card shows


def _view(lk: Look, warp: Array, corners_shown: tuple[bool, bool]) -> _View:
    """The look brought onto the template frame by ``warp`` (orientation 0); index
    corners are read only where the card's outline shows (``corners_shown``) and most of
    the index region is clear of the cards on it (``INDEX_PART``)."""
    w, h = grid_shape(lk.size_mm)
    m = warp.copy()
    m[:, 2] += lk.pad
    card = cv2.warpAffine(
        lk.refl, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    cmask = cv2.warpAffine(lk.mask, m, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    x0, y0, x1, y1 = INDEX_BOX
    s = INDEX_SHIFT
    shifts: list[Array | None] = []
    masks: list[Array | None] = []
    for corner in (0, 1):
        mask, show = None, corners_shown[corner]
        if show and _turn(cmask, corner)[y0:y1, x0:x1].mean() < 0.97 * 255:
            mask = _index_part(_turn(cmask, corner)[y0 - s : y1 + s, x0 - s : x1 + s])
            show = mask is not None
        if not show:
            shifts.append(None)
            masks.append(None)
            continue
        masks.append(mask)
        # Rows of pixels with their channels, shifted a whole pixel (3 values) at a time:
        # copied a row at a time, not a value at a time.
        region = np.ascontiguousarray(_turn(card, corner)[y0 - s : y1 + s, x0 - s : x1 + s])
        rows = region.reshape(len(region), -1)
        stack = np.lib.stride_tricks.sliding_window_view(rows, (y1 - y0, (x1 - x0) * 3))
        shifts.append(stack[:, ::3].reshape((2 * s + 1) ** 2, -1))
    cells = to_cells(card, lk.size_mm)
    valid = _cell_valid(cmask, lk.size_mm)
    turned = turn_cells(cells)
    return _View([cells, turned], [valid, valid[::-1].copy()], shifts, masks, card, cmask)


FINE_SHIFT = 2  # grid pixels each way the print is moved to line up for a close look
FINE_DIFFER = 0.03  # squared reflectance difference (summed over colours) of a pixel where
# two templates differ enough for a close look
# A rival whose margin is under FINE_MARGIN is ruled out where the card fits the pixels
# where the two differ FINE_LEAD better (``_fine_lead``; 1: exactly as the card), and
# those where only the card is printed FINE_OWN better.  Dev seeds 202/101/303, 20 scenes
# of every deck at both sizes: +19/+16/+12 cards, none wrong (mostly strips of fans whose
# suit sign tells a club from a spade, or a heart from a diamond).  0.6 and 0.3: +13/+11/
# +10; 0.8 and 0.5: +4/+4; FINE_MARGIN 0.45 as well: +24/+16/+15, one more wrong.
FINE_MARGIN = 0.3
FINE_LEAD = 0.5
FINE_OWN = 0.15
# ... except for a card seen whole with CLEAN_SHARE of its cells explained: nothing lies
# on it, so its bare paper where the rival has print is its own (the riddles 2 against
# the 3, whose print is the 2's and one more sign, has no print of its own to show).


def _fine_lead(
    group: SizeGroup, v: _View, level: int, o: int, a: int, b: int, ob: int, cells_ok: Array
) -> tuple[float, float]:
    """How much better card ``a`` (way round ``o``) than card ``b`` (way round ``ob``) fits
    the pixels in view where the two differ, each lined up on its own by small shifts, as a
    share of how much they differ there (1: exactly ``a``; -1: exactly ``b``; 0: either):
    over all those pixels, and over those where only ``a`` is printed.  Cells compare whole
    3 mm squares at one pose, where a pose a fraction of a millimetre off costs as much as
    a club's lobes against a spade's point.  Only cells ``cells_ok`` (in the unturned
    view's order) count."""
    x0, y0, cols, rows = cell_layout(group.size_mm)
    h, w = rows * CELL, cols * CELL
    kept = np.flatnonzero(cells_ok)

    def template(n: int, way: int) -> Array:  # its kept cells (K, CELL, CELL, 3), on the view
        cells = group.turned_cells(level, n) if way == 1 else group.cells[level][n]
        return cells[kept].reshape(len(kept), CELL, CELL, 3)

    ta, tb = template(a, o), template(b, ob)
    s = FINE_SHIFT
    shown = v.shown[y0 - s : y0 + h + s, x0 - s : x0 + w + s] > 127
    kernel = np.ones((2 * s + 1, 2 * s + 1), np.uint8)
    always = cv2.erode(shown.astype(np.uint8), kernel)[s : s + h, s : s + w] > 0
    # each kept cell's pixel rows and columns on the view, (K, CELL, CELL)
    size = (len(kept), CELL, CELL)
    cy = np.broadcast_to((kept // cols)[:, None, None] * CELL + np.arange(CELL)[:, None], size)
    cx = np.broadcast_to((kept % cols)[:, None, None] * CELL + np.arange(CELL), size)
    gap = ta - tb
    differ = np.einsum("kyxc,kyxc->kyx", gap, gap)
    pick = (differ > FINE_DIFFER) & always[cy, cx]
    if not pick.any():
        return 0.0, 0.0
    ys, xs, ra, rb = cy[pick], cx[pick], ta[pick], tb[pick]
    # Where only ``b`` is printed, bare paper seen speaks for ``a``; but it may be the
    # paper of another card lying on this one, unread: ``a``'s own print must speak too.
    own = ((rb - ra).sum(-1) > 0).astype(np.float64)
    totals = np.array([differ[pick].sum(), differ[pick] @ own])
    pixels = v.image.reshape(-1, 3)
    width = v.image.shape[1]
    at = (ys + y0) * width + xs + x0
    steps = np.arange(-s, s + 1)
    offsets = (steps[:, None] * width + steps[None, :]).ravel()
    seen = pixels[at[None, :] + offsets[:, None]].astype(np.float64)  # (shifts, pixels, 3)
    # Each template's summed squared difference at every shift, |seen|^2 - 2 seen.r +
    # |r|^2, over every pixel and over its own print: one product for all four.
    refs = np.stack([ra, rb, ra * own[:, None], rb * own[:, None]]).reshape(4, -1)
    cross = seen.reshape(len(offsets), -1) @ refs.T.astype(np.float64)  # (shifts, 4)
    squares = np.einsum("spc,spc->sp", seen, seen)
    seen_sq = np.stack([squares.sum(1), squares @ own], 1)[:, [0, 0, 1, 1]]
    lowest = (seen_sq - 2 * cross + np.einsum("ij,ij->i", refs, refs)).min(0)
    best = lowest.reshape(2, 2).T  # (a, b) x (every pixel, own print): at its best shift
    leads = np.where(totals > 0, (best[1] - best[0]) / np.maximum(totals, 1e-12), 0.0)
    return float(leads[0]), float(leads[1])


def _twins_ruled_out(
    group: SizeGroup,
    v: _View,
    level: int,
    o: int,
    n: int,
    rivals: list[int],
    ways: list[int],
    margins: Array,
    valid: Array,
    d_best: Array,
    d_riv: Array,
    nothing_on_it: bool = False,
) -> Array:
    """(rivals,) bool: the close rivals (``FINE_MARGIN``) of card ``n`` that a close look
    at the pixels where the two differ rules out, in the cells one of the two explains (a
    hand on the card is neither's print).  ``ways``: each rival's way round; ``valid``,
    ``d_best``, ``d_riv``: the cells seen from way round ``o`` and their mismatches.
    ``nothing_on_it``: the card is seen whole and every cell explained, so its bare paper
    where a rival has print rules the rival out without print of its own."""
    out = np.zeros(len(rivals), bool)
    for j, (b, ob) in enumerate(zip(rivals, ways, strict=True)):
        if margins[j] >= FINE_MARGIN:
            continue
        cells_ok = np.zeros(len(valid), bool)
        cells_ok[valid] = np.minimum(d_best, d_riv[j]) < GOOD
        both, own = _fine_lead(group, v, level, o, n, b, ob, cells_ok[::-1] if o else cells_ok)
        out[j] = both >= FINE_LEAD and (own >= FINE_OWN or nothing_on_it)
    return out


def _index_part(shown: Array) -> Array | None:
    """For an index region partly hidden (``shown``: its mask, with ``INDEX_SHIFT`` pixels
    round it), which of its values (D,) show at every small shift, or None if too few."""
    s = INDEX_SHIFT
    kernel = np.ones((2 * s + 1, 2 * s + 1), np.uint8)
    always = cv2.erode((shown > 127).astype(np.uint8), kernel)[s:-s, s:-s]
    if always.mean() < INDEX_PART:
        return None
    out: Array = np.repeat(always.astype(np.float32), 3, axis=1).ravel()
    return out


def _seen(rows: Array, valid: Array) -> Array:
    """The ``valid`` rows (all of them without a copy: a card seen whole)."""
    out: Array = rows if valid.all() else rows[valid]
    return out


def _blur_of(group: SizeGroup, v: _View, n: int, o: int, guess: int) -> int:
    """The template blur level that best fits this card (judged on the likeliest card, on
    the cells seen): the frame's scale gives a guess, camera focus and motion the rest."""
    valid = v.valid[o]
    cells = _seen(v.cells[o], valid)
    if len(cells) == 0:
        return guess
    whole = valid.all()
    diff = np.empty((len(group.cells), *cells.shape), np.float32)
    for lv, tmpl in enumerate(group.cells):
        np.subtract(cells, tmpl[n] if whole else tmpl[n][valid], out=diff[lv])
    fits = np.minimum(np.square(diff, out=diff).mean(-1), CAP).sum(1)
    return int(np.argmin(fits))


def _cell_mismatch(group: SizeGroup, v: _View, level: int) -> Array:
    """(cells, 2 orientations, N) mean squared mismatch of every cell against every
    template: both orientations in one batched product over the templates as stored
    (card by card within a cell), which costs less than copying out a shortlist's."""
    cells = np.stack(v.cells, 1)  # (C, 2, P)
    cross = np.matmul(cells, group.by_cell[level])  # (C, 2, N)
    e_obs = (cells * cells).sum(-1)  # (C, 2)
    # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, both orientations at once and in place (a few
    # passes over (C, 2, N) rather than a dozen over its halves)
    d: Array = e_obs[:, :, None] + group.energy[level].T[:, None, :]
    d -= np.multiply(cross, 2, out=cross)
    np.maximum(np.divide(d, cells.shape[-1], out=d), 0.0, out=d)
    return d


def _only(d: Array, cards: Array) -> Array:
    """``_cell_mismatch``'s ``d`` with every column but ``cards``' set to inf (cards not
    on the shortlist are left out of the comparison)."""
    out = np.full_like(d, np.inf)
    out[:, :, cards] = d[:, :, cards]
    return out


def _seen_mismatch(d: Array, v: _View) -> list[Array]:
    """``_cell_mismatch``'s (C, 2, N) per orientation, the cells seen only."""
    return [_seen(d[:, o], v.valid[o]) for o in (0, 1)]


def _index_mismatch(
    group: SizeGroup,
    v: _View,
    rows: list[int],
    level: int,
    fits: dict[int, float] | None = None,
) -> Array:
    """(2 orientations, len(rows), 2 corners) index-corner mismatch of templates ``rows``
    after the best small shift, as a sum of cell mismatches; NaN where not seen whole.
    ``fits``, if given, gets how closely the best index fits each corner of the view
    wholly in sight, as a share of that index's own print (``NO_INDEX_FIT``)."""
    out = np.full((2, len(rows), 2), np.nan)
    n = len(group.labels)
    columns = group.index_columns[level]  # top-left, bottom-right turned, per card
    energy = group.index_energy[level].reshape(1, -1)  # (1, N * 2)
    unit = CELL * CELL * 3
    for corner in (0, 1):  # corner of the unturned view
        stack = v.shifts[corner]
        if stack is None:
            continue
        mask = v.masks[corner]
        if mask is None:
            e = (stack * stack).sum(-1)  # (S,)
            cross = stack @ columns  # (S, N * 2)
            every = _subpixel_min(e[:, None] + energy - 2 * cross)  # (N * 2,)
            # A corner in view that no index fits closely shows none: bare paper (a card
            # lying on it, not read), which fits the slightest index best, or an index a
            # hand or a pose off smears.  It still counts against every card (a card seen
            # whole is not there).
            if fits is not None:
                fits[corner] = float((every / np.maximum(group.index_print(level), 1e-6)).min())
            ssd = every.reshape(n, 2)[rows]
        else:  # only where the corner shows
            shown = stack * mask
            e = (shown * stack).sum(-1)
            cross = shown @ columns
            their = mask @ group.index_squares(level)  # (N * 2,)
            every = _subpixel_min(e[:, None] + their[None] - 2 * cross)  # (N * 2,)
            # Each index's own print here (its difference from plain paper): where none
            # fits what shows nearly as well as that, the pose is off, and the part says
            # nothing.
            printed = their - 2 * (mask @ columns) + mask.sum()
            if float((every / np.maximum(printed, 1e-6)).min()) > PART_FIT:
                continue
            ssd = every.reshape(n, 2)[rows]
        # Unturned (o 0): this corner meets the template's same corner; turned (o 1): the
        # other one.
        out[0, :, corner] = ssd[:, corner] / unit
        out[1, :, 1 - corner] = ssd[:, 1 - corner] / unit
    result: Array = np.maximum(out, 0.0)
    return result


# A card showing less than ANCHOR_SHOWN of itself, not read lined up on the card its coarse
# thumbnail ranks first, is lined up on the next likeliest (ANCHORS in all) and read from
# the first that reads it as the card its index corners fitted best at first.  Benchmark,
# 2,000 scenes, seed 7, 1280x720: agi +86 cards (wrong 6 -> 9), chaos +48 (9 -> 9); the
# first that reads, whatever its index said (400 scenes): +24/+18, with 4 more wrong.  The
# card its index corners fitted best is tried first of those (1,000 scenes: agi +19, 21
# gained and 2 lost, chaos +3; wrong 6 and 5 as before).
ANCHOR_SHOWN = 0.9
ANCHORS = 3


def identify(
    group: SizeGroup,
    lk: Look,
    level: int,
    min_explained: int = 8,
    min_margin: float = 0.3,
    min_gap: float = 1.0,
    sure_pose: bool = False,
    corners_shown: tuple[bool, bool] = (True, True),
    min_shown_gap: float = 0.8,
    doubtful: bool = False,
    min_whole_margin: float = 0.1,
    other_sizes: Sequence[SizeGroup] = (),
) -> Decision:
    """The card in ``lk``, or None if not sure.  ``sure_pose``: the card's outline is seen
    sharply all round (nothing hides its edges).  ``min_shown_gap``: the gap over
    every rival that a card not seen whole must show on cells with print (a blank where a
    rival has print may be the paper of a card lying on it, unseen).  ``doubtful``: the
    outline is barely supported and lies partly under cards read (it may be their print's
    edges), so a flat coarse ranking is enough to give it up.  ``min_whole_margin``: the
    margin enough for a card seen whole, with a sharp outline or nothing on it.
    ``other_sizes``: the deck's cards of other sizes, whose index corners a card seen in
    part must not fit clearly better (the outline may be a corner of a bigger card).
    An index corner the card prints bare (a joker's) counts as not seen: any plain
    surface fits a bare index best (a patch of table between an arm and a pen was read as
    a joker seen whole from its "index").

    A card is lined up on the print of the card its coarse thumbnail ranks first.  A card
    seen in part left unsure so is lined up on the next likeliest cards' too (a part's
    thumbnail may rank another card first, and lined up on that card's print the pose
    goes off), the card its index corners fitted best first: read where that names it."""
    coarse = _coarse_scores(group, lk)
    if float(coarse.min()) > NOT_A_CARD or (doubtful and _phantom(coarse, lk)):
        return NOTHING
    ask = _Ask(min_explained, min_margin, min_gap, sure_pose, corners_shown, min_shown_gap,
               min_whole_margin, other_sizes)  # fmt: skip
    o0, n0 = (int(x) for x in np.unravel_index(int(np.argmin(coarse)), coarse.shape))
    dec = _identify_from((o0, n0), group, lk, level, coarse, ask)
    if dec.label is not None or not dec.index_best:
        return dec
    if np.count_nonzero(lk.card_mask) >= ANCHOR_SHOWN * lk.card_mask.size:
        return dec
    for anchor in _next_anchors(group, coarse, n0, ANCHORS - 1, dec.index_best):
        again = _identify_from(anchor, group, lk, level, coarse, ask)
        if again.label is not None and again.label == dec.index_best:
            return again
    return dec


class _Ask(NamedTuple):
    """What ``identify`` asks of a reading (its parameters of the same names)."""

    min_explained: int
    min_margin: float
    min_gap: float
    sure_pose: bool
    corners_shown: tuple[bool, bool]
    min_shown_gap: float
    min_whole_margin: float
    other_sizes: Sequence[SizeGroup]


def _next_anchors(
    group: SizeGroup, coarse: Array, n0: int, k: int, first: str = ""
) -> list[tuple[int, int]]:
    """The ``k`` cards after ``n0`` the coarse thumbnails rank likeliest (way round, card),
    each its best way round; the likeliest card labelled ``first`` comes first."""
    per_card = coarse.min(0)
    out: list[tuple[int, int]] = []
    order = [int(n) for n in np.argsort(per_card, kind="stable")]
    named = [n for n in order if group.labels[n] == first][:1]
    for n in named + [n for n in order if n not in named]:
        if len(out) >= k:
            break
        if n != n0 and group.labels[n] != group.labels[n0]:
            out.append((int(np.argmin(coarse[:, n])), n))
    return out


def _identify_from(
    anchor: tuple[int, int], group: SizeGroup, lk: Look, level: int, coarse: Array, ask: _Ask
) -> Decision:
    """``identify`` lined up on the print of card ``anchor`` (way round, card); ``coarse``:
    the look's ``_coarse_scores``."""
    (min_explained, min_margin, min_gap, sure_pose, corners_shown, min_shown_gap,
     min_whole_margin, other_sizes) = ask  # fmt: skip
    o0, n0 = anchor
    warp = _align(group, lk, n0, o0, level)
    warp0 = warp if o0 == 0 else _turn_warp(warp, lk.size_mm)
    view = _view(lk, warp0, corners_shown)
    # The print's blur fits best where the cells seen show it; an index corner's fine
    # strokes are compared at the frame scale's own blur where that is sharper (a pose a
    # fraction of a millimetre off makes a blurrier template fit better, and a blurred
    # "6" is a "5").
    fitted = _blur_of(group, view, n0, o0, level)
    index_level = min(level, fitted)
    level = fitted
    labels = np.array(group.labels)
    # Only the cards the coarse thumbnails rank likeliest are compared cell by cell, and
    # the twins of the likeliest few: a hand over a spades queen may make the clubs one's
    # thumbnail fit far better, and then the spades one must still be compared with it.
    order = np.argsort(coarse.min(0), kind="stable")
    cand = np.union1d(order[:COARSE_SHORTLIST], group.twins[order[:TWINS_OF]].ravel())
    every = _cell_mismatch(group, view, level)
    dists = _seen_mismatch(_only(every, cand) if len(cand) < len(labels) else every, view)
    if len(cand) < len(labels) and _worth_all([d[:, cand] for d in dists], view):
        dists = _seen_mismatch(every, view)
        cand = np.arange(len(labels))
    # A card partly hidden may be hidden by another card's bare paper, which looks like
    # the bare paper of this one: where the card looks bare, a card printed there counts
    # for little (print seen where a card has none still counts in full).
    caps, plains = [], []
    for o in (0, 1):
        plain = ((_seen(view.cells[o], view.valid[o]) - 1.0) ** 2).mean(-1)
        bare = plain < BARE if not sure_pose else np.zeros(len(plain), bool)
        caps.append(np.where(bare, CAP * BARE_WEIGHT, CAP)[:, None])
        plains.append(plain)
    whole_sharp = sure_pose and int(view.valid[0].sum()) >= 0.9 * len(view.valid[0])
    # An index corner in view may name a card from a little print (``INDEX_INKED``): the
    # card is then read from it or not at all.
    little = min(min_explained, INDEX_INKED)
    most = 0 if whole_sharp else _most_print_explained(group, view, dists, plains, cand)
    passed = whole_sharp or most >= min_explained
    corner_seen = any(s is not None for s in view.shifts)
    if not passed and not (
        corner_seen and (most >= little or _corner_explained(group, view, dists, cand, lk.size_mm))
    ):
        return NOTHING  # no card explains print enough, nor the print round a corner in view
    totals = np.stack([np.minimum(d, c).sum(0) for d, c in zip(dists, caps, strict=True)])
    left_out = np.ones(len(labels), bool)
    left_out[cand] = False
    totals[:, left_out] = np.inf
    # Index corners of the best few cards, each lined up on its own, add their evidence.
    short = _favourites(totals.min(0), labels, INDEX_SHORTLIST)
    fits: dict[int, float] = {}  # how closely some index fits each corner in sight
    index_all = _index_mismatch(group, view, list(range(len(labels))), index_level, fits)
    index = index_all[:, short]  # (2, R, 2)
    scores = totals[:, short] + np.nansum(index, axis=2)  # (2, R)
    o_best, k_best = (int(x) for x in np.unravel_index(int(np.argmin(scores)), scores.shape))
    n_best = short[k_best]
    label = group.labels[n_best]
    best_score = float(scores[o_best, k_best])
    d_best = dists[o_best][:, n_best]
    valid = view.valid[o_best]
    explained = int((d_best < GOOD).sum())
    ink = group.inked[valid, n_best]
    plain = plains[o_best]
    inked = int(_print_explained(ink[:, None], d_best[:, None], plain)[0])
    inked_share = inked / max(int(ink.sum()), 1)
    seen = int(valid.sum())
    # Seen whole (``whole``), and every cell explained (``clean``): nothing lies on it, its
    # blanks are its own.
    whole = seen >= 0.9 * len(valid)
    clean = explained >= CLEAN_SHARE * seen
    seen_corners = ~np.isnan(index[o_best, k_best])
    # The margin over each rival: its extra mismatch against the two cards' own difference
    # where this card is seen (0.5 when the card is exactly the best template).  Cells
    # neither card explains are hidden (a hand, glare): they say nothing.
    worst_margin, worst_gap, rival, worst_expected = 1.0, float("inf"), "", 0.0
    ruled_out: list[int] = []  # rivals a close look rules out (``_twins_ruled_out``)
    shown_gap = float("inf")
    rivals = [k for k in range(len(short)) if labels[short[k]] != label]
    rivals = sorted(rivals, key=lambda k: float(scores[:, k].min()))[:RIVALS]
    if rivals:
        ro = [int(np.argmin(scores[:, k])) for k in rivals]
        gaps = (scores[ro, rivals] - best_score) / CAP
        d_riv = np.stack(
            [dists[o][:, short[k]] if o == o_best else dists[o][::-1, short[k]]
             for k, o in zip(rivals, ro, strict=True)]
        )  # fmt: skip
        told = np.minimum(d_best[None], d_riv) < CAP / 2
        expected = _expected(group, level, n_best, o_best, [short[k] for k in rivals], ro,
                             valid, told, seen_corners, index_level, view.masks)  # fmt: skip
        margins = 0.5 * gaps / np.maximum(expected, 1e-6)
        # The gap counted only where the card shows print: a blank where a rival has
        # print may be another card's paper lying on it, not this card's own.
        inked_obs = plain >= BARE
        # An index corner in view shows print by definition: its evidence counts too.
        shown = (np.minimum(d_riv, CAP) - np.minimum(d_best, CAP)[None])[:, inked_obs]
        index_gap = np.array(
            [np.nansum(index[o, k]) for k, o in zip(rivals, ro, strict=True)]
        ) - np.nansum(index[o_best, k_best])
        # A close rival that a close look rules out (a clubs card's suit sign against a
        # spades one's) counts no more, here or against the index corners in view.
        ruled = _twins_ruled_out(
            group, view, level, o_best, n_best, [short[k] for k in rivals], ro, margins,
            valid, d_best, d_riv, whole and clean,
        )  # fmt: skip
        ruled_out = [short[rivals[j]] for j in np.flatnonzero(ruled)]
        margins = np.where(ruled, np.maximum(margins, 1.0), margins)
        gaps = np.where(ruled, np.inf, gaps)
        shown_gap = float(np.where(ruled, np.inf, shown.sum(1) + index_gap).min()) / CAP
        w = int(np.argmin(margins))
        worst_expected = float(expected[w])
        worst_margin, worst_gap, rival = (
            float(margins[w]),
            float(gaps[w]),
            str(labels[short[rivals[w]]]),
        )
    # Index-corner agreement: where an index corner shows, no other card's index may fit
    # it clearly better (a card's print elsewhere can be another card's) -- unless the
    # card is seen whole with a sharp outline (then a tiny suit sign is all that differs)
    # and explains most of what shows (the sides of a fan's cards may line up into a
    # sharp outline a few millimetres off the card at the bottom).
    index_lead, index_fit, distinct_lead = float("inf"), 0.0, float("inf")
    index_best = ""
    if seen_corners.any():
        sums = np.nansum(index_all, axis=2)  # (2, N)
        index_best = str(labels[int(np.argmin(sums.min(0)))])
        others = labels != label
        others[ruled_out] = False
        if others.any():
            index_lead = float(sums[:, others].min() - sums[o_best, n_best]) / CAP
            index_fit, distinct_lead = _index_fit(
                group, index_level, sums, seen_corners, o_best, n_best, others, view.masks
            )
    size_lead = float("inf")
    if seen_corners.any() and not whole:
        size_lead = _size_lead(other_sizes, view, index_all, o_best, n_best, label, index_level)
    # Fine print (a back's pattern, a court card's art) may alias at the camera's
    # resolution so that few of its cells fit; a card seen whole with a sharp outline and
    # far closer to one card than to any other is that card all the same.
    clear = whole and sure_pose and worst_margin >= CLEAR_MARGIN
    card_like = (inked >= min_explained and inked_share >= MIN_INKED_SHARE) or (
        clear and label == BACK
    )
    mostly_explained = explained >= EXPLAINED_SHARE * seen
    whole_view = whole and (sure_pose or clean)
    # A card in view all round, nearly all its cells explained, far closer to one card than
    # to any other: its print outweighs an index corner leaning a little to another card
    # (the chaos 8s' index, blurred, fits the 5's best)
    clearly_whole = (
        whole and explained >= WHOLE_DENIAL_EXPLAINED * seen and worst_margin >= DISAGREE_MARGIN
    )
    # A card in view all round, most of its cells explained, whose closest rival's extra
    # mismatch is large though a small share of the two cards' difference (a dim or glaring
    # view compresses every difference): the print tells it apart all the same, where
    # its index corners lean to no other card by more than a little.
    far_apart = (
        whole
        and explained >= FAR_EXPLAINED * seen
        and worst_gap >= FAR_GAP
        and worst_margin >= FAR_MARGIN
        and index_lead >= -FAR_INDEX_LEAN
    )
    # A card seen in part: what shows must be mostly its print, and where its index
    # corner does not speak clearly for it, its print must.  So too for a card in view
    # all round whose outline is not sharp and whose cells are not all explained: a hand
    # or a card unread may lie on it, or the pose may be millimetres off.
    printed = seen_corners & group.index_inked[n_best]
    index_seen = bool(printed.any())
    # A back's fine pattern may alias so that few of its cells fit (see ``clear``); where
    # its index corner shows, the corner fits the back far better than any face's.
    back_index = label == BACK and index_lead >= BACK_INDEX_LEAD
    part_clear = whole_view or (
        (index_seen or worst_margin >= NO_INDEX_MARGIN)
        and (explained >= PART_EXPLAINED * seen or back_index)
        and (inked >= LITTLE_PRINT or shown_gap >= LITTLE_PRINT_SHOWN)
        and (abs(index_lead) >= BLIND_INDEX or shown_gap >= BLIND_INDEX_SHOWN)
        # (an index corner another card's fits better by under BLIND_INDEX tells nothing)
        and (index_lead >= -BLIND_INDEX or shown_gap >= INDEX_DOUBT_SHOWN)
        and (explained >= HALF_EXPLAINED * seen or (index_seen and index_lead >= BLIND_INDEX))
        # (an index corner that another card's, told apart from this one's, fits better
        # names that card: the print that speaks for this one lies, a pose off -- unless
        # the card is in view all round and its print speaks clearly for it)
        and (distinct_lead >= -INDEX_DENIAL or clearly_whole or far_apart)
    )
    # From a little print only where the card's index is printed there (a joker's may be
    # bare paper, which any plain surface fits).
    little_print = (
        inked >= little
        and inked_share >= MIN_INKED_SHARE
        and bool((group.index_inked[n_best] & seen_corners).any())
    )
    # A card seen in part whose index corner tells it from every other card -- each one's
    # index fits clearly worse, by about as much as the two indices differ -- is that card
    # even where the rest of what shows is too little to decide (a strip of a fan).
    index_read = (
        index_seen
        and size_lead >= -MAX_INDEX_DISAGREE
        and not whole
        and (card_like or little_print)
        and index_fit >= INDEX_FIT
        and explained >= INDEX_EXPLAINED * seen
        and worst_margin >= INDEX_MIN_MARGIN
    )
    # Read from its index corner where the print round it is its own, the rest hidden.
    corner_read = (
        not whole
        and index_lead >= CORNER_LEAD
        and size_lead >= -MAX_INDEX_DISAGREE
        and worst_margin >= INDEX_MIN_MARGIN
        and _corner_is_its_own(
            lk.size_mm, seen_corners & group.index_inked[n_best], valid, d_best, ink, plain, little
        )
    )
    index_read = index_read or corner_read
    # Cards alike where a part of one shows (Get Adler!'s 5+ cards share one index and one
    # frame) differ there by little: a card nearly all of whose cells seen are explained,
    # by a clear margin, is read with a smaller gap over its rival (``PART_CLEAR_*``; a
    # strip, mostly, though a card seen whole so is read so too).
    part_clear_gap = (
        worst_margin >= PART_CLEAR_MARGIN
        and worst_gap >= PART_CLEAR_GAP
        and explained >= PART_CLEAR_EXPLAINED * seen
    )
    sure = index_read or (
        card_like
        and part_clear
        and (worst_margin >= (min_whole_margin if whole_view else min_margin) or far_apart)
        and (worst_gap >= min_gap or part_clear_gap)
        and (
            index_seen
            or seen >= 0.5 * len(valid)
            or (worst_margin >= CLEAN_MARGIN and explained >= CLEAN_SHARE * seen)
        )
        and (shown_gap >= min_shown_gap or whole_view)
        and (
            index_lead >= -MAX_INDEX_DISAGREE
            or (
                whole
                and sure_pose
                and mostly_explained
                and (index_fit > -1.0 or worst_margin >= DISAGREE_MARGIN)
            )
        )
        and size_lead >= -MAX_INDEX_DISAGREE
        and (inked >= FEW_INKED or explained >= EXPLAINED_SHARE * seen)
        and (not whole or label == BACK or explained >= WHOLE_EXPLAINED * seen or clear)
    )
    if not passed and not index_read:
        return NOTHING  # not card-like, and not read from its index corner either
    if float(coarse.min()) > UNLIKE_ANY:
        sure = sure and (explained >= EXPLAINED_SHARE * seen or index_lead >= MAX_INDEX_DISAGREE)
    # A card seen in part whose index is printed where a corner in view shows none is not
    # there (a card not read may lie on that corner: then it is read from elsewhere).
    no_fit = BACK_NO_INDEX_FIT if label == BACK else NO_INDEX_FIT
    shows_none = [c for c, fit in fits.items() if fit > no_fit]
    if not whole and any(
        group.index_inked[n_best][c if o_best == 0 else 1 - c] for c in shows_none
    ):
        sure = False
    if index_seen and not whole and 0.0 < index_fit < INDEX_WEAK:
        sure = sure and (explained >= WEAK_INDEX_EXPLAINED * seen or shown_gap >= WEAK_INDEX_SHOWN)
    warp_best = warp0 if o_best == 0 else _turn_warp(warp0, lk.size_mm)
    sx, sy = warp_best[0, 2], warp_best[1, 2]
    shift_mm = (sx / GRID, sy / GRID) if o_best == 0 else (-sx / GRID, -sy / GRID)
    # (for a card seen in part only: ``identify`` cuts sides out of no other)
    by_best, by_any = None, None
    if not whole:
        by_best = _per_cell(view.valid[o_best], d_best < GOOD)
        by_best = by_best if o_best == 0 else by_best[::-1].copy()
        either = [_per_cell(view.valid[o], dists[o][:, short].min(1) < GOOD) for o in (0, 1)]
        by_any = np.maximum(either[0], either[1][::-1])
    return Decision(
        label if sure else None,
        label,
        o_best,
        (float(shift_mm[0]), float(shift_mm[1])),
        explained,
        inked,
        seen,
        worst_margin,
        worst_gap,
        rival,
        (bool(seen_corners[0]), bool(seen_corners[1])),
        worst_expected,
        shown_gap,
        card_like,
        index_lead,
        index_fit,
        whole_view,
        size_lead,
        index_best,
        distinct_lead,
        whole,
        by_best,
        by_any,
    )


def _per_cell(valid: Array, explained: Array) -> Array:
    """int8 per cell: 1 explained, 0 not, -1 hidden (``explained``: per cell seen)."""
    out = np.full(len(valid), -1, np.int8)
    out[valid] = explained
    return out


def _corner_explained(
    group: SizeGroup, v: _View, dists: list[Array], cand: Array, size_mm: tuple[float, float]
) -> bool:
    """Whether some card of ``cand``, either way round, explains nearly all the cells seen
    round its printed index corners in view (``CORNER_EXPLAINED``): else no card can be
    read from its corner (``_corner_is_its_own``), and the look is given up early."""
    in_view = np.array([s is not None for s in v.shifts])  # view corners
    for o in (0, 1):
        printed = group.index_inked[cand] & (in_view if o == 0 else in_view[::-1])  # (K, 2)
        for pattern in {(bool(a), bool(b)) for a, b in printed if a or b}:
            members = cand[(printed == pattern).all(axis=1)]
            for zone_mm in CORNER_ZONES_MM:
                zone = _corner_zone(size_mm, np.array(pattern), zone_mm)[v.valid[o]]
                if not zone.any():
                    continue
                explained = (dists[o][zone][:, members] < GOOD).sum(axis=0)
                if bool((explained >= CORNER_EXPLAINED * int(zone.sum())).any()):
                    return True
    return False


def _corner_is_its_own(
    size_mm: tuple[float, float],
    corners: Array,
    valid: Array,
    d_best: Array,
    ink: Array,
    plain: Array,
    little: int,
) -> bool:
    """Whether the cells seen round the printed index corners in view (``corners``: top-left,
    bottom-right of the card) are the card's own print: nearly all explained, and most of
    the print it has there (``d_best``, ``ink``, ``plain``: per cell seen)."""
    if not corners.any():
        return False
    for zone_mm in CORNER_ZONES_MM:
        zone = _corner_zone(size_mm, corners, zone_mm)[valid]
        inked = int(_print_explained(ink[zone, None], d_best[zone, None], plain[zone])[0])
        if (
            int((d_best[zone] < GOOD).sum()) >= CORNER_EXPLAINED * int(zone.sum())
            and inked >= little
            and inked >= CORNER_INKED_SHARE * int(ink[zone].sum())
        ):
            return True
    return False


def _corner_zone(
    size_mm: tuple[float, float], corners: Array, zone_mm: tuple[float, float]
) -> Array:
    """(cells,) bool: the cells within ``zone_mm`` (x, y) of the card's index corners
    ``corners`` (top-left, bottom-right), in the card's own frame."""
    x0, y0, cols, rows = cell_layout(size_mm)
    w, h = grid_shape(size_mm)
    x = (x0 + CELL * (np.arange(cols) + 0.5)) / GRID  # cell centres, mm
    y = (y0 + CELL * (np.arange(rows) + 0.5)) / GRID
    zx, zy = zone_mm
    out = np.zeros((rows, cols), bool)
    if corners[0]:
        out |= (y[:, None] < zy) & (x[None, :] < zx)
    if corners[1]:
        out |= (y[:, None] > h / GRID - zy) & (x[None, :] > w / GRID - zx)
    result: Array = out.ravel()
    return result


def _size_lead(
    others: Sequence[SizeGroup],
    view: _View,
    index_all: Array,
    o_best: int,
    n_best: int,
    label: str,
    level: int,
) -> float:
    """How much better the index corners in view fit card ``n_best`` than any card of
    another size (capped cells): every card's index corner is the same few millimetres
    at a corner, so the corners seen compare with theirs as they are.  A back is not
    compared with the backs of other sizes."""
    lead = float("inf")
    own = _by_view_corner(index_all)[o_best, n_best]  # (2,) per view corner
    seen = ~np.isnan(own)
    for g in others:
        theirs = _by_view_corner(_index_mismatch(g, view, list(range(len(g.labels))), level))
        sums = theirs[:, :, seen].sum(-1)  # (2, N'): NaN where a corner seen was not fitted
        if label == BACK:
            sums[:, np.array(g.labels) == BACK] = np.nan
        if np.isnan(sums).all():
            continue
        lead = min(lead, float(np.nanmin(sums) - own[seen].sum()) / CAP)
    return lead


def _by_view_corner(index: Array) -> Array:
    """``_index_mismatch``'s (2, N, 2) by corner of the unturned view rather than of the
    template (turned, a view corner meets the template's other corner)."""
    out: Array = np.stack([index[0], index[1][:, ::-1]])
    return out


def _index_fit(
    group: SizeGroup,
    level: int,
    sums: Array,
    corners_seen: Array,
    o_best: int,
    n_best: int,
    others: Array,
    masks: list[Array | None],
) -> tuple[float, float]:
    """How clearly the index corners in view name card ``n_best``: the least, over every
    other card, of its extra index mismatch (``sums``: (2, N), each card's best way round)
    over how different its index corners are from this card's in view (``corners_seen``:
    this card's own corners) (1: exactly as
    expected; 0 where another card's index is too like this one's to tell them apart);
    and the least extra mismatch (capped cells) of the cards whose index can be told apart
    and fits better by ``INDEX_DENIAL_SHARE`` of the difference (inf: none)."""
    n = len(group.labels)
    way = np.argmin(sums, axis=0)  # (N,) each card's better orientation
    differ = _index_differ(group, level, n_best, o_best, np.arange(n), way, corners_seen, masks)
    theirs = sums[way, np.arange(n)]  # (N,) each card's index fit, its better way round
    extra = (theirs - sums[o_best, n_best]) / CAP
    told = others & (differ >= INDEX_DISTINCT)
    # (against this card's index either way round: which way round a card lies is its
    # print's to say, and a pose a little off may line the other way up better)
    lead = (theirs - sums[:, n_best].min()) / CAP
    denying = told & (lead < -INDEX_DENIAL_SHARE * differ)
    distinct = float(lead[denying].min()) if denying.any() else np.inf
    if float(differ[others].min()) < INDEX_DISTINCT:
        return 0.0, distinct
    return float((extra[others] / differ[others]).min()), distinct


def _phantom(coarse: Array, lk: Look) -> bool:
    """Whether little of the card shows and the coarse thumbnails rank no card clearly
    first (see ``PHANTOM_FIT``)."""
    if np.count_nonzero(lk.card_mask) >= PHANTOM_SHOWN * lk.card_mask.size:
        return False
    per_card = coarse.min(0)
    return float(per_card.min()) > PHANTOM_FIT * float(np.median(per_card))


def _most_print_explained(
    group: SizeGroup, v: _View, dists: list[Array], plains: list[Array], cand: Array
) -> int:
    """The most printed cells any card of ``cand``, either way round, explains among those
    explaining at least ``MIN_INKED_SHARE`` of the print in view (counted as the decision's
    ``card_like`` test counts them): if that is too few, whichever card wins is not
    card-like, so not accepted either (unless seen whole and sharp: a back)."""
    most = 0
    for o in (0, 1):
        ink = group.inked[v.valid[o]][:, cand]
        inked = _print_explained(ink, dists[o][:, cand], plains[o])
        share = inked / np.maximum(ink.sum(0), 1)
        most = max(most, int(inked[share >= MIN_INKED_SHARE].max(initial=0)))
    return most


def _print_explained(ink: Array, d: Array, plain: Array) -> Array:
    """Per card (columns of ``d``, mismatch per cell seen), the printed cells (``ink``) it
    explains: where it fits much better than plain paper would (``plain``: each cell's
    mismatch from plain paper; a bare table, or another card's paper, fits plain paper)."""
    out: Array = (ink & (d < 0.5 * plain[:, None])).sum(0)
    return out


def _worth_all(dists: list[Array], v: _View) -> bool:
    """Whether to compare every card: the best one compared explains most of what is seen
    (a card lies there), but not nearly every cell of a card seen whole."""
    share = max(
        float((d < GOOD).sum(0).max()) / max(int(valid.sum()), 1)
        for d, valid in zip(dists, v.valid, strict=True)
    )
    whole = int(v.valid[0].sum()) >= 0.9 * len(v.valid[0])
    return share >= EXPLAINED_SHARE and not (whole and share >= CLEAN_SHARE)


def _favourites(scores: Array, labels: Array, k: int) -> list[int]:
    """Positions of the best-scoring entry of each of the ``k`` best distinct labels."""
    out: list[int] = []
    chosen: set[str] = set()
    for i in np.argsort(scores, kind="stable"):
        if labels[i] in chosen or not np.isfinite(scores[i]):
            continue
        chosen.add(str(labels[i]))
        out.append(int(i))
        if len(out) == k:
            break
    return out


def _subpixel_min(ssd: Array) -> Array:
    """Per column of ``ssd`` ((2s+1)^2 whole-pixel shifts, row-major, by columns), the
    least mismatch over shifts, a parabola through the best shift and its neighbours
    giving the value between pixels (a half-pixel offset of a thin stroke costs as much
    as a different index would)."""
    side = 2 * INDEX_SHIFT + 1
    grid = ssd.reshape(side, side, -1)
    iy, ix = np.divmod(np.argmin(ssd, axis=0), side)
    cols = np.arange(ssd.shape[1])
    f0 = grid[iy, ix, cols]
    up, down = np.maximum(iy - 1, 0), np.minimum(iy + 1, side - 1)
    left, right = np.maximum(ix - 1, 0), np.minimum(ix + 1, side - 1)
    inner_y, inner_x = (up < iy) & (iy < down), (left < ix) & (ix < right)
    across_y = _parabola_drop(grid[up, ix, cols], f0, grid[down, ix, cols], inner_y)
    across_x = _parabola_drop(grid[iy, left, cols], f0, grid[iy, right, cols], inner_x)
    out: Array = f0 - across_y - across_x
    return out


def _parabola_drop(before: Array, at: Array, after: Array, inner: Array) -> Array:
    """How far below ``at`` (a least sample, between ``before`` and ``after``) the parabola
    through the three dips; 0 where the least sample is at the edge (``inner`` False) or
    the three are not a bowl."""
    curve = before + after - 2 * at
    ok = inner & (curve > 0)
    out: Array = np.where(ok, (after - before) ** 2 / (8 * np.where(ok, curve, 1.0)), 0.0)
    return out


def _expected(
    group: SizeGroup,
    level: int,
    a: int,
    oa: int,
    others: list[int],
    orients: list[int],
    valid: Array,
    told: Array,
    corners_seen: Array,
    index_level: int,
    masks: list[Array | None],
) -> Array:
    """How different card ``a`` (turned ``oa``) and each of ``others`` (turned as given)
    look where the card is seen and either explains it: capped cells plus index corners,
    in capped-cell units.  ``valid`` is in the frame of ``a`` turned ``oa``."""
    dd = np.stack(
        [_seen(group.cell_differ(level, a, b, ob != oa), valid)
         for b, ob in zip(others, orients, strict=True)]
    )  # fmt: skip
    total = (np.minimum(dd, CAP) * told).sum(1) / CAP
    index = _index_differ(group, index_level, a, oa, others, orients, corners_seen, masks)
    out: Array = total + index
    return out


def _index_differ(
    group: SizeGroup,
    level: int,
    a: int,
    oa: int,
    others: Any,
    orients: Any,
    corners_seen: Array,
    masks: list[Array | None],
) -> Array:
    """How different card ``a``'s index corners (turned ``oa``) are from those of each of
    ``others`` (turned as ``orients``), in capped cells, over ``a``'s corners in view
    (``masks``: per corner of the view, where it shows, if in part)."""
    pairs = group.index_pairs(level)
    others = np.asarray(others, int)
    flip = np.asarray(orients) != oa
    out = np.zeros(len(others))
    for corner in (0, 1):
        if corners_seen[corner]:
            theirs = 2 * others + np.where(flip, 1 - corner, corner)
            mask = masks[corner if oa == 0 else 1 - corner]
            if mask is None:
                out += pairs[2 * a + corner, theirs] / (CELL * CELL * 3) / CAP
            else:
                flat = group.index[level].reshape(len(group.labels) * 2, -1)
                differ = np.square(flat[theirs] - flat[2 * a + corner]) @ mask
                out += differ / (CELL * CELL * 3) / CAP
    return out


__all__ = ["BACK", "Decision", "Look", "identify", "look", "px_per_mm"]
