"""The stand-in decks hold what the rulebooks' component lists say."""

from __future__ import annotations

import re

import numpy as np

from tablehub.vision.cardart import render_back, render_face
from tablehub.vision.decks import DECKS, card_spec

ID_RE = re.compile(r"^[a-z]+:[a-z0-9][a-z0-9-]*$")


def _count(deck: str, category: str) -> int:
    return sum(c.count for c in DECKS[deck].cards if c.category == category)


def test_ids_are_unique_stable_lowercase() -> None:
    seen: set[str] = set()
    for deck in DECKS.values():
        for spec in deck.cards:
            assert ID_RE.match(spec.id), spec.id
            assert spec.id.startswith(deck.name + ":")
            assert spec.id not in seen
            seen.add(spec.id)
    assert card_spec("agi:bats-7").properties["rank"] == 7
    assert card_spec("agi:riddles-a").properties["rank"] == 14
    assert card_spec("chaos:loc-wayne-tower").name == "Wayne Tower"


def test_almost_got_im_components() -> None:
    assert _count("agi", "poker") == 52
    assert _count("agi", "joker") == 2
    assert _count("agi", "role") == 9
    assert _count("agi", "character") == 13
    suits = {c.properties["suit_name"] for c in DECKS["agi"].cards if c.category == "poker"}
    assert suits == {"Bats", "Harley-Hearts", "Stolen Diamonds", "Riddles"}
    assert card_spec("agi:role-telepathic").name == "Telepathic"
    assert card_spec("agi:role-batman-in-disguise").properties["hero"] is True


def test_chaos_components() -> None:
    assert _count("chaos", "trick") == 40
    assert _count("chaos", "villain") == 8
    assert _count("chaos", "location") == 15
    sixes = [c for c in DECKS["chaos"].cards if c.properties.get("value") == 6]
    assert len(sixes) == 4 and all(c.properties["bruce_wayne"] for c in sixes)
    assert any(c.properties.get("batman_symbols") for c in DECKS["chaos"].cards)


def test_get_adler_components() -> None:
    unmarked = [c for c in DECKS["adler"].cards if c.properties.get("players") == 4]
    actions = [c for c in unmarked if c.category == "action"]
    assert sum(c.count for c in actions) == 64
    assert card_spec("adler:pistol").count == 12
    five = [c for c in DECKS["adler"].cards if c.category == "action" and c.id.endswith("-5p")]
    assert sum(c.count for c in five) == 13
    assert _count("adler", "character") == 6


def test_rogues_gallery_components() -> None:
    heroes = [c for c in DECKS["rg"].cards if c.category == "hero"]
    assert sum(1 for c in heroes if c.properties["tier"] == "basic") == 16
    assert sum(1 for c in heroes if c.properties["tier"] == "advanced") == 8
    assert _count("rg", "batman") == 3
    assert "rg:hero-beat-cop" in DECKS["rg"].ids
    assert "rg:accomplice-nitro" in DECKS["rg"].ids


def test_every_face_is_drawn_and_distinct() -> None:
    for deck in DECKS.values():
        smalls = []
        for spec in deck.cards:
            face = render_face(spec, 2.0)
            assert face.shape[2] == 4 and face[..., 3].max() == 255
            smalls.append(face[..., :3].astype(np.int16))
        back = render_back(deck, 2.0)
        assert back.shape[:2] == smalls[0].shape[:2]
        same_size = [s for s in smalls if s.shape == smalls[0].shape]
        for i in range(len(same_size)):
            for j in range(i + 1, len(same_size)):
                assert np.abs(same_size[i] - same_size[j]).mean() > 0.8
