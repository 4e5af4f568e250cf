"""Enrolled decks and the table calibration on disk, in the data directory.

Layout (``tablehub.paths.data_dir()``)::

    decks/<name>/deck.json        {"name", "format", "cards": {id: {"size_mm", "count"}}}
    decks/<name>/<card-id>.png    each card straight, as enrolled (and back.png)
    calibration.json              ``Calibration.to_json()``

Decks are stored as straight card images, not as descriptors, so a newer identifier
re-describes them on load (enrollment is fast) and a person can look at what was enrolled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2

from tablehub.paths import data_dir
from tablehub.vision.calibration import Calibration
from tablehub.vision.identify import BACK, EnrolledDeck, enroll_images, straighten

DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")
FORMAT = 1


class StorageError(ValueError):
    """A deck or calibration cannot be stored or loaded (the message says why)."""


def decks_root(root: Path | None = None) -> Path:
    return (root or data_dir()) / "decks"


def check_deck_name(name: str) -> str:
    if not DECK_NAME.match(name):
        raise StorageError(
            f"deck name {name!r} must be 1-41 characters of a-z, 0-9, '-' or '_' "
            "(starting with a letter or digit)"
        )
    return name


def save_deck(
    name: str,
    images: Mapping[str, Any],
    sizes_mm: Mapping[str, tuple[float, float]] | None = None,
    counts: Mapping[str, int] | None = None,
    root: Path | None = None,
) -> Path:
    """Store straight card images (``"back"`` for the back) as deck ``name``."""
    check_deck_name(name)
    if BACK not in images:
        raise StorageError("a deck needs its card back too (back.png)")
    folder = decks_root(root) / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    cards: dict[str, dict[str, Any]] = {}
    for card_id, image in images.items():
        if not cv2.imwrite(str(folder / f"{card_id}.png"), straighten(image)):
            raise StorageError(f"cannot write {folder / (card_id + '.png')}")
        if card_id != BACK:
            entry: dict[str, Any] = {"count": int((counts or {}).get(card_id, 1))}
            if sizes_mm and card_id in sizes_mm:
                entry["size_mm"] = list(sizes_mm[card_id])
            cards[card_id] = entry
    meta = {"name": name, "format": FORMAT, "cards": cards}
    (folder / "deck.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return folder


def list_decks(root: Path | None = None) -> list[str]:
    base = decks_root(root)
    if not base.is_dir():
        return []
    return sorted(p.parent.name for p in base.glob("*/deck.json"))


def load_deck(name: str, root: Path | None = None) -> EnrolledDeck:
    """The enrolled deck ``name``, described and ready for ``read_cards``."""
    check_deck_name(name)
    folder = decks_root(root) / name
    meta_path = folder / "deck.json"
    if not meta_path.is_file():
        known = ", ".join(list_decks(root)) or "none yet"
        raise StorageError(
            f"no enrolled deck {name!r} in {decks_root(root)} (enrolled: {known}); "
            f"enrol it with `tablehub cards enroll --deck {name} --from DIR`"
        )
    try:
        meta = json.loads(meta_path.read_text())
        cards: dict[str, dict[str, Any]] = meta["cards"]
    except (ValueError, KeyError, TypeError) as err:
        raise StorageError(f"{meta_path} is damaged ({err}); enrol the deck again") from err
    images = {}
    for card_id in [*cards, BACK]:
        image = cv2.imread(str(folder / f"{card_id}.png"), cv2.IMREAD_COLOR)
        if image is None:
            raise StorageError(f"{folder / (card_id + '.png')} is missing or unreadable")
        images[card_id] = image
    sizes = {k: (float(v["size_mm"][0]), float(v["size_mm"][1])) for k, v in cards.items()
             if "size_mm" in v}  # fmt: skip
    counts = {k: int(v.get("count", 1)) for k, v in cards.items()}
    return enroll_images(name, images, sizes_mm=sizes, counts=counts)


def calibration_path(root: Path | None = None) -> Path:
    return (root or data_dir()) / "calibration.json"


def save_calibration(calibration: Calibration, root: Path | None = None) -> Path:
    path = calibration_path(root)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(calibration.to_json(), indent=1) + "\n")
    tmp.replace(path)  # atomic: a crash never leaves half a calibration
    return path


def load_calibration(root: Path | None = None) -> Calibration | None:
    """The saved calibration, or None if there is none; ``StorageError`` if it is broken."""
    path = calibration_path(root)
    if not path.is_file():
        return None
    try:
        return Calibration.from_json(json.loads(path.read_text()))
    except ValueError as err:
        raise StorageError(f"{path} is damaged ({err}); run `tablehub calibrate` again") from err
