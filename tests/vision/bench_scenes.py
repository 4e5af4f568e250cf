"""Benchmark scenes rebuilt for tests: what the reader makes of one, and its scoring."""

from __future__ import annotations

from functools import cache

from bench.cards import Tally, bench_scene, score_scene, standin_deck
from tablehub.vision.identify import CardReading, read_cards
from tablehub.vision.scene import RenderedScene


@cache
def bench_readings(
    deck_name: str, size: str, seed: int, index: int
) -> tuple[RenderedScene, list[CardReading]]:
    """A benchmark scene rebuilt (``bench_scene``) and what the reader makes of it (kept:
    a test may check several cards of one scene)."""
    deck, faces, ids = standin_deck(deck_name)
    rendered = bench_scene(faces, ids, size, seed, index)
    return rendered, read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)


def assert_none_wrong(rendered: RenderedScene, readings: list[CardReading]) -> None:
    """No card in the scene is read as another one, and nothing is read where none lies."""
    tally = Tally()
    score_scene(rendered, readings, tally)
    assert tally.wrong == 0, tally.errors
