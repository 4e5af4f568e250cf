"""The Chaos in Gotham City demo: the referee, seeing only camera and panel events, keeps
the same score as the simulated table it watches."""

from __future__ import annotations

import sqlite3
import wave
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.service.chaos_demo import play_offline


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_referee_agrees_with_the_table_over_whole_games(players: int) -> None:
    questions = 0
    for seed in range(8):
        result = play_offline(players, seed, lambda line: None)
        assert result.agreed, f"seed {seed}: referee {result.totals} differs from the table"
        assert result.rejections == 0
        questions += result.questions
    assert questions > 8  # cards laid in the middle made the hub ask (besides "who starts")


def test_demo_command_writes_voice_and_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    wav_dir = tmp_path / "voice"
    transcript = tmp_path / "transcript.txt"
    args = ["demo", "chaos-in-gotham", "--players", "2", "--seed", "5", "--fast"]
    code = main([*args, "--wav-dir", str(wav_dir), "--transcript", str(transcript)])
    assert code == 0
    text = transcript.read_text()
    assert "Game over." in text and "agree with the simulated table" in text
    wavs = sorted(wav_dir.glob("*.wav"))
    assert len(wavs) > 20
    with wave.open(str(wavs[0])) as clip:
        assert clip.getnframes() > 1000
    db = sqlite3.connect(tmp_path / "demo-output" / "chaos-journal.sqlite3")
    kinds = {k for (k,) in db.execute("SELECT json_extract(record, '$.kind') FROM records")}
    finished = db.execute("SELECT finished_at FROM sessions").fetchone()[0]
    db.close()
    assert {"begin", "first", "moves", "villain-seen"} <= kinds and finished is not None
    frames = sorted((tmp_path / "demo-output" / "chaos-frames").glob("*.png"))
    assert len(frames) == 20  # 2 players: 2 rounds of 10 tricks, a frame of each


def test_demo_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "chaos-in-gotham", "--players", "8", "--fast"]) == 2
    assert "2 to 6" in capsys.readouterr().out
