"""Benchmark scenes rebuilt for tests: what the reader makes of one, and its scoring."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from bench.cards import SCALES, SIZES, Tally, bench_scene, score_scene, standin_deck
from tablehub.vision.identify import CardReading, read_cards
from tablehub.vision.scene import RenderedScene, random_scene, render_scene

# The random state of a benchmark scene far into a run, just before it (for
# ``bench_readings_from``): Almost Got 'Im, 1280x720, seed 7, scene 67, which tests of
# cards seen whole and of cards seen in part both rebuild.
AGI_1280_SEED7_SCENE67 = {
    "bit_generator": "PCG64",
    "state": {
        "state": 89189822323824180013463273255452622624,
        "inc": 261136684632268670825940853076396136793,
    },
    "has_uint32": 0,
    "uinteger": 2839833280,
}


@cache
def bench_readings(
    deck_name: str, size: str, seed: int, index: int
) -> tuple[RenderedScene, list[CardReading]]:
    """A benchmark scene rebuilt (``bench_scene``) and what the reader makes of it (kept:
    a test may check several cards of one scene)."""
    deck, faces, ids = standin_deck(deck_name)
    rendered = bench_scene(faces, ids, size, seed, index)
    return rendered, read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)


def bench_readings_from(
    deck_name: str, size: str, rng_state: dict[str, Any]
) -> tuple[RenderedScene, list[CardReading]]:
    """A benchmark scene far into a run, rebuilt from the state its random generator had
    just before it (``rng.bit_generator.state``), and what the reader makes of it:
    rendering the hundreds of scenes before it would take minutes."""
    deck, faces, ids = standin_deck(deck_name)
    rng = np.random.default_rng()
    rng.bit_generator.state = rng_state
    scene = random_scene(faces, ids, rng, image_size=SIZES[size], px_per_mm=SCALES[size])
    rendered = render_scene(scene, rng)
    return rendered, read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)


def assert_none_wrong(rendered: RenderedScene, readings: list[CardReading]) -> None:
    """No card in the scene is read as another one, and nothing is read where none lies."""
    tally = Tally()
    score_scene(rendered, readings, tally)
    assert tally.wrong == 0, tally.errors


def assert_whole_card_read(
    rendered: RenderedScene, readings: list[CardReading], card_id: str
) -> None:
    """``card_id`` lies in the scene in view all round, is read, and nothing is read wrong."""
    (card,) = [c for c in rendered.cards if c.card_id == card_id]
    assert card.visible > 0.99
    assert card_id in [r.card_id for r in readings]
    assert_none_wrong(rendered, readings)


def assert_phantom_not_read(
    rendered: RenderedScene, readings: list[CardReading], card_id: str
) -> None:
    """``card_id`` lies nowhere in the scene, is not read there, and nothing is read wrong."""
    assert card_id not in [c.card_id for c in rendered.cards]
    assert card_id not in [r.card_id for r in readings]
    assert_none_wrong(rendered, readings)
