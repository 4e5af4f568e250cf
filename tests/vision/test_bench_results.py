"""The card benchmark's results file: a long run stopped part way goes on where it was,
and never counts figures of other code."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import cards
from bench.cards import Tally, load_results, save_result


def _tally(correct: int) -> Tally:
    return Tally(cards=10, correct=correct, abstain=10 - correct, scenes=2, times=[0.1, 0.2])


def test_a_result_kept_is_read_back_for_the_same_code_only(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    save_result(path, "agi@1280x720/2/seed7", "v1", _tally(9))
    save_result(path, "rg@1280x720/2/seed7", "v2", _tally(8))
    assert load_results(path, "v1") == {"agi@1280x720/2/seed7": _tally(9)}
    assert load_results(path, "v3") == {}


def test_a_broken_line_is_passed_over_with_a_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.jsonl"
    save_result(path, "agi@1280x720/2/seed7", "v1", _tally(9))
    with path.open("a") as out:
        out.write('{"key": "half a line\n')
    assert list(load_results(path, "v1")) == ["agi@1280x720/2/seed7"]
    assert "results.jsonl:2: not a benchmark result" in capsys.readouterr().err


def test_a_run_goes_on_from_its_results_and_totals_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Of two decks, the one measured already is not measured again; the total counts both,
    and the one measured now is kept too."""
    path = tmp_path / "results.jsonl"
    monkeypatch.setattr(cards, "code_version", lambda: "v1")
    save_result(path, "agi@1280x720/2/seed7", "v1", _tally(9))
    measured = []

    def task(t: tuple[str, str, int, int, bool]) -> tuple[str, str, Tally, str]:
        measured.append(t[0])
        return t[0], t[1], _tally(5), f"{t[0]} measured"

    monkeypatch.setattr(cards, "_task", task)
    args = ["--deck", "agi,rg", "--size", "1280x720", "--scenes", "2", "--results", str(path)]
    assert cards.main(args) == 0
    assert measured == ["rg"]
    out = capsys.readouterr().out
    assert "all 2 decks x 1 sizes: 4 scenes, 20 readable cards | correct 70.000%" in out
    assert set(load_results(path, "v1")) == {"agi@1280x720/2/seed7", "rg@1280x720/2/seed7"}
    cards.main(args)
    assert measured == ["rg"]  # nothing left to measure


def test_the_code_version_follows_the_reader_s_code(tmp_path: Path) -> None:
    """Results name the code they measured: a change to the reader makes them stale, a
    change elsewhere does not."""
    (tmp_path / "tablehub" / "vision").mkdir(parents=True)
    reader = tmp_path / "tablehub" / "vision" / "match.py"
    reader.write_text("GOOD = 0.012\n")
    (tmp_path / "README.md").write_text("tablehub\n")
    before = cards.code_version(tmp_path)
    (tmp_path / "README.md").write_text("tablehub, the referee\n")
    assert cards.code_version(tmp_path) == before
    reader.write_text("GOOD = 0.013\n")
    assert cards.code_version(tmp_path) != before
