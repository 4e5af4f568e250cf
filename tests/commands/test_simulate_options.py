"""``tablehub simulate GAME --option KEY=VALUE``: options reach every game's simulator."""

from __future__ import annotations

import json

import pytest

from tablehub.cli import main
from tablehub.commands.options import parse_options


def _simulate(capsys: pytest.CaptureFixture[str], game: str, *args: str) -> dict[str, object]:
    code = main(["simulate", game, "--games", "3", "--seed", "5", "--json", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    figures: dict[str, object] = json.loads(out.out)
    return figures


def test_values_are_json_else_strings() -> None:
    parsed = parse_options(["a=true", "b=2", 'c={"x": [1]}', "d=Ann", "e="])
    assert parsed == {"a": True, "b": 2, "c": {"x": [1]}, "d": "Ann", "e": ""}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_options(["novalue"])


def test_get_adler_extended_and_expert_rules(capsys: pytest.CaptureFixture[str]) -> None:
    basic = _simulate(capsys, "get-adler", "--players", "5")
    assert basic["options"] == {}
    figures = _simulate(
        capsys,
        "get-adler",
        "--players",
        "5",
        "--option",
        "extended=true",
        "--option",
        "ultimate_mission=true",
    )
    assert figures["options"] == {"extended": True, "ultimate_mission": True}


def test_almost_got_im_advanced_mode(capsys: pytest.CaptureFixture[str]) -> None:
    basic = _simulate(capsys, "almost-got-im", "--players", "5")
    advanced = _simulate(capsys, "almost-got-im", "--players", "5", "--option", "advanced=true")
    assert basic["advanced"] is False and advanced["advanced"] is True
    assert advanced["options"] == {"advanced": True}
    short = _simulate(capsys, "almost-got-im", "--players", "5", "--option", "max_rounds=1")
    assert isinstance(short["rounds"], dict) and short["rounds"]["max"] == 2  # stopped after 1
    assert isinstance(short["wins"], dict) and short["wins"]["draw"] == 3


def test_chaos_option_reaches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    figures = _simulate(capsys, "chaos-in-gotham", "--players", "3", "--option", "first_player=2")
    assert figures["options"] == {"first_player": 2}


@pytest.mark.parametrize(
    ("game", "players", "expected"),
    [
        ("get-adler", "4", "unknown option 'colour'"),
        ("almost-got-im", "4", "unknown option(s) colour"),
        ("chaos-in-gotham", "3", "unknown option 'colour'"),
    ],
)
def test_unknown_options_are_refused_with_the_games_message(
    game: str, players: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", game, "--players", players, "--games", "1", "--option", "colour=red"])
    err = capsys.readouterr().err
    assert code == 2
    assert expected in err and "Traceback" not in err


def test_a_bad_value_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "almost-got-im", "--players", "4", "--games", "1"]
    assert main([*args, "--option", "advanced=maybe"]) == 2
    assert "option advanced must be true or false" in capsys.readouterr().err
    assert main([*args, "--option", "advanced"]) == 2
    assert "expected KEY=VALUE" in capsys.readouterr().err
