"""The cards of Chaos in Gotham City, read from ``data.toml`` (plus a user's corrections).

Printed values the rulebook does not give (most locations, which trick cards show Batman,
Poison Ivy's and Harley Quinn's text) are data with documented defaults; the engine reads
them from a ``CardData`` and never hard-codes them.  ``load_card_data(overrides)`` lays a
table of the same shape as the file over it and checks every value, naming the key that
is wrong.
"""

from __future__ import annotations

import copy
import functools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data.toml")

ABILITIES = (
    "new-hand",
    "new-trump",
    "face-down-odd",
    "swap-one-ten",
    "choose-location",
    "minimum-value",
    "chaos-adjustments",
)
TARGETS = ("self", "left", "right", "others")
WHENS = ("if-scoring", "always")
TIE_RULES = ("first-played", "last-played")


@dataclass(frozen=True)
class TrickCard:
    id: str
    colour: str
    value: int
    bruce_wayne: bool
    batman_symbols: int

    @property
    def batman(self) -> bool:
        """A card "is a Batman" (for the Bruce Wayne rule) when it shows Batman symbols."""
        return self.batman_symbols > 0


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    map_number: int
    chaos: int
    batman: int
    trump_change: bool
    source: str


@dataclass(frozen=True)
class Adjustment:
    target: str
    chaos: int
    when: str


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    ability: str
    max_discard: int = 3
    uses_per_round: int = 1
    draw: int = 2
    minimum: int = 6
    adjustments: tuple[Adjustment, ...] = ()


@dataclass(frozen=True)
class CardData:
    colours: tuple[str, ...]
    lowest: int
    highest: int
    trick_cards: dict[str, TrickCard]
    locations: dict[str, Location]
    villains: dict[str, Villain]
    equal_values_winner: str

    @property
    def trick_ids(self) -> tuple[str, ...]:
        return tuple(self.trick_cards)

    def colour(self, card: str) -> str:
        return self.trick_cards[card].colour

    def villain_with(self, ability: str) -> str | None:
        """The id of the villain card with ``ability`` (the first one), if any."""
        for villain in self.villains.values():
            if villain.ability == ability:
                return villain.id
        return None


class CardDataError(ValueError):
    """A bad value in the card data; the message names the key."""


def _merge(base: dict[str, Any], over: Mapping[str, Any], path: str) -> None:
    for key, value in over.items():
        if not isinstance(key, str):
            raise CardDataError(f"{path}: keys must be text, got {key!r}")
        here = f"{path}.{key}" if path else key
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, here)
        else:
            base[key] = copy.deepcopy(value)


def _int(table: Mapping[str, Any], key: str, path: str, low: int, high: int) -> int:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CardDataError(f"{path}.{key} = {value!r}: expected a whole number {low}..{high}")
    return value


def _text(table: Mapping[str, Any], key: str, path: str, choices: tuple[str, ...] = ()) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value or (choices and value not in choices):
        expected = " | ".join(choices) if choices else "text"
        raise CardDataError(f"{path}.{key} = {value!r}: expected {expected}")
    return value


def _only(table: Mapping[str, Any], allowed: set[str], path: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CardDataError(
            f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})"
        )


def _table(raw: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
    value = raw.get(key)
    if not isinstance(value, Mapping):
        raise CardDataError(f"{path}{key}: expected a table")
    return value


def _trick_cards(
    raw: Mapping[str, Any],
) -> tuple[tuple[str, ...], int, int, dict[str, TrickCard]]:
    path = "trick_cards"
    _only(
        raw,
        {
            "colours",
            "lowest",
            "highest",
            "bruce_wayne_values",
            "batman_symbols",
            "card_batman_symbols",
        },
        path,
    )
    colours = raw.get("colours")
    if (
        not isinstance(colours, list)
        or len(colours) < 2
        or not all(isinstance(c, str) and c and "-" not in c for c in colours)
        or len(set(colours)) != len(colours)
    ):
        raise CardDataError(f"{path}.colours = {colours!r}: expected distinct colour names")
    lowest = _int(raw, "lowest", path, 0, 99)
    highest = _int(raw, "highest", path, lowest + 1, 99)
    bruce = raw.get("bruce_wayne_values", [])
    if not isinstance(bruce, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and lowest <= v <= highest for v in bruce
    ):
        raise CardDataError(f"{path}.bruce_wayne_values = {bruce!r}: expected card values")
    per_value = _table(raw, "batman_symbols", f"{path}.")
    per_card = raw.get("card_batman_symbols", {})
    if not isinstance(per_card, Mapping):
        raise CardDataError(f"{path}.card_batman_symbols: expected a table")
    symbols_by_value: dict[int, int] = {}
    for key in per_value:
        if not key.isdigit() or not lowest <= int(key) <= highest:
            raise CardDataError(f"{path}.batman_symbols.{key}: expected a card value as the key")
        symbols_by_value[int(key)] = _int(per_value, key, f"{path}.batman_symbols", 0, 9)
    cards: dict[str, TrickCard] = {}
    for colour in colours:
        for value in range(lowest, highest + 1):
            card_id = f"{colour}-{value}"
            cards[card_id] = TrickCard(
                id=card_id,
                colour=colour,
                value=value,
                bruce_wayne=value in bruce,
                batman_symbols=symbols_by_value.get(value, 0),
            )
    for key in per_card:
        if key not in cards:
            raise CardDataError(f"{path}.card_batman_symbols.{key}: no such trick card")
        symbols = _int(per_card, key, f"{path}.card_batman_symbols", 0, 9)
        old = cards[key]
        cards[key] = TrickCard(old.id, old.colour, old.value, old.bruce_wayne, symbols)
    return tuple(colours), lowest, highest, cards


def _locations(raw: Mapping[str, Any]) -> dict[str, Location]:
    if len(raw) < 1:
        raise CardDataError("locations: expected at least one location card")
    locations: dict[str, Location] = {}
    allowed = {"name", "map_number", "chaos", "batman", "trump_change", "source"}
    for loc_id, table in raw.items():
        path = f"locations.{loc_id}"
        if not isinstance(table, Mapping):
            raise CardDataError(f"{path}: expected a table")
        _only(table, allowed, path)
        trump_change = table.get("trump_change", False)
        if not isinstance(trump_change, bool):
            raise CardDataError(f"{path}.trump_change = {trump_change!r}: expected true or false")
        locations[loc_id] = Location(
            id=loc_id,
            name=_text(table, "name", path),
            map_number=_int(table, "map_number", path, 1, 99),
            chaos=_int(table, "chaos", path, -99, 99),
            batman=_int(table, "batman", path, 0, 9),
            trump_change=trump_change,
            source=_text(table, "source", path, ("rulebook", "default", "card")),
        )
    return locations


def _villains(raw: Mapping[str, Any]) -> dict[str, Villain]:
    villains: dict[str, Villain] = {}
    allowed = {"name", "ability", "max_discard", "uses_per_round", "draw", "minimum", "adjustments"}
    for villain_id, table in raw.items():
        path = f"villains.{villain_id}"
        if not isinstance(table, Mapping):
            raise CardDataError(f"{path}: expected a table")
        _only(table, allowed, path)
        ability = _text(table, "ability", path, ABILITIES)
        adjustments: list[Adjustment] = []
        raw_adjustments = table.get("adjustments", [])
        if not isinstance(raw_adjustments, list):
            raise CardDataError(f"{path}.adjustments: expected a list of tables")
        for i, adj in enumerate(raw_adjustments):
            here = f"{path}.adjustments[{i}]"
            if not isinstance(adj, Mapping):
                raise CardDataError(f"{here}: expected a table")
            _only(adj, {"target", "chaos", "when"}, here)
            adjustments.append(
                Adjustment(
                    target=_text(adj, "target", here, TARGETS),
                    chaos=_int(adj, "chaos", here, -99, 99),
                    when=_text(adj, "when", here, WHENS),
                )
            )
        villains[villain_id] = Villain(
            id=villain_id,
            name=_text(table, "name", path),
            ability=ability,
            max_discard=_int({"max_discard": 3, **table}, "max_discard", path, 0, 10),
            uses_per_round=_int({"uses_per_round": 1, **table}, "uses_per_round", path, 0, 10),
            draw=_int({"draw": 2, **table}, "draw", path, 1, 5),
            minimum=_int({"minimum": 6, **table}, "minimum", path, 0, 99),
            adjustments=tuple(adjustments),
        )
    if len(villains) < 6:
        raise CardDataError(
            f"villains: need at least 6 villain cards (one per player), got {len(villains)}"
        )
    return villains


def _build(raw: Mapping[str, Any]) -> CardData:
    _only(raw, {"trick_cards", "locations", "villains", "rules"}, "card data")
    colours, lowest, highest, trick_cards = _trick_cards(_table(raw, "trick_cards", ""))
    rules = _table(raw, "rules", "")
    _only(rules, {"equal_values_winner"}, "rules")
    return CardData(
        colours=colours,
        lowest=lowest,
        highest=highest,
        trick_cards=trick_cards,
        locations=_locations(_table(raw, "locations", "")),
        villains=_villains(_table(raw, "villains", "")),
        equal_values_winner=_text(rules, "equal_values_winner", "rules", TIE_RULES),
    )


@functools.cache
def _raw_defaults() -> str:
    with DATA_FILE.open("rb") as handle:
        return json.dumps(tomllib.load(handle))


@functools.lru_cache(maxsize=32)
def _load_cached(overrides_json: str) -> CardData:
    raw: dict[str, Any] = json.loads(_raw_defaults())
    overrides = json.loads(overrides_json)
    if not isinstance(overrides, dict):
        raise CardDataError("card data corrections: expected a table")
    _merge(raw, overrides, "")
    return _build(raw)


def load_card_data(overrides: Mapping[str, Any] | None = None) -> CardData:
    """The shipped card data with ``overrides`` laid over it (checked; ``CardDataError``)."""
    try:
        key = json.dumps(overrides or {}, sort_keys=True)
    except (TypeError, ValueError) as err:
        raise CardDataError(f"card data corrections are not plain data: {err}") from None
    return _load_cached(key)
