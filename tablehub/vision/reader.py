"""The service's card reader: camera frames in, stable ``CardEvent`` s out.

``tablehub run`` calls ``make_frame_reader(config, game)`` (the ``FrameReader`` hook in
``tablehub.service.app``).  It loads what the table was set up with, from the data
directory (``tablehub.vision.storage``): the calibration (``tablehub calibrate``) and the
enrolled deck of the game being played (``tablehub cards enroll --deck NAME``), and wires
them with the table's zones (from the configuration) into a ``CardWatcher``.  Without a
calibration or the game's deck there is no reader: ``ReaderUnavailable`` says which
command sets it up.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablehub.config import Config
from tablehub.observations import Observation
from tablehub.paths import data_dir
from tablehub.vision import storage
from tablehub.vision.watch import CardWatcher
from tablehub.vision.zones import PILES, Zone, zones_from_overrides

log = logging.getLogger(__name__)

# The enrolled deck each game is played with (``tablehub cards enroll --deck NAME``).
GAME_DECKS: dict[str, str] = {
    "almost-got-im": "agi",
    "chaos-in-gotham": "chaos",
    "get-adler": "adler",
}
# Games played with several copies of a design, whose cards are also laid on each other in
# front of the seats (a Get Adler! confrontation's cards go on the arrest card): the tracker
# tells copies on a pile apart by their pose (``tablehub.vision.tracker``).
COPIES: frozenset[str] = frozenset({"get-adler"})


def seat_piles(zones: Sequence[Zone]) -> tuple[str, ...]:
    """The discard piles and every seat's area, as the zones where cards lie on each other."""
    return (*PILES, *(z.name for z in zones if z.name.startswith("seat-")))


class ReaderUnavailable(Exception):
    """No card reader can be made; the message names the command that fixes it."""


class CardFrameReader:
    """``FrameReader`` over a ``CardWatcher``: one frame at a time, in camera order."""

    def __init__(self, watcher: CardWatcher, deck: str) -> None:
        self.watcher = watcher
        self.deck = deck
        self._size_warned = False

    def __call__(self, frame: Any) -> list[Observation]:
        calibration = self.watcher.calibration
        if calibration is not None:
            size = (int(frame.shape[1]), int(frame.shape[0]))
            if size != tuple(calibration.image_size):
                if not self._size_warned:  # positions would be wrong: read nothing
                    self._size_warned = True
                    width, height = calibration.image_size
                    log.warning(
                        "camera frames are %dx%d but the calibration was made at %dx%d: "
                        "run `tablehub calibrate` again",
                        size[0],
                        size[1],
                        width,
                        height,
                    )
                return []
        return list(self.watcher.process(frame))

    def reread(self, zone: str | None) -> None:
        """Forget what was settled in ``zone`` (or everywhere): it is read afresh and
        reported again."""
        self.watcher.forget(zone)


def deck_for(game: str) -> str | None:
    return GAME_DECKS.get(game)


def make_frame_reader(
    config: Config, game: str, root: Path | None = None, agree_frames: int = 3
) -> CardFrameReader | None:
    """The card reader for ``game`` at this table; None for a game read without cards
    (the High Card example).  ``ReaderUnavailable`` when the table is not set up yet."""
    deck_name = deck_for(game)
    if deck_name is None:
        return None
    folder = root or data_dir(config.data_dir)
    try:
        calibration = storage.load_calibration(folder)
    except storage.StorageError as err:
        raise ReaderUnavailable(str(err)) from None
    if calibration is None:
        raise ReaderUnavailable(
            f"the table is not calibrated (no {storage.calibration_path(folder)}): print the "
            "markers with `tablehub calibrate --print-markers markers.pdf`, lay them at the "
            "table corners and run `tablehub calibrate`"
        )
    if deck_name not in storage.list_decks(folder):
        raise ReaderUnavailable(
            f"no enrolled deck {deck_name!r} for {game} in {storage.decks_root(folder)}: run "
            f"`tablehub cards enroll --deck {deck_name} --camera` (or `--from DIR`; "
            "`--standin` for the stand-in art)"
        )
    try:
        deck = storage.load_deck(deck_name, folder)
    except storage.StorageError as err:
        raise ReaderUnavailable(str(err)) from None
    zones = zones_from_overrides(
        config.table.width_mm, config.table.depth_mm, len(config.seats.names), config.table.zones
    )
    copies = game in COPIES
    piles = seat_piles(zones) if copies else PILES
    watcher = CardWatcher(
        deck, calibration, zones, agree_frames=agree_frames, piles=piles, copies=copies
    )
    return CardFrameReader(watcher, deck_name)
