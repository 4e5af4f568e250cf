"""``tablehub demo get-adler``: a whole game at a simulated table, the hub in step with it."""

from __future__ import annotations

import sqlite3
import wave
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.service.get_adler_demo import SimulatedTable


def test_demo_plays_a_whole_game_through_the_service_with_voice_to_wav(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the demo keeps its journal in ./demo-output
    wavs = tmp_path / "voice"
    transcript = tmp_path / "transcript.txt"
    code = main(
        [
            "demo",
            "get-adler",
            "--players",
            "5",
            "--seed",
            "3",
            "--fast",
            "--wav-dir",
            str(wavs),
            "--transcript",
            str(transcript),
        ]
    )
    assert code == 0
    lines = transcript.read_text(encoding="utf-8").splitlines()
    assert "[voice] It is one o'clock." in lines and "[voice] It is four o'clock." in lines
    assert any(line.startswith("[table] ") for line in lines)
    assert any(line.startswith("[panel] choose a seat") for line in lines)  # the knob was used
    table = next(line for line in lines if line.startswith("table  :"))
    hub = next(line for line in lines if line.startswith("hub    :"))
    assert table.split(":", 1)[1] == hub.split(":", 1)[1]
    spoken = [line for line in lines if line.startswith("[voice] ")]
    files = sorted(wavs.glob("*.wav"))
    assert len(files) == len(spoken) > 20
    for path in files:  # every line is real speech, not an empty file
        with wave.open(str(path)) as clip:
            assert clip.getnframes() > clip.getframerate() // 4, path.name
    db = sqlite3.connect(tmp_path / "demo-output" / "get-adler" / "journal.sqlite3")
    (records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    db.close()
    assert records == sum(1 for line in lines if line.startswith("[journal] "))


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize(
    "options", [{}, {"extended": True, "ultimate_mission": True}], ids=["basic", "expert"]
)
def test_the_hub_agrees_with_the_table(players: int, options: dict[str, bool]) -> None:
    """The referee, seeing only face-up cards and the panel, reaches the table's result."""
    endings = set()
    for seed in range(6):
        result = SimulatedTable(players, seed, options).play()
        assert result.agrees, (seed, result.truth_reason, result.hub_reason)
        assert result.rereads == result.asked_table == result.refusals == 0
        endings.add(result.truth_reason)
    assert len(endings) >= 2


def test_demo_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "get-adler", "--players", "8", "--fast"]) == 2
    assert "4 to 6" in capsys.readouterr().err
