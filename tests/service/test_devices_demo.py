"""The devices demo: camera frames read, panel driven, speech rendered, all journaled."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tablehub.commands.demo import DemoOptions
from tablehub.devices.audio import read_wav
from tablehub.service.devices_demo import run_demo


def test_devices_demo_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text('[voice]\nengine = "espeak-ng"\n')
    options = DemoOptions(
        players=3,
        seed=1,
        transcript=tmp_path / "t.txt",
        config_path=config,
        wav_dir=tmp_path / "wav",
        fast=True,
    )
    assert run_demo(options) == 0
    out = capsys.readouterr().out
    assert "[camera] frame" in out and "[panel] seat LEDs" in out and "[voice]" in out
    assert "Game over." in out
    frames = list((tmp_path / "demo-output" / "frames").glob("*.png"))
    assert frames
    wavs = sorted((tmp_path / "wav").glob("*.wav"))
    assert len(wavs) > 10
    assert float(abs(read_wav(wavs[0])).max()) > 0.1  # real speech, not silence
    db = sqlite3.connect(tmp_path / "demo-output" / "journal.sqlite3")
    kinds = [k for (k,) in db.execute("SELECT json_extract(record, '$.kind') FROM records")]
    finished = db.execute("SELECT finished_at FROM sessions").fetchone()[0]
    db.close()
    assert kinds[0] == "begin" and finished is not None
    assert kinds.count("move") + kinds.count("timer") >= 18  # 3 seats x 3 rounds, 2 per card
    assert (tmp_path / "t.txt").read_text().count("[voice]") > 10
