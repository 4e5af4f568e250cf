"""Where every action card is, as far as whoever keeps the book knows.

A simulator knows every card (each hand is a list of cards); the hub at a real table knows
only cards laid face up.  Both are the same book: a hand is its *known* cards plus a count
of *unknown* ones, and ``pool`` holds every card whose place is not known, i.e. the deck,
the unknown hand slots and the unknown part of the discard pile.  When nothing is unknown
the pool is exactly the deck.  Invariant::

    len(pool) == deck_size + sum(unknown) + discard_unknown

A card played face up from a hand with unknown slots is taken from the pool (it must be
somewhere unseen to be plausible).  Cards are indices into ``AdlerData.cards``.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable
from typing import Any


def _contains(sorted_list: list[int], value: int) -> bool:
    i = bisect_left(sorted_list, value)
    return i < len(sorted_list) and sorted_list[i] == value


def _remove(sorted_list: list[int], value: int) -> None:
    del sorted_list[bisect_left(sorted_list, value)]


class CardBook:
    def __init__(self, deck: Iterable[int], seats: int) -> None:
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.unknown: list[int] = [0] * seats
        self.pool: list[int] = sorted(deck)
        self.deck_size = len(self.pool)
        self.discard: list[int] = []  # bottom first; the top is the last
        self.discard_unknown = 0

    # --- questions ----------------------------------------------------------------------
    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.unknown[seat]

    def in_pool(self, card: int) -> bool:
        return _contains(self.pool, card)

    def holds(self, seat: int, card: int) -> bool:
        """Could ``seat`` have ``card`` in hand (surely, or in an unknown slot)?"""
        if _contains(self.hands[seat], card):
            return True
        return self.unknown[seat] > 0 and _contains(self.pool, card)

    def candidates(self, seat: int) -> list[int]:
        """Every card ``seat`` may hold, sorted."""
        if not self.unknown[seat]:
            return list(self.hands[seat])
        return sorted(set(self.hands[seat]) | set(self.pool))

    def where(self, card: int) -> str:
        """Where a card is, in words (for refusals)."""
        if card in self.discard:
            return "on the discard pile"
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"in seat {seat}'s hand"
        return "in the deck" if self.in_pool(card) else "in play"

    # --- moving cards (callers have checked the move) ---------------------------------------
    def draw(self, seat: int, card: int | None) -> None:
        """From the deck into ``seat``'s hand; ``None``: a card nobody saw."""
        self.deck_size -= 1
        if card is None:
            self.unknown[seat] += 1
        else:
            _remove(self.pool, card)
            insort(self.hands[seat], card)

    def take(self, seat: int, card: int | None) -> int | None:
        """Remove ``card`` (``None``: an unseen one) from a hand; return what left it."""
        if card is None:
            if not self.unknown[seat]:
                self.forget(seat)
            self.unknown[seat] -= 1
            return None
        if _contains(self.hands[seat], card):
            _remove(self.hands[seat], card)
        else:
            self.unknown[seat] -= 1
            _remove(self.pool, card)
        return card

    def put(self, seat: int, card: int | None) -> None:
        if card is None:
            self.unknown[seat] += 1
        else:
            insort(self.hands[seat], card)

    def forget(self, seat: int) -> None:
        """``seat``'s known cards become unknown (an unseen card left the hand)."""
        for card in self.hands[seat]:
            insort(self.pool, card)
        self.unknown[seat] += len(self.hands[seat])
        self.hands[seat] = []

    def to_discard(self, cards: list[int | None], bottom: bool = False) -> None:
        """Onto the discard pile (face up); unseen cards only add to its unknown count."""
        known = [c for c in cards if c is not None]
        self.discard_unknown += len(cards) - len(known)
        self.discard = known + self.discard if bottom else self.discard + known

    def empty_hand(self, seat: int) -> list[int | None]:
        """Take a whole hand away (an eliminated player's cards)."""
        cards: list[int | None] = list(self.hands[seat])
        cards.extend([None] * self.unknown[seat])
        self.hands[seat] = []
        self.unknown[seat] = 0
        return cards

    def reshuffle(self) -> int:
        """The discard pile becomes the deck; returns its size."""
        for card in self.discard:
            insort(self.pool, card)
        self.deck_size += len(self.discard) + self.discard_unknown
        self.discard = []
        self.discard_unknown = 0
        return self.deck_size

    # --- persistence --------------------------------------------------------------------------
    def to_json(self, ids: list[str]) -> dict[str, Any]:
        return {
            "hands": [[ids[c] for c in hand] for hand in self.hands],
            "unknown": list(self.unknown),
            "pool": [ids[c] for c in self.pool],
            "deck_size": self.deck_size,
            "discard": [ids[c] for c in self.discard],
            "discard_unknown": self.discard_unknown,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], index: dict[str, int]) -> CardBook:
        book = cls((), len(data["hands"]))
        book.hands = [sorted(index[c] for c in hand) for hand in data["hands"]]
        book.unknown = [int(u) for u in data["unknown"]]
        book.pool = sorted(index[c] for c in data["pool"])
        book.deck_size = int(data["deck_size"])
        book.discard = [index[c] for c in data["discard"]]
        book.discard_unknown = int(data["discard_unknown"])
        return book
