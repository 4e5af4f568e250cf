"""``tablehub demo almost-got-im``: a whole game through the service, end to end (fast)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tablehub.commands.demo import DEMOS, DemoOptions
from tablehub.devices.audio import read_wav
from tablehub.service.almost_got_im_demo import run_demo


def test_a_whole_game_ends_with_a_winner_announcement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "almost-got-im" in DEMOS
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text('[voice]\nengine = "espeak-ng"\n')
    transcript = tmp_path / "t.txt"
    options = DemoOptions(
        players=5,
        seed=1,
        transcript=transcript,
        config_path=config,
        wav_dir=None,
        fast=True,
    )
    assert run_demo(options) == 0
    lines = transcript.read_text().splitlines()
    assert "clock : VIRTUAL" in "\n".join(lines[:8])
    spoken = [line.split("[voice] ", 1)[1] for line in lines if "[voice] " in line]
    assert spoken[-1].startswith("Game over: ") and "win" in spoken[-1]
    assert spoken[-2].startswith("The Secret Roles were: ")
    assert any(s.endswith("s  Everyone close your eyes.") for s in spoken)  # the schedule
    assert "[camera] frame" in capsys.readouterr().out
    out = tmp_path / "demo-output"
    nights = sorted((out / "voice").glob("*-schedule-blackout-*.wav"))
    assert nights and float(abs(read_wav(nights[0])).max()) > 0.1  # voice and masking
    db = sqlite3.connect(out / "journal.sqlite3")
    kinds = [k for (k,) in db.execute("SELECT json_extract(record, '$.kind') FROM records")]
    finished = db.execute("SELECT finished_at FROM sessions").fetchone()[0]
    db.close()
    assert finished is not None and kinds[0] == "begin"
    assert {"character", "role_seen", "moves", "timer", "next"} <= set(kinds)
    # the hub's own lines during a Blackout say nothing about the awake player
    night = False
    for line in lines:
        if "schedule blackout" in line:
            night = True
        elif night and "[journal]" in line:
            night = False
        if night:
            assert "[panel] private light" not in line and "[panel] choose" not in line
    # nor does any hub line ever report the reveal spot, where roles and hands are shown
    hub_lines = [line for line in lines if "[table]" not in line]
    assert not [line for line in hub_lines if "[camera]" in line and "reveal" in line]
    assert not [line for line in hub_lines if "[camera]" in line and "agi:role-" in line]
