"""Card vision benchmark: per-card correct / wrong / abstain, whole scenes right, time/frame.

    python -m bench.cards --scenes 2000 --deck agi --size 2304x1296
    python -m bench.cards --scenes 200 --deck all --size both
    python -m bench.cards --full    # the issue's size: 2,000 scenes per deck and frame size

Scenes come from ``tablehub.vision.scene.random_scene`` (perspective up to 35 degrees,
1.8-3 px/mm at 2304 wide, piles, fans, hands, clutter, sleeves, glare, blur, JPEG).  A card
counts when it is readable: at least 60% of it shows, or (for a card under others) one of
its index corners shows whole.  Outcomes per readable card: *correct* (right id, or a back
reported face down), *wrong* (another id), *abstain* (reported without id, or not found).
A reading with an id where there is no card, or on an unreadable card with a wrong id,
also counts as wrong.  A scene is right when every readable card is correct and nothing
is wrong.  Time is the CPU time of ``read_cards`` alone, on one thread (OpenCV and BLAS
set to one thread), so other programs on the machine do not inflate it.  The reader gets
the image scale a table calibration would give (``px_per_mm`` at each pixel).
"""

from __future__ import annotations

import os

# One core: numpy's BLAS must not spread a frame over threads (set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import hashlib
import itertools
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench import card_art
from bench.readable import Distinguisher, shows
from tablehub.vision.cardart import standin_faces
from tablehub.vision.decks import DECKS
from tablehub.vision.identify import CardReading, EnrolledDeck, enroll_images, read_cards
from tablehub.vision.scene import RenderedScene, Scene, random_scene, render_scene

QUICK_ARGS = ("--scenes", "30", "--deck", "agi")
SIZES = {"1280x720": (1280, 720), "2304x1296": (2304, 1296)}
# px/mm ranges: a whole-table view (the 1280 frame sees the same table at lower scale).
SCALES = {"1280x720": (1.0, 1.7), "2304x1296": (1.8, 3.0)}


_COUNTS = ("cards", "correct", "wrong", "abstain", "false_readings", "scenes", "scenes_right")


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
    # The same per-card outcomes split: cards seen whole (nothing on them) and covered ones.
    whole: list[int] = field(default_factory=lambda: [0, 0, 0])  # cards, correct, wrong
    covered: list[int] = field(default_factory=lambda: [0, 0, 0])
    # Cards shown but indistinguishable at the camera's resolution (bench.readable): not
    # counted above; how many, and how many of them were read right anyway.
    excluded: list[int] = field(default_factory=lambda: [0, 0])

    def report(self, title: str) -> str:
        n = max(self.cards, 1)
        t = np.array(self.times) * 1000 if self.times else np.zeros(1)
        return (
            f"{title}: {self.scenes} scenes, {self.cards} readable cards | "
            f"correct {100 * self.correct / n:.3f}%  wrong {100 * self.wrong / n:.3f}% "
            f"({self.wrong}, of which {self.false_readings} with no card)  "
            f"abstain {100 * self.abstain / n:.3f}% | scenes right "
            f"{100 * self.scenes_right / max(self.scenes, 1):.2f}% | "
            f"time/frame mean {t.mean():.1f} ms, p95 {np.percentile(t, 95):.1f} ms\n"
            f"    seen whole: {self._split(self.whole)}; partly covered: "
            f"{self._split(self.covered)}\n"
            f"    not counted: {self.excluded[0]} cards shown but indistinguishable from "
            f"another card where seen, at the camera's resolution ({self.excluded[1]} read "
            "right anyway; a wrong id on them counts as wrong above)"
        )

    def add(self, other: Tally) -> None:
        """Count ``other``'s scenes in this tally too (a total over decks and sizes)."""
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times += other.times
        self.errors += other.errors
        for mine, theirs in ((self.whole, other.whole), (self.covered, other.covered)):
            mine[:] = [a + b for a, b in zip(mine, theirs, strict=True)]
        self.excluded[:] = [a + b for a, b in zip(self.excluded, other.excluded, strict=True)]

    @staticmethod
    def _split(c: list[int]) -> str:
        n = max(c[0], 1)
        return f"{c[0]} cards, correct {100 * c[1] / n:.2f}%, wrong {100 * c[2] / n:.2f}%"


def _attribute(reading: CardReading, rendered: RenderedScene) -> int:
    """Which rendered card (1-based, 0: none) a reading is about: the card whose outline
    the reading's outline matches (a card read whole, even if another lies on its middle;
    a card read in part, if its outline is one card's alone), else the card seen under the
    reading's probe points."""
    if reading.complete:
        # Of cards with that outline (one may lie exactly on another), the one on top.
        best, best_key = 0, (-1.0, 0.0)
        for k, d, side in _outline_matches(reading, rendered):
            key = (round(rendered.cards[k - 1].visible, 1), -d)
            if d < 0.25 * side and key > best_key:
                best, best_key = k, key
        if best:
            return best
    else:
        # Read in part: its index corner's probe points may fall on a card lying on it,
        # but an outline that is one card's closely (and no other's) is that card's.
        close = [k for k, d, side in _outline_matches(reading, rendered) if d < 0.1 * side]
        if len(close) == 1:
            return close[0]
    return _probe_label(reading, rendered.labels)


def _outline_matches(
    reading: CardReading, rendered: RenderedScene
) -> list[tuple[int, float, float]]:
    """Per rendered card (1-based): how far its corners are from the reading's at most
    (pixels, the best way round), and its short side (pixels)."""
    out = []
    for k, truth in enumerate(rendered.cards, start=1):
        side = float(np.linalg.norm(truth.corners_px[1] - truth.corners_px[0]))
        d = min(
            float(np.abs(np.roll(truth.corners_px, turn, 0) - reading.corners).max())
            for turn in range(4)
        )
        out.append((k, d, side))
    return out


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


def score_scene(
    rendered: RenderedScene,
    readings: list[CardReading],
    tally: Tally,
    readable: list[bool] | None = None,
) -> None:
    """Add one scene's outcomes to ``tally``.  ``readable``: which cards count (default:
    the renderer's bar alone; ``bench.readable`` also leaves out indistinguishable ones)."""
    truths = rendered.cards
    shown = [shows(t) for t in truths]
    if readable is None:
        readable = shown
    outcome = ["abstain"] * len(truths)
    wrong_here = 0
    for r in readings:
        k = _attribute(r, rendered)
        if k == 0:
            if r.card_id is not None:
                wrong_here += 1
                tally.false_readings += 1
                tally.errors.append(f"scene {tally.scenes}: no card under reading {r.card_id}")
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
                f"scene {tally.scenes}: {truth.card_id} (up={truth.face_up}, "
                f"vis={truth.visible:.2f}) read as "
                f"{r.card_id} (complete={r.complete}, conf={r.confidence:.2f})"
            )
    tally.scenes += 1
    scene_ok = wrong_here == 0
    for ok, out, truth, show in zip(readable, outcome, truths, shown, strict=True):
        if show and not ok:
            tally.excluded[0] += 1
            tally.excluded[1] += out == "correct"
        if not ok:
            continue
        tally.cards += 1
        split = tally.whole if truth.visible >= 0.97 else tally.covered
        split[0] += 1
        if out == "correct":
            tally.correct += 1
            split[1] += 1
        elif out == "wrong":
            tally.wrong += 1
            split[2] += 1
            scene_ok = False
        else:
            tally.abstain += 1
            scene_ok = False
    tally.wrong += wrong_here
    tally.scenes_right += scene_ok


def standin_deck(name: str) -> tuple[EnrolledDeck, Callable[[str], Any], list[str]]:
    """An enrolled bench deck, its face source and its card ids: one of our stand-in decks
    (agi, chaos, adler, rg) or third-party art (``bench.card_art``)."""
    if name in DECKS:
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
    art = card_art.faces(name)
    ids = sorted(k for k in art if not k.endswith(":back"))
    images = {k: art[k] for k in ids}
    images["back"] = art[f"{name}:back"]
    sizes = {k: (art[k].shape[1] / 5.0, art[k].shape[0] / 5.0) for k in ids}
    return enroll_images(name, images, sizes_mm=sizes), art.__getitem__, ids


def _calibrated_scale(rendered: RenderedScene) -> Callable[[float, float], float]:
    """What the table calibration gives the reader: the image scale at each pixel."""
    to_table = np.linalg.inv(rendered.table_to_image)

    def scale(x: float, y: float) -> float:
        p = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), to_table)[0, 0]
        q = cv2.perspectiveTransform(
            np.array([[p, p + np.array([10.0, 0.0]), p + np.array([0.0, 10.0])]], np.float64),
            rendered.table_to_image,
        )[0]
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 20)

    return scale


def bench_scenes(
    faces: Callable[[str], Any], ids: Sequence[str], size: str, seed: int
) -> Iterator[tuple[Scene, RenderedScene]]:
    """The benchmark's scenes of a deck at frame ``size`` for ``seed``, in order, rendered."""
    rng = np.random.default_rng(seed)
    while True:
        scene = random_scene(faces, ids, rng, image_size=SIZES[size], px_per_mm=SCALES[size])
        yield scene, render_scene(scene, rng)


def bench_scene(
    faces: Callable[[str], Any], ids: Sequence[str], size: str, seed: int, index: int
) -> RenderedScene:
    """Scene ``index`` (0-based) of ``bench_scenes``: a benchmark scene rebuilt for a test."""
    return next(itertools.islice(bench_scenes(faces, ids, size, seed), index, None))[1]


def run(
    deck: EnrolledDeck,
    faces: Callable[[str], Any],
    ids: Sequence[str],
    scenes: int,
    size: str,
    seed: int,
    verbose: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """``progress``: called with the number of scenes done after each scene."""
    tally = Tally()
    judge = Distinguisher(faces, ids)
    for scene, rendered in itertools.islice(bench_scenes(faces, ids, size, seed), scenes):
        start = time.process_time()  # CPU time of this one thread: other load does not count
        readings = read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)
        tally.times.append(time.process_time() - start)
        score_scene(rendered, readings, tally, judge.readable(scene, rendered))
        if progress is not None:
            progress(tally.scenes)
    if verbose:
        for line in tally.errors[:40]:
            print("   ", line)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cards", description=__doc__)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument(
        "--deck",
        default="agi",
        help="comma-separated: agi, chaos, adler, rg, oc-bordered, oc-ornamental, oc-simple, "
        "oc-white, heruka; 'all' for every one",
    )
    parser.add_argument("--size", default="2304x1296", help="1280x720, 2304x1296 or both")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-v", "--verbose", action="store_true", help="list the errors")
    parser.add_argument("--jobs", type=int, default=1, help="decks x sizes run in parallel")
    parser.add_argument(
        "--full",
        action="store_true",
        help="2,000 scenes of every deck (ours and third-party) at both sizes, on every core "
        f"(hours: about 0.5 s of CPU per scene), results kept in {FULL_RESULTS}",
    )
    parser.add_argument(
        "--results",
        type=Path,
        help="a JSON-lines file keeping each finished deck and size: a run stopped part way "
        "goes on from there, skipping what the same code already measured",
    )
    args = parser.parse_args(argv)
    if args.full:
        args.scenes, args.deck, args.size = max(args.scenes, 2000), "all", "both"
        args.jobs = max(args.jobs, os.cpu_count() or 1)
        args.results = args.results or FULL_RESULTS
    decks = [*DECKS, *card_art.DECK_NAMES] if args.deck == "all" else args.deck.split(",")
    sizes = list(SIZES) if args.size == "both" else [args.size]
    version = code_version()
    kept = load_results(args.results, version) if args.results else {}
    total = Tally()
    tasks = []
    for name in decks:
        for size in sizes:
            key = _key(name, size, args.scenes, args.seed)
            if key in kept:
                print(kept[key].report(f"{name} @ {size}") + f"\n    (from {args.results})")
                total.add(kept[key])
            else:
                tasks.append((name, size, args.scenes, args.seed, args.verbose))

    def finish(result: tuple[str, str, Tally, str]) -> None:
        name, size, tally, text = result
        print(text, flush=True)
        total.add(tally)
        if args.results:
            save_result(args.results, _key(name, size, args.scenes, args.seed), version, tally)

    if args.jobs > 1 and len(tasks) > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for result in pool.imap_unordered(_task, tasks):
                finish(result)
    else:
        for task in tasks:
            finish(_task(task))
    if len(decks) * len(sizes) > 1:
        print(total.report(f"all {len(decks)} decks x {len(sizes)} sizes"))
    return 0


# Where ``--full`` keeps its results (committed: the figures quoted for the issue).
FULL_RESULTS = Path(__file__).with_name("results") / "cards-full.jsonl"
_ROOT = Path(__file__).resolve().parent.parent
# The code a result depends on: the reader and the benchmark's scenes and scoring.
_MEASURED = ("tablehub/vision/*.py", "bench/cards.py", "bench/readable.py", "bench/card_art.py")


def code_version(root: Path = _ROOT) -> str:
    """A digest of the code the figures depend on: results of other code are measured again."""
    digest = hashlib.sha256()
    for pattern in _MEASURED:
        for path in sorted(root.glob(pattern)):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _key(name: str, size: str, scenes: int, seed: int) -> str:
    return f"{name}@{size}/{scenes}/seed{seed}"


def load_results(path: Path, version: str) -> dict[str, Tally]:
    """The tallies ``path`` keeps for code ``version`` (later lines win; lines of other
    code, or not readable as results, are passed over with a word on stderr)."""
    kept: dict[str, Tally] = {}
    if not path.exists():
        return kept
    stale = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            tally = Tally(**entry["tally"])
            if entry["version"] != version:
                stale += 1
                continue
            kept[str(entry["key"])] = tally
        except (ValueError, KeyError, TypeError) as exc:
            print(f"{path}:{number}: not a benchmark result ({exc}); passed over", file=sys.stderr)
    if stale:
        print(f"{path}: {stale} results of other code passed over", file=sys.stderr)
    return kept


def save_result(path: Path, key: str, version: str, tally: Tally) -> None:
    """Append one finished deck and size to ``path`` (one JSON line: nothing earlier is
    rewritten, so a run stopped part way loses only what was still running)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = asdict(tally)
    kept["times"] = [round(t, 6) for t in tally.times]  # microseconds are plenty
    entry = {"key": key, "version": version, "tally": kept}
    with path.open("a") as out:
        out.write(json.dumps(entry) + "\n")


PROGRESS_EVERY = 250  # scenes between progress lines on stderr


def _task(task: tuple[str, str, int, int, bool]) -> tuple[str, str, Tally, str]:
    name, size, scenes, seed, verbose = task
    cv2.setNumThreads(1)
    started = time.monotonic()
    deck, faces, ids = standin_deck(name)

    def progress(done: int) -> None:
        if done % PROGRESS_EVERY == 0 and done < scenes:
            minutes = (time.monotonic() - started) / 60
            print(f"  {name} @ {size}: {done}/{scenes} scenes, {minutes:.0f} min", file=sys.stderr)

    tally = run(deck, faces, ids, scenes, size, seed, verbose, progress)
    wall = time.monotonic() - started
    text = tally.report(f"{name} @ {size}") + f"\n    ({wall:.0f} s wall clock, rendering included)"
    return name, size, tally, text


if __name__ == "__main__":
    sys.exit(main())
