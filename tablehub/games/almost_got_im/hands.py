"""Poker-hand checks for the Secret Role requirements, Jokers wild.

Pure functions over card ids.  A hand *meets* a pattern when it contains it (the rulebook:
"Four cards of the same rank also work" for Two Pair), so a Full House also holds Three of
a Kind.  Jokers have no rank or suit in hand and take any rank and suit when the hand is
used.  ``max_rank`` limits the ranks a pattern's sets may use (Telepathic's "Two Pairs,
with 9s or lower only": ``max_rank=9``, Aces high, the fifth card any rank).

Which pattern each role needs is data (``data.toml``); ``HandRequirement`` is its form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tablehub.games.almost_got_im.cards import RANK_OF, RANK_VALUE, SUIT_OF

ACE = 14


def _rank_counts(cards: Iterable[str], max_rank: int) -> tuple[list[int], int]:
    """Counts of natural ranks <= max_rank (index 0..14) and the number of Jokers."""
    counts = [0] * 15
    jokers = 0
    for card in cards:
        rank = RANK_OF[card]
        if rank == 0:
            jokers += 1
        elif rank <= max_rank:
            counts[rank] += 1
    return counts, jokers


def _top_two(counts: list[int]) -> tuple[int, int]:
    first = second = 0
    for c in counts:
        if c > first:
            first, second = c, first
        elif c > second:
            second = c
    return first, second


def two_pair(cards: Iterable[str], max_rank: int = ACE) -> bool:
    """Two cards of one rank plus two of another, or four of one rank."""
    counts, jokers = _rank_counts(cards, max_rank)
    first, second = _top_two(counts)
    pairs_cost = max(0, 2 - first) + max(0, 2 - second)
    quad_cost = max(0, 4 - first)
    distinct_ranks = max_rank - 1  # ranks 2..max_rank exist for Jokers to become
    if distinct_ranks < 2:
        pairs_cost = 99
    return min(pairs_cost, quad_cost) <= jokers


def three_of_a_kind(cards: Iterable[str], max_rank: int = ACE) -> bool:
    counts, jokers = _rank_counts(cards, max_rank)
    return max(counts) + jokers >= 3


def full_house(cards: Iterable[str], max_rank: int = ACE) -> bool:
    """Three of one rank and two of another (five of a kind is not a Full House)."""
    counts, jokers = _rank_counts(cards, max_rank)
    first, second = _top_two(counts)
    return max(0, 3 - first) + max(0, 2 - second) <= jokers


def flush(cards: Iterable[str], max_rank: int = ACE) -> bool:
    """Five cards of one suit (``max_rank`` limits the naturals that count)."""
    suits = [0, 0, 0, 0]
    jokers = 0
    for card in cards:
        rank = RANK_OF[card]
        if rank == 0:
            jokers += 1
        elif rank <= max_rank:
            suits[SUIT_OF[card]] += 1
    return max(suits) + jokers >= 5


def straight(cards: Iterable[str], max_rank: int = ACE) -> bool:
    """Five consecutive ranks, any suits; an Ace plays high (10-A) or low (A-5)."""
    present = [False] * 15
    jokers = 0
    for card in cards:
        rank = RANK_OF[card]
        if rank == 0:
            jokers += 1
        elif rank <= max_rank:
            present[rank] = True
    if present[ACE]:
        present[1] = True
    top_low = min(max_rank, ACE) - 4
    for low in range(1, top_low + 1):
        missing = 5 - sum(present[low : low + 5])
        if missing <= jokers:
            return True
    return False


def cards_needed(cards: Iterable[str], pattern: str, max_rank: int = ACE) -> int:
    """How many cards of a five-card hand must still change to make ``pattern`` (0: made).

    A guide for bots building a hand, not a rule: it counts the missing cards of the
    closest target, with Jokers filling gaps.
    """
    cards = list(cards)
    if pattern == "flush":
        suits = [0, 0, 0, 0]
        jokers = 0
        for card in cards:
            rank = RANK_OF[card]
            if rank == 0:
                jokers += 1
            elif rank <= max_rank:
                suits[SUIT_OF[card]] += 1
        return max(0, 5 - max(suits) - jokers)
    if pattern == "straight":
        present = [False] * 15
        jokers = 0
        for card in cards:
            rank = RANK_OF[card]
            if rank == 0:
                jokers += 1
            elif rank <= max_rank:
                present[rank] = True
        present[1] = present[ACE]
        best = 5
        for low in range(1, min(max_rank, ACE) - 3):
            best = min(best, 5 - sum(present[low : low + 5]))
        return max(0, best - jokers)
    counts, jokers = _rank_counts(cards, max_rank)
    first, second = _top_two(counts)
    if pattern == "three_of_a_kind":
        cost = max(0, 3 - first)
    elif pattern == "full_house":
        cost = max(0, 3 - first) + max(0, 2 - second)
    else:  # two_pair
        cost = min(max(0, 2 - first) + max(0, 2 - second), max(0, 4 - first))
    return max(0, cost - jokers)


PATTERNS: dict[str, Callable[..., bool]] = {
    "two_pair": two_pair,
    "three_of_a_kind": three_of_a_kind,
    "straight": straight,
    "flush": flush,
    "full_house": full_house,
}
PATTERN_NAMES = {
    "two_pair": "Two Pair",
    "three_of_a_kind": "Three of a Kind",
    "straight": "Straight",
    "flush": "Flush",
    "full_house": "Full House",
}


@dataclass(frozen=True)
class HandRequirement:
    """A role's required hand: a pattern and the highest rank its sets may use."""

    pattern: str
    max_rank: int = ACE

    def __post_init__(self) -> None:
        if self.pattern not in PATTERNS:
            known = ", ".join(sorted(PATTERNS))
            raise ValueError(f"unknown hand pattern {self.pattern!r}; expected one of {known}")
        if not 2 <= self.max_rank <= ACE:
            raise ValueError(f"max_rank must be 2..14 (Ace is 14), not {self.max_rank}")

    def met(self, cards: Iterable[str]) -> bool:
        return PATTERNS[self.pattern](cards, self.max_rank)

    def needed(self, cards: Iterable[str]) -> int:
        return cards_needed(cards, self.pattern, self.max_rank)

    def describe(self) -> str:
        name = PATTERN_NAMES[self.pattern]
        if self.max_rank < ACE:
            top = {v: k for k, v in RANK_VALUE.items()}[self.max_rank].upper()
            return f"{name} of {top}s or lower"
        return name
