"""The Get Adler! game state: setup, the seven-hour clock, turns, arrests, confrontations.

See the package docstring for the moves, the phases and how unknown cards are modelled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, TypeGuard

from tablehub.games.base import (
    CHANCE,
    JSON,
    PUBLIC,
    TERMINAL,
    Event,
    GameInfo,
    GameState,
    Move,
    View,
)
from tablehub.games.get_adler.cardbook import CardBook
from tablehub.games.get_adler.confrontation import (
    HERO_SIDE,
    VILLAIN_SIDE,
    Confrontation,
    gunfight_winner,
)
from tablehub.games.get_adler.data import ACTIONS, REACTIONS, AdlerData, check_rules, load

INFO = GameInfo(
    name="get-adler",
    title="Get Adler!",
    min_players=4,
    max_players=6,
    option_sets=(
        {},
        {"extended": True},
        {"ultimate_mission": True},
        {"extended": True, "ultimate_mission": True},
    ),
)

UNKNOWN = "unknown"  # a card or character the hub did not see
DECK = -1  # a transfer's source: the action card deck
HOURS = ("twelve", "one", "two", "three", "four", "five", "six", "seven", "eight")
CHANCE_PHASES = frozenset({"character", "mission", "transfer", "start-player", "reveal"})
OPTION_KEYS = ("extended", "ultimate_mission", "rules")
WINNING_SIDE = {"heroes": "hero", "villains": "villain"}


def hour_words(hour: int) -> str:
    return f"{HOURS[hour]} o'clock" if 0 <= hour < len(HOURS) else f"hour {hour}"


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated options with defaults; ``ValueError`` naming the bad key."""
    options = dict(options or {})
    for key in options:
        if key not in OPTION_KEYS:
            raise ValueError(f"unknown option {key!r} (known: {', '.join(OPTION_KEYS)})")
    for key in ("extended", "ultimate_mission"):
        if not isinstance(options.get(key, False), bool):
            raise ValueError(f"option {key} must be true or false, not {options[key]!r}")
    rules = options.get("rules", {})
    if not isinstance(rules, Mapping):
        raise ValueError("option rules must be a table of rule names to values")
    check_rules(rules, where="option rules")
    return {
        "extended": options.get("extended", False),
        "ultimate_mission": options.get("ultimate_mission", False),
        "rules": dict(rules),
    }


class AdlerState(GameState):
    info: ClassVar[GameInfo] = INFO

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        if not _is_int(players) or not INFO.min_players <= players <= INFO.max_players:
            raise ValueError(f"Get Adler! is for 4 to 6 players, not {players!r}")
        self.data: AdlerData = load()
        self.options = parse_options(options)
        self.rules: dict[str, Any] = {**self.data.rules, **self.options["rules"]}
        self.extended: bool = self.options["extended"]
        self.n = players
        self.ids = [card.id for card in self.data.cards]
        deck = self.data.deck_for(players)
        self.index = {self.ids[i]: i for i in deck}
        self.cast = self.data.characters_for(players)
        self.sides = {c.id: c.side for c in self.data.characters}
        self.names = {c.id: c.name for c in self.data.characters}
        # --- the changing part (everything below is in to_json) -----------------------------
        self.book = CardBook(deck, players)
        self.characters: list[str | None] = [None] * players
        self.dealt_characters = 0
        self.revealed = False
        self.mission: str | None = None
        self.round = 0
        self.start = -1
        self.pos = -1  # position in the round, counted from the starting player
        self.turn = -1  # whose turn it is
        self.skips: list[list[str]] = [[] for _ in range(players)]
        self.out: list[str | None] = [None] * players  # "eliminated" or "arrested"
        self.phase = "character"
        self.actor = CHANCE
        self.queue: list[list[int]] = []  # pending transfers [to_seat, from_seat or DECK]
        self.resume = ""  # what follows when the queue is empty
        self.arrest: list[int] | None = None  # [arrester, target, card] awaiting the answer
        self.conf: Confrontation | None = None
        self.give_left = 0  # binoculars: cards the actor still gives back
        self.binoculars_target = -1
        self.collins_passed = False
        self.reveal_for = ""  # "arrest" or "final"
        self.final_queue: list[int] = []
        self.winner: str | None = None
        self.end_reason: str | None = None

    # ==================================================================================
    # small facts
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.actor

    def side(self, seat: int) -> str | None:
        character = self.characters[seat]
        return None if character is None else self.sides[character]

    def at_large(self, seat: int) -> bool:
        return self.out[seat] is None

    def seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.n for i in range(self.n)]

    def heroes_at_large(self, first: int = 0) -> list[int]:
        return [s for s in self.seats_from(first) if self.at_large(s) and self.side(s) == "hero"]

    def villains_at_large(self) -> list[int]:
        return [s for s in range(self.n) if self.at_large(s) and self.side(s) == "villain"]

    def seat_of(self, character: str) -> int | None:
        for seat, name in enumerate(self.characters):
            if name == character:
                return seat
        return None

    def is_character(self, seat: int, character: str) -> bool:
        return self.characters[seat] == character

    def kind(self, card: int) -> str:
        return self.data.cards[card].kind

    def card_name(self, card: int) -> str:
        return self.ids[card]

    def who(self, seat: int) -> str:
        character = self.characters[seat] if self.revealed else None
        return f"seat {seat}" if character is None else f"{self.names[character]} (seat {seat})"

    # ==================================================================================
    # legal moves
    def legal_moves(self) -> list[Move]:
        return _LEGAL[self.phase](self)

    def _legal_character(self) -> list[Move]:
        taken = {c for c in self.characters if c is not None}
        return [
            {"kind": "character", "player": CHANCE, "character": c}
            for c in self.cast
            if c not in taken
        ]

    def _legal_mission(self) -> list[Move]:
        return [
            {"kind": "mission", "player": CHANCE, "card": card_id}
            for card_id, i in self.index.items()
            if self.kind(i) == "document"
        ]

    def _legal_transfer(self) -> list[Move]:
        _to, source = self.queue[0]
        if source == DECK:
            cards: list[str] = [self.ids[c] for c in self.book.pool]
        else:
            cards = [self.ids[c] for c in self.book.hands[source]]
            if self.book.unknown[source]:
                cards.append(UNKNOWN)
        return [{"kind": "draw", "player": CHANCE, "card": c} for c in cards]

    def _legal_start(self) -> list[Move]:
        return [{"kind": "start-player", "player": CHANCE, "seat": s} for s in range(self.n)]

    def _legal_reveal(self) -> list[Move]:
        return [
            {"kind": "reveal", "player": CHANCE, "seat": seat, "character": character}
            for seat in range(self.n)
            if self.characters[seat] is None
            for character in self.cast
            if self._reveal_reason(seat, character) is None
        ]

    def _cards_of(self, seat: int, kinds: frozenset[str] | None = None) -> list[str]:
        return [
            self.ids[c]
            for c in self.book.candidates(seat)
            if kinds is None or self.kind(c) in kinds
        ]

    def _legal_play(self) -> list[Move]:
        p = self.actor
        moves: list[Move] = []
        for card_id in self._cards_of(p):
            moves.append({"kind": "discard", "player": p, "card": card_id})
            if self.kind(self.index[card_id]) not in ACTIONS:
                continue
            for target in range(self.n):
                move = {"kind": "play", "player": p, "card": card_id, "target": target}
                if self._play_reason(move) is None:
                    moves.append(move)
        if self._collins_may_pass():
            moves.extend(
                {"kind": "pass-card", "player": p, "card": c} for c in self._hand_tokens(p)
            )
        return moves

    def _hand_tokens(self, seat: int) -> list[str]:
        tokens = [self.ids[c] for c in self.book.hands[seat]]
        return [*tokens, UNKNOWN] if self.book.unknown[seat] else tokens

    def hand_view(self, seat: int) -> list[str]:
        """A hand as shown in views: known cards, then one "unknown" per unseen card."""
        return [self.ids[c] for c in self.book.hands[seat]] + [UNKNOWN] * self.book.unknown[seat]

    def _legal_give(self) -> list[Move]:
        kind = "pass-card" if self.phase == "collins-return" else "give"
        return [
            {"kind": kind, "player": self.actor, "card": c} for c in self._hand_tokens(self.actor)
        ]

    def _legal_answer(self) -> list[Move]:
        assert self.arrest is not None
        return [
            {"kind": "answer-arrest", "player": self.actor, "right": right}
            for right in (False, True)
            if self._answer_reason(right) is None
        ]

    def _legal_react(self) -> list[Move]:
        v = self.actor
        moves: list[Move] = [{"kind": "no-reaction", "player": v}]
        for card_id in self._cards_of(v, REACTIONS):
            move = {"kind": "react", "player": v, "card": card_id}
            if self._react_reason(self.index[card_id]) is None:
                moves.append(move)
        return moves

    def _legal_escape(self) -> list[Move]:
        h = self.actor
        moves: list[Move] = [{"kind": "pass", "player": h}]
        for card_id in self._cards_of(h, frozenset({"escape"})):
            if self._escape_reason(self.index[card_id]) is None:
                moves.append({"kind": "escape", "player": h, "card": card_id})
        return moves

    def _legal_gunfight(self) -> list[Move]:
        s = self.actor
        moves: list[Move] = [{"kind": "hold", "player": s}]
        moves.extend(
            {"kind": "shoot", "player": s, "card": c}
            for c in self._cards_of(s, frozenset({"pistol"}))
        )
        return moves

    def _legal_loot(self) -> list[Move]:
        return [
            {"kind": "loot", "player": self.actor, "count": k} for k in range(self._loot_max() + 1)
        ]

    def _legal_show(self) -> list[Move]:
        v = self.actor
        documents = self._cards_of(v, frozenset({"document"}))
        moves: list[Move] = [{"kind": "show-documents", "player": v, "cards": []}]
        moves.extend({"kind": "show-documents", "player": v, "cards": [d]} for d in documents)
        return moves

    @staticmethod
    def _legal_none() -> list[Move]:
        return []

    # ==================================================================================
    # checking moves
    def check(self, move: Move) -> str | None:
        if not isinstance(move, dict):
            return "a move must be a JSON object"
        kind = move.get("kind")
        player = move.get("player")
        if not isinstance(kind, str):
            return "the move says nothing about what to do (no 'kind')"
        if not _is_int(player):
            return "the move does not say who makes it (no 'player' seat)"
        if self.phase == "over":
            return "the game is over"
        expected = self.current_player()
        if player != expected:
            waiting = "the next card or reading" if expected == CHANCE else self.who(expected)
            mover = "chance" if player == CHANCE else self.who(player)
            return f"it is not {mover}'s move now: waiting for {waiting}"
        checkers = _CHECKS[self.phase]
        checker = checkers.get(kind)
        if checker is None:
            return f"'{kind}' is not possible now; expected one of: {', '.join(checkers)}"
        return checker(self, move)

    def _card_arg(self, move: Move, key: str = "card") -> int | str:
        """The card index named by ``move[key]``, or a refusal reason."""
        card_id = move.get(key)
        if not isinstance(card_id, str) or card_id not in self.index:
            return f"{card_id!r} is not a card in this game"
        return self.index[card_id]

    def _held_arg(self, move: Move, seat: int, allow_unknown: bool = False) -> int | str | None:
        """The card a seat plays from hand (``None``: an unseen card), or a reason."""
        if allow_unknown and move.get("card") == UNKNOWN:
            return None if self.book.hand_size(seat) else f"{self.who(seat)} has no cards"
        card = self._card_arg(move)
        if isinstance(card, str):
            return card
        if not self.book.holds(seat, card):
            return f"{self.who(seat)} cannot hold {self.ids[card]}: it is {self.book.where(card)}"
        return card

    def _target_reason(self, player: int, target: Any) -> str | None:
        if not _is_int(target) or not 0 <= target < self.n:
            return f"the target must be a seat from 0 to {self.n - 1}, not {target!r}"
        if target == player:
            return "choose another player, not yourself"
        if not self.at_large(target):
            return f"{self.who(target)} is out of the game"
        return None

    # --- chance -------------------------------------------------------------------------
    def _check_character(self, move: Move) -> str | None:
        character = move.get("character")
        if character == UNKNOWN:
            return None
        if character not in self.cast:
            return f"{character!r} is not a character at a table of {self.n}"
        if character in self.characters:
            return f"{character} has already been dealt"
        return None

    def _check_mission(self, move: Move) -> str | None:
        card = self._card_arg(move)
        if isinstance(card, str):
            return card
        return (
            None if self.kind(card) == "document" else "the mission card is a top-secret document"
        )

    def _check_draw(self, move: Move) -> str | None:
        _to, source = self.queue[0]
        if move.get("card") == UNKNOWN:
            return None
        card = self._card_arg(move)
        if isinstance(card, str):
            return card
        if source == DECK:
            ok = self.book.in_pool(card)
            return (
                None
                if ok
                else f"{self.ids[card]} cannot come from the deck: it is {self.book.where(card)}"
            )
        held = self._held_arg(move, source)
        return held if isinstance(held, str) else None

    def _check_start(self, move: Move) -> str | None:
        seat = move.get("seat")
        if not _is_int(seat) or not 0 <= seat < self.n:
            return f"the starting player must be a seat from 0 to {self.n - 1}, not {seat!r}"
        return None

    def _check_reveal(self, move: Move) -> str | None:
        seat = move.get("seat")
        if not _is_int(seat) or not 0 <= seat < self.n:
            return f"the seat must be from 0 to {self.n - 1}, not {seat!r}"
        return self._reveal_reason(seat, move.get("character"))

    def _reveal_reason(self, seat: int, character: Any) -> str | None:
        if self.characters[seat] is not None:
            return f"seat {seat}'s character is already known"
        if character not in self.cast:
            return f"{character!r} is not a character at a table of {self.n}"
        if character in self.characters:
            return f"{character} is already at another seat"
        need = self._reveal_needs()
        if need.get(seat) not in (None, self.sides[character]):
            return f"seat {seat} must be a {need[seat]} (the arrest was right)"
        # the seats still hidden must be able to take the characters still unseen
        rest = [c for c in self.cast if c not in self.characters and c != character]
        wanted = [need[s] for s in need if s != seat and self.characters[s] is None]
        for side in ("hero", "villain"):
            if wanted.count(side) > sum(1 for c in rest if self.sides[c] == side):
                return f"then no {side} character would be left for the arrest to be right"
        return None

    def _reveal_needs(self) -> dict[int, str]:
        if self.reveal_for != "arrest" or self.conf is None:
            return {}
        need = {self.conf.villain: "villain"}
        if self.rules["villain_arrest_is_unjust"]:
            need[self.conf.arrester] = "hero"
        return need

    # --- a turn ------------------------------------------------------------------------
    def _check_discard(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"])
        return held if isinstance(held, str) else None

    def _check_play(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"])
        if isinstance(held, str):
            return held
        return self._play_reason(move)

    def _play_reason(self, move: Move) -> str | None:
        p = move["player"]
        card = self.index[move["card"]]
        kind = self.kind(card)
        target = move.get("target")
        if kind == "question":
            if self.revealed:
                return "once the identities are revealed a question mark can only be discarded"
            return None if "target" not in move else self._target_reason(p, target)
        if kind == "magnifier":
            return None if "target" not in move else self._target_reason(p, target)
        if kind == "binoculars":
            reason = self._target_reason(p, target)
            if reason is None and not self.book.hand_size(move["target"]):
                return f"{self.who(move['target'])} has no cards to take"
            return reason
        if kind == "arrest":
            return self._arrest_reason(p, target)
        return f"a {kind} card has no action on your turn: discard it instead"

    def _arrest_reason(self, p: int, target: Any) -> str | None:
        first = self.data.first_arrest_round
        if self.round < first:
            return (
                f"no arrests before {hour_words(first)}: it is {hour_words(self.round)}, "
                f"round {self.round}"
            )
        reason = self._target_reason(p, target)
        if reason is not None or not self.revealed:
            return reason
        if self.side(p) != "hero":
            return "a villain can only discard an arrest card"
        if self.side(target) != "villain":
            return f"the identities are known: arrest a villain, not {self.who(target)}"
        return None

    def _collins_may_pass(self) -> bool:
        if not self.revealed or self.collins_passed or not self.is_character(self.actor, "collins"):
            return False
        adler = self.seat_of("adler")
        return adler is not None and self.at_large(adler) and self.book.hand_size(self.actor) > 0

    def _check_pass_card(self, move: Move) -> str | None:
        if self.phase == "play" and not self._collins_may_pass():
            return (
                "only Kate Collins, once the identities are revealed, may pass a card to Adler"
                " (once a turn, before she plays)"
            )
        held = self._held_arg(move, move["player"], allow_unknown=True)
        return held if isinstance(held, str) else None

    def _check_give(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"], allow_unknown=True)
        return held if isinstance(held, str) else None

    # --- arrests and confrontations --------------------------------------------------------
    def _check_answer(self, move: Move) -> str | None:
        right = move.get("right")
        if not isinstance(right, bool):
            return "answer with right: true or false"
        return self._answer_reason(right)

    def _answer_reason(self, right: bool) -> str | None:
        assert self.arrest is not None
        arrester, target, _card = self.arrest
        truth = self._arrest_is_right(arrester, target)
        if truth is not None and truth != right:
            return f"that arrest is {'right' if truth else 'unjust'}"
        return None

    def _arrest_is_right(self, arrester: int, target: int) -> bool | None:
        """Whether an arrest is right, ``None`` if the book does not know the characters."""
        target_side, arrester_side = self.side(target), self.side(arrester)
        if target_side == "hero":
            return False
        if self.rules["villain_arrest_is_unjust"] and arrester_side == "villain":
            return False
        if target_side is None or (
            self.rules["villain_arrest_is_unjust"] and arrester_side is None
        ):
            return None
        return True

    def _check_react(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"])
        if isinstance(held, str):
            return held
        assert held is not None
        return self._react_reason(held)

    def _react_reason(self, card: int) -> str | None:
        assert self.conf is not None
        kind = self.kind(card)
        if kind not in REACTIONS:
            return f"a {kind} card is no reaction: play an escape, disguise, bomb or pistol"
        hero = self.conf.hero
        if self.extended and kind == "disguise" and self.is_character(hero, "townsend"):
            return "Townsend never forgets a face: a disguise does not work on him"
        if self.extended and kind == "bomb" and self.is_character(hero, "tarasov"):
            return "Tarasov defuses the bomb at once: play a different card"
        return None

    def _check_no_reaction(self, move: Move) -> str | None:
        return None

    def _check_escape(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"])
        if isinstance(held, str):
            return held
        assert held is not None
        return self._escape_reason(held)

    def _escape_reason(self, card: int) -> str | None:
        assert self.conf is not None
        if self.kind(card) != "escape":
            return "only an escape card answers an escape"
        vehicle = self.data.cards[card].variant
        if self.rules["escape_must_match"] and vehicle != self.conf.vehicle:
            return f"answer the {self.conf.vehicle} with the same vehicle, not a {vehicle}"
        return None

    def _check_pass(self, move: Move) -> str | None:
        return None

    def _check_shoot(self, move: Move) -> str | None:
        held = self._held_arg(move, move["player"])
        if isinstance(held, str):
            return held
        assert held is not None
        return None if self.kind(held) == "pistol" else "only a pistol card fires a shot"

    def _check_hold(self, move: Move) -> str | None:
        return None

    def _loot_max(self) -> int:
        assert (
            self.conf is not None and self.conf.dead is not None and self.conf.survivor is not None
        )
        need = self.data.hand_size - self.book.hand_size(self.conf.survivor)
        return max(0, min(need, self.book.hand_size(self.conf.dead)))

    def _check_loot(self, move: Move) -> str | None:
        count = move.get("count")
        most = self._loot_max()
        if not _is_int(count) or not 0 <= count <= most:
            return f"draw from 0 to {most} cards from the eliminated player, not {count!r}"
        return None

    def _check_show(self, move: Move) -> str | None:
        cards = move.get("cards")
        v = move["player"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return "list the top-secret documents shown, by card id"
        if len(set(cards)) != len(cards):
            return "a document is listed twice"
        unseen = 0
        for card_id in cards:
            card = self.index.get(card_id)
            if card is None or self.kind(card) != "document":
                return f"{card_id!r} is not a top-secret document in this game"
            if card not in self.book.hands[v]:
                if not self.book.in_pool(card):
                    return f"{card_id} is {self.book.where(card)}"
                unseen += 1
        if unseen > self.book.unknown[v]:
            return f"{self.who(v)} does not hold that many unseen cards"
        return None

    # ==================================================================================
    # applying moves
    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        _APPLY[move["kind"]](self, move, events)
        return events

    # --- setup --------------------------------------------------------------------------
    def _do_character(self, move: Move, events: list[Event]) -> None:
        seat = self.dealt_characters
        character = move["character"]
        self.characters[seat] = None if character == UNKNOWN else character
        self.dealt_characters += 1
        if character != UNKNOWN:
            events.append(
                {"kind": "your-character", "audience": seat, "seat": seat, "character": character}
            )
        if self.dealt_characters < self.n:
            return
        if self.options["ultimate_mission"]:
            self.phase = "mission"
        else:
            self._deal_hands(events)

    def _do_mission(self, move: Move, events: list[Event]) -> None:
        card = self.index[move["card"]]
        self.mission = self.data.cards[card].variant
        events.append(
            {"kind": "mission", "audience": PUBLIC, "card": move["card"], "branch": self.mission}
        )
        self._deal_hands(events)

    def _deal_hands(self, events: list[Event]) -> None:
        self.queue = [[s, DECK] for _ in range(self.data.hand_size) for s in range(self.n)]
        self.resume = "start-player"
        self._run_queue(events)

    def _do_start(self, move: Move, events: list[Event]) -> None:
        self.start = move["seat"]
        self.round = 1
        self.pos = -1
        events.append({"kind": "start-player", "audience": PUBLIC, "seat": self.start})
        events.append(self._clock_event())
        self._next_turn(events)

    def _clock_event(self) -> Event:
        return {
            "kind": "clock",
            "audience": PUBLIC,
            "hour": self.round,
            "words": hour_words(self.round),
        }

    # --- transfers (draws, binoculars, loot) ----------------------------------------------
    def _run_queue(self, events: list[Event]) -> None:
        """Set up the next chance transfer, or carry on once none is pending."""
        while self.queue:
            to, source = self.queue[0]
            refill = self.book.discard or self.book.discard_unknown
            if source == DECK and not self.book.deck_size and refill:
                size = self.book.reshuffle()
                events.append({"kind": "reshuffle", "audience": PUBLIC, "deck_size": size})
            available = self.book.deck_size if source == DECK else self.book.hand_size(source)
            if available:
                self.phase = "transfer"
                return
            events.append({"kind": "no-card", "audience": PUBLIC, "seat": to, "source": source})
            self.queue.pop(0)
        self._continue(events)

    def _do_draw(self, move: Move, events: list[Event]) -> None:
        to, source = self.queue.pop(0)
        token = move["card"]
        card = None if token == UNKNOWN else self.index[token]
        if source == DECK:
            self.book.draw(to, card)
        else:
            self.book.put(to, self.book.take(source, card))
        events.append({"kind": "drew", "audience": PUBLIC, "seat": to, "source": source})
        if card is not None:
            events.append(
                {"kind": "card-received", "audience": to, "card": token, "source": source}
            )
            if source != DECK:
                events.append({"kind": "card-taken", "audience": source, "card": token, "by": to})
        self._run_queue(events)

    def _continue(self, events: list[Event]) -> None:
        resume, self.resume = self.resume, ""
        if resume == "start-player":
            self.phase = "start-player"
        elif resume == "play":
            self.phase, self.actor = "play", self.turn
        elif resume == "give":
            self.phase, self.actor = "give", self.turn
            self.give_left = min(self.give_left, self.book.hand_size(self.turn))
            if not self.give_left:
                self._end_turn(events)
        elif resume == "cleanup":
            self._cleanup(events)
        else:  # pragma: no cover - a programming error, not a table error
            raise AssertionError(f"nothing to resume: {resume!r}")

    # --- turns -----------------------------------------------------------------------------
    def _next_turn(self, events: list[Event]) -> None:
        while True:
            self.pos += 1
            if self.pos >= self.n:
                if self.round >= self.data.rounds:
                    self._seven_oclock(events)
                    return
                self.round += 1
                self.pos = 0
                events.append(self._clock_event())
            seat = (self.start + self.pos) % self.n
            if not self.at_large(seat):
                events.append(
                    {"kind": "seat-out", "audience": PUBLIC, "seat": seat, "reason": self.out[seat]}
                )
                continue
            if self.skips[seat]:
                reason = self.skips[seat].pop(0)
                events.append(
                    {"kind": "turn-skipped", "audience": PUBLIC, "seat": seat, "reason": reason}
                )
                continue
            self.turn = seat
            self.collins_passed = False
            events.append({"kind": "turn", "audience": PUBLIC, "seat": seat, "hour": self.round})
            self.queue = [[seat, DECK]]
            self.resume = "play"
            self._run_queue(events)
            return

    def _end_turn(self, events: list[Event]) -> None:
        self.actor = CHANCE
        self._next_turn(events)

    def _played(self, move: Move, events: list[Event], card: int, **extra: Any) -> None:
        events.append(
            {
                "kind": move["kind"],
                "audience": PUBLIC,
                "seat": move["player"],
                "card": move["card"],
                "card_kind": self.kind(card),
                **extra,
            }
        )

    def _do_discard(self, move: Move, events: list[Event]) -> None:
        p = move["player"]
        card = self.book.take(p, self.index[move["card"]])
        assert card is not None
        self.book.to_discard([card])
        self._played(move, events, card)
        self._end_turn(events)

    def _do_play(self, move: Move, events: list[Event]) -> None:
        p = move["player"]
        card = self.book.take(p, self.index[move["card"]])
        assert card is not None
        kind = self.kind(card)
        target: int | None = move.get("target")
        if kind == "arrest":
            assert target is not None
            self._played(move, events, card, target=target)
            self._arrest(p, target, card, events)
            return
        self.book.to_discard([card])
        self._played(move, events, card, target=target)
        if kind == "magnifier" and target is not None:
            seen = self.hand_view(target)
            events.append({"kind": "hand-seen", "audience": p, "seat": target, "cards": seen})
        if kind == "binoculars":
            assert target is not None
            take = 1
            if self.extended and self.is_character(p, "gold"):
                take = self.data.gold_binoculars_cards
            take = min(take, self.book.hand_size(target))
            self.give_left = take
            self.binoculars_target = target
            self.queue = [[p, target]] * take
            self.resume = "give"
            self._run_queue(events)
            return
        self._end_turn(events)

    def _do_give(self, move: Move, events: list[Event]) -> None:
        p, target = move["player"], self.binoculars_target
        self._hand_over(p, target, move["card"], events)
        self.give_left -= 1
        if not self.give_left:
            self.binoculars_target = -1
            self._end_turn(events)

    def _hand_over(self, giver: int, receiver: int, token: str, events: list[Event]) -> None:
        card = None if token == UNKNOWN else self.index[token]
        self.book.put(receiver, self.book.take(giver, card))
        events.append({"kind": "card-passed", "audience": PUBLIC, "seat": giver, "to": receiver})
        if card is not None:
            events.append(
                {"kind": "card-received", "audience": receiver, "card": token, "source": giver}
            )

    def _do_pass_card(self, move: Move, events: list[Event]) -> None:
        p = move["player"]
        if self.phase == "play":  # Collins gives, Adler gives back
            adler = self.seat_of("adler")
            assert adler is not None
            self._hand_over(p, adler, move["card"], events)
            self.collins_passed = True
            self.phase, self.actor = "collins-return", adler
        else:
            self._hand_over(p, self.turn, move["card"], events)
            self.phase, self.actor = "play", self.turn

    # --- arrests ----------------------------------------------------------------------------
    def _arrest(self, arrester: int, target: int, card: int, events: list[Event]) -> None:
        if self.revealed:
            self._confront(arrester, target, card, events)
            return
        self.arrest = [arrester, target, card]
        self.phase, self.actor = "answer-arrest", target

    def _do_answer(self, move: Move, events: list[Event]) -> None:
        assert self.arrest is not None
        arrester, target, card = self.arrest
        self.arrest = None
        if not move["right"]:
            self.book.to_discard([card])
            for seat in (arrester, target):
                self.skips[seat].extend(["unjust-arrest"] * self.rules["unjust_arrest_skips"])
            events.append(
                {"kind": "unjust-arrest", "audience": PUBLIC, "seat": arrester, "target": target}
            )
            self._end_turn(events)
            return
        events.append(
            {"kind": "arrest-right", "audience": PUBLIC, "seat": arrester, "target": target}
        )
        self.conf = Confrontation(arrester=arrester, villain=target, hero=arrester)
        self.conf.cards.append(card)
        if any(c is None for c in self.characters):
            self.reveal_for = "arrest"
            self.phase = "reveal"
            return
        self._revealed(events)

    def _do_reveal(self, move: Move, events: list[Event]) -> None:
        self.characters[move["seat"]] = move["character"]
        if any(c is None for c in self.characters):
            return
        self._revealed(events)

    def _revealed(self, events: list[Event]) -> None:
        self.revealed = True
        events.append(
            {"kind": "characters-revealed", "audience": PUBLIC, "characters": list(self.characters)}
        )
        reveal_for, self.reveal_for = self.reveal_for, ""
        if reveal_for == "final":
            self._final_documents(events)
            return
        assert self.conf is not None
        conf, self.conf = self.conf, None
        self._confront(conf.arrester, conf.villain, conf.cards[0], events)

    def _confront(self, arrester: int, villain: int, card: int, events: list[Event]) -> None:
        self.conf = Confrontation(arrester=arrester, villain=villain, hero=arrester)
        self.conf.cards.append(card)
        self.conf.involved = [arrester, villain]
        events.append(
            {"kind": "confrontation", "audience": PUBLIC, "hero": arrester, "villain": villain}
        )
        self.phase, self.actor = "react", villain

    # --- reactions ----------------------------------------------------------------------------
    def _do_react(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        card = self.book.take(conf.villain, self.index[move["card"]])
        assert card is not None
        conf.cards.append(card)
        kind = self.kind(card)
        self._played(move, events, card, hero=conf.hero)
        if kind == "escape":
            conf.vehicle = self.data.cards[card].variant
            conf.ask = self.heroes_at_large(conf.hero)
            self._ask_next(events)
        elif kind == "disguise":
            self._confrontation_over("disguise", events)
        elif kind == "bomb":
            for hero in self.heroes_at_large():
                if self.extended and self.is_character(hero, "tarasov"):
                    continue
                self.skips[hero].extend(["bomb"] * self.rules["bomb_skips"])
            self._confrontation_over("bomb", events)
        else:  # pistol: the villain fires first
            conf.shots = [1, 0]
            conf.stopped = [False, False]
            conf.shooter = HERO_SIDE
            self.phase, self.actor = "gunfight", conf.hero

    def _do_no_reaction(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        villain = conf.villain
        self.out[villain] = "arrested"
        events.append({"kind": "arrested", "audience": PUBLIC, "seat": villain, "by": conf.hero})
        if self._villains_beaten(villain):
            self._game_over("heroes", "arrested", events)
            return
        self._confrontation_over("arrested", events)

    def _villains_beaten(self, fallen: int) -> bool:
        if not self.villains_at_large():
            return True
        return not self.rules["heroes_need_every_villain"] and self.is_character(fallen, "adler")

    def _ask_next(self, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        if not conf.ask:
            self._confrontation_over("escape", events)
            return
        self.phase, self.actor = "escape-answer", conf.ask[0]

    def _do_escape(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        h = move["player"]
        card = self.book.take(h, self.index[move["card"]])
        assert card is not None
        conf.cards.append(card)
        conf.hero = h
        conf.ask = []
        conf.involve(h)
        self._played(move, events, card, villain=conf.villain)
        self.phase, self.actor = "react", conf.villain

    def _do_pass(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        conf.ask.pop(0)
        events.append({"kind": "pass", "audience": PUBLIC, "seat": move["player"]})
        self._ask_next(events)

    # --- the gunfight -------------------------------------------------------------------------
    def _seat_of_side(self, side: int) -> int:
        assert self.conf is not None
        return self.conf.villain if side == VILLAIN_SIDE else self.conf.hero

    def _do_shoot(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        side = conf.shooter
        card = self.book.take(move["player"], self.index[move["card"]])
        assert card is not None
        conf.cards.append(card)
        conf.shots[side] += 1
        self._played(move, events, card, shots=list(conf.shots))
        other = 1 - side
        if not conf.stopped[other]:
            conf.shooter = other
        self.actor = self._seat_of_side(conf.shooter)

    def _do_hold(self, move: Move, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        side = conf.shooter
        conf.stopped[side] = True
        events.append({"kind": "hold", "audience": PUBLIC, "seat": move["player"]})
        other = 1 - side
        if self.rules["gunfight_continue_after_stop"] and not conf.stopped[other]:
            conf.shooter = other
            self.actor = self._seat_of_side(other)
            return
        self._gunfight_over(events)

    def _hero_bonus(self) -> int:
        conf = self.conf
        assert conf is not None
        if not self.extended or not self.is_character(conf.hero, "sharpe"):
            return 0
        if self.rules["sharpe_bonus_needs_a_shot"] and not conf.shots[HERO_SIDE]:
            return 0
        return self.data.sharpe_pistol_bonus

    def _gunfight_over(self, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        bonus = self._hero_bonus()
        winner = gunfight_winner(conf.shots[VILLAIN_SIDE], conf.shots[HERO_SIDE], bonus)
        events.append(
            {
                "kind": "gunfight",
                "audience": PUBLIC,
                "villain": conf.villain,
                "hero": conf.hero,
                "villain_shots": conf.shots[VILLAIN_SIDE],
                "hero_shots": conf.shots[HERO_SIDE] + bonus,
                "winner": None if winner is None else self._seat_of_side(winner),
            }
        )
        if winner is None:
            self._confrontation_over("gunfight-draw", events)
            return
        dead = self._seat_of_side(1 - winner)
        conf.dead, conf.survivor = dead, self._seat_of_side(winner)
        self.out[dead] = "eliminated"
        events.append({"kind": "eliminated", "audience": PUBLIC, "seat": dead})
        if winner == HERO_SIDE and self._villains_beaten(dead):
            self._game_over("heroes", "shot", events)
        elif winner == VILLAIN_SIDE and not self.heroes_at_large():
            self._game_over("villains", "heroes-eliminated", events)
        else:
            self._confrontation_over("shot", events)

    # --- the end of a confrontation ---------------------------------------------------------
    def _confrontation_over(self, result: str, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        conf.result = result
        conf.ask = []
        events.append(
            {
                "kind": "confrontation-over",
                "audience": PUBLIC,
                "result": result,
                "villain": conf.villain,
                "hero": conf.hero,
            }
        )
        if conf.dead is not None and self._loot_max() > 0:
            assert conf.survivor is not None
            self.phase, self.actor = "loot", conf.survivor
            return
        self._refill(0, events)

    def _do_loot(self, move: Move, events: list[Event]) -> None:
        self._refill(move["count"], events)

    def _refill(self, loot: int, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        self.queue = []
        order = self.seats_from(conf.arrester)
        involved = sorted((s for s in conf.involved if self.at_large(s)), key=order.index)
        if conf.survivor is not None and conf.dead is not None and loot:
            self.queue = [[conf.survivor, conf.dead]] * loot
            involved.remove(conf.survivor)
            involved.insert(0, conf.survivor)
        for seat in involved:
            pending = sum(1 for to, _ in self.queue if to == seat)
            need = self.data.hand_size - self.book.hand_size(seat) - pending
            self.queue.extend([[seat, DECK]] * max(0, need))
        self.resume = "cleanup"
        self.actor = CHANCE
        self._run_queue(events)

    def _cleanup(self, events: list[Event]) -> None:
        conf = self.conf
        assert conf is not None
        self.conf = None
        leftovers: list[int | None] = []
        for seat in range(self.n):
            if not self.at_large(seat) and self.book.hand_size(seat):
                leftovers.extend(self.book.empty_hand(seat))
        played: list[int | None] = list(conf.cards)
        self.book.to_discard(played + leftovers, bottom=True)
        events.append(
            {
                "kind": "cards-to-discard-bottom",
                "audience": PUBLIC,
                "cards": [self.ids[c] for c in conf.cards],
                "hidden": len(leftovers),
            }
        )
        self._end_turn(events)

    # --- seven o'clock and the end -----------------------------------------------------------
    def _seven_oclock(self, events: list[Event]) -> None:
        events.append({"kind": "seven-oclock", "audience": PUBLIC})
        self.turn = -1
        if any(c is None for c in self.characters):
            self.reveal_for = "final"
            self.phase = "reveal"
            return
        if not self.revealed:
            self.revealed = True
            events.append(
                {
                    "kind": "characters-revealed",
                    "audience": PUBLIC,
                    "characters": list(self.characters),
                }
            )
        self._final_documents(events)

    def _document_holders(self) -> list[int]:
        villains = self.villains_at_large()
        if self.rules["documents_any_villain"]:
            return villains
        adler = self.seat_of("adler")
        return [adler] if adler in villains else villains[:1]

    def _final_documents(self, events: list[Event]) -> None:
        self.final_queue = [v for v in self._document_holders() if self.book.unknown[v]]
        self._next_final(events)

    def _next_final(self, events: list[Event]) -> None:
        if self.final_queue:
            self.phase, self.actor = "show-documents", self.final_queue[0]
            return
        held = [
            card
            for v in self._document_holders()
            for card in self.book.hands[v]
            if self.kind(card) == "document"
        ]
        good = [
            c for c in held if self.mission is None or self.data.cards[c].variant == self.mission
        ]
        events.append(
            {"kind": "documents", "audience": PUBLIC, "cards": [self.ids[c] for c in good]}
        )
        if good:
            self._game_over("villains", "documents", events)
        else:
            self._game_over("heroes", "no-documents", events)

    def _do_show(self, move: Move, events: list[Event]) -> None:
        v = self.final_queue.pop(0)
        for card_id in move["cards"]:
            card = self.index[card_id]
            self.book.put(v, self.book.take(v, card))
        self._next_final(events)

    def _game_over(self, winner: str, reason: str, events: list[Event]) -> None:
        self.winner, self.end_reason = winner, reason
        self.phase, self.actor = "over", TERMINAL
        if all(c is not None for c in self.characters):
            self.revealed = True
        events.append(
            {
                "kind": "game-over",
                "audience": PUBLIC,
                "winner": winner,
                "reason": reason,
                "characters": list(self.characters) if self.revealed else None,
            }
        )

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * self.n
        side = WINNING_SIDE[self.winner]
        return [1.0 if self.side(s) == side else 0.0 for s in range(self.n)]

    # ==================================================================================
    # views
    def public_view(self) -> View:
        book = self.book
        conf = self.conf
        return {
            "game": INFO.name,
            "players": self.n,
            "options": {
                "extended": self.extended,
                "ultimate_mission": self.options["ultimate_mission"],
            },
            "phase": self.phase,
            "to_move": self.current_player(),
            "hour": self.round,
            "start_player": self.start,
            "turn": self.turn,
            "revealed": self.revealed,
            "characters": list(self.characters) if self.revealed else [None] * self.n,
            "mission": self.mission,
            "hand_sizes": [book.hand_size(s) for s in range(self.n)],
            "deck_size": book.deck_size,
            "discard": [self.ids[c] for c in book.discard],
            "discard_hidden": book.discard_unknown,
            "skips": [len(s) for s in self.skips],
            "out": list(self.out),
            "arrest": None
            if self.arrest is None
            else {
                "arrester": self.arrest[0],
                "target": self.arrest[1],
                "card": self.ids[self.arrest[2]],
            },
            "confrontation": None if conf is None else conf.to_json(self.ids),
            "binoculars_target": self.binoculars_target,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    def player_view(self, player: int) -> View:
        view = self.public_view()
        view["seat"] = player
        view["hand"] = self.hand_view(player)
        view["character"] = self.characters[player]
        return view

    def dealer_view(self) -> View:
        view = self.public_view()
        view["hands"] = [self.hand_view(s) for s in range(self.n)]
        view["all_characters"] = list(self.characters)
        view["unseen"] = [self.ids[c] for c in self.book.pool]
        view["pending_transfers"] = [list(q) for q in self.queue]
        return view

    def resample_hidden(self, player: int, rng: random.Random) -> Self:
        """Swap ``player``'s known cards with unseen ones (nobody else can tell them apart)."""
        other = self.clone()
        hand = other.book.hands[player]
        if not hand:
            return other
        mixed = hand + other.book.pool
        rng.shuffle(mixed)
        other.book.hands[player] = sorted(mixed[: len(hand)])
        other.book.pool = sorted(mixed[len(hand) :])
        return other

    # ==================================================================================
    # persistence
    def to_json(self) -> JSON:
        return {
            "game": INFO.name,
            "players": self.n,
            "options": self.options,
            "book": self.book.to_json(self.ids),
            "characters": list(self.characters),
            "dealt_characters": self.dealt_characters,
            "revealed": self.revealed,
            "mission": self.mission,
            "round": self.round,
            "start": self.start,
            "pos": self.pos,
            "turn": self.turn,
            "skips": [list(s) for s in self.skips],
            "out": list(self.out),
            "phase": self.phase,
            "actor": self.actor,
            "queue": [list(q) for q in self.queue],
            "resume": self.resume,
            "arrest": None if self.arrest is None else [*self.arrest[:2], self.ids[self.arrest[2]]],
            "conf": None if self.conf is None else self.conf.to_json(self.ids),
            "give_left": self.give_left,
            "binoculars_target": self.binoculars_target,
            "collins_passed": self.collins_passed,
            "reveal_for": self.reveal_for,
            "final_queue": list(self.final_queue),
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        state = cls(data["players"], data["options"])
        index = {card_id: i for i, card_id in enumerate(state.ids)}
        state.book = CardBook.from_json(data["book"], index)
        for key in (
            "characters",
            "dealt_characters",
            "revealed",
            "mission",
            "round",
            "start",
            "pos",
            "turn",
            "skips",
            "out",
            "phase",
            "actor",
            "queue",
            "resume",
            "give_left",
            "binoculars_target",
            "collins_passed",
            "reveal_for",
            "final_queue",
            "winner",
            "end_reason",
        ):
            setattr(state, key, data[key])
        arrest = data["arrest"]
        state.arrest = None if arrest is None else [arrest[0], arrest[1], index[arrest[2]]]
        conf = data["conf"]
        state.conf = None if conf is None else Confrontation.from_json(conf, index)
        return state


_LEGAL: dict[str, Callable[[AdlerState], list[Move]]] = {
    "character": AdlerState._legal_character,
    "mission": AdlerState._legal_mission,
    "transfer": AdlerState._legal_transfer,
    "start-player": AdlerState._legal_start,
    "reveal": AdlerState._legal_reveal,
    "play": AdlerState._legal_play,
    "collins-return": AdlerState._legal_give,
    "give": AdlerState._legal_give,
    "answer-arrest": AdlerState._legal_answer,
    "react": AdlerState._legal_react,
    "escape-answer": AdlerState._legal_escape,
    "gunfight": AdlerState._legal_gunfight,
    "loot": AdlerState._legal_loot,
    "show-documents": AdlerState._legal_show,
    "over": lambda state: [],
}

_Check = Callable[[AdlerState, Move], "str | None"]
_CHECKS: dict[str, dict[str, _Check]] = {
    "character": {"character": AdlerState._check_character},
    "mission": {"mission": AdlerState._check_mission},
    "transfer": {"draw": AdlerState._check_draw},
    "start-player": {"start-player": AdlerState._check_start},
    "reveal": {"reveal": AdlerState._check_reveal},
    "play": {
        "discard": AdlerState._check_discard,
        "play": AdlerState._check_play,
        "pass-card": AdlerState._check_pass_card,
    },
    "collins-return": {"pass-card": AdlerState._check_pass_card},
    "give": {"give": AdlerState._check_give},
    "answer-arrest": {"answer-arrest": AdlerState._check_answer},
    "react": {"react": AdlerState._check_react, "no-reaction": AdlerState._check_no_reaction},
    "escape-answer": {"escape": AdlerState._check_escape, "pass": AdlerState._check_pass},
    "gunfight": {"shoot": AdlerState._check_shoot, "hold": AdlerState._check_hold},
    "loot": {"loot": AdlerState._check_loot},
    "show-documents": {"show-documents": AdlerState._check_show},
    "over": {},
}

_Apply = Callable[[AdlerState, Move, list[Event]], None]
_APPLY: dict[str, _Apply] = {
    "character": AdlerState._do_character,
    "mission": AdlerState._do_mission,
    "draw": AdlerState._do_draw,
    "start-player": AdlerState._do_start,
    "reveal": AdlerState._do_reveal,
    "discard": AdlerState._do_discard,
    "play": AdlerState._do_play,
    "pass-card": AdlerState._do_pass_card,
    "give": AdlerState._do_give,
    "answer-arrest": AdlerState._do_answer,
    "react": AdlerState._do_react,
    "no-reaction": AdlerState._do_no_reaction,
    "escape": AdlerState._do_escape,
    "pass": AdlerState._do_pass,
    "shoot": AdlerState._do_shoot,
    "hold": AdlerState._do_hold,
    "loot": AdlerState._do_loot,
    "show-documents": AdlerState._do_show,
}
