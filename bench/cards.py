"""Card vision benchmark: per-card correct / wrong / abstain, whole scenes right, time/frame.

    python -m bench.cards --scenes 2000 --deck agi --size 2304x1296
    python -m bench.cards --scenes 200 --deck all --size both

Scenes come from ``tablehub.vision.scene.random_scene`` (perspective up to 35 degrees,
1.8-3 px/mm at 2304 wide, piles, fans, hands, clutter, sleeves, glare, blur, JPEG).  A card
counts when it is readable: at least 60% of it shows, or (for a card under others) one of
its index corners shows whole.  Outcomes per readable card: *correct* (right id, or a back
reported face down), *wrong* (another id), *abstain* (reported without id, or not found).
A reading with an id where there is no card, or on an unreadable card with a wrong id,
also counts as wrong.  A scene is right when every readable card is correct and nothing
is wrong.  Time is ``read_cards`` alone on one core (OpenCV set to one thread).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tablehub.vision.cardart import standin_faces
from tablehub.vision.decks import DECKS
from tablehub.vision.identify import CardReading, EnrolledDeck, enroll_images, read_cards
from tablehub.vision.scene import RenderedScene, random_scene, render_scene

QUICK_ARGS = ("--scenes", "30", "--deck", "agi")
SIZES = {"1280x720": (1280, 720), "2304x1296": (2304, 1296)}
# px/mm ranges: a whole-table view (the 1280 frame sees the same table at lower scale).
SCALES = {"1280x720": (1.0, 1.7), "2304x1296": (1.8, 3.0)}


@dataclass
class Tally:
    cards: int = 0
    correct: int = 0
    wrong: int = 0
    abstain: int = 0
    false_readings: int = 0
    scenes: int = 0
    scenes_right: int = 0
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def report(self, title: str) -> str:
        n = max(self.cards, 1)
        t = np.array(self.times) * 1000 if self.times else np.zeros(1)
        return (
            f"{title}: {self.scenes} scenes, {self.cards} readable cards | "
            f"correct {100 * self.correct / n:.3f}%  wrong {100 * self.wrong / n:.3f}% "
            f"({self.wrong}, of which {self.false_readings} with no card)  "
            f"abstain {100 * self.abstain / n:.3f}% | scenes right "
            f"{100 * self.scenes_right / max(self.scenes, 1):.2f}% | "
            f"time/frame mean {t.mean():.1f} ms, p95 {np.percentile(t, 95):.1f} ms"
        )


def _probe_label(reading: CardReading, labels: Any) -> int:
    """Which rendered card a reading sits on: the majority label under probe points."""
    q = reading.corners
    if reading.complete:
        probes = [q.mean(0)] + [q.mean(0) * 0.6 + q[i] * 0.4 for i in range(4)]
    else:  # in the index corner it was read from
        probes = [
            q[0] + (q[1] - q[0]) * fx + (q[3] - q[0]) * fy
            for fx, fy in ((0.1, 0.1), (0.12, 0.15), (0.08, 0.12))
        ]
    hgt, wid = labels.shape
    votes: dict[int, int] = {}
    for p in probes:
        x, y = round(float(p[0])), round(float(p[1]))
        if 0 <= x < wid and 0 <= y < hgt:
            v = int(labels[y, x])
            if v > 0:
                votes[v] = votes.get(v, 0) + 1
    return max(votes, key=lambda k: votes[k]) if votes else 0


def score_scene(rendered: RenderedScene, readings: list[CardReading], tally: Tally) -> None:
    truths = rendered.cards
    readable = [(t.visible >= 0.6) or (t.face_up and t.index_visible) for t in truths]
    outcome = ["abstain"] * len(truths)
    wrong_here = 0
    for r in readings:
        k = _probe_label(r, rendered.labels)
        if k == 0:
            if r.card_id is not None:
                wrong_here += 1
                tally.false_readings += 1
                tally.errors.append(f"no card under reading {r.card_id}")
            continue
        truth = truths[k - 1]
        right = (r.card_id == truth.card_id and r.face_up) if truth.face_up else (not r.face_up)
        if right:
            if outcome[k - 1] != "wrong":
                outcome[k - 1] = "correct"
        elif r.card_id is not None:  # an unknown card (no id) is an abstention
            if readable[k - 1]:
                outcome[k - 1] = "wrong"
            else:
                wrong_here += 1
            tally.errors.append(
                f"{truth.card_id} (up={truth.face_up}, vis={truth.visible:.2f}) read as "
                f"{r.card_id} (complete={r.complete}, conf={r.confidence:.2f})"
            )
    tally.scenes += 1
    scene_ok = wrong_here == 0
    for ok, out in zip(readable, outcome, strict=True):
        if not ok:
            continue
        tally.cards += 1
        if out == "correct":
            tally.correct += 1
        elif out == "wrong":
            tally.wrong += 1
            scene_ok = False
        else:
            tally.abstain += 1
            scene_ok = False
    tally.wrong += wrong_here
    tally.scenes_right += scene_ok


def standin_deck(name: str) -> tuple[EnrolledDeck, Callable[[str], Any], list[str]]:
    """The enrolled stand-in deck, its face source, and its card ids."""
    spec = DECKS[name]
    faces = standin_faces()
    images = {c.id: faces(c.id) for c in spec.cards}
    images["back"] = faces(f"{name}:back")
    deck = enroll_images(
        name,
        images,
        sizes_mm={c.id: c.size_mm for c in spec.cards},
        counts={c.id: c.count for c in spec.cards},
    )
    return deck, faces, list(spec.ids)


def run(
    deck: EnrolledDeck,
    faces: Callable[[str], Any],
    ids: Sequence[str],
    scenes: int,
    size: str,
    seed: int,
    verbose: bool = False,
) -> Tally:
    tally = Tally()
    rng = np.random.default_rng(seed)
    for _ in range(scenes):
        scene = random_scene(faces, ids, rng, image_size=SIZES[size], px_per_mm=SCALES[size])
        rendered = render_scene(scene, rng)
        start = time.perf_counter()
        readings = read_cards(rendered.image, deck)
        tally.times.append(time.perf_counter() - start)
        score_scene(rendered, readings, tally)
    if verbose:
        for line in tally.errors[:40]:
            print("   ", line)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cards", description=__doc__)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--deck", default="agi", help="agi, chaos, adler, rg or all")
    parser.add_argument("--size", default="2304x1296", help="1280x720, 2304x1296 or both")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-v", "--verbose", action="store_true", help="list the errors")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    decks = list(DECKS) if args.deck == "all" else args.deck.split(",")
    sizes = list(SIZES) if args.size == "both" else [args.size]
    for name in decks:
        deck, faces, ids = standin_deck(name)
        for size in sizes:
            tally = run(deck, faces, ids, args.scenes, size, args.seed, args.verbose)
            print(tally.report(f"{name} @ {size}"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
