"""The journal: every accepted record, durable before it is acted on (SQLite, WAL mode).

One file holds many sessions.  A session row keeps the referee's ``Setup`` (so a resume
can rebuild the referee); record rows keep, in order, every record the referee accepted,
with a global sequence number, the session id, the time, and the observation that led to
it (for audit and the web page's corrections list).

Durability: WAL journal mode with ``synchronous=FULL`` makes SQLite fsync the WAL at every
commit, so once ``append`` returns, the records survive a power cut or ``kill -9``.  The
records of one decision are written in one transaction: all or none.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    at REAL NOT NULL,
    observation TEXT,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_session ON records(session_id, seq);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or written (disk full, read-only, not a database)."""


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    setup: dict[str, Any]
    started_at: float
    finished_at: float | None
    outcome: Any


@dataclass(frozen=True)
class Entry:
    seq: int
    session_id: int
    at: float
    observation: dict[str, Any] | None
    record: dict[str, Any]


class Journal:
    """An open journal file.  Not shared between threads: the service uses it from its loop."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{self.path}: SQLite refused WAL mode (got {mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as err:
            raise JournalError(f"{self.path}: cannot open the journal: {err}") from err
        except OSError as err:
            raise JournalError(f"{self.path}: cannot create the journal: {err}") from err

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions -----------------------------------------------------------------------
    def start_session(self, game: str, setup: dict[str, Any]) -> int:
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO sessions (game, setup, started_at) VALUES (?, ?, ?)",
                (game, json.dumps(setup, sort_keys=True), time.time()),
            )
        session_id = cursor.lastrowid
        assert session_id is not None
        return session_id

    def finish_session(self, session_id: int, outcome: Any = None) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE sessions SET finished_at = ?, outcome = ? WHERE id = ?",
                (time.time(), json.dumps(outcome, sort_keys=True), session_id),
            )

    def session(self, session_id: int) -> SessionInfo | None:
        row = self._db.execute(
            "SELECT id, game, setup, started_at, finished_at, outcome FROM sessions WHERE id = ?",
            (session_id,),
        ).fetchone()
        return _session(row) if row else None

    def sessions(self) -> list[SessionInfo]:
        rows = self._db.execute(
            "SELECT id, game, setup, started_at, finished_at, outcome FROM sessions ORDER BY id"
        ).fetchall()
        return [_session(r) for r in rows]

    def last_unfinished(self, game: str | None = None) -> SessionInfo | None:
        """The newest session not finished (of ``game`` if given): the one to resume."""
        query = (
            "SELECT id, game, setup, started_at, finished_at, outcome FROM sessions "
            "WHERE finished_at IS NULL"
        )
        params: tuple[Any, ...] = ()
        if game is not None:
            query += " AND game = ?"
            params = (game,)
        row = self._db.execute(query + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return _session(row) if row else None

    # --- records ------------------------------------------------------------------------
    def append(
        self,
        session_id: int,
        records: Sequence[dict[str, Any]],
        observation: dict[str, Any] | None = None,
    ) -> list[int]:
        """Write ``records`` durably in one transaction; return their sequence numbers."""
        seqs: list[int] = []
        now = time.time()
        obs_text = json.dumps(observation, sort_keys=True) if observation is not None else None
        with self._transaction():
            for record in records:
                if not isinstance(record.get("kind"), str):
                    raise ValueError(f"a record needs a string 'kind': {record!r}")
                cursor = self._db.execute(
                    "INSERT INTO records (session_id, at, observation, record) VALUES (?,?,?,?)",
                    (session_id, now, obs_text, json.dumps(record, sort_keys=True)),
                )
                assert cursor.lastrowid is not None
                seqs.append(cursor.lastrowid)
        return seqs

    def entries(self, session_id: int) -> list[Entry]:
        rows = self._db.execute(
            "SELECT seq, session_id, at, observation, record FROM records "
            "WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ).fetchall()
        return [
            Entry(
                seq=seq,
                session_id=sid,
                at=at,
                observation=json.loads(obs) if obs else None,
                record=json.loads(rec),
            )
            for seq, sid, at, obs, rec in rows
        ]

    def count(self, session_id: int | None = None) -> int:
        if session_id is None:
            row = self._db.execute("SELECT COUNT(*) FROM records").fetchone()
        else:
            row = self._db.execute(
                "SELECT COUNT(*) FROM records WHERE session_id = ?", (session_id,)
            ).fetchone()
        return int(row[0])

    # --- internals ----------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: cannot write the journal: {err}") from err

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self.db.execute("COMMIT")
                return
            self.db.execute("ROLLBACK")
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: cannot write the journal: {err}") from err
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"{self.path}: cannot write the journal: {exc}") from exc


def _session(row: tuple[Any, ...]) -> SessionInfo:
    sid, game, setup, started, finished, outcome = row
    return SessionInfo(
        id=sid,
        game=game,
        setup=json.loads(setup),
        started_at=started,
        finished_at=finished,
        outcome=json.loads(outcome) if outcome else None,
    )
