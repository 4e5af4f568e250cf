"""The stand-in decks hold what the rulebooks' component lists say."""

from __future__ import annotations

import re
from pathlib import Path

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


# --- the stand-in decks agree with the engines' data and the rulebooks ----------------------


def test_chaos_locations_are_the_rulebooks_fifteen_with_the_engines_ids() -> None:
    from tablehub.games.chaos_in_gotham.cards import load_card_data

    root = Path(__file__).resolve().parents[2]
    candidates = [root.parent / "shared", root.parent.parent / "shared", Path("/work/shared")]
    rules = next((c for c in candidates if c.is_dir()), root) / "rules/chaos-in-gotham-city.txt"
    locations = {c.id: c.name for c in DECKS["chaos"].cards if c.category == "location"}
    engine = load_card_data().locations
    assert set(locations) == {f"chaos:loc-{key}" for key in engine}
    for key, location in engine.items():
        assert locations[f"chaos:loc-{key}"].startswith(location.name)
    assert locations["chaos:loc-tricorner-yards"] == "Tricorner Yards"
    assert locations["chaos:loc-gatham-city-bank"] == "Gatham City Bank"  # as printed
    if rules.is_file():  # the map list at the end of the rulebook, in its order
        text = rules.read_text(encoding="utf-8").split("The poster numbers the 15 locations")[1]
        printed = [line[2:].split(" (as printed")[0] for line in text.splitlines()[1:16]]
        assert list(locations.values()) == printed


def test_chaos_batman_symbols_on_the_art_are_the_engines() -> None:
    from tablehub.games.chaos_in_gotham.cards import load_card_data

    engine = load_card_data().trick_cards
    art = {
        c.id: c.properties["batman_symbols"] for c in DECKS["chaos"].cards if c.category == "trick"
    }
    assert art == {f"chaos:{key}": card.batman_symbols for key, card in engine.items()}
    assert art["chaos:red-8"] == 1 and art["chaos:red-10"] == 2 and art["chaos:red-1"] == 0


def test_chaos_ten_prints_two_batman_symbols() -> None:
    ten, nine, one = (render_face(card_spec(f"chaos:blue-{v}"), 4.0) for v in (10, 9, 1))
    bottom = slice(int(ten.shape[0] * 0.74), int(ten.shape[0] * 0.88))

    def ink(img: np.ndarray) -> int:  # type: ignore[type-arg]
        return int((img[bottom, :, :3].max(axis=2) < 80).sum())

    assert ink(one) < ink(nine) < ink(ten)


def test_get_adler_designs_cover_the_engines_cards_one_to_one() -> None:
    """Every engine card has its printed design in the deck, with the engine's counts
    (13 marked 5+, 13 marked 6+ incl. the bomb, documents by branch)."""
    from collections import Counter

    from tablehub.games.get_adler.data import load
    from tablehub.referee.get_adler_cards import camera_id

    engine = Counter(camera_id(card) for card in load().cards)
    deck = {c.id: c.count for c in DECKS["adler"].cards if c.category == "action"}
    assert dict(engine) == deck
    assert sum(n for k, n in deck.items() if k.endswith("-6p")) == 13
    assert deck["adler:bomb-6p"] == 1


def test_almost_got_im_deck_is_the_engines() -> None:
    from tablehub.games.almost_got_im.cards import (
        DECK,
        character_card_id,
        role_card_id,
        to_vision_id,
    )
    from tablehub.games.almost_got_im.rules import default_rules

    rules = default_rules()
    engine = {to_vision_id(c) for c in DECK}
    engine |= {to_vision_id(role_card_id(r)) for r in rules.roles}
    engine |= {to_vision_id(character_card_id(c)) for c in rules.characters}
    assert engine == set(DECKS["agi"].ids)


def test_rogues_gallery_counts_include_the_starting_cards() -> None:
    """The components list: 29 Upgrade and 37 Accomplice cards; setup gives each of up to 5
    players a Secret Lair Upgrade and 2 starting Accomplices out of those."""
    assert _count("rg", "upgrade") == 29
    assert _count("rg", "accomplice") == 37
    assert card_spec("rg:upgrade-secret-lair").count == 5


def _rank_height_mm(card_id: str, px_per_mm: float = 10.0) -> float:
    """Height of the top-left index's label: the topmost run of inked rows in the corner."""
    face = render_face(card_spec(card_id), px_per_mm)
    corner = face[: int(21 * px_per_mm), : int(13 * px_per_mm), :3]
    inked = (np.abs(corner.astype(int) - corner[2, 2].astype(int)).max(axis=2) > 60).any(axis=1)
    rows = np.flatnonzero(inked)
    gaps = np.flatnonzero(np.diff(rows) > 1)
    end = rows[gaps[0]] if len(gaps) else rows[-1]
    return float(end - rows[0] + 1) / px_per_mm


def test_a_number_cards_rank_is_printed_as_tall_as_a_poker_cards() -> None:
    """A real poker card's rank is 6-7 mm tall; a whole-table camera (1-2 px/mm) tells a
    fanned card from its corner only at about that size.  Two-letter codes stay smaller."""
    for card_id in ("agi:bats-8", "agi:hearts-q", "chaos:blue-5"):
        assert 5.8 <= _rank_height_mm(card_id) <= 7.0, card_id
    assert _rank_height_mm("agi:role-healer") < 5.0
