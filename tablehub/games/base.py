"""The one shape every rules engine has (after OpenSpiel's game API).

Engines are pure: no hardware, no clock, no printing, no global randomness.  Everything
random (a shuffle, a die, a revealed card) enters as a *chance move* supplied from outside:
a simulator picks one of ``legal_moves()`` at random, a referee supplies what the camera
or the dice tower observed, and ``check`` tells whether that is possible.

Moves and events are plain JSON-able dicts so they can be journaled, replayed, printed
and sent over the web API without a translation layer:

* a move always has ``"kind"`` (str) and ``"player"`` (a seat index, or ``CHANCE``);
* an event always has ``"kind"`` and ``"audience"``: ``"public"``, ``"dealer"`` or a seat
  index (only that player may learn it).  Referees speak/show events by audience.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeAlias

JSON: TypeAlias = Any
Move: TypeAlias = dict[str, Any]
Event: TypeAlias = dict[str, Any]
View: TypeAlias = dict[str, Any]

CHANCE = -1
"""``current_player()`` when the next move is a chance outcome (a card, a die)."""
TERMINAL = -2
"""``current_player()`` once the game is over."""
PUBLIC = "public"
DEALER = "dealer"


class IllegalMove(ValueError):
    """A move the rules do not allow now; ``reason`` says why in words for the table."""

    def __init__(self, reason: str, move: Move | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, for the CLI, the registry and the conformance suite."""

    name: str  # registry key, e.g. "almost-got-im"
    title: str  # "Almost Got 'Im"
    min_players: int
    max_players: int
    # Option sets the conformance suite must cover, besides the defaults.
    option_sets: tuple[Mapping[str, Any], ...] = field(default=({},))


class GameState(ABC):
    """A position in one game.  Mutable: ``apply`` changes it in place.

    Subclasses implement the abstract methods; ``apply``/``clone`` come for free.
    """

    info: ClassVar[GameInfo]

    # --- whose move, and what is possible -------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move now (chance outcomes too, each equally likely).

        For a chance node the list may be a uniform sample space (e.g. each card left in
        the deck once); ``check`` may accept more (e.g. an ``"unknown"`` card the hub did
        not see) than this list offers to a simulator.
        """

    @abstractmethod
    def check(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal now, else the reason in words for the table."""

    @abstractmethod
    def _apply(self, move: Move) -> list[Event]:
        """Apply a move already checked; return the events it caused."""

    def apply(self, move: Move) -> list[Event]:
        """Apply ``move`` or raise ``IllegalMove`` (and change nothing)."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMove(reason, move)
        return self._apply(move)

    # --- the end ----------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1.0 win, 0.0 loss (shared wins allowed); all zeros before the end."""

    @abstractmethod
    def num_players(self) -> int: ...

    # --- what each audience may see ---------------------------------------------------
    @abstractmethod
    def public_view(self) -> View:
        """What everyone at the table may know (the web page's spectator view)."""

    @abstractmethod
    def player_view(self, player: int) -> View:
        """What ``player`` may know: the public view plus their own secrets."""

    @abstractmethod
    def dealer_view(self) -> View:
        """Everything (the hub's own knowledge); never shown to a player."""

    @abstractmethod
    def resample_hidden(self, player: int, rng: random.Random) -> Self:
        """A copy in which only ``player``'s hidden information is re-drawn.

        Used by the conformance suite's leak test: every *other* player's view (and the
        public view) must be unchanged by it.  Re-draw from what nobody else could tell
        apart (e.g. swap the player's cards with unseen deck cards, their role with an
        unused role).  Return an unchanged copy when there is nothing to re-draw.
        """

    # --- persistence ------------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> JSON:
        """Everything needed to rebuild this exact state (JSON-serialisable)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: JSON) -> Self: ...

    def clone(self) -> Self:
        return type(self).from_json(self.to_json())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return type(self) is type(other) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


class Game(ABC):
    """A game's factory: builds initial states for a player count and options."""

    info: ClassVar[GameInfo]

    @abstractmethod
    def new_initial_state(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> GameState:
        """The state before setup; setup itself (shuffles, deals) happens by chance moves.

        Raises ``ValueError`` with a clear message for an unsupported player count or a
        bad option.
        """

    @abstractmethod
    def state_from_json(self, data: JSON) -> GameState: ...


def random_playout(state: GameState, rng: random.Random, max_moves: int = 100_000) -> list[Move]:
    """Play uniformly random legal moves to the end; return the moves applied."""
    played: list[Move] = []
    while not state.is_terminal():
        if len(played) >= max_moves:
            raise RuntimeError(f"no terminal state after {max_moves} moves")
        moves = state.legal_moves()
        if not moves:
            raise RuntimeError(f"no legal moves for player {state.current_player()}")
        move = rng.choice(moves)
        state.apply(move)
        played.append(move)
    return played
