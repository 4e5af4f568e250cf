"""The roll log and fairness test, and the tower/camera cross-check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.devices.dice_tower_rolls import RollLog, chi_square_p, fairness
from tablehub.observations import DiceEvent, DieReading
from tablehub.vision.dice_crosscheck import compare


def throw(source: str, throw_id: str, *dice: tuple[int | None, str], read: int = 1) -> DiceEvent:
    readings = tuple(DieReading(v, c, "stable" if v is not None else "cocked") for v, c in dice)
    return DiceEvent(source, readings, throw_id, read=read)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("statistic", "p"), [(11.0705, 0.05), (15.0863, 0.01), (1.1455, 0.95), (0.0, 1.0)]
)
def test_chi_square_p_values_match_the_tables(statistic: float, p: float) -> None:
    assert chi_square_p(statistic) == pytest.approx(p, abs=2e-4)


def test_fairness_flags_a_loaded_die_and_not_a_fair_one() -> None:
    assert fairness("green", (10, 10, 10, 10, 10, 10)).verdict() == "consistent with a fair die"
    assert "unfair" in fairness("red", (5, 5, 5, 5, 5, 35)).verdict()
    assert "too few" in fairness("white", (1, 0, 2, 0, 1, 1)).verdict()


def test_log_counts_the_last_reading_of_each_throw(tmp_path: Path) -> None:
    log = RollLog(tmp_path / "rolls.sqlite")
    log.record(throw("tower", "a-1", (6, "green"), (2, "purple")))
    log.record(throw("tower", "a-1", (5, "green"), (2, "purple"), read=2))  # a re-read
    log.record(throw("tower", "a-1", (5, "green"), (2, "purple"), read=2))  # logged twice
    log.record(throw("tower", "a-2", (None, "green"), (1, "purple")))
    log.record(throw("camera", "f-9", (3, "green")))
    assert log.face_counts("tower") == {"green": [0, 0, 0, 0, 1, 0], "purple": [1, 1, 0, 0, 0, 0]}
    assert log.face_counts(None)["green"] == [0, 0, 1, 0, 1, 0]
    log.close()


def test_stats_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rolls.sqlite"
    log = RollLog(path)
    for i in range(60):
        log.record(throw("tower", f"b-{i}", (i % 6 + 1, "green"), (6, "red")))
    log.close()
    assert main(["dice", "stats", "--log", str(path), "--json"]) == 0
    rows = {r["colour"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["green"]["counts"] == [10] * 6 and rows["green"]["p_value"] == 1.0
    assert rows["red"]["counts"] == [0, 0, 0, 0, 0, 60] and rows["red"]["p_value"] < 0.001
    assert main(["dice", "stats", "--log", str(path)]) == 0
    assert "looks unfair" in capsys.readouterr().out
    assert main(["dice", "stats", "--log", str(tmp_path / "none.sqlite")]) == 1


def test_compare_reasons() -> None:
    one = throw("tower", "t", (6, "green"))
    assert compare(one, throw("camera", "c", (6, "purple"))) is not None  # colour matters
    assert compare(one, throw("camera", "c", (6, "green"), (1, "green"))) is not None
    assert compare(one, throw("camera", "c", (None, "green"))) is not None  # cocked
    assert compare(one, throw("camera", "c", (6, "green"))) is None
    assert (
        compare(
            throw("tower", "t", (6, "green"), (2, "red")),
            throw("camera", "c", (2, "red"), (6, "green")),
        )
        is None
    )
