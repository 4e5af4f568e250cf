"""Deck enrollment: straight card images from a folder, or a guided walk with the camera.

* ``images_from_dir(path)`` reads ``<card-id>.png`` for every card and ``back.png``.  An
  image may be a tight scan or a flat photo with some table round the card: the card's
  outline is found and straightened when there is one.
* ``enroll_with_camera(cards, frames, say)`` asks for each card in turn (by voice and
  prompt through ``say``), waits until exactly one card lies still in view, captures it
  straightened, and asks for the next.  ``frames`` is any callable returning a BGR frame
  (the foundation's camera ``read``), so it works with every camera and in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tablehub.vision.finder import find_cards, outermost
from tablehub.vision.identify import BACK, CANON, rectify

Array = NDArray[Any]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


class EnrollError(ValueError):
    """Enrollment cannot go on (the message says what to fix)."""


def straight_card(image: Array) -> Array:
    """The card in an enrollment image: its outline straightened if the image shows one
    covering most of it, else the whole image (a tight scan)."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return image  # a cut-out with transparency is already the card
    h, w = image.shape[:2]
    found = find_cards(image, min_card_px=0.3 * min(h, w))
    best = max(found.outlines, key=lambda o: cv2.contourArea(o.corners.astype(np.float32)),
               default=None)  # fmt: skip
    if best is None or cv2.contourArea(best.corners.astype(np.float32)) < 0.35 * h * w:
        return image
    big = (CANON[0] * 3, CANON[1] * 3)
    return rectify(image, best.corners, big)


def images_from_dir(path: Path) -> dict[str, Array]:
    """``<card-id>.<png|jpg>`` files (and ``back``) from ``path``, straightened."""
    if not path.is_dir():
        raise EnrollError(f"{path} is not a folder of card images")
    images: dict[str, Array] = {}
    problems: list[str] = []
    for file in sorted(path.iterdir()):
        if file.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        image = cv2.imread(str(file), cv2.IMREAD_UNCHANGED) if file.stat().st_size else None
        if image is None or image.size == 0:
            problems.append(f"{file.name}: not a readable image")
            continue
        if file.stem in images:
            problems.append(f"{file.name}: a second image for card {file.stem!r}")
            continue
        images[file.stem] = straight_card(image)
    if BACK not in images:
        problems.append("back.png (the card back) is missing")
    if len(images) - (BACK in images) < 2:
        problems.append("fewer than two card images (<card-id>.png)")
    if problems:
        raise EnrollError(f"cannot enrol from {path}: " + "; ".join(problems))
    return images


def enroll_with_camera(
    cards: Sequence[tuple[str, str]],
    frames: Callable[[], Array],
    say: Callable[[str], None],
    *,
    steady_frames: int = 4,
    max_frames: int = 600,
) -> dict[str, Array]:
    """Walk through ``cards`` ((id, spoken name) pairs; the back is asked for last)."""
    images: dict[str, Array] = {}
    steps = [*cards, (BACK, "card back: lay any card face down")]
    for n, (card_id, name) in enumerate(steps, start=1):
        say(f"Card {n} of {len(steps)}: {name}. Lay it alone in the middle of the table.")
        images[card_id] = _capture_one(frames, steady_frames, max_frames, name)
        say("Got it. Take it away.")
        _wait_clear(frames, max_frames)
    say("All cards enrolled.")
    return images


def _single_outline(frame: Array) -> Array | None:
    outlines = outermost(find_cards(frame).outlines)
    if len(outlines) != 1:
        return None
    corners: Array = outlines[0].corners
    return corners


def _capture_one(frames: Callable[[], Array], steady: int, limit: int, name: str) -> Array:
    last: Array | None = None
    run = 0
    for _ in range(limit):
        frame = frames()
        corners = _single_outline(frame)
        if corners is None:
            last, run = None, 0
            continue
        if last is not None and np.abs(corners - last).max() < 3.0:
            run += 1
        else:
            run = 1
        last = corners
        if run >= steady:
            big = (CANON[0] * 3, CANON[1] * 3)
            return rectify(frame, corners, big)
    raise EnrollError(f"no single, still card seen for {name!r}; try again with better light")


def _wait_clear(frames: Callable[[], Array], limit: int) -> None:
    clear = 0
    for _ in range(limit):
        if _single_outline(frames()) is None:
            clear += 1
            if clear >= 2:
                return
        else:
            clear = 0
    raise EnrollError("the card was not taken away")
