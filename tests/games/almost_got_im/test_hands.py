"""Poker-hand checks, from the rulebook's own examples first, then Jokers and edge cases."""

from __future__ import annotations

import itertools

import pytest

from tablehub.games.almost_got_im.cards import DECK, JOKERS, RANK_OF, SUIT_OF, card_id
from tablehub.games.almost_got_im.hands import (
    HandRequirement,
    flush,
    full_house,
    straight,
    three_of_a_kind,
    two_pair,
)

J1, J2 = JOKERS
SUIT_BY_LETTER = {"b": "bats", "h": "hearts", "d": "diamonds", "r": "riddles"}


def hand(text: str) -> list[str]:
    """'6b 6h qd qr 2b J' -> card ids (J = a Joker)."""
    cards: list[str] = []
    jokers = iter(JOKERS)
    for token in text.split():
        if token == "J":
            cards.append(next(jokers))
        else:
            cards.append(card_id(SUIT_BY_LETTER[token[-1]], token[:-1].lower()))
    return cards


# --- the rulebook's examples --------------------------------------------------------------
def test_rulebook_two_pair_examples() -> None:
    assert two_pair(hand("6b 6h qd qr 2b"))  # 6-6-Q-Q
    assert two_pair(hand("qb qh qd qr 2b"))  # Q-Q-Q-Q: "Four cards of the same rank also work"


def test_rulebook_three_straight_flush_full_house_examples() -> None:
    assert three_of_a_kind(hand("9b 9h 9d 2r 5b"))
    assert straight(hand("ab 2h 3d 4r 5b"))  # A-2-3-4-5
    assert straight(hand("10b jh qd kr ab"))  # 10-J-Q-K-A
    assert flush(hand("3b 6b 10b qb ab"))  # 3-6-10-Q-A of Bats
    assert full_house(hand("4b 4h 4d jr jb"))  # 4-4-4-J-J


def test_rulebook_three_of_a_kind_does_not_make_a_straight() -> None:
    # "If they ... put together a Three-of-a-Kind, that does nothing for them!"
    cards = hand("9b 9h 9d 2r 5b")
    assert not straight(cards)


def test_telepathic_two_pair_nines_or_lower_aces_high() -> None:
    telepathic = HandRequirement("two_pair", max_rank=9)
    assert telepathic.met(hand("2b 2h 9d 9r ab"))  # fifth card any rank
    assert not telepathic.met(hand("9b 9h 10d 10r 2b"))  # 10s are too high
    assert not telepathic.met(hand("ab ah 3d 3r 2b"))  # Aces are high in pairs
    assert telepathic.met(hand("5b 5h 5d 5r kb"))  # four 5s are two pair of 5s
    assert telepathic.met(hand("3b 3h J 7r kb"))  # Joker pairs the 7
    assert not telepathic.met(hand("3b 3h J kr ab"))  # a Joker cannot pair a King here
    assert telepathic.met(hand("3b J J 5r ab"))  # two Jokers: 3-3 and 5-5
    assert not telepathic.met(hand("3b J J kr ab"))  # the second Joker has no low partner


# --- Jokers --------------------------------------------------------------------------------
def test_jokers_complete_each_pattern() -> None:
    assert two_pair(hand("6b 6h qd J 2b"))
    assert two_pair(hand("6b 2h qd J J"))  # two Jokers make a pair each... of singles
    assert three_of_a_kind(hand("9b 9h J 2r 5b"))
    assert three_of_a_kind(hand("9b J J 2r 5b"))
    assert straight(hand("ab 2h J 4r 5b"))
    assert straight(hand("10b J qd J ab"))
    assert flush(hand("3b 6b J qb ab"))
    assert full_house(hand("4b 4h J jr jb"))
    assert full_house(hand("4b 4h 4d J 9b"))


def test_jokers_are_not_everything() -> None:
    assert not two_pair(hand("2b 5h 9d kr J"))  # one Joker, no natural pair
    assert not straight(hand("2b 3h 4d 9r J"))
    assert not flush(hand("3b 6b qb ah J"))
    assert not full_house(hand("qb qh qd qr J"))  # five of a kind is not a Full House
    assert not full_house(hand("4b 4h 9d kr J"))


def test_straight_does_not_wrap_around() -> None:
    assert not straight(hand("qb kh ad 2r 3b"))
    assert straight(hand("9b 10h jd qr kb"))


def test_plain_hands_fail() -> None:
    nothing = hand("2b 5h 9d jr kb")
    for check in (two_pair, three_of_a_kind, straight, flush, full_house):
        assert not check(nothing)
    assert not two_pair(hand("2b 2h 9d jr kb"))  # one pair
    assert not full_house(hand("2b 2h 9d 9r kb"))  # two pair
    assert not flush(hand("2b 5b 9b jb kh"))


def _brute(cards: list[str], pattern: str) -> bool:
    """Reference: try every rank/suit for each Joker and test five-card sub-hands."""
    naturals = [(RANK_OF[c], SUIT_OF[c]) for c in cards if RANK_OF[c]]
    jokers = len(cards) - len(naturals)
    options = [(r, s) for r in range(2, 15) for s in range(4)]
    for fill in itertools.product(options, repeat=jokers):
        full = naturals + list(fill)
        for five in itertools.combinations(full, 5):
            ranks = sorted(r for r, _s in five)
            counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
            if pattern == "two_pair" and (
                counts[:2] == [2, 2] or counts[0] >= 4 or (counts[0] == 3 and counts[1] >= 2)
            ):
                return True
            if pattern == "three_of_a_kind" and counts[0] >= 3:
                return True
            if pattern == "full_house" and counts[:2] == [3, 2]:
                return True
            if pattern == "flush" and len({s for _r, s in five}) == 1:
                return True
            if pattern == "straight":
                for low_ranks in (ranks, sorted(1 if r == 14 else r for r in ranks)):
                    if len(set(low_ranks)) == 5 and low_ranks[4] - low_ranks[0] == 4:
                        return True
    return False


@pytest.mark.parametrize(
    "pattern", ["two_pair", "three_of_a_kind", "straight", "flush", "full_house"]
)
def test_matches_brute_force_on_random_hands(pattern: str) -> None:
    import random

    rng = random.Random(7)
    check = HandRequirement(pattern)
    for _ in range(300):
        cards = rng.sample(DECK, 5)
        if rng.random() < 0.3:
            cards[0] = J1
        assert check.met(cards) == _brute(cards, pattern), (pattern, cards)


def test_requirement_validates_and_describes() -> None:
    assert HandRequirement("two_pair", 9).describe() == "Two Pair of 9s or lower"
    assert HandRequirement("flush").describe() == "Flush"
    with pytest.raises(ValueError, match="unknown hand pattern"):
        HandRequirement("royal_flush")
    with pytest.raises(ValueError, match="max_rank"):
        HandRequirement("two_pair", 15)


@pytest.mark.parametrize(
    "pattern", ["two_pair", "three_of_a_kind", "straight", "flush", "full_house"]
)
def test_cards_needed_is_zero_exactly_when_the_hand_is_made(pattern: str) -> None:
    import random

    rng = random.Random(11)
    check = HandRequirement(pattern)
    for _ in range(400):
        cards = rng.sample(DECK, 5)
        assert (check.needed(cards) == 0) == check.met(cards), (pattern, cards)
        assert 0 <= check.needed(cards) <= 5


def test_cards_needed_counts_missing_cards() -> None:
    assert HandRequirement("two_pair").needed(hand("6b 6h qd 3r 2b")) == 1
    assert HandRequirement("two_pair").needed(hand("6b 7h qd 3r 2b")) == 2
    assert HandRequirement("full_house").needed(hand("4b 4h 4d 3r 2b")) == 1
    assert HandRequirement("flush").needed(hand("3b 6b 10b qh ah")) == 2
    assert HandRequirement("straight").needed(hand("2b 3h 4d 9r kb")) == 2
    assert HandRequirement("straight").needed(hand("2b 3h 4d J kb")) == 1
    assert HandRequirement("two_pair", 9).needed(hand("ab ah kd kr 2b")) == 3
