"""The card reader's Get Adler! ids and the engine's cards name the same things."""

from __future__ import annotations

from tablehub.games.get_adler.data import load
from tablehub.referee.get_adler_cards import (
    camera_id,
    character_card,
    character_of,
    copies,
    design_of,
)
from tablehub.vision.decks import DECKS


def test_every_stand_in_card_is_understood_with_the_same_number_of_copies() -> None:
    data = load()
    for spec in DECKS["adler"].cards:
        if spec.category == "character":
            assert character_of(spec.id) is not None, spec.id
            assert character_card(str(character_of(spec.id))) == spec.id
            continue
        design = design_of(spec.id)
        assert design is not None, spec.id
        assert len(copies(design, data)) == spec.count, spec.id


def test_the_engine_deck_is_the_stand_in_deck_with_the_assumed_6p_bomb() -> None:
    data = load()
    printed = sum(spec.count for spec in DECKS["adler"].cards if spec.category != "character")
    assert len(data.cards) == printed  # both: the 13th card marked 6+ is a bomb (data.toml)
    assert copies(design_of("adler:bomb-6p"), data) == ["bomb-3"]  # type: ignore[arg-type]


def test_camera_ids_name_the_design_of_each_engine_card() -> None:
    data = load()
    for card in data.cards:
        design = design_of(camera_id(card))
        assert design is not None and card.id in copies(design, data)
    assert design_of("adler:pistol-3") is not None  # an exact engine id is taken as it is
    assert design_of("agi:joker") is None and design_of("adler:nonsense") is None
