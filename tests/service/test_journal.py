"""The SQLite journal: WAL + FULL sync, ordered records, sessions to resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tablehub.service.journal import Journal, JournalError


def test_sessions_records_and_resume_point(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        assert j.last_unfinished() is None
        s1 = j.start_session("high-card", {"seats": ["A", "B"]})
        seqs = j.append(
            s1, [{"kind": "begin"}, {"kind": "move", "move": {"x": 1}}], {"kind": "manual"}
        )
        assert seqs == [1, 2]
        s2 = j.start_session("high-card", {"seats": ["C", "D"]})
        j.append(s2, [{"kind": "begin"}])
        j.finish_session(s2, {"winners": [0]})
        assert j.last_unfinished().id == s1  # type: ignore[union-attr]
    with Journal(path) as j:  # reopened: all there
        entries = j.entries(s1)
        assert [e.seq for e in entries] == [1, 2]
        assert entries[1].record == {"kind": "move", "move": {"x": 1}}
        assert entries[1].observation == {"kind": "manual"}
        assert j.session(s2).outcome == {"winners": [0]}  # type: ignore[union-attr]
        assert j.count() == 3


def test_wal_and_full_sync(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()


def test_a_bad_record_writes_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as j:
        s = j.start_session("g", {})
        with pytest.raises(ValueError):
            j.append(s, [{"kind": "ok"}, {"no": "kind"}])
        assert j.count(s) == 0


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(path)


def test_concurrent_reader_sees_committed_records(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        s = j.start_session("g", {})
        j.append(s, [{"kind": "a"}])
        reader = sqlite3.connect(path)
        assert reader.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 1
        reader.close()
