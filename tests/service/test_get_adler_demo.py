"""``tablehub demo get-adler``: a whole game at a simulated table, seen through the shared
simulated camera (rendered frames, the card-vision tracker), the hub in step with it."""

from __future__ import annotations

import sqlite3
import wave
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.config import Config, SeatsConfig, VoiceConfig
from tablehub.service import get_adler_demo
from tablehub.service.clock import run_virtual
from tablehub.service.get_adler_demo import play_offline
from tablehub.service.get_adler_table import AdlerTable
from tablehub.service.runner import SIMULATIONS, RunOptions, serve


def test_demo_plays_a_whole_game_through_the_camera_with_voice_to_wav(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the demo keeps its journal in ./demo-output
    wavs = tmp_path / "voice"
    transcript = tmp_path / "transcript.txt"
    args = ["demo", "get-adler", "--players", "5", "--seed", "3", "--fast"]
    code = main([*args, "--wav-dir", str(wavs), "--transcript", str(transcript)])
    assert code == 0
    lines = transcript.read_text(encoding="utf-8").splitlines()
    assert "[voice] It is one o'clock." in lines and "[voice] It is four o'clock." in lines
    assert any(line.startswith("[panel] choose a seat") for line in lines)  # the knob was used
    assert any("[hub] camera: simulated" in line for line in lines)
    # every card the hub took came from the rendered frames, through the tracker
    discards = [line for line in lines if line.startswith("[table] ") and "discard pile:" in line]
    read = [line for line in lines if line.startswith("[camera] frame ") and "discard-2" in line]
    assert len(discards) > 10 and len(read) >= len(discards)
    laid = [line.split("discard pile: ")[1] for line in discards]
    assert any(a == b for a, b in pairwise(laid))  # a copy on its twin
    table = next(line for line in lines if line.startswith("table  :"))
    hub = next(line for line in lines if line.startswith("hub    :"))
    assert table.split(":", 1)[1] == hub.split(":", 1)[1]
    camera = next(line for line in lines if line.startswith("camera :"))
    assert " 0 never;" in camera and "asked the table 0 time(s)" in camera
    spoken = [line for line in lines if line.startswith("[voice] ")]
    files = sorted(wavs.glob("*.wav"))
    assert len(files) == len(spoken) > 20
    for path in files:  # every line is real speech, not an empty file
        with wave.open(str(path)) as clip:
            assert clip.getnframes() > clip.getframerate() // 4, path.name
    db = sqlite3.connect(tmp_path / "demo-output" / "get-adler" / "journal.sqlite3")
    (records,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    db.close()
    assert records > 30 and f"journal: {records} records in " in "\n".join(lines)


def test_run_simulated_referees_a_whole_game_at_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "get-adler" in SIMULATIONS
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path))
    config = replace(
        Config(),
        seats=SeatsConfig(("Ann", "Bob", "Cy", "Dee")),
        data_dir=tmp_path,
        journal_path=tmp_path / "journal.sqlite3",
        voice=VoiceConfig(engine="recording", timeout=3600.0),
    )
    lines: list[str] = []
    opts = RunOptions(game="get-adler", simulated=True, seed=2, transcript=lines.append)
    outcome = run_virtual(serve(config, replace(opts, fresh=True)))
    assert outcome.finished, lines[-20:]
    assert any("[hub] camera: simulated" in line for line in lines)
    assert any(line.startswith("[camera] frame") and "discard-2" in line for line in lines)
    assert any("win" in line and line.startswith("[voice] The ") for line in lines)


def test_run_simulated_refuses_a_configuration_it_cannot_seat(tmp_path: Path) -> None:
    config = replace(Config(), seats=SeatsConfig(("Ann", "Bob")))
    with pytest.raises(ValueError, match="4 to 6 seats"):
        get_adler_demo.simulation(config, 1, lambda line: None)


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize(
    "options", [{}, {"extended": True, "ultimate_mission": True}], ids=["basic", "expert"]
)
def test_the_hub_agrees_with_the_table(
    players: int, options: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The referee, seeing only what the tracker makes of the table's face-up cards and the
    panel, reaches the table's result; every card laid is taken, copies laid on copies of
    themselves on the discard pile included."""
    twins = []
    lay = AdlerTable.to_discard

    def to_discard(table: AdlerTable, card_id: str) -> None:
        twins.append(bool(table.discard) and table.discard[-1].card_id == card_id)
        lay(table, card_id)

    monkeypatch.setattr(AdlerTable, "to_discard", to_discard)
    endings = set()
    for seed in range(6):
        result = play_offline(players, seed, options)
        assert result.agrees, (seed, result.truth_reason, result.hub_reason)
        assert result.rereads == result.asked_table == result.refusals == result.unseen == 0
        assert result.laid["discard"] > 10
        endings.add(result.truth_reason)
    assert len(endings) >= 2
    assert sum(twins) >= 5  # a copy on its twin, seen by its pose


def test_a_card_the_hub_cannot_read_is_told_by_the_table() -> None:
    """A hub that trusts no reading (``min_confidence`` above the camera's) re-reads each
    card, then asks the table, which corrects the rejected reading on the control page:
    the game goes on and ends as at the table."""
    result = play_offline(5, 2, {"min_confidence": 1.0, "extended": True})
    assert result.agrees
    laid = sum(result.laid.values())
    assert laid > 30 and sum(result.told.values()) == laid and result.unseen == 0
    assert result.rereads == laid and result.asked_table >= laid
    assert sum(result.at_once.values()) == 0


def test_demo_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "get-adler", "--players", "8", "--fast"]) == 2
    assert "4 to 6" in capsys.readouterr().err
