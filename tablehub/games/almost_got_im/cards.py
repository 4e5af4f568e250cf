"""The Almost Got 'Im poker deck: card ids, ranks and suits, and the one id translation.

Card ids are the card-vision stand-in deck's (``tablehub.vision.decks``):
``agi:<suit>-<rank>`` with suits ``bats | hearts | diamonds | riddles`` (printed Bats,
Harley-Hearts, Stolen Diamonds, Riddles), ``agi:joker-1``/``-2``, role cards
``agi:role-<slug>`` (``agi:role-batman-in-disguise``) and Characters ``agi:char-<key>``,
so a camera reading is a move as it stands.  Should the two ever differ, add the pair to
``VISION_ALIASES``: ``from_vision_id``/``to_vision_id`` are the only crossing.
"""

from __future__ import annotations

from typing import Final

PREFIX: Final = "agi:"
UNKNOWN: Final = "unknown"
"""A card the hub did not see (drawn face down): a chance outcome and a hand slot."""

SUITS: Final = ("bats", "hearts", "diamonds", "riddles")
SUIT_NAMES: Final = {
    "bats": "Bats",
    "hearts": "Harley-Hearts",
    "diamonds": "Stolen Diamonds",
    "riddles": "Riddles",
}
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k", "a")
RANK_VALUE: Final = {rank: value for value, rank in enumerate(RANKS, start=2)}
"""Rank name -> 2..14 (Ace high; straights also use it low)."""
RANK_NAMES: Final = {
    **{rank: rank for rank in RANKS[:9]},
    "j": "Jack",
    "q": "Queen",
    "k": "King",
    "a": "Ace",
}
JOKERS: Final = (f"{PREFIX}joker-1", f"{PREFIX}joker-2")


def card_id(suit: str, rank: str) -> str:
    return f"{PREFIX}{suit}-{rank}"


DECK: Final[tuple[str, ...]] = tuple(card_id(s, r) for s in SUITS for r in RANKS) + JOKERS
"""All 54 poker cards in a fixed order (52 + 2 Jokers)."""

RANK_OF: Final[dict[str, int]] = {
    **{card_id(s, r): RANK_VALUE[r] for s in SUITS for r in RANKS},
    **dict.fromkeys(JOKERS, 0),
}
"""Card id -> 2..14, Jokers 0 (no rank while in hand)."""
SUIT_OF: Final[dict[str, int]] = {
    **{card_id(s, r): i for i, s in enumerate(SUITS) for r in RANKS},
    **dict.fromkeys(JOKERS, -1),
}
"""Card id -> suit index 0..3, Jokers -1 (no suit while in hand)."""
CARD_INDEX: Final[dict[str, int]] = {card: i for i, card in enumerate(DECK)}


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in RANK_OF


def is_joker(card: str) -> bool:
    return RANK_OF.get(card) == 0


def describe(card: str) -> str:
    """Words for a card: "7 of Bats", "Queen of Harley-Hearts", "Joker"."""
    if card == UNKNOWN:
        return "an unseen card"
    if is_joker(card):
        return "Joker"
    suit, _, rank = card[len(PREFIX) :].rpartition("-")
    return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"


ROLE_CARD_SLUGS: Final = {"batman": "batman-in-disguise", "catwoman": "catwoman-in-disguise"}
"""Role key -> the slug printed on its card, where they differ."""


def role_card_id(role: str) -> str:
    """``telepathic`` -> ``agi:role-telepathic``; ``batman`` -> ``agi:role-batman-in-disguise``."""
    return f"{PREFIX}role-{ROLE_CARD_SLUGS.get(role, role)}"


def character_card_id(character: str) -> str:
    return f"{PREFIX}char-{character}"


VISION_ALIASES: Final[dict[str, str]] = {}
"""Vision id -> engine id for any card the vision deck names differently (none today)."""
_TO_VISION: Final = {engine: vision for vision, engine in VISION_ALIASES.items()}


def from_vision_id(vision_id: str) -> str:
    """The engine's id for a card id reported by the card-vision code."""
    return VISION_ALIASES.get(vision_id, vision_id)


def to_vision_id(engine_id: str) -> str:
    """The card-vision id for an engine card id (inverse of ``from_vision_id``)."""
    return _TO_VISION.get(engine_id, engine_id)


def role_from_card_id(card: str) -> str | None:
    """``agi:role-telepathic`` -> ``telepathic`` (the engine's role key); None otherwise."""
    card = from_vision_id(card)
    head = f"{PREFIX}role-"
    if not card.startswith(head):
        return None
    slug = card[len(head) :]
    return next((k for k, v in ROLE_CARD_SLUGS.items() if v == slug), slug)


def character_from_card_id(card: str) -> str | None:
    """``agi:char-two-face`` -> ``two-face``; None if not a Character card."""
    card = from_vision_id(card)
    head = f"{PREFIX}char-"
    return card[len(head) :] if card.startswith(head) else None
