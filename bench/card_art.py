"""Third-party card art (nobody here drew it), rendered at test/bench time.

* Debian's ``openclipart-svg`` ships four complete French-suited decks (``bordered``,
  ``ornamental``, ``simple``, ``white``: 52 cards + 2 jokers each) and ten card backs,
  public domain; decks ``oc-bordered``, ``oc-ornamental``, ``oc-simple``, ``oc-white``.
* npm's ``@heruka_urgyen/react-playing-cards`` (MIT) ships another deck as SVG files
  (``heruka``), fetched with ``npm pack``.

SVGs are rendered to PNG with ``rsvg-convert`` (Debian ``librsvg2-bin``) into a cache
folder.  Nothing is skipped quietly: a missing package raises ``ArtUnavailable`` naming
what to install (``scripts/bootstrap.sh`` installs the Debian ones).

Card ids: ``<deck>:<suit>-<rank>`` with suit ``c d h s`` and rank ``2..10 j q k a``, and
``<deck>:jk-b`` / ``<deck>:jk-r`` for jokers (heruka: ``heruka:<rank><suit>``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

OPENCLIPART = Path("/usr/share/openclipart/svg/recreation/games/cards")
OC_STYLES = ("bordered", "ornamental", "simple", "white")
HERUKA = ("@heruka_urgyen/react-playing-cards", "0.5.0")
DECK_NAMES = (*(f"oc-{s}" for s in OC_STYLES), "heruka")
CARD_WIDTH_MM = 63.0


class ArtUnavailable(RuntimeError):
    """The third-party art cannot be had on this machine (the message says what to install)."""


def cache_dir() -> Path:
    root = os.environ.get("TABLEHUB_ART_CACHE") or str(Path.home() / ".cache" / "tablehub")
    path = Path(root) / "card-art"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _svg_files(deck: str) -> dict[str, Path]:
    """card id (and "back") -> SVG file."""
    if deck.startswith("oc-"):
        style = deck[3:]
        folder = OPENCLIPART / style
        if not folder.is_dir():
            raise ArtUnavailable(
                f"{folder} is missing: install the Debian package openclipart-svg "
                "(scripts/bootstrap.sh does)"
            )
        files = {}
        for svg in sorted(folder.glob(f"{style}_*.svg")):
            parts = svg.stem.split("_")[1:]  # e.g. ["h", "q"] or ["jk", "b"]
            files[f"{deck}:{parts[0]}-{parts[1]}"] = svg
        files["back"] = OPENCLIPART / "cardbacks" / f"back0{OC_STYLES.index(style) + 1}.svg"
        return files
    if deck == "heruka":
        root = _npm_package(*HERUKA)
        files = {
            f"heruka:{svg.stem.lower()}": svg
            for svg in sorted((root / "src" / "images" / "2color").glob("*.svg"))
        }
        files["back"] = root / "src" / "images" / "back.svg"
        return files
    raise ArtUnavailable(f"unknown third-party deck {deck!r}; known: {', '.join(DECK_NAMES)}")


def _npm_package(name: str, version: str) -> Path:
    """The unpacked npm package (``npm pack``, cached)."""
    target = cache_dir() / "npm" / f"{name.replace('/', '__')}-{version}"
    if (target / "package" / "package.json").is_file():
        return target / "package"
    npm = shutil.which("npm")
    if npm is None:
        raise ArtUnavailable(f"npm is not installed: it is needed to fetch {name}@{version}")
    target.mkdir(parents=True, exist_ok=True)
    # Fetched and unpacked aside, then moved into place whole: a benchmark's jobs run side
    # by side and another one may be looking for the package meanwhile.
    with tempfile.TemporaryDirectory(dir=target) as work:
        result = subprocess.run(
            [npm, "pack", f"{name}@{version}", "--pack-destination", work],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        tarballs = list(Path(work).glob("*.tgz"))
        if result.returncode != 0 or not tarballs:
            raise ArtUnavailable(
                f"npm pack {name}@{version} failed: {result.stderr.strip()[-300:]}"
            )
        with tarfile.open(tarballs[0]) as tar:
            tar.extractall(work, filter="data")
        shutil.rmtree(target / "package", ignore_errors=True)  # left half-done by a crash
        with contextlib.suppress(OSError):  # another job moved its copy in first
            os.rename(Path(work) / "package", target / "package")
    if not (target / "package" / "package.json").is_file():
        raise ArtUnavailable(f"npm pack {name}@{version}: {target / 'package'} is incomplete")
    return target / "package"


def _render(svg: Path, out: Path, width_px: int) -> None:
    tool = shutil.which("rsvg-convert")
    if tool is None:
        raise ArtUnavailable("rsvg-convert is missing: install the Debian package librsvg2-bin")
    # Rendered under a name of this process's own, then renamed: another job reading the
    # cache never sees half a PNG (it read one as unreadable when two jobs rendered at once).
    part = out.with_name(f".{out.stem}.{os.getpid()}.part.png")
    result = subprocess.run(
        [tool, "-w", str(width_px), "-o", str(part), str(svg)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0 or not part.is_file():
        part.unlink(missing_ok=True)
        raise ArtUnavailable(f"rsvg-convert could not render {svg}: {result.stderr.strip()}")
    os.replace(part, out)


def faces(deck: str, px_per_mm: float = 5.0) -> dict[str, Any]:
    """card id -> BGRA image (``"<deck>:back"`` for the back), rendered 63 mm wide."""
    width = round(CARD_WIDTH_MM * px_per_mm)
    folder = cache_dir() / "png" / f"{deck}-{width}"
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {}
    for card_id, svg in _svg_files(deck).items():
        name = card_id.replace(":", "__")
        png = folder / f"{name}.png"
        if not png.is_file():
            _render(svg, png, width)
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise ArtUnavailable(f"{png} is not readable")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
        elif image.shape[2] == 3:
            image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
        key = f"{deck}:back" if card_id == "back" else card_id
        card = _trim(image)
        # A poker card is 63 mm wide: after trimming a margin, bring it back to that size.
        if card.shape[1] != width:
            h = round(card.shape[0] * width / card.shape[1])
            card = cv2.resize(card, (width, h), interpolation=cv2.INTER_AREA)
        out[key] = card
    return out


def _trim(image: Any) -> Any:
    """Crop to the card itself (some SVGs carry a margin or a drop shadow)."""
    alpha = image[..., 3]
    ys, xs = np.nonzero(alpha > 200)
    if len(xs) == 0:
        return image
    return np.ascontiguousarray(image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])
