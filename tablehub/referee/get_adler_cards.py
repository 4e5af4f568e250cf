"""Camera card ids -> Get Adler! engine cards and characters.

The card reader names *designs*, not copies: ``adler:pistol`` is any of the twelve unmarked
pistols, ``adler:pistol-5p`` a pistol marked 5+, ``adler:escape-bus-5p`` the bus marked 5+,
``adler:char-kate-collins`` a character card.  The engine numbers copies (``pistol-3``), so
the referee picks an unseen copy of the design that the player could be holding.  An exact
engine id (``adler:pistol-3``) is taken as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tablehub.games.get_adler.data import KINDS, AdlerData, Card

PREFIX = "adler:"
CHARACTERS = {
    "adler": "adler",
    "gold": "gold",
    "sharpe": "sharpe",
    "townsend": "townsend",
    "kate-collins": "collins",
    "collins": "collins",
    "boris-tarasov": "tarasov",
    "tarasov": "tarasov",
}
SET_MARKS = {"5p": "five", "6p": "six"}
_EXACT = re.compile(r"^([a-z]+)-(\d+)$")


@dataclass(frozen=True)
class Design:
    kind: str
    set: str  # "base", "five", "six", or "" for an exact engine id
    variant: str = ""  # an escape's vehicle when printed
    exact: str = ""  # an engine id, when the reader names the copy


def character_of(card_id: str) -> str | None:
    """The character id of a character card (``adler:char-gold`` -> ``gold``)."""
    if not card_id.startswith(PREFIX + "char-"):
        return None
    return CHARACTERS.get(card_id.removeprefix(PREFIX + "char-"))


def design_of(card_id: str) -> Design | None:
    """The action-card design a reader id names, ``None`` if it is no Get Adler! card."""
    if not card_id.startswith(PREFIX):
        return None
    name = card_id.removeprefix(PREFIX)
    exact = _EXACT.match(name)
    if exact and exact.group(1) in KINDS:
        return Design(exact.group(1), "", exact=name)
    parts = name.split("-")
    card_set = "base"
    if parts[-1] in SET_MARKS:
        card_set = SET_MARKS[parts.pop()]
    if not parts or parts[0] not in KINDS:
        return None
    return Design(parts[0], card_set, "-".join(parts[1:]))


def copies(design: Design, data: AdlerData) -> list[str]:
    """Engine ids of the copies a design may be (same kind, set and printed variant)."""
    if design.exact:
        return [design.exact]
    same_kind = [c for c in data.cards if c.kind == design.kind]
    if design.variant:
        same_kind = [c for c in same_kind if slug(c.variant) == design.variant] or same_kind
    return [c.id for c in same_kind if c.set == design.set]


def slug(text: str) -> str:
    """``Royal Air Force`` -> ``royal-air-force`` (how printed names appear in card ids)."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def camera_id(card: Card) -> str:
    """The id a card reader with one design per printed face reports for ``card``.

    Unmarked escapes have one design (the stand-in deck prints no vehicle on them);
    documents carry their branch, which the Ultimate Mission needs to tell apart.
    """
    mark = {"base": "", "five": "-5p", "six": "-6p"}[card.set]
    shown = card.kind == "document" or (card.kind == "escape" and card.set != "base")
    variant = f"-{slug(card.variant)}" if shown and card.variant else ""
    return f"{PREFIX}{card.kind}{variant}{mark}"


def character_card(character: str) -> str:
    """The card id of a character card (``collins`` -> ``adler:char-kate-collins``)."""
    printed = {"collins": "kate-collins", "tarasov": "boris-tarasov"}.get(character, character)
    return f"{PREFIX}char-{printed}"


def spoken(card_id: str) -> str:
    """A card's kind in words, for speech ("pistol-3" -> "pistol")."""
    kind = card_id.split("-")[0]
    return {"magnifier": "magnifying glass", "document": "top-secret document"}.get(kind, kind)


def a_card(card_id: str) -> str:
    """ "a pistol", "an escape"."""
    words = spoken(card_id)
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"
