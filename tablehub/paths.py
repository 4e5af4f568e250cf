"""Where tablehub keeps its files (decks, calibration, journal, roll log, rendered voice).

``TABLEHUB_DATA_DIR`` wins; then the configured ``data_dir``; then the XDG data home
(``~/.local/share/tablehub``), which for the service user is under its home directory.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_DATA_DIR = "TABLEHUB_DATA_DIR"


def data_dir(configured: str | os.PathLike[str] | None = None) -> Path:
    """The data directory (created on first use)."""
    chosen = os.environ.get(ENV_DATA_DIR) or configured
    if chosen:
        path = Path(chosen).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(xdg) / "tablehub"
    path.mkdir(parents=True, exist_ok=True)
    return path


def package_data(*parts: str) -> Path:
    """A file shipped inside the package (tablehub/data/...)."""
    return Path(__file__).resolve().parent.joinpath("data", *parts)
