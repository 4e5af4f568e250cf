"""The third-party art cache is shared by a benchmark's jobs running side by side: none
may ever read a PNG another one is still writing."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench import card_art

# Stands in for rsvg-convert: writes its PNG in two halves, a pause between.
SLOW_TOOL = """#!/bin/sh
while [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done
head -c 200 "{png}" > "$out"
sleep 0.4
cat "{png}" > "$out"
"""


def test_a_png_being_rendered_is_never_seen_half_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    png = tmp_path / "card.png"
    cv2.imwrite(str(png), np.random.default_rng(1).integers(0, 255, (90, 63, 3), np.uint8))
    tool = tmp_path / "rsvg-convert"
    tool.write_text(SLOW_TOOL.format(png=png))
    tool.chmod(0o755)
    monkeypatch.setattr(card_art.shutil, "which", lambda name: str(tool))
    out = tmp_path / "cache" / "c-2.png"
    out.parent.mkdir()
    unreadable: list[int] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if out.is_file() and cv2.imread(str(out)) is None:
                unreadable.append(1)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        card_art._render(tmp_path / "c-2.svg", out, 63)
    finally:
        done.set()
        watcher.join()
    assert not unreadable, "the cached PNG was readable only in part while it was written"
    assert cv2.imread(str(out)) is not None
    assert [p.name for p in out.parent.iterdir()] == ["c-2.png"]  # no part file left


def test_a_failed_render_leaves_nothing_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = tmp_path / "rsvg-convert"
    # (it got as far as starting its output: a PNG left there would be "cached" for good)
    tool.write_text(
        '#!/bin/sh\nwhile [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done\n'
        "echo half > \"$out\"\necho 'cannot parse' >&2\nexit 1\n"
    )
    tool.chmod(0o755)
    monkeypatch.setattr(card_art.shutil, "which", lambda name: str(tool))
    out = tmp_path / "c-2.png"
    with pytest.raises(card_art.ArtUnavailable, match="cannot parse"):
        card_art._render(tmp_path / "c-2.svg", out, 63)
    assert not any(tmp_path.glob("*.png"))
