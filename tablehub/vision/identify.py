"""Reading every card in a frame against an enrolled deck (pure: arrays in, readings out).

The reader works in table millimetres.  With a table calibration (``table_to_image``, the
homography from table mm to frame pixels) every card is a rectangle of known size, so:

1. ``corners.find_hypotheses`` proposes card rectangles from right-angled corners and
   fits them to the frame's edges;
2. the hypotheses are examined best supported first (cards seen whole before cards under
   them).  Each is sharpened on the full-resolution frame (``corners.refine``; in a frame
   of under 2 px/mm, sides too blurred for that are measured over more pixels:
   ``corners.refine_blurred``), warped onto the comparison grid and identified
   (``match.identify``) with the cards already read on top of it cut out; a card read
   claims its rectangle, so what lies under it is read
   from what still shows (for a poker-style card, a corner index is enough).  A card
   recognised but not sure which still covers what lies under it; a card read before an
   overlapping one whose print it does not explain there is read again under it; an
   outline not read is read again with the outlines that lie on it (cards not read, such
   as a back showing a corner) cut out, rough ones too where it fitted a card best; a
   card in view all round that fitted a card best, not surely, is read again at its
   outline turned a few degrees either way (an outline drawn partly from a neighbour's
   side); a card read with most of where it overlaps an outline cut out tells nothing of
   which lies on top there: the outline is looked at without it too;
3. a card the identifier is not sure of is reported as unknown (``card_id`` None) if its
   outline shows whole, else not at all; a face-down card (its back enrolled like a card)
   is reported ``face_up = False`` with no id.  Two readings of a card the deck has only
   once are both marked ``duplicate``.

Without a calibration the image is taken as a straight top view at one scale: from
``px_per_mm`` if given, else from the complete card outlines in the frame.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision import corners, match
from tablehub.vision.finder import find_cards, outermost
from tablehub.vision.templates import (
    BACK,
    CELL,
    DEFAULT_SIZE_MM,
    GRID,
    INDEX_MM,
    Enrolled,
    SizeGroup,
    blur_level,
    build,
    cell_layout,
)

Array = NDArray[Any]
Scale: TypeAlias = float | Callable[[float, float], float]  # px/mm, or px/mm at a pixel
CANON = (252, 352)  # straight card images as enrolled and stored (w, h): 4 px/mm poker size

__all__ = [
    "BACK",
    "CANON",
    "CardReading",
    "EnrolledDeck",
    "Thresholds",
    "enroll_images",
    "read_cards",
    "read_frame",
    "rectify",
    "straighten",
]


@dataclass(frozen=True)
class Thresholds:
    """When to believe a match (see ``match.identify``); calibrated on rendered scenes
    (``python -m bench.cards``)."""

    min_explained: int = 8  # printed cells (3 x 3 mm) the card must explain
    min_margin: float = 0.16  # normalised margin over the closest other card (0.5: ideal)
    min_whole_margin: float = 0.1  # ... for a card seen whole, its outline sharp or nothing
    # on it (``match.Decision.whole_view``; rendered scenes of the dev seeds, whole cards:
    # right readings down to 0.02, one wrong one at 0.03)
    min_gap: float = 3.0  # the closest other card's extra mismatch, in capped cells (rendered
    # scenes: most wrong readings had less; 1% of right ones too)
    min_shown_gap: float = 0.8  # the same counted where print shows (cards not seen whole)
    max_hypotheses: int = 60  # card hypotheses examined per frame, best supported first
    max_extra: int = 80  # ... and the next ones, examined after all of those (cluttered
    # frames give a few hundred outlines; a card in a pile whose own ranked lower went
    # unread): dev seeds 202/101/303, 40 rather than none: +2/+10/+4 cards, none wrong.
    # 80 rather than 40 (benchmark, seed 7, 1280x720, 300 scenes each): agi +6, chaos +1,
    # rg +3, Get Adler! +2, none lost, wrong readings as before; about 4% more time a
    # 2304x1296 frame on the mean (agi, 30 frames), nothing on the median.  140: agi +8,
    # rg +3, Get Adler! +3, chaos +1, heruka and oc-white 0, twice that time
    max_late: int = 30  # ... then of those with a rough pose (a corner with one arm seen;
    # 20 left some strips of fans unread: dev seeds 202/101/303, 30: +10/+3/+0 cards, none
    # wrong, 3% more time a frame; 40 and 60 read no more)
    rough_index_fit: float = -0.5  # a card read from a rough pose: how its index corner in
    # view may lean towards another card's (``Decision.index_fit``: -1 is that card's
    # index exactly; dev seeds: the one wrong such reading -1.6, right ones -0.4 and up)
    rough_explained: float = 0.67  # ... and where its index does not name it (alike to
    # another's), the share of the cells seen it must explain
    shift_support: float = 0.8  # an outline this well supported with no card in it is
    # sought a card near (``match.coarse_shift``; 60 dev scenes: every such card read had
    # 0.8 or more, and 124 searches below that found nothing)
    doubtful_support: float = 0.6  # an outline less supported, under a card read, is
    # given up early if its coarse look fits no card (``match.identify``'s ``doubtful``)
    unknown_support: float = 0.9  # an unidentified outline this complete is "unknown"
    min_support: float = 0.42  # share of its outline a card shows sharply (else not read;
    # dev seeds 202/101/303, 0.42 rather than 0.5: +7/+13/+5 cards, none wrong, 3-4% more
    # time a frame -- a card in a fan shows little of its outline; 0.35: +9/+18/+5, 11%)
    min_support_under: float = 0.3  # ... and an outline under cards read, examined where it
    # shows less than ``min_support`` sharply only to be read (not read, it hides nothing:
    # a blurred frame's strip of a fan).  Benchmark, seed 7, 1280x720, 1,000 scenes: agi
    # +25 cards, chaos +4, wrong readings as before; kept when not read too (hiding what
    # lies under it): +29/+9 with 1 more wrong (it changed another card's reading)
    blank_corner_support: float = 0.62  # a card with no index printed (``_blank_cornered``)
    # is read only where this share of its outline shows sharply (the heruka deck's joker,
    # 1280x720 seed 7, 300 scenes: 14 readings where no joker lay, all at 0.58 or less;
    # 52 right ones, all at 0.66 or more; 2304x1296, 150 scenes: wrong 3 -> 1, none lost)
    pile_explained: float = 0.65  # explained share of its cells above which a card read
    # before an overlapping one is taken to lie on it without reading it again
    outline_on_top: float = 0.95  # edge support of an outline that no card lies on
    retry_support: float = 0.5  # an outline not read, this well supported, is read again
    # with the outlines lying on it cut out (cards not read, whose print spoils its view;
    # dev seeds 202/101/303 with 0.5 instead of 0.65: +4/+3/+4 cards, none wrong -- a strip
    # of a fan shows little of its outline)
    retry_cover_support: tuple[float, ...] = (0.6, 0.5)  # ... those of them this well
    # supported, and if still not read, those less well supported too (an outline may be a
    # card's or the print's; dev seeds 202/101/303, with ``match``'s size lead, 0.5 after
    # 0.6 rather than 0.6 alone: +13/+6/+8 cards, wrong readings 3 -> 2)
    copy_shown_gap: float = 5.0  # shown gap of a second reading, from a part, of a card
    # the deck holds once, for it to count as a copy (a duplicate) rather than a misread
    clash_gap_share: float = 0.5  # a card read more often than the deck holds it, none
    # seen whole and no second copy: a misread's shown gap this share of the clearest
    # reading's, and that one is not kept either


@dataclass
class EnrolledDeck:
    """A deck ready for reading: its matching templates, card sizes and copy counts."""

    name: str
    templates: Enrolled
    sizes_mm: dict[str, tuple[float, float]]
    counts: dict[str, int] = field(default_factory=dict)  # copies per id in a full deck

    @property
    def ids(self) -> list[str]:
        return sorted({label for g in self.templates.groups for label in g.labels} - {BACK})


@dataclass(frozen=True)
class CardReading:
    card_id: str | None  # None: face down, or not sure which card
    confidence: float  # 0..1
    corners: Array  # 4x2 full-frame pixels: TL, TR, BR, BL of the upright card
    face_up: bool
    complete: bool  # False: read from part of the card (the rest covered)
    duplicate: bool = False  # another reading in the frame has the same id too often

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(0)
        return float(c[0]), float(c[1])


# --- enrollment ------------------------------------------------------------------------------


def straighten(card: Array) -> Array:
    """An enrollment image as a canonical straight card (BGR, alpha dropped)."""
    from tablehub.vision.templates import straight_bgr

    out: Array = cv2.resize(straight_bgr(card), CANON, interpolation=cv2.INTER_AREA)
    return out


def rectify(image: Array, corners_px: Array, size: tuple[int, int] = CANON) -> Array:
    """The card inside ``corners_px`` (TL, TR, BR, BL) as a straight ``size`` image."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(corners_px.astype(np.float32), dst)
    out: Array = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR)
    return out


def enroll_images(
    name: str,
    images: Mapping[str, Array],
    sizes_mm: Mapping[str, tuple[float, float]] | None = None,
    counts: Mapping[str, int] | None = None,
) -> EnrolledDeck:
    """Build an enrolled deck from straight card images (``"back"`` for the back).

    ``sizes_mm``: each card's printed size (width, height); a card without one is taken as
    a poker card (63 mm wide) of its image's proportions."""
    sizes: dict[str, tuple[float, float]] = {}
    for card_id, image in images.items():
        if card_id == BACK:
            continue
        if sizes_mm and card_id in sizes_mm:
            w, h = sizes_mm[card_id]
            sizes[card_id] = (float(min(w, h)), float(max(w, h)))
        else:
            ih, iw = image.shape[:2]
            aspect = max(ih, iw) / max(min(ih, iw), 1)
            w = DEFAULT_SIZE_MM[0]
            sizes[card_id] = (w, round(w * aspect, 1))
    sizes = _snap_sizes(sizes)
    return EnrolledDeck(name, build(images, sizes), sizes, dict(counts or {}))


def _snap_sizes(sizes: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Sizes within a millimetre of a commoner one are that one (scans of one deck differ
    by a pixel or two; a card is found by its size, so one deck size must be one size)."""
    common = [size for size, _ in Counter(sizes.values()).most_common()]
    kept: list[tuple[float, float]] = []
    for size in common:
        if not any(abs(size[0] - k[0]) <= 1.0 and abs(size[1] - k[1]) <= 1.0 for k in kept):
            kept.append(size)
    out = {}
    for card_id, size in sizes.items():
        out[card_id] = next(
            k for k in kept if abs(size[0] - k[0]) <= 1.0 and abs(size[1] - k[1]) <= 1.0
        )
    return out


# --- reading ---------------------------------------------------------------------------------


def read_cards(
    image: Array,
    deck: EnrolledDeck,
    thresholds: Thresholds | None = None,
    px_per_mm: Scale | None = None,
    table_to_image: Array | None = None,
) -> list[CardReading]:
    """Every card found in a BGR frame, identified against ``deck``.

    ``table_to_image``: the table calibration (3x3 homography, table mm -> pixels), the
    normal case.  Without it, ``px_per_mm`` (a number, or a function of the pixel) gives
    the scale of a straight top view; without either the scale comes from the complete
    card outlines in the frame."""
    return read_frame(image, deck, thresholds, px_per_mm, table_to_image)[0]


def read_frame(
    image: Array,
    deck: EnrolledDeck,
    thresholds: Thresholds | None = None,
    px_per_mm: Scale | None = None,
    table_to_image: Array | None = None,
) -> tuple[list[CardReading], list[Array]]:
    """``read_cards`` and the regions (pixel polygons) that hide the table: hulls of the
    edge clusters nothing was read from (hands, clutter), for the tracker's "occluded"."""
    t = thresholds or Thresholds()
    h = table_to_image if table_to_image is not None else _plain_view(image, deck, px_per_mm)
    if h is None:
        return [], []
    hyp, em = corners.find_hypotheses(image, h, deck.templates.sizes)
    readings, claimed = _read(image, h, hyp, deck, t)
    _mark_duplicates(readings, deck)
    return readings, _uncovered_blobs(em, claimed)


def _plain_view(image: Array, deck: EnrolledDeck, px_per_mm: Scale | None) -> Array | None:
    """A table homography (table mm -> pixels) without a calibration: a straight top view
    at ``px_per_mm``, else the plane of the biggest complete card outline in the frame
    (taken as a card of the deck's commonest size)."""
    hgt, wid = image.shape[:2]
    if px_per_mm is not None:
        s = float(px_per_mm(wid / 2, hgt / 2)) if callable(px_per_mm) else float(px_per_mm)
        return np.diag([s, s, 1.0]) if s > 0 else None
    outlines = outermost(find_cards(image).outlines)
    if not outlines:
        return None
    best = max(outlines, key=lambda o: float(cv2.contourArea(o.corners.astype(np.float32))))
    w, h = (
        Counter(deck.sizes_mm.values()).most_common(1)[0][0] if deck.sizes_mm else (DEFAULT_SIZE_MM)
    )
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    out: Array = cv2.getPerspectiveTransform(rect, best.corners.astype(np.float32))
    return out


@dataclass
class _Read:
    reading: CardReading
    quad_mm: Array
    support: float
    hypothesis: int = -1
    decision: match.Decision | None = None
    covers: list[Array] = field(default_factory=list)
    over: list[Array] = field(default_factory=list)  # cards read before it lies on


@dataclass(frozen=True)
class _Unsure:
    """A card not identified: its pose, the card it fitted best, and whether its index
    corner named another card clearly (``match.MAX_INDEX_DISAGREE``)."""

    quad_mm: Array
    best: str
    index_denied: bool
    explained_share: float = 0.0  # ``match.Decision.explained_share`` of the best card


def _identify(
    image: Array,
    h: Array,
    sharp: corners.Hypotheses,
    i: int,
    group: Any,
    covers: list[Array],
    t: Thresholds,
    sizes: Sequence[SizeGroup],
    at: Array | None = None,
) -> match.Decision:
    """Identify hypothesis ``i`` as a card of ``group`` (``sizes``: every size group of
    the deck, whose other index corners it must not look more like), at its own outline
    or, where given, at ``at`` (not a pose its edges support)."""
    quad = sharp.quad(i) if at is None else at
    size = (float(sharp.size[i][0]), float(sharp.size[i][1]))
    lk = match.look(image, h, quad, size, covers)
    level = blur_level(match.px_per_mm(h, quad.mean(0)))
    sure_pose = float(sharp.support[i]) >= 0.85 and at is None
    doubtful = bool(covers) and float(sharp.support[i]) < t.doubtful_support
    shown = corners.corner_shown(sharp, i)
    other_sizes = [g for g in sizes if g is not group]

    def decide(seen: match.Look, sure_pose: bool) -> match.Decision:
        return match.identify(
            group, seen, level, t.min_explained, t.min_margin, t.min_gap, sure_pose,
            shown, t.min_shown_gap, doubtful, t.min_whole_margin, other_sizes,
        )  # fmt: skip

    # An outline not seen sharp all round may be broken by a hand on the card: plain
    # stretches of a colour no card's paper has are taken as hidden.
    seen = lk if sure_pose else lk.without_foreign()
    dec = decide(seen, sure_pose)
    # Fingers shaded between the knuckles are darker than bare paper: a card not read, with
    # no card read on it, that fitted a card best, is looked at once more with darker
    # foreign stretches taken as hidden too, where that hides LOOSE_MORE more of it, and
    # read so where its print tells it from every other card clearly (not from its index
    # corner alone).  Second looks like this one (and ``_read``'s without the cards read
    # with their overlap cut out) follow only a first look that fitted a card best: after
    # one that fitted none, an outline of other things' edges mostly, they read one card
    # of 19,212 on the benchmark (seed 7, 1280x720, 300 scenes of each of six decks: an
    # oc-white diamonds 9 under fingers, read since by ``match.PART_CLEAR_*``) and took
    # about a tenth of the time a 2304x1296 frame.  (Looks again with unread outlines on
    # it cut out do read such cards: leaving those out lost 11 and 17 cards of 3,146
    # Almost Got 'Im and 3,262 Chaos in Gotham City ones.)
    if dec.label is None and dec.best and not (sure_pose or covers):
        loose = lk.without_foreign(match.FOREIGN_BARE_LOOSE)
        hides = np.count_nonzero(seen.card_mask) - np.count_nonzero(loose.card_mask)
        if hides >= LOOSE_MORE * lk.card_mask.size:
            again = decide(loose, False)
            _trace(quad, "read again without darker foreign stretches", again)
            if again.label is not None and again.gap >= t.min_gap and again.margin >= LOOSE_MARGIN:
                dec = again
    # An outline that shows nearly all round with nothing like a card in it may have been
    # drawn to a card's printed frame (its border as light as the table): read where a
    # card fits instead.
    if not (dec.best or covers or float(sharp.support[i]) < t.shift_support):
        shift = match.coarse_shift(group, match.look(image, h, quad, size, [], match.SHIFT_MM))
        if shift is not None:
            # Not taken as seen sharp there: the edges were the print's.
            moved_lk = match.look(image, h, _shifted(quad, shift), size, covers)
            again = decide(moved_lk.without_foreign(), False)
            _trace(quad, "read again shifted", shift, again, float(sharp.support[i]))
            if again.label is not None:
                moved = (again.shift_mm[0] + shift[0], again.shift_mm[1] + shift[1])
                dec = replace(again, shift_mm=moved)
    if _off_its_outline(dec):
        _trace(quad, "print lines up only off its outline", dec)
        return replace(dec, label=None)
    return dec


LOOSE_MORE = 0.05  # share of a card that darker foreign stretches must hide besides the
# lighter ones for a second look (about 1.5 such looks a 2304x1296 frame; benchmark, seed 7,
# 1280x720, 180 scenes, before LOOSE_MARGIN: agi +5 cards, chaos +5, none lost; about 7%
# more time a 1280x720 frame)
LOOSE_MARGIN = 0.3  # margin over every rival a second look must read with (those it read
# right on rendered scenes: 0.35 and more; a Get Adler! disguise at a pose 4 mm off, read
# as a pistol from its index: 0.18)


def _lined_up_off(dec: match.Decision) -> bool:
    """Whether the print lined up at the edge of the search round its outline, or beyond
    (``match.MARGIN_MM``)."""
    return max(abs(dec.shift_mm[0]), abs(dec.shift_mm[1])) >= match.MARGIN_MM - 0.01


def _off_its_outline(dec: match.Decision) -> bool:
    """Whether a card read in part lines up only at the edge of the search round its
    outline (or beyond: ``match.MARGIN_MM``), explaining less than most of what shows:
    the outline is not its own (the print of the cards round it fitted a card best).  Full
    benchmark at d9dc70d: 7 of 9 chaos misreadings looked at were this (as a 7 mostly), 2
    of 3 Get Adler! ones; dev seeds 202/101/303: -3/-5/-3 cards read right."""
    off = _lined_up_off(dec)
    little = dec.explained < match.EXPLAINED_SHARE * dec.seen
    return dec.label is not None and not dec.whole_view and off and little


def _recheck_piles(
    image: Array,
    h: Array,
    sharp: corners.Hypotheses,
    deck: EnrolledDeck,
    done: list[_Read],
    t: Thresholds,
) -> list[_Read]:
    """A card read before another that overlaps it was taken to lie on top; where the
    overlap is not what the first card's print explains (its edges were another card's
    print: the pattern of a back), it may lie underneath.  Such a card is read again with
    the other one on it, and kept if that reading is the same (sure, or still the best fit
    though what is left is too little to be sure of), or if nothing of it is left to read
    beside the other one; dropped where another card fits what is left best."""
    keep = []
    for k, a in enumerate(done):
        dec = a.decision
        later = [
            b.quad_mm
            for b in done[k + 1 :]
            if any(c is a.quad_mm for c in b.covers + b.over)
            and _overlap(a.quad_mm, b.quad_mm) > 0.05
        ]
        on_top = a.support >= t.outline_on_top  # its outline shows all round: on top
        if dec is None or not later or on_top or dec.explained >= t.pile_explained * dec.seen:
            keep.append(a)
            continue
        size = (float(sharp.size[a.hypothesis][0]), float(sharp.size[a.hypothesis][1]))
        group = deck.templates.group_for(size)
        again = _identify(
            image, h, sharp, a.hypothesis, group, a.covers + later, t, deck.templates.groups
        )
        _trace(a.quad_mm, "read again under", again)
        # (where nothing of it is left to read, its print lay where the other card is:
        # it lies on that one; where what is left still fits it best, it was not another
        # card's print that made it)
        if again.label == dec.label or not again.best or again.best == dec.label:
            keep.append(a)
    return keep


def _read(
    image: Array, h: Array, hyp: corners.Hypotheses, deck: EnrolledDeck, t: Thresholds
) -> tuple[list[CardReading], list[Array]]:
    """Examine hypotheses best supported first, those with rough poses (``late``) after
    every other; each card read covers what lies under it.
    A hypothesis not read, that a card read after it turns out to lie on, is examined
    once more right away with that card cut out (the order of a pile is a guess)."""
    done: list[_Read] = []
    unknown: dict[int, _Read] = {}
    unsure: dict[int, _Unsure] = {}  # cards not identified, known to lie on top of later ones
    # Well-supported outlines next to a card read (a copy just under it on a pile, its own
    # corner): card edges, not a hand's, so they are no cover for the tracker either.
    echoes: list[Array] = []
    late = hyp.late if hyp.late is not None else np.zeros(len(hyp), bool)
    spare_of = corners.spare_of(hyp)
    sharp_poses = np.nonzero(~late & (spare_of < 0))[0]
    first = sharp_poses[: t.max_hypotheses]
    # Outlines past the first ``max_hypotheses``, examined after all of those (and their
    # spares), so that they change nothing about them.
    extra = sharp_poses[t.max_hypotheses : t.max_hypotheses + t.max_extra]
    # Spares (``corners.Hypotheses.spare_of``) of those examined, each examined right after
    # the one that outdid it where that one is not read.
    spares = np.nonzero(np.isin(spare_of, first))[0]
    last = np.nonzero(late)[0][: t.max_late]
    n = len(first) + len(spares) + len(extra)  # hypotheses from ``n`` on have rough poses
    if n + len(last) == 0:
        return [], []
    taken = corners.take(hyp, np.concatenate([first, spares, extra, last]).astype(int))
    sharp = corners.refine(image, h, taken)
    sharp = corners.refine_blurred(image, h, sharp, t.min_support)
    spare_of = corners.spare_of(sharp)
    queue, on_top = _top_first(corners.take(sharp, np.arange(len(first))))
    queue += list(range(len(first) + len(spares), len(sharp)))
    on_top += [set() for _ in range(len(first), len(sharp))]
    outline = corners.outline_points(sharp)  # (n, S, 2)
    sizes = deck.templates.groups
    failed: list[int] = []  # examined and not read, in order
    again: set[int] = set()  # examined a second time
    while queue:
        i = queue.pop(0)
        quad = sharp.quad(i)
        size = (float(sharp.size[i][0]), float(sharp.size[i][1]))
        shown = sharp.blurred if sharp.blurred is not None else sharp.support
        if float(shown[i]) < t.min_support:
            _trace(quad, "too few edges")
            continue
        unsure.pop(i, None)
        unknown.pop(i, None)
        read = [r.quad_mm for r in done] + [r.quad_mm for r in unknown.values()]
        if any(_same_card(quad, q) for q in read):
            _trace(quad, "same as a card read")
            echoes.append(quad)
            continue
        # An outline that fitted no card (``unknown``) makes those at its corners other
        # ways round of it only where they are no smaller: a bigger one may be drawn
        # round a whole pile, its corner that of the card on top.
        limit = BIGGER * _area(quad)
        owners = [r.quad_mm for r in done]
        owners += [u.quad_mm for u in unknown.values() if _area(u.quad_mm) <= limit]
        # (a card lying next to one read, corner by corner, overlaps it hardly at all)
        cornered = [q for q in owners if _shares_corner(quad, q) and _overlap(quad, q) > NEIGHBOUR]
        # A card read loosely (in view all round, its outline not sharp, its print not
        # all explained) may have been read at an outline drawn from its side and other
        # cards': an outline sharing a corner with it is examined too, and read in its
        # place where it explains clearly more (``_reads_better``).
        contested = [r for r in done if any(r.quad_mm is q for q in cornered) and _loose(r)]
        if cornered and (len(contested) < len(cornered) or i >= n):
            _trace(quad, "a corner of a card read")
            echoes.append(quad)
            continue
        # A card not identified still hides what lies under it, but another pose of that
        # card is examined all the same: it may read where the first pose did not (as
        # another card than that pose fitted best only from more than a little print, and
        # not at all without an index corner where that pose's index named another card).
        poses: list[_Unsure] = []
        kept = [r for r in done if not any(r is c for c in contested)]  # (read in place)
        above = [r.quad_mm for r in kept]
        for u in unsure.values():
            if _is_pose_of(quad, u.quad_mm):
                poses.append(u)
            else:
                above.append(u.quad_mm)
        covers = [q for q in above if _overlap(quad, q) > 0.0]
        # Cards read that this outline shows across, their own outline not showing across
        # it: it lies on them (a fan's next card), so they hide none of it.
        # So too cards read as lying under this outline (``_unread_on_top``).
        over = [
            r.quad_mm
            for r in done
            if any(r.quad_mm is q for q in covers)
            and (
                _shows_over(sharp, outline, i, r.hypothesis)
                or any(_same_card(quad, c) for c in r.covers)
            )
        ]
        covers = [q for q in covers if not any(q is o for o in over)]
        # Cards read with most of where they overlap this outline cut out: which lies on
        # top there is unknown, so it is looked at without them too where they cover too
        # much of it to read, or where it fitted a card best but is not read (a second
        # look: see ``_identify``).
        read_without = [
            r for r in done if any(r.quad_mm is q for q in covers) and _read_without(r, quad)
        ]
        fewer = [q for q in covers if not any(q is r.quad_mm for r in read_without)]
        freed: set[str | None] = set()  # the cards so taken off it
        hidden = _hidden(sharp, i, outline[i], covers, t)
        loose_outline = False  # its edges may be theirs: read only where print lines up on it
        if hidden and read_without and not _hidden(sharp, i, outline[i], fewer, t):
            _trace(quad, "looked at without the cards read without it", hidden)
            loose_outline = hidden == NO_OWN_EDGES
            freed = {r.reading.card_id for r in read_without}
            covers, hidden, read_without = fewer, "", []
        few_own = False  # few edges of its own: only read, and only as a face
        if hidden:
            # A card not identified is taken to lie on top, but may lie under this one
            # (which of two unread cards lies on the other is a guess): examined with the
            # cards read alone cut out, if they leave it in view.
            read_only = [r.quad_mm for r in kept if _overlap(quad, r.quad_mm) > 0.0]
            if len(read_only) < len(covers) and not _hidden(sharp, i, outline[i], read_only, t):
                covers = read_only
            elif hidden == NO_OWN_EDGES and not _hidden(
                sharp, i, outline[i], covers, t, FEW_OWN_EDGES
            ):
                few_own = True
            else:
                _trace(quad, hidden)
                continue
        # (an outline under cards with few sharp edges, or few of its own, is only read:
        # not read, it hides nothing)
        faint = (bool(covers) and float(sharp.support[i]) < t.min_support) or few_own
        group = deck.templates.group_for(size)
        if group is None:
            continue
        # A rough pose (from a corner with one arm) is pinned only by a printed index
        # corner at it: where no corner's outline shows, there is nothing to read.
        if i >= n and not any(corners.corner_shown(sharp, i)):
            _trace(quad, "rough pose, no index corner shows")
            continue
        dec = _identify(image, h, sharp, i, group, covers, t, sizes)
        _trace(quad, "identified", dec, float(sharp.support[i]))
        if dec.label is None and dec.best and read_without:
            bare = _identify(image, h, sharp, i, group, fewer, t, sizes)
            _trace(quad, "read again without the cards read without it", bare)
            if bare.label is not None:
                dec, covers = bare, fewer
                freed = {r.reading.card_id for r in read_without}
        # Read again with the outlines lying on it cut out (cards not read, whose print counts
        # against every card), those supported well first; and where the first look fitted
        # a card best, with outlines not among the first examined (rough poses, spares,
        # extras) lying on it cut out as well.
        retries: list[tuple[set[int], float, bool]] = []  # (lying on it, least support, rough)
        if dec.label is None:
            retries = [(on_top[i], least, False) for least in t.retry_cover_support]
            if dec.best:
                retries.append((_lying_on(sharp, outline, i), min(t.retry_cover_support), True))
        tried: list[set[int]] = []
        for lying_on, least, rough in retries:
            on_it = _unread_on_top(sharp, i, lying_on, covers, t, least)
            if not on_it or set(on_it) in tried:  # (none, or the same as before)
                continue
            tried.append(set(on_it))
            unread = [sharp.quad(j) for j in on_it]
            retry = _identify(image, h, sharp, i, group, covers + unread, t, sizes)
            _trace(quad, "read again under outlines on it", least, retry)
            if retry.label is not None and (
                _overrules(dec, retry, t) if rough else not _contradicts(dec, retry, t)
            ):
                dec, covers = retry, covers + unread
                break
        if dec.label is None and dec.best and dec.whole and not covers:
            dec, quad = _read_turned(image, h, sharp, i, group, t, sizes, dec)
        if dec.label is None and dec.best and not dec.whole:
            dec = _read_with_a_side_cut_out(image, h, sharp, i, group, covers, t, sizes, dec)
        if dec.label is not None and i >= n and not _pinned(group, dec, t):
            _trace(quad, "rough pose, not pinned by its index corner")
            dec = replace(dec, label=None)
        doubt = _doubted_by_poses(dec, poses)
        if doubt:
            _trace(quad, doubt)
            dec = replace(dec, label=None)
        if _blank_cornered(group, dec) and float(sharp.support[i]) < t.blank_corner_support:
            _trace(quad, "no index printed, its outline not sharp", dec)
            dec = replace(dec, label=None)
        if dec.label is None and faint:
            _trace(quad, "few sharp edges under cards, not read")
            continue
        if dec.label == BACK and few_own:
            # (a back's pattern is the same all over: a strip of it between the sides
            # of other cards can be any card's, or none)
            _trace(quad, "a back with few edges of its own, not read")
            continue
        if contested:
            if not all(_reads_better(dec, c) for c in contested):
                _trace(quad, "a corner of a card read", dec)
                echoes.append(quad)
                continue
            _trace(quad, "read in place of a card read loosely", dec)
            done = kept
        if dec.label is None:
            if float(sharp.support[i]) >= t.unknown_support and not covers:
                px = corners.transform(h, quad)
                unknown[i] = _Read(CardReading(None, 0.0, px, True, True), quad, 1.0)
            elif dec.card_like:
                # A card, not sure which: it still hides what lies under it.
                denial = dec.index_lead < -match.MAX_INDEX_DISAGREE
                unsure[i] = _Unsure(
                    _shifted(quad, dec.shift_mm), dec.best, denial, dec.explained_share
                )
            failed.append(i)
            queue[:0] = [int(j) for j in np.flatnonzero(spare_of == i) if j not in queue + failed]
            continue
        if loose_outline and _lined_up_off(dec):
            # (heruka scene 271: an eight of clubs under a card read without it, read as
            # the six lined up 4 mm off an outline made of the sides of the cards round it)
            _trace(quad, "an outline of others' edges, its print off it", dec)
            echoes.append(quad)
            continue
        if dec.label in freed:
            # (one of those cards itself, read at another outline: not a card under it)
            _trace(quad, "a card read without it, read again", dec)
            echoes.append(quad)
            continue
        shifted = _shifted(quad, dec.shift_mm)
        upright = shifted if dec.orientation == 0 else np.roll(shifted, 2, axis=0)
        complete = dec.seen >= 0.9 * _cells(group)
        if not complete and dec.index_seen[1] and not dec.index_seen[0]:
            upright = np.roll(upright, 2, axis=0)  # report the corner it was read from first
        px = corners.transform(h, upright)
        conf = _confidence(dec, t)
        if dec.label == BACK:
            reading = CardReading(None, conf, px, False, complete)
        else:
            reading = CardReading(dec.label, conf, px, True, complete)
        done.append(_Read(reading, upright, float(sharp.support[i]), i, dec, covers, over))
        # (an outline that fitted no card, examined with nothing on it, is examined again
        # under any card read across it: its edges there may be that card's print)
        under = [
            j
            for j in failed
            if j not in again
            and (
                _lies_on(upright, sharp, outline, j)
                or (j in unknown and _across(upright, sharp.quad(j)))
            )
        ]
        again.update(under)
        queue[:0] = under
    done = _recheck_piles(image, h, sharp, deck, done, t)
    done = _without_misread_copies(done, deck, t)
    out = [r.reading for r in done] + [
        u.reading
        for u in unknown.values()
        if not any(_overlap(u.quad_mm, r.quad_mm) > 0.3 for r in done)
    ]
    claimed = [corners.transform(h, r.quad_mm) for r in done + list(unknown.values())]
    claimed += [corners.transform(h, q) for q in echoes]
    return out, claimed


def _without_misread_copies(done: list[_Read], deck: EnrolledDeck, t: Thresholds) -> list[_Read]:
    """A card read more often than the deck holds it, from cards not all seen whole (a
    pose off the card, or a part, is weaker evidence than a card seen whole with a sharp
    outline or every cell explained): the weaker readings are taken as misreads where the
    card is seen whole too; else the reading whose print shows the clearest gap over its
    rivals stays, and another only if its gap is clear too (a second copy) -- unless
    another shows nearly as clear a gap: then nothing tells which one is the card, and
    none stays (abstain rather than guess)."""
    reads: dict[str, list[_Read]] = {}
    for r in done:
        if r.reading.card_id is not None and r.decision is not None:
            reads.setdefault(r.reading.card_id, []).append(r)
    misread: list[_Read] = []
    for card_id, rs in reads.items():
        weak = [r for r in rs if not _seen_whole(r)]
        if len(rs) <= deck.counts.get(card_id, 1) or not weak:
            continue
        if len(weak) < len(rs):
            misread += weak
            continue
        best = max(weak, key=_shown_gap)
        others = [r for r in weak if r is not best]
        misread += [r for r in others if _shown_gap(r) < t.copy_shown_gap]
        runner_up = max((_shown_gap(r) for r in others), default=0.0)
        if t.clash_gap_share * _shown_gap(best) <= runner_up < t.copy_shown_gap:
            misread.append(best)
    return [r for r in done if not any(r is m for m in misread)]


LOOSE_READ = 0.85  # outline support under which a card read in view all round may have
# been read at an outline drawn partly from other cards' sides (``_loose``)
READS_BETTER = 0.1  # share of its cells another pose of it must explain more


def _loose(r: _Read) -> bool:
    """Whether card ``r`` was read in view all round, from an outline not seen sharp all
    round, its print not all explained (``match.CLEAN_SHARE``)."""
    dec = r.decision
    return (
        dec is not None
        and dec.label is not None
        and r.support < LOOSE_READ
        and dec.explained_share < match.CLEAN_SHARE
        and dec.whole
    )


def _reads_better(dec: match.Decision, r: _Read) -> bool:
    """Whether ``dec``, of an outline sharing a corner with card ``r`` read loosely, reads a
    card in view all round that explains clearly more of it than ``r`` does."""
    old = r.decision
    return (
        dec.label is not None
        and old is not None
        and dec.whole
        and dec.explained_share >= old.explained_share + READS_BETTER
    )


def _seen_whole(r: _Read) -> bool:
    return r.decision is not None and r.decision.whole_view


def _shown_gap(r: _Read) -> float:
    return r.decision.shown_gap if r.decision is not None else 0.0


READ_WITHOUT = 0.7  # share of where two cards overlap that one was read with cut out (the
# blue 1 under the yellow 3, chaos 1280x720 seed 7 scene 205: 0.75)


def _read_without(r: _Read, quad: Array) -> bool:
    """Whether card ``r`` was read with most of where it overlaps ``quad`` cut out
    (outlines taken to lie on it): its reading says nothing of which lies on top there,
    so it hides none of ``quad``."""
    if not r.covers:
        return False
    lo = np.floor(np.minimum(quad.min(0), r.quad_mm.min(0))).astype(int) - 1
    hi = np.ceil(np.maximum(quad.max(0), r.quad_mm.max(0))).astype(int) + 2
    both = np.zeros((int(hi[1] - lo[1]), int(hi[0] - lo[0])), np.uint8)
    cv2.fillPoly(both, [np.round(quad - lo).astype(np.int32)], 1)
    mine = np.zeros_like(both)
    cv2.fillPoly(mine, [np.round(r.quad_mm - lo).astype(np.int32)], 1)
    both &= mine
    total = cv2.countNonZero(both)
    if total == 0:
        return False
    cut = np.zeros_like(both)
    for c in r.covers:
        cv2.fillPoly(cut, [np.round(c - lo).astype(np.int32)], 1)
    return cv2.countNonZero(both & cut) >= READ_WITHOUT * total


def _across(quad: Array, other: Array) -> bool:
    """Whether card ``quad`` overlaps outline ``other`` and is not the same card."""
    return _overlap(other, quad) > 0.05 and not _same_card(other, quad)


def _lies_on(quad: Array, sharp: corners.Hypotheses, outline: Array, j: int) -> bool:
    """Whether the card read in ``quad`` lies on hypothesis ``j`` (examined before it):
    they overlap, and ``j``'s outline (``outline[j]``) does not show across the card."""
    if not _across(quad, sharp.quad(j)):
        return False
    if sharp.edges is None:
        return True
    samples, share = _edges_across(sharp, outline, j, quad)
    return samples < 4 or share < 0.5


# Outline samples (of 64) of one card lying inside another that tell which lies on which:
# at least OVER_SAMPLES each way, SHOWS_ACROSS of those of the card on top with an edge,
# under HIDDEN_UNDER of those of the card beneath (a card's print may have edges of its
# own along a side of the card on it: a printed frame).  Benchmark, seed 7, 1280x720, 680
# scenes: agi +9 cards, chaos +10, none lost, no more wrong; with cards not identified
# taken off too where this one shows across them, no change on 200 scenes.
OVER_SAMPLES = 6
SHOWS_ACROSS = 0.7
HIDDEN_UNDER = 0.3


def _shows_over(sharp: corners.Hypotheses, outline: Array, i: int, j: int) -> bool:
    """Whether hypothesis ``i``'s outline shows across hypothesis ``j`` and ``j``'s does
    not show across ``i``: ``i`` lies on ``j``."""
    if sharp.edges is None or j < 0:
        return False
    samples, share = _edges_across(sharp, outline, i, sharp.quad(j))
    if samples < OVER_SAMPLES or share < SHOWS_ACROSS:
        return False
    samples, share = _edges_across(sharp, outline, j, sharp.quad(i))
    return samples >= OVER_SAMPLES and share < HIDDEN_UNDER


def _edges_across(
    sharp: corners.Hypotheses, outline: Array, k: int, quad: Array
) -> tuple[int, float]:
    """How many of hypothesis ``k``'s outline samples lie inside ``quad`` (by 3 mm), and
    the share of them with an edge (none without ``sharp.edges``)."""
    if sharp.edges is None:
        return 0, 0.0
    inside = _inside(outline[k], quad, 3.0)
    n = int(inside.sum())
    return n, float(sharp.edges[k][inside].mean()) if n else 0.0


def _inside(points: Array, quad: Array, margin_mm: float) -> Array:
    """Which ``points`` (mm) lie inside rectangle ``quad`` by more than ``margin_mm``."""
    ux = quad[1] - quad[0]
    uy = quad[3] - quad[0]
    w, h = float(np.linalg.norm(ux)), float(np.linalg.norm(uy))
    rel = points - quad[0]
    x = rel @ ux / w
    y = rel @ uy / h
    out: Array = (x > margin_mm) & (x < w - margin_mm) & (y > margin_mm) & (y < h - margin_mm)
    return out


TRACE: list[tuple[Any, ...]] | None = None  # set to a list to record every hypothesis


def _trace(*what: Any) -> None:
    if TRACE is not None:
        TRACE.append(what)


def _cells(group: Any) -> int:
    return int(group.cells[0].shape[1])


def _shifted(quad: Array, shift_mm: tuple[float, float]) -> Array:
    """``quad`` moved by ``shift_mm`` along its own x (TL->TR) and y (TL->BL) axes."""
    ux = (quad[1] - quad[0]) / max(float(np.linalg.norm(quad[1] - quad[0])), 1e-9)
    uy = (quad[3] - quad[0]) / max(float(np.linalg.norm(quad[3] - quad[0])), 1e-9)
    out: Array = quad + shift_mm[0] * ux + shift_mm[1] * uy
    return out


def _same_card(a: Array, b: Array, tol_mm: float = 6.0) -> bool:
    """Two rectangles that are one card (either way up)."""
    # centres apart (in plain arithmetic: most pairs lie far apart, on a hot path)
    (ax, ay), (bx, by) = (map(sum, zip(*q.tolist(), strict=True)) for q in (a, b))
    if math.hypot(ax - bx, ay - by) > 4 * tol_mm:
        return False
    return bool(min(np.abs(np.roll(a, k, 0) - b).max() for k in (0, 2)) < 2 * tol_mm)


def _unread_on_top(
    sharp: corners.Hypotheses,
    i: int,
    on_top: set[int],
    covers: list[Array],
    t: Thresholds,
    least: float,
) -> list[int]:
    """The outlines lying on hypothesis ``i`` (``on_top``), supported ``least`` or better,
    that no card read on it explains: cards not read (too little of them shows), whose
    print would count against every card ``i`` could be.  Only for an outline that shows
    well itself."""
    if float(sharp.support[i]) < t.retry_support:
        return []
    return [
        j
        for j in sorted(on_top)
        if float(sharp.support[j]) >= least
        and not any(_same_card(sharp.quad(j), q, 4.0) for q in covers)
    ]


TURNS_DEG = (-3.0, 3.0, -6.0, 6.0)  # turns tried about its centre (``_read_turned``)


def _read_turned(
    image: Array,
    h: Array,
    sharp: corners.Hypotheses,
    i: int,
    group: SizeGroup,
    t: Thresholds,
    sizes: Sequence[SizeGroup],
    dec: match.Decision,
) -> tuple[match.Decision, Array]:
    """A card in view all round, nothing on it, that fitted one card best but not surely
    may have been read at an outline turned a few degrees off it (drawn partly from the
    side of a card beside or under it): read again turned, kept only as that card, with
    the turned outline."""
    quad = sharp.quad(i)
    k = len(TURNS_DEG)
    turned = corners.rect_corners(
        np.repeat(sharp.centre[i : i + 1], k, 0),
        sharp.angle[i] + np.radians(TURNS_DEG),
        np.repeat(sharp.size[i : i + 1], k, 0),
    )
    for deg, at in zip(TURNS_DEG, turned, strict=True):
        again = _identify(image, h, sharp, i, group, [], t, sizes, at)
        _trace(quad, "read again turned", deg, again)
        if again.label == dec.best:
            return again, at
    return dec, quad


def _read_with_a_side_cut_out(
    image: Array,
    h: Array,
    sharp: corners.Hypotheses,
    i: int,
    group: Any,
    covers: list[Array],
    t: Thresholds,
    sizes: Sequence[SizeGroup],
    dec: match.Decision,
) -> match.Decision:
    """A card seen in part, not read, where a straight line parts what its look explains
    from what it does not: another card, not read, whose side runs across it (or the
    outline drawn from it) lies there, and its print counts against every card.  Read
    again with that side cut out (``_side_not_explained``): first the side the card fitted
    best does not explain, read only as that card; then the side none of the likeliest
    few cards explains (the print on it may have made another card fit best), read as
    another card only where its print tells it from every other (``_overrules``).
    What is left must show an index corner: the cut takes away what speaks against the
    card the look fitted best, so what is left fits it by design (a strip of a seven of
    spades' pips, the rest cut, was read as the three: heruka 1280x720 seed 7 scene 31)."""
    quad = sharp.quad(i)
    size = (float(sharp.size[i][0]), float(sharp.size[i][1]))
    tried: list[Array] = []
    for cells, only_best in ((dec.cells, True), (dec.any_cells, False)):
        if cells is None:
            continue
        cut = _side_not_explained(cells, _shifted(quad, dec.shift_mm), size)
        if cut is None or any(np.allclose(cut, c) for c in tried):
            continue
        tried.append(cut)
        retry = _identify(image, h, sharp, i, group, [*covers, cut], t, sizes)
        _trace(quad, "read again with a side it does not explain cut out", only_best, retry)
        if retry.label is None or not any(retry.index_seen):
            continue
        if retry.label == dec.best or (not only_best and _overrules(dec, retry, t)):
            return retry
    return dec


CUT_ANGLES = 36  # directions tried for the line (every 10 degrees)
CUT_UNEXPLAINED = 0.15  # share of the cells seen, not explained, the side cut must hold
CUT_EXPLAINED = 0.1  # ... and at most this share of the cells explained
CUT_WEIGHT = 4.0  # an explained cell on the side cut weighs this many unexplained ones
# (0.08 / 0.15 / 3.0 read the same cards on 150 scenes each of agi and chaos, seed 7,
# 1280x720, with the cut from the best card alone)


def _side_not_explained(cells: Array, quad: Array, size: tuple[float, float]) -> Array | None:
    """A polygon (table mm) over the side of a straight line across the card in ``quad``
    that holds most of its cells not explained and few explained (``cells``: per cell, as
    ``match.Decision.cells``), or None where no line parts them so (a wrong card leaves
    cells unexplained all over it)."""
    x0, y0, cols, rows = cell_layout(size)
    state = cells.reshape(rows, cols)
    gy, gx = np.mgrid[0:rows, 0:cols]
    seen = state >= 0
    u = (x0 + CELL * (gx[seen] + 0.5)) / GRID  # cell centres, mm along the card's sides
    v = (y0 + CELL * (gy[seen] + 0.5)) / GRID
    good = state[seen] == 1
    if np.count_nonzero(~good) < CUT_UNEXPLAINED * len(good):
        return None
    best_score, angle, at = 0.0, 0.0, 0.0
    for a in np.linspace(0.0, 2 * np.pi, CUT_ANGLES, endpoint=False):
        p = u * np.cos(a) + v * np.sin(a)
        order = np.argsort(-p, kind="stable")
        ranked = p[order]
        # cutting the k+1 cells farthest along the direction, between two distinct values
        score = np.cumsum(~good[order]) - CUT_WEIGHT * np.cumsum(good[order])
        score[:-1][ranked[:-1] == ranked[1:]] = -np.inf
        k = int(np.argmax(score))
        if score[k] > best_score:
            nxt = ranked[k + 1] if k + 1 < len(ranked) else ranked[k] - CELL / GRID
            best_score, angle, at = float(score[k]), float(a), 0.5 * float(ranked[k] + nxt)
    if best_score <= 0.0:
        return None
    side = u * np.cos(angle) + v * np.sin(angle) > at
    few_unexplained = np.count_nonzero(side & ~good) < CUT_UNEXPLAINED * len(good)
    many_explained = np.count_nonzero(side & good) > CUT_EXPLAINED * np.count_nonzero(good)
    if few_unexplained or many_explained:
        return None
    # The half-plane, as a square reaching well past the card, in the card's own mm ...
    normal = np.array([np.cos(angle), np.sin(angle)])
    along = np.array([-normal[1], normal[0]])
    far = 2.0 * (size[0] + size[1])
    foot = normal * at
    square = [foot - far * along, foot + far * along]
    square += [square[1] + far * normal, square[0] + far * normal]
    # ... and on the table
    return corners.transform(match.grid_to_mm(quad, size), np.array(square) * GRID)


def _blank_cornered(group: SizeGroup, dec: match.Decision) -> bool:
    """Whether the card read prints nothing in its index corners (a joker drawn on blank
    paper): only its drawing speaks for it, and a patch of plain table, or a back's white
    border beside it, fits a line drawing on blank paper well."""
    if dec.label is None or dec.label == BACK:
        return False
    return not group.index_inked[group.labels.index(dec.label)].any()


def _pinned(group: SizeGroup, dec: match.Decision, t: Thresholds) -> bool:
    """Whether a card read from a rough pose shows one of its index corners, printed (a
    joker's may be bare paper, which any plain surface fits), not looking like another
    card's index, and -- where that index does not name the card (too like another's) --
    most of what shows fits the card: the pose is only as good as that corner."""
    inked = group.index_inked[group.labels.index(dec.best)]
    printed = any(seen and bool(ink) for seen, ink in zip(dec.index_seen, inked, strict=True))
    named = dec.index_fit > 0.0 or dec.explained >= t.rough_explained * dec.seen
    return printed and dec.index_fit >= t.rough_index_fit and named


ON_TOP_LEAD = 0.25  # one outline lies on another where the share of it inside the other
# that shows an edge is this much more than the other's inside it


def _top_first(hyp: corners.Hypotheses) -> tuple[list[int], list[set[int]]]:
    """Hypotheses in the order to read them: best supported first, but a card another one
    lies on after that one (a card in a pile is read from what shows beside the cards on
    top of it).  Of two overlapping rectangles the one on top is the one whose outline
    shows across the other (the lower one's runs on under it, unseen; counted where its
    edges run along its sides, so a back's pattern does not pass for it).  Also, per
    hypothesis, the ones found to lie on it."""
    n = len(hyp)
    order0 = [int(i) for i in np.argsort(-hyp.support, kind="stable")]
    if n < 2 or hyp.edges is None:
        return order0, [set() for _ in range(n)]
    points = corners.outline_points(hyp)  # (n, S, 2)
    near = _near_pairs(hyp)
    np.fill_diagonal(near, False)
    a, b = np.nonzero(near)
    share = np.full((n, n), np.nan)
    share[a, b] = _shown_inside(hyp, points, a, b)
    # a lies on b where a's outline shows clearly more inside b than b's inside a
    known = ~np.isnan(share) & ~np.isnan(share.T)
    on = known & (share > share.T + ON_TOP_LEAD)
    below = [set(np.nonzero(on[:, j])[0].tolist()) for j in range(n)]  # cards on top of j
    return _layered(order0, below), below


def _lying_on(hyp: corners.Hypotheses, points: Array, i: int) -> set[int]:
    """The hypotheses that lie on hypothesis ``i``, as ``_top_first`` finds them, but among
    every hypothesis (rough poses and spares too), worked out for ``i`` alone."""
    if len(hyp) < 2 or hyp.edges is None:
        return set()
    others = np.flatnonzero(_near_pairs(hyp, i)[0])
    others = others[others != i]
    if len(others) == 0:
        return set()
    mine = np.full(len(others), i)
    theirs = _shown_inside(hyp, points, others, mine)  # their outlines inside ``i``
    its = _shown_inside(hyp, points, mine, others)  # ``i``'s inside theirs
    on = ~np.isnan(theirs) & ~np.isnan(its) & (theirs > its + ON_TOP_LEAD)
    return {int(j) for j in others[on]}


def _near_pairs(hyp: corners.Hypotheses, i: int | None = None) -> Array:
    """(n, n) bool, or (1, n) for hypothesis ``i`` alone: rectangles whose centres lie
    close enough for them to overlap."""
    reach = np.hypot(hyp.size[:, 0], hyp.size[:, 1]) / 2
    rows = slice(None) if i is None else slice(i, i + 1)
    apart = np.hypot(*(hyp.centre[rows, None] - hyp.centre[None]).transpose(2, 0, 1))
    out: Array = apart < reach[rows, None] + reach[None]
    return out


def _shown_inside(hyp: corners.Hypotheses, points: Array, a: Array, b: Array) -> Array:
    """Per pair, the share of ``a``'s outline samples well inside ``b`` that show an edge
    (NaN where fewer than 4 lie inside)."""
    c, s = np.cos(hyp.angle), np.sin(hyp.angle)
    rel = points[a] - hyp.centre[b][:, None]
    x = rel[..., 0] * c[b][:, None] + rel[..., 1] * s[b][:, None]
    y = -rel[..., 0] * s[b][:, None] + rel[..., 1] * c[b][:, None]
    inside = (np.abs(x) < (hyp.size[b, 0] / 2 - 3.0)[:, None]) & (
        np.abs(y) < (hyp.size[b, 1] / 2 - 3.0)[:, None]
    )
    count = inside.sum(1)
    edges = hyp.straight if hyp.straight is not None else hyp.edges
    assert edges is not None
    shown = (edges[a] & inside).sum(1) / np.maximum(count, 1)
    out: Array = np.where(count >= 4, shown, np.nan)
    return out


def _layered(order0: list[int], below: list[set[int]]) -> list[int]:
    """``order0`` re-ordered so that a card comes after the cards on top of it
    (``below[i]``).  Hypotheses that are no card (a corner of one card with an edge of
    another) can make the relation circular; then the one with the fewest still waiting
    on top of it goes next (of those, the first in ``order0``), not the first in
    ``order0`` (often a pile's bottom card: its outline shows best)."""
    order: list[int] = []
    pending = list(order0)
    while pending:
        waiting = set(pending)
        pick = min(pending, key=lambda i: len(below[i] & waiting))
        pending.remove(pick)
        order.append(pick)
    return order


def _doubted_by_poses(dec: match.Decision, poses: list[_Unsure]) -> str:
    """Why a card read from another pose of cards not identified (``poses``) is not taken
    ("" if it is): it names another card than they fitted best from a little print, or it
    shows no index corner where theirs named another card clearly, or one of them fitted
    another card explaining clearly more (``POSE_DOUBT_SHARE``)."""
    if dec.label is None or not poses:
        return ""
    if dec.label not in {u.best for u in poses} and dec.inked < match.LITTLE_PRINT:
        return "another pose of a card not identified, read from a little print"
    if any(u.index_denied for u in poses) and not any(dec.index_seen):
        return "another pose of a card its index denied, read without an index"
    if not dec.whole_view and any(
        u.best != dec.label and u.explained_share >= dec.explained_share + POSE_DOUBT_SHARE
        for u in poses
    ):
        return "another pose of the card fits another card better"
    return ""


# A card read in part where another pose of it, not identified, fitted another card best
# and explained this share more of what shows is not taken: the pose read is the worse one
# (benchmark misreadings: the Get Adler! magnifier 5+ read as Townsend at a pose 5 mm off
# explaining 77%, its own outline fitting the magnifier at 96% but unsure; an oc clubs 4 on
# a fan read as the spades 4, 67% against 86%).
POSE_DOUBT_SHARE = 0.15


def _is_pose_of(a: Array, b: Array) -> bool:
    """Whether rectangle ``a`` is another pose of card ``b``: the same card, one proposed
    by one of its corners, or the same card shifted along its sides (``SHIFTED_POSE``)."""
    return _same_card(a, b) or _shares_corner(a, b) or _shifted_pose(a, b)


# A rectangle lying along another's sides, the two covering this share of each other, is
# the same card at a pose shifted by a few millimetres (a fan's outlines: a pose 9 mm off
# its card, a pip column, read the diamonds 6 as the 3 where the card's own pose had its
# index denied; dev seeds 202/101/303: +0/+0/+1 cards, none wrong).
SHIFTED_POSE = 0.8


def _shifted_pose(a: Array, b: Array) -> bool:
    """Whether ``a`` lies along ``b``'s sides, each covering ``SHIFTED_POSE`` of the other."""
    return _parallel(a, b) and _overlap(a, b) >= SHIFTED_POSE and _overlap(b, a) >= SHIFTED_POSE


def _parallel(a: Array, b: Array, tol_deg: float = 4.0) -> bool:
    """Whether the sides of rectangles ``a`` and ``b`` run the same ways."""
    (ax0, ay0), (ax1, ay1) = a[:2].tolist()
    (bx0, by0), (bx1, by1) = b[:2].tolist()
    da = math.atan2(ay1 - ay0, ax1 - ax0)
    db = math.atan2(by1 - by0, bx1 - bx0)
    return abs((da - db + math.pi / 4) % (math.pi / 2) - math.pi / 4) <= math.radians(tol_deg)


def _shares_corner(a: Array, b: Array, tol_mm: float = 3.0, tol_deg: float = 4.0) -> bool:
    """``a`` has a corner where ``b`` has one, with its sides along ``b``'s: another card
    size or way round proposed by the corner of card ``b`` (already read)."""
    if not _parallel(a, b, tol_deg):
        return False
    d = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
    return bool(d.min() < tol_mm)


NEIGHBOUR = 0.2  # share of an outline that must overlap a card read whose corner it shares
# to be taken as another pose from that corner (not a card lying next to it)
BIGGER = 1.2  # an outline this many times the area of another is of a bigger card


def _area(quad: Array) -> float:
    """Area (mm^2) of a convex quad."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def _overlap(a: Array, b: Array) -> float:
    """Area of the intersection of two convex quads over the area of ``a``."""
    (axs, ays), (bxs, bys) = (zip(*q.tolist(), strict=True) for q in (a, b))
    if min(axs) > max(bxs) or min(ays) > max(bys) or min(bxs) > max(axs) or min(bys) > max(ays):
        return 0.0
    inter, _ = cv2.intersectConvexConvex(
        a.astype(np.float32).reshape(-1, 1, 2), b.astype(np.float32).reshape(-1, 1, 2)
    )
    area = _area(a)
    return float(inter) / area if area > 0 else 0.0


CLEAR_VIEW = 0.9  # share of the cells seen a card explains where nothing spoils the view
PRINT_APART = 20.0  # capped cells: a first view whose print tells its best card from every
# other by this gap (``Decision.shown_gap``) is not overruled by a part either


def _contradicts(first: match.Decision, retry: match.Decision, t: Thresholds) -> bool:
    """Whether a reading with the outlines on a card cut out names another card than the
    one its first view fitted best by a clear gap, explaining nearly all of it (nothing
    lay on it to spoil that view: a location seen whole, its corner's index a little off,
    read again from a seventh of it as another location, chaos 1280x720 seed 7 scene
    366), or whose print told that card from every other by ``PRINT_APART`` (a role seen
    whole, 81% explained, its index off, read again from its index as another role: agi
    1280x720 seed 7 scene 899).  What is left after the cut is too little to overrule it."""
    clear_view = first.gap >= t.min_gap and first.explained >= CLEAR_VIEW * first.seen
    return retry.label != first.best and (clear_view or first.shown_gap >= PRINT_APART)


def _overrules(first: match.Decision, retry: match.Decision, t: Thresholds) -> bool:
    """Whether a reading with parts cut out whose place is known only roughly (outlines
    of rough poses, a side where nothing fits) may name another card than the first look
    fitted best: only where its print tells it from every other card (``Thresholds.min_gap``),
    not from its index corner alone (a strip of the cards on it that was left in view
    was read from an index corner as another card: chaos 1280x720 seed 7 scene 485, a
    green 8 fitted best, read as the green 5), and the first look does not contradict it
    (``_contradicts``)."""
    if retry.label == first.best:
        return True
    return retry.gap >= t.min_gap and not _contradicts(first, retry, t)


def _may_show(quad: Array, size: tuple[float, float], covers: list[Array]) -> bool:
    """Whether a card in ``quad`` under ``covers`` could still be read: half of it shows,
    or one of its index corners does (rasterised at 1 mm)."""
    lo = np.floor(quad.min(0)).astype(int) - 1
    extent = np.ceil(quad.max(0)).astype(int) - lo + 2
    mask = np.zeros((int(extent[1]), int(extent[0])), np.uint8)
    cv2.fillPoly(mask, [np.round(quad - lo).astype(np.int32)], 1)
    total = cv2.countNonZero(mask)
    for c in covers:
        cv2.fillPoly(mask, [np.round(match.grow(c, match.COVER_GROW_MM) - lo).astype(np.int32)], 0)
    if cv2.countNonZero(mask) >= 0.5 * total:
        return True
    x0, y0, x1, y1 = INDEX_MM
    w, h = size
    for q in (quad, np.roll(quad, 2, axis=0)):  # both index corners
        ux, uy = (q[1] - q[0]) / w, (q[3] - q[0]) / h
        box = np.array([q[0] + ux * x + uy * y for x, y in ((x0, y0), (x1, y0), (x1, y1),
                                                             (x0, y1))])  # fmt: skip
        inner = np.zeros_like(mask)
        cv2.fillPoly(inner, [np.round(box - lo).astype(np.int32)], 1)
        if cv2.countNonZero(inner & mask) >= 0.9 * cv2.countNonZero(inner):
            return True
    return False


OWN_EDGES = 12  # outline samples (of 64) with an edge clear of the cards on it (rendered
# scenes: outlines under cards read with fewer were never read)
FEW_OWN_EDGES = 8  # ... and an outline with fewer than OWN_EDGES but this many is read
# only where its print names a card (not read, it hides nothing), and never as a back (a
# back's strip between other cards' sides read so was a second face-down card).
# Benchmark, seed 7, 1280x720: agi 1,000 scenes +4 cards, chaos 1,000 +5, adler 400 +1,
# rg 400 0, none lost, wrong readings as before; 4 read one card more on chaos and adler
NO_OWN_EDGES = "no edges of its own"


def _hidden(
    sharp: corners.Hypotheses,
    i: int,
    outline: Array,
    covers: list[Array],
    t: Thresholds,
    own_edges: int = OWN_EDGES,
) -> str:
    """Why hypothesis ``i`` under ``covers`` is not worth a look ("" if it is): it must
    show ``own_edges`` edges of its own."""
    if not covers:
        return ""
    if float(sharp.support[i]) < t.min_support_under:
        # Shown only as blurred sides (``corners.refine_blurred``): a card seen whole
        # in a blurred frame, not a strip under cards read.
        return "too few sharp edges under cards"
    if sharp.edges is not None and _own_edges(outline, sharp.edges[i], covers) < own_edges:
        return NO_OWN_EDGES
    quad = sharp.quad(i)
    if not _may_show(quad, (float(sharp.size[i][0]), float(sharp.size[i][1])), covers):
        return "covered"
    return ""


def _own_edges(points: Array, edges: Array, covers: list[Array]) -> int:
    """How many of an outline's samples (``points``, mm) with an edge (``edges``) lie clear
    of the cards on it: an outline with few is made of their sides and print (a card
    lying under them shows sides of its own), and is not worth a look."""
    clear = edges.copy()
    for quad in covers:
        clear &= ~_inside(points, quad, -match.COVER_GROW_MM)
    return int(clear.sum())


def _confidence(dec: match.Decision, t: Thresholds) -> float:
    """0..1: 0.5 at the acceptance thresholds, towards 1 well above them (for a card read
    from its index corner, the index's own margin counts as well)."""
    floor = t.min_whole_margin if dec.whole_view else t.min_margin
    z = min((dec.margin - floor) / 0.05, (dec.gap - t.min_gap) / 2.0)
    z = max(z, (dec.index_fit - match.INDEX_FIT) / 0.2)
    return float(1.0 / (1.0 + math.exp(-2.0 * z)))


OUTLINE_PX = 9  # an outline's edge pixels, dilated, lie within 4 px of it


def _uncovered_blobs(em: corners.EdgeMap, claimed: list[Array]) -> list[Array]:
    """Hulls (frame pixels) of big edge clusters that no reading explains: a hand, a mug,
    cards nothing could be read from."""
    edges = cv2.dilate(em.edges, np.ones((5, 5), np.uint8))
    scale = 1.0 / em.shrink
    for quad in claimed:
        poly = [np.round(quad * em.shrink).astype(np.int32)]
        cv2.fillPoly(edges, poly, 0)
        # and the outline's own edge, which the dilation spread just outside the quad
        cv2.polylines(edges, poly, True, 0, thickness=OUTLINE_PX)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    min_area = 1400.0 * corners.work_scale(em) ** 2  # a quarter of a card, in work pixels
    for c in contours:
        hull = cv2.convexHull(c)
        if cv2.contourArea(hull) >= min_area:
            out.append(hull.reshape(-1, 2).astype(np.float64) * scale)
    return out


def _mark_duplicates(readings: list[CardReading], deck: EnrolledDeck) -> None:
    """Readings of a card more often than the deck holds it are marked ``duplicate`` (the
    misread ones are gone already: ``_without_misread_copies``)."""
    seen = Counter(r.card_id for r in readings if r.card_id)
    for i, r in enumerate(readings):
        if r.card_id and seen[r.card_id] > deck.counts.get(r.card_id, 1):
            readings[i] = CardReading(
                r.card_id, r.confidence, r.corners, r.face_up, r.complete, duplicate=True
            )
