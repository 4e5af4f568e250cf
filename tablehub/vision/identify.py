"""Identifying cards against an enrolled deck (pure: arrays in, readings out).

Each enrolled card is described by normalised grey-level thumbnails (the whole card, and
its top-left index corner at a higher resolution) and a coarse chroma map (the colour of a
Chaos trick card matters as much as its shape).  A candidate quadrilateral from the finder is
rectified from the full-resolution frame, described the same way in both of its upright
orientations, and compared with every enrolled description by normalised correlation (one
matrix product).  A reading is accepted only if the best card beats a threshold *and* beats
the best different card by a margin; otherwise the card is reported as unknown (id None).
The card back is enrolled like a card: a back reads as ``face_up = False`` with no id.

Partly covered cards (a fan, a pile, a hand) are read from a visible index corner alone,
with stricter thresholds; a deck whose corners do not tell its cards apart (checked at
enrollment) never reads a card from a corner alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.finder import Blob, corner_hypotheses, find_cards, iou

Array = NDArray[Any]
BACK = "back"

CANON = (160, 222)  # rectified card size in pixels (w, h), about 2.5 px/mm
FULL_SIZE = (48, 68)  # whole-card grey thumbnail, softened to tolerate a loose outline
FULL_BLUR = 1.0
FULL_INSET = 0.06
# The enrolled index template and, larger, where a candidate's index is searched for.
CORNER_TEMPLATE = (0.035, 0.025, 0.195, 0.235)  # x0, y0, x1, y1 as fractions of the card
CORNER_SEARCH = (0.0, 0.0, 0.23, 0.27)
COARSE_SIZE = (12, 17)  # a blurred thumbnail: enough to tell a patterned back from a face
CHROMA_SIZE = (6, 8)
CHROMA_WEIGHT = 0.6


@dataclass(frozen=True)
class Thresholds:
    """When to believe a match (scores are correlations, 1.0 = identical)."""

    full_min: float = 0.6
    full_margin: float = 0.2  # normalised gap to every other card (0.5: a perfect match)
    corner_min: float = 0.75
    corner_margin: float = 0.25
    shortlist: int = 8  # cards (by whole-card score) whose index corners are compared


@dataclass
class EnrolledDeck:
    """Descriptions of every card of a deck (and its back), ready for matching."""

    name: str
    labels: list[str]  # one per template row: a card id or "back"
    full: Array  # (N, D) unit rows: whole card, grey
    corner: Array  # (N, D) unit rows: index corner, grey
    chroma_full: Array  # (N, C)
    chroma_corner: Array  # (N, C)
    coarse: Array  # (N, D) unit rows: blurred whole card (finds backs)
    sizes_mm: dict[str, tuple[float, float]]
    corner_ok: dict[str, bool]  # whether a corner alone tells this card apart
    counts: dict[str, int] = field(default_factory=dict)  # copies per id in a full deck

    @property
    def variants(self) -> int:
        """Template rows per card (rows are grouped by card, variants in a fixed order)."""
        return self.labels.count(self.labels[0])

    @property
    def ids(self) -> list[str]:
        return sorted({label for label in self.labels if label != BACK})

    @cached_property
    def self_full(self) -> Array:
        """Template-to-template similarity of whole cards (N, N)."""
        return _scores(self.full, self.chroma_full, self.full, self.chroma_full)

    @cached_property
    def self_corner(self) -> Array:
        """Template-to-template similarity of index corners (N, N)."""
        return _scores(self.corner, self.chroma_corner, self.corner, self.chroma_corner)


@dataclass(frozen=True)
class CardReading:
    card_id: str | None  # None: face down, or not sure which card
    confidence: float  # 0..1
    corners: Array  # 4x2 full-frame pixels: TL, TR, BR, BL of the upright card
    face_up: bool
    complete: bool  # False: read from a visible corner only
    duplicate: bool = False  # another reading in the frame has the same id too often

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(0)
        return float(c[0]), float(c[1])


# --- descriptions ---------------------------------------------------------------------------


def _unit(v: Array) -> Array:
    out = v.astype(np.float32).ravel()
    out = out - out.mean()
    n = float(np.linalg.norm(out))
    result: Array = out / n if n > 1e-6 else out
    return result


def _unit_rows(m: Array) -> Array:
    m = m.astype(np.float32)
    m = m - m.mean(axis=1, keepdims=True)
    n = np.linalg.norm(m, axis=1, keepdims=True)
    out: Array = m / np.maximum(n, 1e-6)
    return out


def _chroma(img: Array, size: tuple[int, int] = CHROMA_SIZE, ref: Array | None = None) -> Array:
    """Coarse a*b* map relative to the card's paper colour (so a colour cast cancels)."""
    small = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    if ref is None:
        ref = np.median(lab[..., 1:].reshape(-1, 2), axis=0)
    ab = lab[..., 1:] - ref
    out: Array = np.clip(ab / 40.0, -1.5, 1.5).ravel()
    return out


def _paper(card: Array) -> Array:
    small = cv2.resize(card, CHROMA_SIZE, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    out: Array = np.median(lab[..., 1:].reshape(-1, 2), axis=0)
    return out


def _grey(img: Array) -> Array:
    g: Array = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    return g


def _box(card: Array, box: tuple[float, float, float, float]) -> Array:
    h, w = card.shape[:2]
    x0, y0, x1, y1 = box
    out: Array = card[round(h * y0) : round(h * y1), round(w * x0) : round(w * x1)]
    return out


def describe_full(card: Array) -> tuple[Array, Array]:
    """(grey, chroma) whole-card description of a canonical straight card."""
    h, w = card.shape[:2]
    ix, iy = int(w * FULL_INSET), int(h * FULL_INSET)
    inner = card[iy : h - iy, ix : w - ix]
    g = cv2.resize(_grey(inner), FULL_SIZE, interpolation=cv2.INTER_AREA)
    g = cv2.GaussianBlur(g.astype(np.float32), (0, 0), FULL_BLUR)
    return _unit(g), _chroma(inner)


def describe_coarse(card: Array) -> Array:
    """A blurred, small grey thumbnail: fine back patterns (which alias) wash out."""
    h, w = card.shape[:2]
    ix, iy = int(w * FULL_INSET), int(h * FULL_INSET)
    g = cv2.GaussianBlur(_grey(card[iy : h - iy, ix : w - ix]), (0, 0), 4)
    return _unit(cv2.resize(g, COARSE_SIZE, interpolation=cv2.INTER_AREA))


def corner_template(card: Array) -> tuple[Array, Array]:
    """(grey, chroma) of a canonical card's top-left index, as enrolled."""
    patch = _box(card, CORNER_TEMPLATE)
    return _unit(_grey(patch)), _chroma(patch, (2, 3), _paper(card))


def corner_windows(card: Array, step: int) -> tuple[Array, Array]:
    """Every template-sized window of a canonical card's top-left search area (unit rows),
    and the search area's chroma."""
    th, tw = _template_shape()
    area = _grey(_box(card, CORNER_SEARCH)).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(area, (th, tw))[::step, ::step]
    rows = _unit_rows(windows.reshape(-1, th * tw))
    # The chroma of the centred window stands for all of them (colour is coarse anyway).
    cy, cx = (area.shape[0] - th) // 2, (area.shape[1] - tw) // 2
    ccard = _box(card, CORNER_SEARCH)[cy : cy + th, cx : cx + tw]
    return rows, _chroma(ccard, (2, 3), _paper(card))


def _template_shape() -> tuple[int, int]:
    w, h = CANON
    x0, y0, x1, y1 = CORNER_TEMPLATE
    return round(h * y1) - round(h * y0), round(w * x1) - round(w * x0)


def rectify(image: Array, corners: Array, size: tuple[int, int] = CANON) -> Array:
    """The card inside ``corners`` (TL, TR, BR, BL) as a straight ``size`` image."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    out: Array = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR)
    return out


def straighten(card: Array) -> Array:
    """An enrollment image as a canonical straight card (BGR, alpha dropped)."""
    if card.ndim == 2:
        card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
    if card.shape[2] == 4:
        alpha = card[..., 3:4].astype(np.float32) / 255.0
        card = (card[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    h, w = card.shape[:2]
    if w > h:
        card = cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE)
    out: Array = cv2.resize(card, CANON, interpolation=cv2.INTER_AREA)
    return out


def enroll_images(
    name: str,
    images: Mapping[str, Array],
    sizes_mm: Mapping[str, tuple[float, float]] | None = None,
    counts: Mapping[str, int] | None = None,
) -> EnrolledDeck:
    """Build an enrolled deck from straight card images (``"back"`` for the back).

    Each card is described as printed and slightly zoomed and softened, so a loose outline
    or a soft focus still matches."""
    labels: list[str] = []
    fulls, cfulls, corners, ccorners, coarses = [], [], [], [], []
    for card_id, image in images.items():
        canon = straighten(image)
        for variant in _variants(canon):
            labels.append(card_id)
            g, c = describe_full(variant)
            fulls.append(g)
            cfulls.append(c)
            g, c = corner_template(variant)
            corners.append(g)
            ccorners.append(c)
            coarses.append(describe_coarse(variant))
    deck = EnrolledDeck(
        name=name,
        labels=labels,
        full=np.stack(fulls),
        corner=np.stack(corners),
        chroma_full=np.stack(cfulls),
        chroma_corner=np.stack(ccorners),
        coarse=np.stack(coarses),
        sizes_mm={k: (float(v[0]), float(v[1])) for k, v in (sizes_mm or {}).items()},
        corner_ok={},
        counts=dict(counts or {}),
    )
    deck.corner_ok = _corner_distinct(deck)
    return deck


def _variants(canon: Array) -> list[Array]:
    """The card as printed, slightly zoomed in and out, and softened."""
    h, w = canon.shape[:2]
    out = [canon]
    for zoom in (1.04, 0.96):
        m = np.array(
            [[zoom, 0, (1 - zoom) * w / 2], [0, zoom, (1 - zoom) * h / 2]],
            np.float32,
        )
        out.append(cv2.warpAffine(canon, m, (w, h), borderMode=cv2.BORDER_REPLICATE))
    out.append(cv2.GaussianBlur(canon, (0, 0), 1.5))
    return out


def _corner_distinct(deck: EnrolledDeck, limit: float = 0.8) -> dict[str, bool]:
    """A card can be read from its corner alone if no other card's corner is close."""
    sim = _scores(deck.corner, deck.chroma_corner, deck.corner, deck.chroma_corner)
    labels = np.array(deck.labels)
    out: dict[str, bool] = {}
    for label in set(deck.labels):
        rows = labels == label
        others = labels != label
        best_other = float(sim[np.ix_(rows, others)].max()) if others.any() else -1.0
        out[label] = best_other < limit
    return out


def _scores(a: Array, ca: Array, b: Array, cb: Array) -> Array:
    """Correlation of grey descriptors minus a penalty for chroma differences."""
    grey = a @ b.T
    diff = np.abs(ca[:, None, :] - cb[None, :, :]).mean(-1)
    out: Array = grey - CHROMA_WEIGHT * diff
    return out


# --- reading a frame -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    label: str | None
    score: float
    margin: float


def _best(
    scores: Array, rows: Array, deck: EnrolledDeck, self_sim: Array
) -> tuple[str, float, float]:
    """Best label, its score and its margin over every other label.

    The margin is a normalised gap: for the best template ``a`` and a rival ``b`` (the same
    enrollment variant), ``(s_a - s_b) / (2 (1 - sim(a, b)))`` is 0.5 when the candidate is
    exactly ``a``, 0 halfway and -0.5 when it is exactly ``b``.  Dividing by how alike the
    two templates are makes the one pip between a 7 and an 8 count as much as a whole
    different picture.  The smallest margin over the rivals is returned."""
    top_i = int(np.argmax(scores))
    a = int(rows[top_i])
    top = deck.labels[a]
    best = float(scores[top_i])
    labels = np.array(deck.labels)[rows]
    rivals = (rows % deck.variants == a % deck.variants) & (labels != top)
    if not rivals.any():
        return top, best, 0.5
    gap = np.maximum(1.0 - self_sim[a, rows[rivals]], 0.02)
    p = (best - scores[rivals]) / (2.0 * gap)
    return top, best, float(min(0.5, p.min()))


def _corner_scores(card: Array, deck: EnrolledDeck, rows: Array, step: int) -> Array:
    """Best correlation of each enrolled index template (``rows``) anywhere in the card's
    top-left search area, less the chroma penalty."""
    windows, chroma = corner_windows(card, step)
    grey = (windows @ deck.corner[rows].T).max(axis=0)
    diff = np.abs(deck.chroma_corner[rows] - chroma[None, :]).mean(-1)
    out: Array = grey - CHROMA_WEIGHT * diff
    return out


def _match_outline(
    image: Array, corners: Array, deck: EnrolledDeck, t: Thresholds
) -> tuple[_Match, Array]:
    """Whole card in both upright orientations, then the index corners of a shortlist."""
    quads = [np.roll(corners, -turn, axis=0) for turn in (0, 2)]
    canons = [rectify(image, q) for q in quads]
    descs = [describe_full(c) for c in canons]
    back = _match_back(canons, deck)
    if back is not None:
        return back, quads[0]
    full = np.stack([d[0] for d in descs])
    chroma = np.stack([d[1] for d in descs])
    s_full = _scores(full, chroma, deck.full, deck.chroma_full)  # (2, N)
    per_label = s_full.max(axis=0).reshape(-1, deck.variants).max(axis=1)
    top_labels = np.argsort(-per_label)[: t.shortlist]
    rows_a = (top_labels[:, None] * deck.variants + np.arange(deck.variants)[None, :]).ravel()
    # The index shows top-left in one orientation and bottom-right (top-left of the other).
    s_corner = np.maximum(
        _corner_scores(canons[0], deck, rows_a, 1), _corner_scores(canons[1], deck, rows_a, 1)
    )
    combined = 0.5 * s_full[:, rows_a] + 0.5 * s_corner[None, :]
    o = int(np.unravel_index(int(np.argmax(combined)), combined.shape)[0])
    self_sim = 0.5 * deck.self_full + 0.5 * deck.self_corner
    label, score, margin = _best(combined[o], rows_a, deck, self_sim)
    if score >= t.full_min and margin >= t.full_margin:
        return _Match(label, score, margin), quads[int(o)]
    return _Match(None, score, margin), quads[int(o)]


def _match_back(canons: list[Array], deck: EnrolledDeck) -> _Match | None:
    """A face-down card: its blurred look is the back's, clearly more than any face's."""
    is_back = np.array([label == BACK for label in deck.labels])
    if not is_back.any():
        return None
    coarse = np.stack([describe_coarse(c) for c in canons])
    s = coarse @ deck.coarse.T
    back = float(s[:, is_back].max())
    face = float(s[:, ~is_back].max())
    margin = (back - face) / 2
    if back >= 0.75 and margin >= 0.1:
        return _Match(BACK, back, margin)
    return None


def _match_corner(image: Array, quad: Array, deck: EnrolledDeck, t: Thresholds) -> _Match:
    canon = rectify(image, quad)
    rows = np.arange(len(deck.labels))
    s = _corner_scores(canon, deck, rows, 2)
    label, score, margin = _best(s, rows, deck, deck.self_corner)
    if score >= t.corner_min and margin >= t.corner_margin and deck.corner_ok.get(label, False):
        return _Match(label, score, margin)
    return _Match(None, score, margin)


def _confidence(score: float, margin: float, t_min: float, t_margin: float) -> float:
    """A 0..1 confidence: 0.5 at the acceptance thresholds, towards 1 well above them."""
    z = min((score - t_min) / 0.1, (margin - t_margin) / 0.05)
    return float(1.0 / (1.0 + math.exp(-2.0 * z)))


def _side_scale(outlines: list[CardReading], deck: EnrolledDeck) -> list[tuple[Array, float]]:
    """(centre, px per mm) of every identified complete card: the local scale."""
    out = []
    for r in outlines:
        if not r.complete:
            continue
        size = deck.sizes_mm.get(r.card_id or "", None) or _common_size(deck)
        c = r.corners
        long_px = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
        out.append((c.mean(0), float(long_px / size[1])))
    return out


def _common_size(deck: EnrolledDeck) -> tuple[float, float]:
    if not deck.sizes_mm:
        return (63.0, 88.0)
    return Counter(deck.sizes_mm.values()).most_common(1)[0][0]


def read_cards(
    image: Array,
    deck: EnrolledDeck,
    thresholds: Thresholds | None = None,
    px_per_mm: float | None = None,
) -> list[CardReading]:
    """Every card found in a BGR frame, identified against ``deck``.

    ``px_per_mm`` (from the table calibration) sizes the cards hypothesised from a visible
    corner when no complete card is in view; otherwise their scale comes from the complete
    cards nearby."""
    t = thresholds or Thresholds()
    found = find_cards(image)
    scored: list[tuple[bool, float, CardReading]] = []
    for outline in found.outlines:
        match, quad = _match_outline(image, outline.corners, deck, t)
        if match.label is None and match.score < t.full_min - 0.2:
            continue  # not a card of this deck (a note, a tile): say nothing
        scored.append((match.label is not None, match.score, _reading(match, quad, True, t)))
    # Overlapping outlines (a card's printed frame, a card lying on a bigger one): the one
    # that was identified, and then the better match, wins.
    scored.sort(key=lambda x: (not x[0], -x[1]))
    readings: list[CardReading] = []
    for _, _, reading in scored:
        if all(iou(reading.corners, other.corners) < 0.4 for other in readings):
            readings.append(reading)
    scales = _side_scale(readings, deck)
    card_area = _card_area(readings, px_per_mm, deck)
    for blob in found.blobs:
        if card_area is None or not 1.1 * card_area <= blob.area <= 12 * card_area:
            continue
        readings.extend(_read_blob(image, blob, deck, t, scales, px_per_mm, readings))
    _mark_duplicates(readings, deck)
    return readings


def _card_area(
    readings: list[CardReading], px_per_mm: float | None, deck: EnrolledDeck
) -> float | None:
    """A typical card's area in pixels: from identified complete cards, else the scale."""
    areas = [
        float(cv2.contourArea(r.corners.astype(np.float32)))
        for r in readings
        if r.complete and r.card_id
    ]
    if areas:
        return float(np.median(areas))
    if px_per_mm:
        w, h = _common_size(deck)
        return w * h * px_per_mm * px_per_mm
    return None


def _reading(match: _Match, quad: Array, complete: bool, t: Thresholds) -> CardReading:
    t_min, t_margin = (t.full_min, t.full_margin) if complete else (t.corner_min, t.corner_margin)
    conf = _confidence(match.score, match.margin, t_min, t_margin)
    if match.label == BACK:
        return CardReading(None, conf, quad, face_up=False, complete=complete)
    return CardReading(match.label, conf, quad, face_up=True, complete=complete)


def _read_blob(
    image: Array,
    blob: Blob,
    deck: EnrolledDeck,
    t: Thresholds,
    scales: list[tuple[Array, float]],
    px_per_mm: float | None,
    known: list[CardReading],
) -> list[CardReading]:
    centre = blob.polygon.mean(0)
    if scales:
        dists = [float(np.linalg.norm(c - centre)) for c, _ in scales]
        scale = scales[int(np.argmin(dists))][1]
    elif px_per_mm:
        scale = px_per_mm
    else:
        return []
    sizes = sorted(set(deck.sizes_mm.values())) or [(63.0, 88.0)]
    hyps = [h for size in sizes for h in corner_hypotheses(blob, size, scale)]
    out: list[CardReading] = []
    for hyp in hyps:
        match = _match_corner(image, hyp.corners, deck, t)
        if match.label is None or match.label == BACK:
            continue
        reading = _reading(match, hyp.corners, False, t)
        if _already_seen(reading, known + out):
            continue
        out.append(reading)
    return out


def _already_seen(reading: CardReading, others: list[CardReading]) -> bool:
    """The same card read again from another of its corners, or as a complete outline."""
    for other in others:
        if other.card_id != reading.card_id:
            continue
        d = float(np.linalg.norm(np.array(other.centre) - np.array(reading.centre)))
        side = float(np.linalg.norm(reading.corners[3] - reading.corners[0]))
        if d < 0.9 * side:
            return True
    return False


def _mark_duplicates(readings: list[CardReading], deck: EnrolledDeck) -> None:
    seen = Counter(r.card_id for r in readings if r.card_id)
    for i, r in enumerate(readings):
        if r.card_id and seen[r.card_id] > deck.counts.get(r.card_id, 1):
            readings[i] = CardReading(
                r.card_id, r.confidence, r.corners, r.face_up, r.complete, duplicate=True
            )
