"""``tablehub demo get-adler``: a whole game at a simulated table, the hub in step with it."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.service.get_adler_demo import SimulatedTable


def test_demo_plays_a_whole_game_with_voice_to_wav(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wavs = tmp_path / "voice"
    transcript = tmp_path / "transcript.txt"
    code = main(
        [
            "demo",
            "get-adler",
            "--players",
            "4",
            "--seed",
            "7",
            "--fast",
            "--wav-dir",
            str(wavs),
            "--transcript",
            str(transcript),
        ]
    )
    assert code == 0
    text = transcript.read_text(encoding="utf-8")
    assert "HUB   | It is one o'clock." in text and "HUB   | It is seven o'clock" in text
    assert "TABLE | " in text
    assert "win:" in text.splitlines()[-2]  # the hub announced the result
    files = sorted(wavs.glob("*.wav"))
    assert len(files) == text.count("\nHUB   | ") + text.startswith("HUB   | ")
    with wave.open(str(files[0])) as clip:
        assert clip.getnframes() > clip.getframerate() // 2  # real speech, not an empty file
    assert "hub: villains (documents)" in capsys.readouterr().out


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
