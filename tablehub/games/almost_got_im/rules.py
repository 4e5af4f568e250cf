"""The game's card data (``data.toml``), loaded and checked once.

Everything printed on a card that the rulebook does not give lives in the data file with
a documented default; this module turns it into typed, validated values and refuses a
broken file with a message naming the key.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from tablehub.games.almost_got_im.cards import RANKS
from tablehub.games.almost_got_im.hands import ACE, HandRequirement

TEAMS = ("batman", "catwoman", "villain")
ROLE_KEYS = (
    "batman",
    "catwoman",
    "crafty",
    "healer",
    "homicidal",
    "saboteur",
    "sneaky",
    "telepathic",
    "watchful",
)
"""The nine Secret Roles (the engine gives each its rulebook ability)."""
EFFECTS = (
    "draw",
    "skip_blackout",
    "protect_self",
    "deny_role",
    "ask_rank",
    "ask_suit",
    "gain_character",
    "reveal_jokers",
    "no_vote",
    "take_discard",
    "harley",
)
SAY_KEYS = (
    "close_eyes",
    "open_eyes_player",
    "close_eyes_player",
    "open_eyes",
    "subdued",
    "no_one_subdued",
    "crafty",
    "healed",
    "game_over_homicidal",
    "vote_rules",
    "vote_count",
    "vote_hold",
    "accused",
    "seconded",
    "not_seconded",
    "innocent",
    "guilty_batman",
    "guilty",
    "batman_wins",
    "batman_and_catwoman_win",
    "catwoman_wins",
    "free_subdue",
    "refill",
    "draw_game",
    "sabotaged",
    "thumbs_up",
    "thumbs_down",
    "no_blackout",
)


@dataclass(frozen=True)
class Role:
    key: str
    name: str
    team: str
    hand: HandRequirement
    min_players: int


@dataclass(frozen=True)
class Character:
    key: str
    name: str
    trigger: frozenset[int]  # rank values 2..14
    effect: str
    count: int  # for "draw"


@dataclass(frozen=True)
class Rules:
    subdues_needed: Mapping[int, int]
    refill_below: int
    blackout_refill_per_player: int
    hand_size: int
    advanced_rounds: int
    roles: Mapping[str, Role]
    telepathic_thumbs_up: frozenset[str]
    sneaky_unused_seen: int  # 0 = all
    characters: Mapping[str, Character]
    character_order: tuple[str, ...]
    say: Mapping[str, str]

    def roles_for(self, players: int) -> tuple[str, ...]:
        """The Secret Roles in the game for this many players (the rest stay in the box)."""
        return tuple(k for k in ROLE_KEYS if self.roles[k].min_players <= players)


class RulesError(ValueError):
    """The data file is broken; the message names the key."""


def _get(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise RulesError(f"{where}: missing {key!r}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"{where}.{key}: expected a whole number, got {value!r}")
    if not isinstance(value, kind):
        raise RulesError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def _rank_value(text: object, where: str) -> int:
    if not isinstance(text, str) or text.lower() not in RANKS:
        raise RulesError(f"{where}: {text!r} is not a rank (2..10, j, q, k, a)")
    return RANKS.index(text.lower()) + 2


def rules_from_mapping(data: Mapping[str, Any]) -> Rules:
    """Build ``Rules`` from parsed TOML, or raise ``RulesError`` naming the bad key."""
    game = _get(data, "game", dict, "data")
    needed_raw = _get(game, "subdues_needed", dict, "game")
    needed: dict[int, int] = {}
    for players in range(4, 8):
        needed[players] = _get(needed_raw, str(players), int, "game.subdues_needed")
    roles_raw = _get(data, "roles", dict, "data")
    roles: dict[str, Role] = {}
    for key in ROLE_KEYS:
        where = f"roles.{key}"
        table = _get(roles_raw, key, dict, "roles")
        team = _get(table, "team", str, where)
        if team not in TEAMS:
            raise RulesError(f"{where}.team: {team!r} is not one of {', '.join(TEAMS)}")
        max_rank = table.get("max_rank", ACE)
        try:
            hand = HandRequirement(_get(table, "hand", str, where), max_rank)
        except (ValueError, TypeError) as err:
            raise RulesError(f"{where}.hand: {err}") from None
        roles[key] = Role(
            key=key,
            name=_get(table, "name", str, where),
            team=team,
            hand=hand,
            min_players=int(table.get("min_players", 4)),
        )
    if roles["batman"].team != "batman" or roles["catwoman"].team != "catwoman":
        raise RulesError("roles: batman and catwoman must be on their own teams")
    telepathic = _get(roles_raw, "telepathic", dict, "roles")
    thumbs = _get(telepathic, "thumbs_up", list, "roles.telepathic")
    if not set(thumbs) <= set(ROLE_KEYS):
        raise RulesError(f"roles.telepathic.thumbs_up: unknown roles in {thumbs!r}")
    sneaky_seen = int(_get(roles_raw, "sneaky", dict, "roles").get("unused_roles_seen", 0))
    chars_raw = _get(data, "characters", dict, "data")
    if len(chars_raw) < 7:
        raise RulesError("characters: at least 7 Character cards are needed for 7 players")
    characters: dict[str, Character] = {}
    for key, table in chars_raw.items():
        where = f"characters.{key}"
        if not isinstance(table, dict):
            raise RulesError(f"{where}: expected a table")
        effect = _get(table, "effect", str, where)
        if effect not in EFFECTS:
            raise RulesError(f"{where}.effect: {effect!r} is not one of {', '.join(EFFECTS)}")
        triggers = _get(table, "trigger", list, where)
        if not triggers:
            raise RulesError(f"{where}.trigger: list at least one rank")
        count = _get(table, "count", int, where) if effect == "draw" else 0
        if effect == "draw" and not 1 <= count <= 10:
            raise RulesError(f"{where}.count: draw 1..10 cards, not {count}")
        characters[key] = Character(
            key=key,
            name=_get(table, "name", str, where),
            trigger=frozenset(_rank_value(t, f"{where}.trigger") for t in triggers),
            effect=effect,
            count=count,
        )
    say_raw = _get(data, "say", dict, "data")
    say = {key: _get(say_raw, key, str, "say") for key in SAY_KEYS}
    return Rules(
        subdues_needed=needed,
        refill_below=_get(game, "refill_below", int, "game"),
        blackout_refill_per_player=_get(game, "blackout_refill_per_player", int, "game"),
        hand_size=_get(game, "hand_size", int, "game"),
        advanced_rounds=_get(game, "advanced_rounds", int, "game"),
        roles=roles,
        telepathic_thumbs_up=frozenset(thumbs),
        sneaky_unused_seen=sneaky_seen,
        characters=characters,
        character_order=tuple(characters),
        say=say,
    )


def rules_from_toml(text: str) -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesError(f"data file is not valid TOML: {err}") from None
    return rules_from_mapping(data)


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def default_rules() -> Rules:
    """The shipped ``data.toml`` (read once)."""
    return rules_from_mapping(_shipped())


def _merge(base: dict[str, Any], over: Mapping[str, Any], path: str) -> None:
    for key, value in over.items():
        where = f"{path}.{key}" if path else str(key)
        if isinstance(value, Mapping):
            if key in base and not isinstance(base[key], dict):
                raise RulesError(f"{where}: expected a value, not a table")
            _merge(base.setdefault(key, {}), value, where)
        else:
            if isinstance(base.get(key), dict):
                raise RulesError(f"{where}: expected a table of corrections")
            base[key] = copy.deepcopy(value)


def rules_with(corrections: Mapping[str, Any] | None) -> Rules:
    """The shipped data with a user's corrections laid over it (same shape as data.toml),
    e.g. ``{"roles": {"crafty": {"hand": "flush"}}}``; ``RulesError`` names a bad key."""
    if not corrections:
        return default_rules()
    try:
        key = json.dumps(corrections, sort_keys=True)
    except (TypeError, ValueError):
        raise RulesError("card data corrections must be plain JSON/TOML values") from None
    return _corrected(key)


@cache
def _corrected(key: str) -> Rules:
    data = copy.deepcopy(_shipped())
    _merge(data, json.loads(key), "")
    return rules_from_mapping(data)
