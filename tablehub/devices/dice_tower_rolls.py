"""The roll log: every physical roll the hub reads (tower or camera), in SQLite in the data
directory, and the fairness figures `tablehub dice stats` shows.

A throw can be read more than once (re-reads); only its last reading counts.  Fairness is
Pearson's chi-square test of the six face counts against a fair die, per die colour, with
the p-value computed in closed form (5 degrees of freedom), so no statistics library is
needed.
"""

from __future__ import annotations

import math
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from tablehub.observations import DiceEvent
from tablehub.paths import data_dir

SCHEMA = """
CREATE TABLE IF NOT EXISTS rolls (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    source TEXT NOT NULL,
    throw_id TEXT NOT NULL,
    read INTEGER NOT NULL,
    die INTEGER NOT NULL,
    colour TEXT NOT NULL,
    value INTEGER,
    status TEXT NOT NULL,
    UNIQUE (source, throw_id, read, die)
);
"""
MIN_EXPECTED = 5  # below this many expected per face the chi-square test says little


@dataclass(frozen=True)
class Fairness:
    colour: str
    counts: tuple[int, int, int, int, int, int]
    rolls: int
    chi_square: float
    p_value: float
    enough: bool  # at least MIN_EXPECTED expected per face

    def verdict(self) -> str:
        if not self.enough:
            return f"too few rolls to judge (need {6 * MIN_EXPECTED})"
        if self.p_value < 0.01:
            return "looks unfair (p < 0.01)"
        return "consistent with a fair die"


def chi_square_p(statistic: float, dof: int = 5) -> float:
    """P(X >= statistic) for a chi-square distribution with an odd number of degrees of
    freedom (the closed form through erfc and a finite series)."""
    if dof % 2 != 1 or dof < 1:
        raise ValueError("odd degrees of freedom only")
    if statistic <= 0:
        return 1.0
    x = statistic
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(x)
    series = 0.0
    for j in range(1, (dof - 1) // 2 + 1):
        if j > 1:
            term *= x / (2 * j - 1)
        series += term
    return min(1.0, total + math.sqrt(2 / math.pi) * math.exp(-x / 2) * series)


def fairness(colour: str, counts: tuple[int, int, int, int, int, int]) -> Fairness:
    n = sum(counts)
    expected = n / 6
    chi = sum((c - expected) ** 2 / expected for c in counts) if n else 0.0
    return Fairness(colour, counts, n, chi, chi_square_p(chi) if n else 1.0, expected >= 5)


class RollLog:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    @staticmethod
    def default_path(configured: str | Path | None = None) -> Path:
        return data_dir(configured) / "rolls.sqlite"

    def record(self, event: DiceEvent, at: float | None = None) -> None:
        """Log one reading (again is harmless: a reading is stored once)."""
        when = time.time() if at is None else at
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO rolls (at, source, throw_id, read, die, colour, value,"
                " status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (when, event.source, event.throw_id, event.read, i, d.colour, d.value, d.status)
                    for i, d in enumerate(event.dice)
                ],
            )

    def face_counts(self, source: str | None = "tower") -> dict[str, list[int]]:
        """Per colour, how often each face came up (stable dice, last reading of a throw)."""
        rows = self.db.execute(
            """
            SELECT r.colour, r.value, COUNT(*) FROM rolls r
            JOIN (SELECT source, throw_id, MAX(read) AS read FROM rolls
                  GROUP BY source, throw_id) last
              ON r.source = last.source AND r.throw_id = last.throw_id AND r.read = last.read
            WHERE r.status = 'stable' AND (? IS NULL OR r.source = ?)
            GROUP BY r.colour, r.value
            """,
            (source, source),
        ).fetchall()
        counts: dict[str, list[int]] = {}
        for colour, value, n in rows:
            if isinstance(value, int) and 1 <= value <= 6:
                counts.setdefault(colour, [0] * 6)[value - 1] += n
        return counts

    def fairness(self, source: str | None = "tower") -> list[Fairness]:
        return [
            fairness(colour, (c[0], c[1], c[2], c[3], c[4], c[5]))
            for colour, c in sorted(self.face_counts(source).items())
        ]

    def close(self) -> None:
        self.db.close()
