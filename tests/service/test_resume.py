"""Crash safety: kill -9 the real service mid-session, restart it, and it ends exactly where
an uninterrupted run ends (same state, same journal), without re-running what was done."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

CONFIG = """
[seats]
names = ["Ann", "Bob", "Cy"]
[voice]
engine = "recording"
[camera]
fps = 20
"""
# seed 6 exercises a timeout pass, a rejected (duplicate) card and every panel operation
ARGS = ["run", "--simulated", "--seed", "6", "--option", "turn_seconds=0.5"]


def command(tmp: Path, name: str) -> tuple[list[str], dict[str, str]]:
    config = tmp / "config.toml"
    config.write_text(CONFIG)
    argv = [sys.executable, "-m", "tablehub", "--config", str(config), *ARGS]
    argv += ["--state-out", str(tmp / f"{name}.json")]
    env = {**os.environ, "TABLEHUB_DATA_DIR": str(tmp / name)}
    return argv, env


def journal(data_dir: Path) -> list[tuple[int, dict]]:
    db = sqlite3.connect(data_dir / "journal.sqlite3")
    rows = db.execute("SELECT session_id, record FROM records ORDER BY seq").fetchall()
    db.close()
    return [(sid, json.loads(rec)) for sid, rec in rows]


def run_until_record(argv: list[str], env: dict[str, str], seq: int) -> None:
    """Start the service, wait until it has journaled record ``seq``, then SIGKILL it."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            if line.startswith(f"[journal] #{seq} "):
                break
        else:
            raise AssertionError(f"the service ended before record {seq}")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


def test_kill_9_twice_and_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    argv, env = command(tmp_path, "straight")
    subprocess.run(argv, env=env, check=True, capture_output=True, timeout=60)
    expected_state = json.loads((tmp_path / "straight.json").read_text())
    expected_journal = journal(tmp_path / "straight")
    kinds = [r["kind"] for _, r in expected_journal]
    assert "timer" in kinds and "rejected" in kinds  # the run covers the hard cases

    argv, env = command(tmp_path, "crashy")
    run_until_record(argv, env, 6)
    partial = journal(tmp_path / "crashy")
    assert 6 <= len(partial) < len(expected_journal)
    assert partial == expected_journal[: len(partial)]  # durable: nothing lost, in order
    run_until_record(argv, env, 17)
    result = subprocess.run(argv, env=env, check=True, capture_output=True, text=True, timeout=60)
    assert "[hub] resumed session 1" in result.stdout
    assert "The hub is back" in result.stdout
    assert "Welcome to High Card" not in result.stdout  # nothing said twice after a resume

    assert json.loads((tmp_path / "crashy.json").read_text()) == expected_state
    assert journal(tmp_path / "crashy") == expected_journal  # one session, same records
    db = sqlite3.connect(tmp_path / "crashy" / "journal.sqlite3")
    finished = db.execute("SELECT COUNT(*) FROM sessions WHERE finished_at IS NOT NULL").fetchone()
    db.close()
    assert finished == (1,)
