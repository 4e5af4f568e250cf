"""The deck, card ids (shared with the card-vision stand-in deck) and the data file."""

from __future__ import annotations

from importlib import resources

import pytest

from tablehub.games.almost_got_im import cards
from tablehub.games.almost_got_im.rules import (
    ROLE_KEYS,
    RulesError,
    default_rules,
    rules_from_toml,
)
from tablehub.vision.decks import DECKS


def _data_text() -> str:
    return resources.files("tablehub.games.almost_got_im").joinpath("data.toml").read_text()


def test_deck_is_52_cards_in_four_themed_suits_plus_two_jokers() -> None:
    assert len(cards.DECK) == 54 == len(set(cards.DECK))
    assert cards.JOKERS == ("agi:joker-1", "agi:joker-2")
    for suit in ("bats", "hearts", "diamonds", "riddles"):
        assert sum(c.startswith(f"agi:{suit}-") for c in cards.DECK) == 13
    assert "agi:bats-7" in cards.DECK and "agi:hearts-q" in cards.DECK
    assert cards.describe("agi:diamonds-10") == "10 of Stolen Diamonds"
    assert cards.describe("agi:hearts-q") == "Queen of Harley-Hearts"
    assert cards.describe("agi:riddles-a") == "Ace of Riddles"


def test_engine_ids_are_the_card_vision_decks_ids() -> None:
    vision = DECKS["agi"]
    poker = {c.id for c in vision.cards if c.category in ("poker", "joker")}
    assert {cards.to_vision_id(c) for c in cards.DECK} == poker
    for card in cards.DECK:
        if not cards.is_joker(card):
            spec = vision.card(cards.to_vision_id(card))
            assert spec.properties["rank"] == cards.RANK_OF[card]
            assert spec.properties["suit"] == cards.SUITS[cards.SUIT_OF[card]]
    roles = {c.id for c in vision.cards if c.category == "role"}
    assert {cards.to_vision_id(cards.role_card_id(r)) for r in ROLE_KEYS} == roles
    assert {cards.role_from_card_id(c) for c in roles} == set(ROLE_KEYS)
    characters = {c.id for c in vision.cards if c.category == "character"}
    keys = default_rules().character_order
    assert {cards.to_vision_id(cards.character_card_id(k)) for k in keys} == characters
    assert {cards.character_from_card_id(c) for c in characters} == set(keys)


def test_id_translation_round_trips_and_reads_roles() -> None:
    for card in (*cards.DECK, "agi:role-telepathic", "agi:role-batman-in-disguise"):
        assert cards.from_vision_id(cards.to_vision_id(card)) == card
    assert cards.role_from_card_id("agi:role-telepathic") == "telepathic"
    assert cards.role_from_card_id("agi:role-batman-in-disguise") == "batman"
    assert cards.role_card_id("catwoman") == "agi:role-catwoman-in-disguise"
    assert cards.character_from_card_id("agi:char-two-face") == "two-face"
    assert cards.role_from_card_id("agi:bats-7") is None


def test_rulebook_values_in_the_data() -> None:
    rules = default_rules()
    assert rules.subdues_needed == {4: 2, 5: 2, 6: 3, 7: 3}
    assert rules.roles["batman"].hand.pattern == "two_pair"
    assert rules.roles["catwoman"].hand.pattern == "full_house"
    telepathic = rules.roles["telepathic"].hand
    assert (telepathic.pattern, telepathic.max_rank) == ("two_pair", 9)
    assert rules.refill_below == 15
    assert len(rules.characters) == 13
    assert rules.characters["killer-croc"].count == 5
    assert rules.say["no_one_subdued"] == "No one was Subdued."


def test_roles_per_player_count_homicidal_only_at_7_healer_6_plus() -> None:
    rules = default_rules()
    assert set(rules.roles_for(4)) == set(ROLE_KEYS) - {"healer", "homicidal"}
    assert set(rules.roles_for(5)) == set(ROLE_KEYS) - {"healer", "homicidal"}
    assert set(rules.roles_for(6)) == set(ROLE_KEYS) - {"homicidal"}
    assert set(rules.roles_for(7)) == set(ROLE_KEYS)


def test_every_character_trigger_and_data_comment_documented() -> None:
    text = _data_text()
    assert text.count("default: not in the rulebook") >= 6
    assert "Correct them from your cards" in text


def test_broken_data_is_refused_with_the_key() -> None:
    with pytest.raises(RulesError, match="not valid TOML"):
        rules_from_toml("[game")
    good = _data_text()
    with pytest.raises(RulesError, match=r"roles\.watchful\.hand: unknown hand pattern"):
        rules_from_toml(good.replace('hand = "three_of_a_kind"', 'hand = "royal"', 1))
    with pytest.raises(RulesError, match=r"characters\.two-face\.trigger"):
        rules_from_toml(good.replace('trigger = ["2"]', 'trigger = ["1"]'))
    with pytest.raises(RulesError, match=r"say: missing 'crafty'"):
        rules_from_toml(good.replace('crafty = "Everyone draw', 'craftyx = "Everyone draw'))


def test_card_data_corrections_as_an_engine_option() -> None:
    from tablehub.games.almost_got_im.state import AgiState

    fixed = {"roles": {"crafty": {"hand": "flush"}}, "characters": {"two-face": {"count": 3}}}
    state = AgiState(5, {"card_data": fixed})
    assert state.rules.roles["crafty"].hand.pattern == "flush"
    assert state.rules.characters["two-face"].count == 3
    assert AgiState(5).rules.roles["crafty"].hand.pattern == "three_of_a_kind"
    again = AgiState.from_json(state.to_json())
    assert again.rules.roles["crafty"].hand.pattern == "flush" and again == state
    with pytest.raises(ValueError, match=r"card_data: roles\.crafty\.hand: unknown hand pattern"):
        AgiState(5, {"card_data": {"roles": {"crafty": {"hand": "royal"}}}})
    with pytest.raises(ValueError, match=r"card_data: roles: expected a table of corrections"):
        AgiState(5, {"card_data": {"roles": 3}})
    with pytest.raises(ValueError, match="card_data must be a table"):
        AgiState(5, {"card_data": ["x"]})
