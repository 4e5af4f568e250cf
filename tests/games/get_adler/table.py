"""A scripted Get Adler! table for rules tests: chosen characters, chosen hands, chosen draws.

Cards are asked for by kind ("arrest", "escape:bus", "document:MI5"); the helper picks an
unused copy.  Unnamed hand slots and draws are filled with cards that never matter
(questions, magnifiers, binoculars, then arrests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablehub.games.base import CHANCE, Event, Move
from tablehub.games.get_adler import GAME, AdlerState

FILLER = ("question", "magnifier", "binoculars", "arrest")
CAST = ("adler", "gold", "sharpe", "townsend", "collins", "tarasov")


class Table:
    def __init__(
        self,
        players: int = 4,
        characters: Sequence[str] | None = None,
        hands: Mapping[int, Sequence[str]] | None = None,
        start: int = 0,
        options: Mapping[str, Any] | None = None,
        mission: str | None = None,
    ) -> None:
        self.state: AdlerState = GAME.new_initial_state(players, options)
        self.events: list[Event] = []
        self.last_drawn: dict[int, str] = {}
        for character in characters or CAST[:players]:
            self.apply({"kind": "character", "player": CHANCE, "character": character})
        if self.state.phase == "mission":
            doc = self.find("document:" + mission if mission else "document", pool=True)
            self.apply({"kind": "mission", "player": CHANCE, "card": doc})
        wanted = {seat: list(kinds) for seat, kinds in (hands or {}).items()}
        while self.state.phase == "transfer":
            seat = self.state.queue[0][0]
            kinds = wanted.get(seat, [])
            self.draw(kinds.pop(0) if kinds else None)
        self.apply({"kind": "start-player", "player": CHANCE, "seat": start})

    # --- looking things up --------------------------------------------------------------
    def matches(self, card: int, kind: str) -> bool:
        info = self.state.data.cards[card]
        base, _, variant = kind.partition(":")
        return info.kind == base and (not variant or info.variant == variant)

    def find(self, kind: str, seat: int | None = None, pool: bool = False) -> str:
        """The id of a card of ``kind`` in ``seat``'s hand (or in the deck)."""
        book = self.state.book
        cards = book.pool if pool or seat is None else book.hands[seat]
        for card in cards:
            if self.matches(card, kind):
                return self.state.ids[card]
        raise LookupError(f"no {kind} {'in the deck' if seat is None else f'in seat {seat}'}")

    def hand_kinds(self, seat: int) -> list[str]:
        return sorted(self.state.kind(c) for c in self.state.book.hands[seat])

    @property
    def to_move(self) -> int:
        return self.state.current_player()

    # --- doing things ---------------------------------------------------------------------
    def apply(self, move: Move) -> list[Event]:
        events = self.state.apply(move)
        self.events.extend(events)
        return events

    def draw(self, kind: str | None = None) -> list[Event]:
        """The pending chance transfer, with a card of ``kind`` (else a filler if any)."""
        to, source = self.state.queue[0]
        if source != -1:
            card = self.state.ids[self.state.book.hands[source][0]]
            if kind is not None:
                card = self.find(kind, seat=source)
        elif kind is not None:
            card = self.find(kind, pool=True)
        else:
            fillers = [c for c in self.state.book.pool if self.state.kind(c) in FILLER]
            card = self.state.ids[(fillers or self.state.book.pool)[0]]
        self.last_drawn[to] = card
        return self.apply({"kind": "draw", "player": CHANCE, "card": card})

    def throwaway(self, seat: int) -> str:
        """The card ``seat`` discards in plain play: the one just drawn, else a filler."""
        held = [self.state.ids[c] for c in self.state.book.hands[seat]]
        if self.last_drawn.get(seat) in held:
            return self.last_drawn[seat]
        for kind in FILLER:
            for card in held:
                if self.state.kind(self.state.index[card]) == kind:
                    return card
        return held[0]

    def move(self, kind: str, **fields: Any) -> list[Event]:
        """A move by whoever is to move; ``card="escape"`` names a kind held by that seat."""
        seat = self.to_move
        if isinstance(fields.get("card"), str) and "-" not in fields["card"]:
            fields["card"] = self.find(fields["card"], seat=seat)
        return self.apply({"kind": kind, "player": seat, **fields})

    def turn(
        self, kind: str = "discard", card: str | None = None, draw: str | None = None, **fields: Any
    ) -> list[Event]:
        """Draw (a filler unless named), then ``kind`` with a card of kind ``card``."""
        events = self.draw(draw)
        if card is None:
            card = self.throwaway(self.to_move)
        return events + self.move(kind, card=card, **fields)

    def advance(self) -> None:
        """One step of plain play: draws, throwaway discards, every answer a pass or hold."""
        phase = self.state.phase
        if phase == "transfer":
            self.draw()
        elif phase == "play":
            self.move("discard", card=self.throwaway(self.to_move))
        elif phase == "escape-answer":
            self.move("pass")
        elif phase == "gunfight":
            self.move("hold")
        elif phase == "loot":
            self.move("loot", count=0)
        else:
            raise AssertionError(f"no plain step in phase {phase}")

    def to_turn_of(self, seat: int, hour: int = 4) -> None:
        """Plain play until ``seat``'s turn (before the draw) in round ``hour`` or later."""
        state = self.state
        while state.round < hour or state.turn != seat or state.resume != "play":
            self.advance()

    def confront(self, arrester: int, villain: int = 0, hour: int = 4) -> None:
        """``arrester`` (holding an arrest card) arrests ``villain``, who is one."""
        self.to_turn_of(arrester, hour)
        self.draw()
        self.move("play", card="arrest", target=villain)
        if self.state.phase == "answer-arrest":
            self.move("answer-arrest", right=True)

    def kinds_of(self, kind: str) -> list[Event]:
        return [e for e in self.events if e["kind"] == kind]
