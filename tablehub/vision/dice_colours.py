"""The dice colours the hub tells apart, as data: what each colour means in which game, how
the renderer paints it, and the hue band the counter recognises it by.

Rogues Gallery: 7 green Common dice and 4 purple Power dice (rogues-gallery.txt, contents).
Batman Miniature Game: attack dice plus one Strength die "of a different colour" (digest,
L226); the rulebook names no colour, so red is the documented default here - change
``STRENGTH_DIE_COLOUR`` to match your dice.  Plain attack dice default to white.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiceColour:
    name: str
    meaning: str
    body_bgr: tuple[int, int, int]  # how the renderer paints the body
    pip_bgr: tuple[int, int, int]
    hue: tuple[int, int] | None  # OpenCV hue band (0-180), None for an unsaturated colour
    min_saturation: int  # below: not this colour (for white: the maximum instead)


STRENGTH_DIE_COLOUR = "red"  # default: the rulebook only says "of a different colour"

COLOURS: tuple[DiceColour, ...] = (
    DiceColour(
        "white",
        "plain die (Batman Miniature Game attack dice)",
        (228, 232, 235),
        (30, 28, 28),
        None,
        70,
    ),
    DiceColour("green", "Rogues Gallery Common die", (55, 150, 40), (240, 240, 240), (35, 90), 80),
    DiceColour(
        "purple", "Rogues Gallery Power die", (135, 35, 105), (240, 240, 240), (120, 165), 70
    ),
    DiceColour(
        "red",
        "Batman Miniature Game Strength die (default colour)",
        (40, 35, 200),
        (245, 245, 245),
        (165, 190),
        90,
    ),
)
BY_NAME = {c.name: c for c in COLOURS}
BODY_BGR = {c.name: c.body_bgr for c in COLOURS}
PIP_BGR = {c.name: c.pip_bgr for c in COLOURS}
UNKNOWN = "unknown"


def classify(hue: float, saturation: float, value: float) -> str:
    """The colour of a die body from its median HSV (OpenCV ranges); "unknown" if none fits."""
    if saturation < BY_NAME["white"].min_saturation:
        return "white" if value > 60 else UNKNOWN
    for colour in COLOURS:
        if colour.hue is None or saturation < colour.min_saturation:
            continue
        lo, hi = colour.hue
        h = hue if hue >= lo or hi <= 180 else hue + 180
        if lo <= h <= hi or lo <= hue + 180 <= hi:
            return colour.name
    return UNKNOWN
