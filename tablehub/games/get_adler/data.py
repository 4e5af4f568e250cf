"""Get Adler!'s data file (``data.toml``) as typed values: characters, cards, house rules.

The engine reads every number and every reading of the rulebook from here, so a table can
correct them from its own box without touching logic.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data.toml")

SETS: tuple[tuple[str, int], ...] = (("base", 4), ("five", 5), ("six", 6))
"""Deck sets and the smallest table that uses each."""

KINDS: tuple[str, ...] = (
    "document",
    "question",
    "magnifier",
    "binoculars",
    "arrest",
    "escape",
    "pistol",
    "bomb",
    "disguise",
)
ACTIONS: frozenset[str] = frozenset({"question", "magnifier", "binoculars", "arrest"})
"""Cards with an action on their owner's turn (every card may also just be discarded)."""
REACTIONS: frozenset[str] = frozenset({"escape", "disguise", "bomb", "pistol"})

RULE_TYPES: dict[str, type] = {
    "escape_must_match": bool,
    "gunfight_continue_after_stop": bool,
    "sharpe_bonus_needs_a_shot": bool,
    "unjust_arrest_skips": int,
    "bomb_skips": int,
    "villain_arrest_is_unjust": bool,
    "heroes_need_every_villain": bool,
    "documents_any_villain": bool,
}


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    side: str  # "hero" or "villain"
    players: int  # smallest table using this character


@dataclass(frozen=True)
class Card:
    index: int  # position in ``AdlerData.cards``; the engine works with indices
    id: str  # "arrest-3"
    kind: str  # one of KINDS
    set: str  # "base", "five", "six"
    variant: str  # escape vehicle, document branch, or ""


@dataclass(frozen=True)
class AdlerData:
    hand_size: int
    rounds: int
    first_arrest_round: int
    characters: tuple[Character, ...]
    cards: tuple[Card, ...]
    sharpe_pistol_bonus: int
    gold_binoculars_cards: int
    rules: Mapping[str, Any]

    def character(self, char_id: str) -> Character:
        for character in self.characters:
            if character.id == char_id:
                return character
        raise KeyError(char_id)

    def characters_for(self, players: int) -> tuple[str, ...]:
        return tuple(c.id for c in self.characters if c.players <= players)

    def deck_for(self, players: int) -> tuple[int, ...]:
        """Indices of the action cards used at a table of ``players``."""
        allowed = {name for name, minimum in SETS if minimum <= players}
        return tuple(card.index for card in self.cards if card.set in allowed)


def _fail(message: str) -> ValueError:
    return ValueError(f"{DATA_FILE.name}: {message}")


def _int(table: Mapping[str, Any], key: str, where: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(f"{where}.{key} must be a whole number >= 0, not {value!r}")
    return value


def parse(raw: Mapping[str, Any]) -> AdlerData:
    """Validate the TOML document; every problem names the key."""
    table = raw.get("table", {})
    characters = tuple(
        Character(str(c["id"]), str(c["name"]), str(c["side"]), int(c["players"]))
        for c in raw.get("characters", [])
    )
    for character in characters:
        if character.side not in ("hero", "villain"):
            raise _fail(f"character {character.id}: side must be hero or villain")
    cards: list[Card] = []
    numbers: dict[str, int] = {}
    for set_name, _minimum in SETS:
        counts = raw.get("deck", {}).get(set_name, {})
        for kind in counts:
            if kind not in KINDS:
                raise _fail(f"deck.{set_name}.{kind}: unknown card kind (known: {KINDS})")
        for kind in KINDS:
            count = _int(counts, kind, f"deck.{set_name}") if kind in counts else 0
            variants = _variants(raw, kind, set_name, count)
            for variant in variants:
                numbers[kind] = numbers.get(kind, 0) + 1
                cards.append(Card(len(cards), f"{kind}-{numbers[kind]}", kind, set_name, variant))
    rules = dict(raw.get("rules", {}))
    check_rules(rules, where="rules")
    missing = set(RULE_TYPES) - set(rules)
    if missing:
        raise _fail(f"rules: missing {sorted(missing)}")
    extended = raw.get("extended", {})
    return AdlerData(
        hand_size=_int(table, "hand_size", "table"),
        rounds=_int(table, "rounds", "table"),
        first_arrest_round=_int(table, "first_arrest_round", "table"),
        characters=characters,
        cards=tuple(cards),
        sharpe_pistol_bonus=_int(extended, "sharpe_pistol_bonus", "extended"),
        gold_binoculars_cards=_int(extended, "gold_binoculars_cards", "extended"),
        rules=rules,
    )


def _variants(raw: Mapping[str, Any], kind: str, set_name: str, count: int) -> list[str]:
    section = {"escape": "escape_vehicles", "document": "document_branches"}.get(kind)
    if section is None:
        return [""] * count
    names = raw.get(section, {}).get(set_name, [])
    if len(names) != count or not all(isinstance(n, str) for n in names):
        raise _fail(f"{section}.{set_name} must list {count} names, one per {kind} card")
    return list(names)


def check_rules(rules: Mapping[str, Any], where: str) -> None:
    """``ValueError`` naming the key for an unknown rule or a value of the wrong type."""
    for key, value in rules.items():
        expected = RULE_TYPES.get(key)
        if expected is None:
            raise ValueError(f"{where}.{key}: unknown rule (known: {', '.join(RULE_TYPES)})")
        if expected is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 7
        else:
            ok = isinstance(value, bool)
        if not ok:
            what = "a whole number 0-7" if expected is int else "true or false"
            raise ValueError(f"{where}.{key} must be {what}, not {value!r}")


@cache
def load() -> AdlerData:
    """The shipped data (parsed once)."""
    with DATA_FILE.open("rb") as handle:
        return parse(tomllib.load(handle))
