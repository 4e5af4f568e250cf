"""Our own stand-in card art, drawn from ``tablehub.vision.decks`` data (no image files).

``render_face(spec, px_per_mm)`` and ``render_back(deck, px_per_mm)`` return BGRA images of
a straight card (portrait, rounded corners transparent).  The art is deliberately like real
cards: a corner index (rank/value/code + suit) top-left and, turned, bottom-right; pips or a
big value in the middle; names in a title band; and a per-card emblem (shapes seeded by the
card id) standing in for the illustration.  Deterministic: the same id always looks the same.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.decks import DECKS, CardSpec, DeckSpec, card_spec

Image = NDArray[Any]
Colour = tuple[int, int, int]

PAPER: Colour = (236, 244, 248)
INK: Colour = (30, 30, 30)
RED: Colour = (40, 30, 200)
SUIT_COLOURS: dict[str, Colour] = {
    "bats": (25, 25, 25),
    "riddles": (60, 110, 20),
    "hearts": (120, 40, 210),
    "diamonds": (30, 40, 190),
}
CHAOS_BGR: dict[str, Colour] = {
    "red": (40, 40, 210),
    "green": (60, 150, 40),
    "yellow": (10, 150, 215),
    "blue": (170, 80, 20),
}
CATEGORY_COLOURS: dict[str, Colour] = {
    "role": (90, 40, 110),
    "character": (40, 90, 150),
    "joker": (30, 120, 160),
    "villain": (70, 30, 130),
    "location": (90, 90, 40),
    "action": (40, 60, 110),
    "hero": (130, 120, 110),
    "batman": (30, 30, 30),
    "upgrade": (40, 110, 140),
    "accomplice": (100, 60, 60),
}
FONT = cv2.FONT_HERSHEY_DUPLEX
FONT_BOLD = cv2.FONT_HERSHEY_TRIPLEX
# A number card's rank (a poker rank, a trick value) is printed as tall as on a real poker
# card, so a whole-table camera (1-2 px/mm) can tell a fanned card from its corner; the
# other cards' codes keep the smaller size (5.5 asked of _text, about 4 mm printed: made
# bigger, Rogues Gallery's were misread three times as often)
NUMBER_CARDS = ("poker", "trick")
RANK_MM = 8.0  # height asked of _text; the glyphs come out about 6.2 mm tall

# Pip layouts (x, y in card fractions) for poker cards 2..10.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.25), (0.5, 0.75)),
    3: ((0.5, 0.25), (0.5, 0.5), (0.5, 0.75)),
    4: ((0.33, 0.25), (0.67, 0.25), (0.33, 0.75), (0.67, 0.75)),
    5: ((0.33, 0.25), (0.67, 0.25), (0.5, 0.5), (0.33, 0.75), (0.67, 0.75)),
    6: ((0.33, 0.25), (0.67, 0.25), (0.33, 0.5), (0.67, 0.5), (0.33, 0.75), (0.67, 0.75)),
    7: (
        (0.33, 0.25),
        (0.67, 0.25),
        (0.5, 0.375),
        (0.33, 0.5),
        (0.67, 0.5),
        (0.33, 0.75),
        (0.67, 0.75),
    ),
    8: (
        (0.33, 0.25),
        (0.67, 0.25),
        (0.5, 0.375),
        (0.33, 0.5),
        (0.67, 0.5),
        (0.5, 0.625),
        (0.33, 0.75),
        (0.67, 0.75),
    ),
    9: (
        (0.33, 0.22),
        (0.67, 0.22),
        (0.33, 0.41),
        (0.67, 0.41),
        (0.5, 0.5),
        (0.33, 0.59),
        (0.67, 0.59),
        (0.33, 0.78),
        (0.67, 0.78),
    ),
    10: (
        (0.33, 0.22),
        (0.67, 0.22),
        (0.5, 0.32),
        (0.33, 0.41),
        (0.67, 0.41),
        (0.33, 0.59),
        (0.67, 0.59),
        (0.5, 0.68),
        (0.33, 0.78),
        (0.67, 0.78),
    ),
}


def _pts(points: list[tuple[float, float]], cx: float, cy: float, r: float) -> NDArray[Any]:
    return np.array([[cx + x * r, cy + y * r] for x, y in points], dtype=np.int32)


def draw_symbol(img: Image, kind: str, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A filled suit/category symbol of radius ``r`` px centred at (cx, cy)."""
    if kind == "hearts":
        cv2.circle(img, (int(cx - r * 0.45), int(cy - r * 0.3)), int(r * 0.52), colour, -1)
        cv2.circle(img, (int(cx + r * 0.45), int(cy - r * 0.3)), int(r * 0.52), colour, -1)
        tri = _pts([(-0.95, -0.15), (0.95, -0.15), (0.0, 0.95)], cx, cy, r)
        cv2.fillPoly(img, [tri], colour, cv2.LINE_AA)
    elif kind == "diamonds":
        cv2.fillPoly(
            img, [_pts([(0, -1), (0.7, 0), (0, 1), (-0.7, 0)], cx, cy, r)], colour, cv2.LINE_AA
        )
    elif kind in ("bats", "batman"):
        wing = [
            (0.0, -0.25),
            (0.12, -0.55),
            (0.2, -0.2),
            (0.55, -0.45),
            (1.0, -0.1),
            (0.75, 0.05),
            (0.6, 0.35),
            (0.35, 0.2),
            (0.0, 0.55),
        ]
        full = wing + [(-x, y) for x, y in reversed(wing[1:-1])]
        cv2.fillPoly(img, [_pts(full, cx, cy, r)], colour, cv2.LINE_AA)
    elif kind == "riddles":
        thick = max(2, int(r * 0.28))
        cv2.ellipse(
            img,
            (int(cx), int(cy - r * 0.4)),
            (int(r * 0.45), int(r * 0.42)),
            0,
            180,
            450,
            colour,
            thick,
            cv2.LINE_AA,
        )
        cv2.line(
            img,
            (int(cx), int(cy + 0.02 * r)),
            (int(cx), int(cy + r * 0.35)),
            colour,
            thick,
            cv2.LINE_AA,
        )
        cv2.circle(img, (int(cx), int(cy + r * 0.78)), max(2, int(r * 0.17)), colour, -1)
    elif kind == "star":
        pts = []
        for i in range(10):
            a = -np.pi / 2 + i * np.pi / 5
            rr = 1.0 if i % 2 == 0 else 0.45
            pts.append((rr * np.cos(a), rr * np.sin(a)))
        cv2.fillPoly(img, [_pts(pts, cx, cy, r)], colour, cv2.LINE_AA)
    else:  # a plain disc
        cv2.circle(img, (int(cx), int(cy)), int(r), colour, -1, cv2.LINE_AA)


def _text(
    img: Image,
    text: str,
    cx: float,
    cy: float,
    height: float,
    colour: Colour,
    font: int = FONT,
    max_width: float | None = None,
) -> None:
    """Centred text of about ``height`` px cap height (shrunk to ``max_width``)."""
    if not text:
        return
    (w0, h0), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(h0, 1)
    if max_width is not None and w0 * scale > max_width:
        scale = max_width / w0
    thick = max(1, round(scale * 1.6))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(cx - w / 2), int(cy + h / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _seeded(card_id: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(card_id.encode()))


def _emblem(img: Image, card_id: str, x0: int, y0: int, x1: int, y1: int) -> None:
    """The per-card illustration stand-in: a few shapes and colours seeded by the id."""
    rng = _seeded(card_id)
    w, h = x1 - x0, y1 - y0
    bg = tuple(int(v) for v in rng.integers(150, 235, 3))
    cv2.rectangle(img, (x0, y0), (x1, y1), bg, -1)
    for _ in range(int(rng.integers(4, 7))):
        c = rng.integers(20, 200, 3)
        colour = (int(c[0]), int(c[1]), int(c[2]))
        cx = x0 + rng.uniform(0.15, 0.85) * w
        cy = y0 + rng.uniform(0.15, 0.85) * h
        r = rng.uniform(0.12, 0.3) * min(w, h)
        shape = int(rng.integers(0, 4))
        if shape == 0:
            cv2.circle(img, (int(cx), int(cy)), int(r), colour, -1, cv2.LINE_AA)
        elif shape == 1:
            a = rng.uniform(0, 180)
            box = cv2.boxPoints(((cx, cy), (r * 2, r * rng.uniform(0.6, 1.4)), a))
            cv2.fillPoly(img, [box.astype(np.int32)], colour, cv2.LINE_AA)
        elif shape == 2:
            angles = rng.uniform(0, 2 * np.pi) + np.array([0, 2.1, 4.2])
            tri = np.stack([cx + r * np.cos(angles), cy + r * np.sin(angles)], 1)
            cv2.fillPoly(img, [tri.astype(np.int32)], colour, cv2.LINE_AA)
        else:
            draw_symbol(img, "star", cx, cy, r, colour)
    cv2.rectangle(img, (x0, y0), (x1, y1), INK, 2)


def _rounded_alpha(h: int, w: int, radius: int) -> Image:
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    cv2.circle(alpha, (w - 1 - radius, h - 1 - radius), radius, 255, -1, cv2.LINE_AA)
    return alpha


def _index_symbol(spec: CardSpec) -> tuple[str, Colour]:
    props = spec.properties
    if spec.category == "poker":
        suit = str(props["suit"])
        return suit, SUIT_COLOURS[suit]
    if spec.category == "trick":
        return "disc", CHAOS_BGR[str(props["colour"])]
    if spec.category == "joker":
        return "star", RED if props.get("colour") == "red" else INK
    return "disc", CATEGORY_COLOURS.get(spec.category, INK)


def _draw_corner(img: Image, spec: CardSpec, s: float) -> None:
    """The corner index in the top-left (the caller turns the card for the other corner)."""
    symbol, colour = _index_symbol(spec)
    text_colour = colour if spec.category in ("poker", "trick", "joker") else INK
    label = spec.index
    # (mm) the label's centre, height and widest, then the symbol's centre, below it
    if spec.category in NUMBER_CARDS:
        label_y, height, width, symbol_y = 8.0, RANK_MM, 10.0, 17.0
    else:
        label_y, height, width, symbol_y = 7.0, 5.5, 9.0 if len(label) <= 2 else 11.0, 15.5
    _text(img, label, 6.2 * s, label_y * s, height * s, text_colour, FONT_BOLD, max_width=width * s)
    draw_symbol(img, symbol, 6.2 * s, symbol_y * s, 3.2 * s, colour)


def _centre(img: Image, spec: CardSpec, s: float) -> None:
    h, w = img.shape[:2]
    props = spec.properties
    cat = spec.category
    if cat == "poker":
        suit = str(props["suit"])
        colour = SUIT_COLOURS[suit]
        rank = int(props["rank"])
        if rank <= 10:
            for fx, fy in PIPS[rank]:
                draw_symbol(img, suit, fx * w, fy * h, 5.2 * s, colour)
        elif rank == 14:
            draw_symbol(img, suit, w / 2, h / 2, 15 * s, colour)
        else:
            x0, y0, x1, y1 = int(14 * s), int(14 * s), int(w - 14 * s), int(h - 14 * s)
            _emblem(img, spec.id, x0, y0, x1, y1)
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, 3)
            _text(img, spec.index, w / 2, h / 2, 22 * s, colour, FONT_BOLD)
            draw_symbol(img, suit, w / 2, h * 0.75, 5 * s, colour)
        return
    if cat == "trick":
        colour = CHAOS_BGR[str(props["colour"])]
        cv2.rectangle(
            img, (int(12 * s), int(12 * s)), (int(w - 12 * s), int(h - 12 * s)), colour, -1
        )
        cv2.rectangle(
            img, (int(15 * s), int(15 * s)), (int(w - 15 * s), int(h - 15 * s)), PAPER, -1
        )
        _text(
            img,
            str(props["value"]),
            w / 2,
            h * 0.45,
            24 * s,
            colour,
            FONT_BOLD,
            max_width=w - 34 * s,
        )
        value = int(props["value"])
        for k in range(value):
            row, col = divmod(k, 5)
            cx = w / 2 + (col - 2) * 6 * s
            cv2.circle(img, (int(cx), int(h * 0.63 + row * 5 * s)), int(2 * s), colour, -1)
        if props.get("bruce_wayne"):
            _text(img, "BRUCE WAYNE", w / 2, h * 0.22, 3.2 * s, INK, FONT, max_width=w - 34 * s)
            cv2.rectangle(
                img,
                (int(w / 2 - 7 * s), int(h * 0.2)),
                (int(w / 2 + 7 * s), int(h * 0.25)),
                INK,
                -1,
            )
        symbols = int(props.get("batman_symbols", 0))  # as many as the card carries
        for k in range(symbols):
            x = w / 2 + (k - (symbols - 1) / 2) * 18 * s
            draw_symbol(img, "batman", x, h * 0.81, 8 * s, INK)
        return
    # Named cards: title band, emblem, category line.
    colour = CATEGORY_COLOURS.get(cat, INK)
    band_y0, band_y1 = int(22 * s), int(32 * s)
    cv2.rectangle(img, (int(17 * s), band_y0), (int(w - 5 * s), band_y1), colour, -1)
    _text(
        img,
        spec.name.upper(),
        (17 * s + w - 5 * s) / 2,
        (band_y0 + band_y1) / 2,
        4.0 * s,
        PAPER,
        FONT,
        max_width=w - 25 * s,
    )
    _emblem(img, spec.id, int(8 * s), int(35 * s), int(w - 8 * s), int(h - 24 * s))
    if cat == "joker":
        draw_symbol(img, "star", w / 2, h * 0.55, 14 * s, colour if spec.id[-1] == "1" else INK)
    footer = cat.upper()
    if "players" in props and int(props["players"]) > 4:
        footer += f"  {props['players']}+"
    _text(img, footer, w / 2, h - 19 * s, 3.0 * s, colour, FONT, max_width=w - 30 * s)


def render_face(spec: CardSpec, px_per_mm: float = 5.0) -> Image:
    """A straight BGRA image of the card's face."""
    s = px_per_mm
    w, h = round(spec.size_mm[0] * s), round(spec.size_mm[1] * s)
    img = np.full((h, w, 3), PAPER, np.uint8)
    frame_colour = CATEGORY_COLOURS.get(spec.category, (120, 120, 120))
    cv2.rectangle(img, (int(2 * s), int(2 * s)), (w - int(2 * s), h - int(2 * s)), frame_colour, 1)
    _centre(img, spec, s)
    for _ in range(2):
        corner = np.ascontiguousarray(img[: int(21 * s), : int(13 * s)])
        corner[:] = PAPER
        _draw_corner(corner, spec, s)
        img[: corner.shape[0], : corner.shape[1]] = corner
        img = np.ascontiguousarray(img[::-1, ::-1])
    alpha = _rounded_alpha(h, w, int(3 * s))
    return np.dstack([img, alpha])


def render_back(
    deck: DeckSpec, px_per_mm: float = 5.0, size_mm: tuple[float, float] = (63, 88)
) -> Image:
    """The stand-in back of a deck: a lattice in the deck's colour and a title oval."""
    s = px_per_mm
    w, h = round(size_mm[0] * s), round(size_mm[1] * s)
    img = np.full((h, w, 3), PAPER, np.uint8)
    colour = deck.back_colour
    cv2.rectangle(img, (int(3 * s), int(3 * s)), (w - int(3 * s), h - int(3 * s)), colour, -1)
    light = tuple(min(255, c + 70) for c in colour)
    step = 6 * s
    for k in range(-40, 40):
        x = k * step
        cv2.line(img, (int(x), 0), (int(x + h), h), light, max(1, int(s * 0.8)), cv2.LINE_AA)
        cv2.line(img, (int(x), h), (int(x + h), 0), light, max(1, int(s * 0.8)), cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w - 1, int(3 * s)), PAPER, -1)
    cv2.rectangle(img, (0, h - int(3 * s)), (w - 1, h - 1), PAPER, -1)
    cv2.rectangle(img, (0, 0), (int(3 * s), h - 1), PAPER, -1)
    cv2.rectangle(img, (w - int(3 * s), 0), (w - 1, h - 1), PAPER, -1)
    cv2.ellipse(img, (w // 2, h // 2), (int(20 * s), int(12 * s)), 0, 0, 360, PAPER, -1)
    draw_symbol(img, "batman", w / 2, h / 2, 14 * s, colour)
    alpha = _rounded_alpha(h, w, int(3 * s))
    return np.dstack([img, alpha])


@lru_cache(maxsize=512)
def _face_cached(card_id: str, px_per_mm: float) -> Image:
    if card_id.endswith(":back"):
        deck = DECKS[card_id.partition(":")[0]]
        return render_back(deck, px_per_mm)
    return render_face(card_spec(card_id), px_per_mm)


def standin_faces(px_per_mm: float = 5.0) -> Callable[[str], Image]:
    """A face source for the scene renderer: ``id -> BGRA`` (``"<deck>:back"`` for backs)."""

    def face(card_id: str) -> Image:
        return _face_cached(card_id, px_per_mm)

    return face
