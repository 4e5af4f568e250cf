"""High Card: a tiny example game for the foundation's devices demo and service tests.

Not one of the product's games (so it is not in ``REGISTRY``); it exists so the service,
journal and devices can be exercised end to end by a real engine with the standard shape.

Rules: 2-7 players, ``rounds`` rounds (default 3).  In each round every seat, in turn from
the round's first seat, either reveals a card from a shared 52-card deck (a chance move:
the card is supplied by what the camera saw) or passes (e.g. when their time runs out).
The highest revealed card wins the round (rank, then suit: clubs < diamonds < hearts <
spades); nobody wins a round in which everyone passed.  A card can be revealed only once
per game.  Most round wins takes the game (shared on a tie; all lose if nobody won).
Round r starts with seat ``(first + r) % players``; ``first`` is chosen by a ``start`` move.

Hidden information: none (every card is face up), so every view is the public view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from tablehub.games.base import CHANCE, TERMINAL, Event, Game, GameInfo, GameState, Move, View

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
DECK = tuple(r + s for s in SUITS for r in RANKS)
RANK_NAMES = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}

INFO = GameInfo(
    name="high-card",
    title="High Card",
    min_players=2,
    max_players=7,
    option_sets=({}, {"rounds": 1}),
)


def card_strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[:-1]), SUITS.index(card[-1])


def card_name(card: str) -> str:
    rank = card[:-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[-1]]}"


class HighCardState(GameState):
    info: ClassVar[GameInfo] = INFO

    def __init__(self, players: int, rounds: int) -> None:
        self.players = players
        self.rounds = rounds
        self.first: int | None = None  # seat that starts round 0
        self.round = 0
        self.acted = 0  # seats that have acted this round
        self.revealing: int | None = None  # seat whose card is awaited (chance node)
        self.table: list[list[Any]] = []  # this round: [seat, card or None]
        self.seen: list[str] = []
        self.wins = [0] * players

    # --- whose move -------------------------------------------------------------------
    def to_act(self) -> int | None:
        if self.first is None or self.round >= self.rounds:
            return None
        return (self.first + self.round + self.acted) % self.players

    def current_player(self) -> int:
        if self.round >= self.rounds:
            return TERMINAL
        if self.first is None or self.revealing is not None:
            return CHANCE
        seat = self.to_act()
        assert seat is not None
        return seat

    def legal_moves(self) -> list[Move]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if self.first is None:
            return [{"kind": "start", "player": CHANCE, "first": s} for s in range(self.players)]
        if player == CHANCE:
            return [
                {"kind": "card", "player": CHANCE, "card": c} for c in DECK if c not in self.seen
            ]
        return [{"kind": "reveal", "player": player}, {"kind": "pass", "player": player}]

    def check(self, move: Move) -> str | None:
        if not isinstance(move, dict):
            return "a move is a JSON object"
        kind, player = move.get("kind"), move.get("player")
        current = self.current_player()
        if current == TERMINAL:
            return "the game is over"
        if player != current:
            return f"it is not player {player}'s move (waiting for {current})"
        if self.first is None:
            first = move.get("first")
            if kind != "start" or not isinstance(first, int) or isinstance(first, bool):
                return "the game starts by choosing the first seat"
            return None if 0 <= first < self.players else f"there is no seat {first}"
        if current == CHANCE:
            card = move.get("card")
            if kind != "card":
                return f"a card from seat {self.revealing} is expected"
            if card not in DECK:
                return f"{card!r} is not a card of the deck"
            if card in self.seen:
                return f"the {card_name(card)} was already revealed in this game"
            return None
        if kind not in ("reveal", "pass"):
            return f"seat {player} can reveal a card or pass, not {kind!r}"
        return None

    def _apply(self, move: Move) -> list[Event]:
        kind = move["kind"]
        if kind == "start":
            self.first = move["first"]
            return [{"kind": "started", "audience": "public", "first": self.first}]
        if kind == "reveal":
            self.revealing = move["player"]
            return []
        if kind == "card":
            seat = self.revealing
            self.revealing = None
            self.seen.append(move["card"])
            self.table.append([seat, move["card"]])
            events = [
                {"kind": "revealed", "audience": "public", "seat": seat, "card": move["card"]}
            ]
        else:
            self.table.append([move["player"], None])
            events = [{"kind": "passed", "audience": "public", "seat": move["player"]}]
        self.acted += 1
        if self.acted == self.players:
            events.append(self._end_round())
        return events

    def _end_round(self) -> Event:
        cards = [(card_strength(card), seat) for seat, card in self.table if card is not None]
        winner = max(cards)[1] if cards else None
        if winner is not None:
            self.wins[winner] += 1
        event = {"kind": "round_won", "audience": "public", "round": self.round, "seat": winner}
        self.round += 1
        self.acted = 0
        self.table = []
        return event

    # --- the end ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self.is_terminal() or max(self.wins) == 0:
            return [0.0] * self.players
        best = max(self.wins)
        return [1.0 if w == best else 0.0 for w in self.wins]

    def num_players(self) -> int:
        return self.players

    # --- views ------------------------------------------------------------------------
    def public_view(self) -> View:
        return {
            "round": self.round,
            "rounds": self.rounds,
            "first": self.first,
            "to_act": self.to_act(),
            "revealing": self.revealing,
            "table": [list(x) for x in self.table],
            "wins": list(self.wins),
        }

    def player_view(self, player: int) -> View:
        return self.public_view()

    def dealer_view(self) -> View:
        return {**self.public_view(), "seen": list(self.seen)}

    def resample_hidden(self, player: int, rng: random.Random) -> Self:
        return self.clone()

    # --- persistence ------------------------------------------------------------------
    def to_json(self) -> Any:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "first": self.first,
            "round": self.round,
            "acted": self.acted,
            "revealing": self.revealing,
            "table": [list(x) for x in self.table],
            "seen": list(self.seen),
            "wins": list(self.wins),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        state = cls(int(data["players"]), int(data["rounds"]))
        state.first = data["first"]
        state.round = data["round"]
        state.acted = data["acted"]
        state.revealing = data["revealing"]
        state.table = [list(x) for x in data["table"]]
        state.seen = list(data["seen"])
        state.wins = list(data["wins"])
        return state


class HighCardGame(Game):
    info: ClassVar[GameInfo] = INFO

    def new_initial_state(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> HighCardState:
        options = dict(options or {})
        rounds = options.pop("rounds", 3)
        if options:
            raise ValueError(f"unknown High Card options: {', '.join(sorted(options))}")
        if not INFO.min_players <= players <= INFO.max_players:
            raise ValueError(f"High Card needs 2 to 7 players, not {players}")
        if not isinstance(rounds, int) or not 1 <= rounds <= 7:
            raise ValueError(f"rounds must be 1 to 7 (every card is revealed once), not {rounds}")
        return HighCardState(players, rounds)

    def state_from_json(self, data: Any) -> HighCardState:
        return HighCardState.from_json(data)


GAME = HighCardGame()
