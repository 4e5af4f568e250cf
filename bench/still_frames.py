"""Still frames: how often the change check misses a change or sees one in noise, and its cost.

``python -m bench.still_frames [--scenes N] [--quick]``

A ``CardWatcher`` reuses the last reading for a frame that shows nothing new
(``tablehub.vision.stillness``). A missed change would keep a stale reading for up to
``tablehub.vision.watch.MAX_REUSE`` frames, and a change seen in noise costs a needless
read. So, on the card benchmark's random scenes (the stand-in Almost Got 'Im deck, both
frame sizes):

* *noise*: the scene rendered again with other sensor noise (and its JPEG artefacts)
  must count as unchanged;
* *changes*: one card changed must count as changed. The card is moved by 1 mm, turned
  by 1 degree, flipped, or swapped for a card not on the table (face up only: a back
  swapped for a back is no change). The card is chosen at random from those seen whole,
  and again from those partly covered that the benchmark counts as readable.

It also prints the time the check takes per frame, against the time a frame's reading
takes (``bench.cards``).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import Counter

import numpy as np

from bench.cards import SCALES, SIZES, standin_deck
from bench.readable import shows
from tablehub.vision.scene import RenderedScene, Scene, random_scene, render_scene
from tablehub.vision.stillness import StillFrames

QUICK_ARGS = ["--scenes", "6"]
CHANGES = ("moved 1 mm", "turned 1 deg", "flipped", "swapped")


def _changed(scene: Scene, k: int, how: str, spare: str) -> Scene:
    card = scene.cards[k]
    if how == "moved 1 mm":
        new = dataclasses.replace(card, centre_mm=(card.centre_mm[0] + 1.0, card.centre_mm[1]))
    elif how == "turned 1 deg":
        new = dataclasses.replace(card, angle_deg=card.angle_deg + 1.0)
    elif how == "flipped":
        new = dataclasses.replace(card, face_up=not card.face_up)
    else:
        new = dataclasses.replace(card, card_id=spare)
    cards = list(scene.cards)
    cards[k] = new
    return dataclasses.replace(scene, cards=cards)


def _pick(rendered: RenderedScene, rng: np.random.Generator, whole: bool) -> int | None:
    """A card seen whole, or (``whole`` False) partly covered but readable."""
    ks = [k for k, t in enumerate(rendered.cards) if (t.visible >= 0.97) == whole and shows(t)]
    return int(rng.choice(ks)) if ks else None


def run(scenes: int, seed: int) -> None:
    _, faces, ids = standin_deck("agi")
    rng = np.random.default_rng(seed)
    missed: Counter[tuple[str, str]] = Counter()
    tried: Counter[tuple[str, str]] = Counter()
    false_changes = 0
    check_ms: dict[str, list[float]] = {size: [] for size in SIZES}
    for size in SIZES:
        for _ in range(scenes):
            scene = random_scene(faces, ids, rng, image_size=SIZES[size], px_per_mm=SCALES[size])
            first = render_scene(scene, rng)
            still = StillFrames()
            still.unchanged(first.image)
            again = render_scene(scene, rng).image
            started = time.perf_counter()
            same = still.unchanged(again)
            check_ms[size].append((time.perf_counter() - started) * 1000)
            false_changes += not same
            on_table = {c.card_id for c in scene.cards}
            spare = next(i for i in rng.permutation(ids) if i not in on_table)
            for whole in (True, False):
                k = _pick(first, rng, whole)
                if k is None:
                    continue
                kind = "whole" if whole else "covered"
                for how in CHANGES:
                    if how == "swapped" and not scene.cards[k].face_up:
                        continue
                    base = StillFrames()
                    base.unchanged(first.image)
                    image = render_scene(_changed(scene, k, how, str(spare)), rng).image
                    tried[(kind, how)] += 1
                    missed[(kind, how)] += base.unchanged(image)
    total = 2 * scenes
    print(f"still frames: {total} scenes (agi, {scenes} per frame size), seed {seed}")
    print(f"  noise only: {false_changes} of {total} frames taken as changed")
    for kind in ("whole", "covered"):
        cells = [f"{how} {missed[(kind, how)]}/{tried[(kind, how)]}" for how in CHANGES]
        print(f"  changes missed, a card {kind + ':':8s} " + ", ".join(cells))
    for size, ms in check_ms.items():
        print(f"  check time at {size}: mean {np.mean(ms):.2f} ms, max {np.max(ms):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100, help="scenes per frame size")
    parser.add_argument("--seed", type=int, default=2028)
    args = parser.parse_args()
    run(args.scenes, args.seed)


if __name__ == "__main__":
    main()
