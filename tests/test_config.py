"""Configuration: defaults, overrides, and one precise message per problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.config import (
    DEFAULT_CONFIG_PATH,
    ConfigError,
    PanelConfig,
    load_config,
    parse_config,
    to_toml,
)

ENV = {"HOME": "/home/x"}


def problems(text: str) -> list[str]:
    import tomllib

    with pytest.raises(ConfigError) as err:
        parse_config(tomllib.loads(text), "test.toml", env=ENV)
    return err.value.problems


def test_defaults_match_the_documented_names() -> None:
    config = parse_config({}, env=ENV)
    assert config.seats.names == ("Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5")
    assert config.seats.count == 5
    assert config.camera.source == "picamera2"
    assert config.dice_tower.port == "auto" and config.dice_tower.baud == 115200
    assert config.voice.engine == "pyttsx3"
    assert config.web.bind == "127.0.0.1:8080"
    assert config.web.port == 8080
    assert config.blackout.slot_seconds == 12 and config.blackout.sweep_slot_seconds == 6
    assert config.blackout.masking_sound is True
    assert config.data_dir == Path("/home/x/.local/share/tablehub")
    assert config.journal_path == config.data_dir / "journal.sqlite3"
    assert len(config.panel.seat_leds) == 7


def test_default_pins_match_the_wiring_table() -> None:
    """hardware/wiring.md's table lists every default pin; they must agree."""
    wiring = (Path(__file__).resolve().parents[1] / "hardware" / "wiring.md").read_text()
    for name, pin in PanelConfig().named_pins():
        assert f"| `{name}` | GPIO{pin} |" in wiring, f"{name} GPIO{pin} not in wiring.md"


def test_seat_count_generates_names_and_names_win() -> None:
    import tomllib

    config = parse_config(tomllib.loads("[seats]\ncount = 3"), env=ENV)
    assert config.seats.names == ("Seat 1", "Seat 2", "Seat 3")
    config = parse_config(tomllib.loads('[seats]\nnames = ["Ann", "Bob"]'), env=ENV)
    assert config.seats.names == ("Ann", "Bob") and config.seats.count == 2


def test_data_dir_env_overrides_and_journal_follows() -> None:
    config = parse_config({"data_dir": "/srv/hub"}, env={**ENV, "TABLEHUB_DATA_DIR": "/tmp/d"})
    assert config.data_dir == Path("/tmp/d")
    assert config.journal_path == Path("/tmp/d/journal.sqlite3")
    config = parse_config({"data_dir": "/srv/hub", "journal_path": "/j.db"}, env=ENV)
    assert config.data_dir == Path("/srv/hub") and config.journal_path == Path("/j.db")


def test_every_problem_is_reported_with_key_value_and_expectation() -> None:
    found = problems(
        """
        colour = "red"
        [seats]
        count = 9
        [camera]
        source = "webcam"
        device = -1
        [dice_tower]
        baud = 1234
        port = "COM3"
        [panel]
        buzzer = 17
        seat_leds = [1, 2, 99]
        [voice]
        engine = "festival"
        volume = 1.5
        [web]
        bind = "localhost"
        [blackout]
        slot_seconds = "long"
        masking_sound = "yes"
        """
    )
    expected = [
        "colour: unknown key",
        "seats.count = 9: expected a whole number from 2 to 7",
        'camera.source = "webcam": expected one of "picamera2", "opencv", "replay", "simulated"',
        "camera.device = -1: expected a camera index from 0 to 63 or a device path",
        """dice_tower.port = "COM3": expected "auto", "sim" or a device path""",
        "dice_tower.baud = 1234: expected one of 9600",
        "panel.seat_leds = [1, 2, 99]: expected a list of 1 to 7 BCM GPIO numbers",
        "panel.buzzer = 17: GPIO17 is already used by panel.encoder_a",
        'voice.engine = "festival": expected one of "pyttsx3", "espeak-ng", "recording", "wav"',
        "voice.volume = 1.5: expected a number from 0 to 1",
        'web.bind = "localhost": expected HOST:PORT',
        'blackout.slot_seconds = "long": expected a number from 4 to 120',
        'blackout.masking_sound = "yes": expected true or false',
    ]
    for line in expected:
        assert any(p.startswith(line) for p in found), f"missing: {line}\n got: {found}"
    assert len(found) == len(expected)


def test_structural_problems() -> None:
    found = problems(
        """
        [seats]
        names = ["A", "B", "C"]
        count = 4
        [panel]
        seat_leds = [5, 6]
        [camera]
        source = "replay"
        [[table.zones]]
        name = "reveal"
        polygon = [[0, 0], [100, 0], [100, 9000]]
        [[table.zones]]
        polygon = [[0, 0], [1, 0], [1, 1]]
        wobble = 1
        """
    )
    joined = "\n".join(found)
    assert "seats.count = 4 but seats.names has 3 names" in joined
    assert "panel.seat_leds = [5, 6] has 2 pins but there are 3 seats" in joined
    assert 'camera.replay_path = "": expected a folder of images or a video file' in joined
    assert "table.zones[0].polygon = [[0.0, 0.0], [100.0, 0.0], [100.0, 9000.0]]" in joined
    assert "table.zones[1].wobble: unknown key" in joined
    assert "table.zones[1].name: missing" in joined


def test_zone_overrides_are_parsed() -> None:
    import tomllib

    text = '[[table.zones]]\nname = "reveal"\npolygon = [[10, 10], [90, 10], [90, 60]]\n'
    config = parse_config(tomllib.loads(text), env=ENV)
    assert config.table.zones[0].name == "reveal"
    assert config.table.zones[0].polygon == ((10.0, 10.0), (90.0, 10.0), (90.0, 60.0))


def test_show_round_trips_through_toml(tmp_path: Path) -> None:
    import tomllib

    text = '[seats]\nnames = ["A", "B"]\n[panel]\nseat_leds = [5, 6]\n'
    text += '[camera]\ndevice = "/dev/video2"\n'
    text += '[[table.zones]]\nname = "reveal"\npolygon = [[10, 10], [90, 10], [90, 60]]\n'
    config = parse_config(tomllib.loads(text), env=ENV)
    shown = to_toml(config)
    again = parse_config(tomllib.loads(shown), env=ENV)
    assert again == config.__class__(**{**again.__dict__, "source": config.source})
    assert again.camera.device == "/dev/video2"


def test_files_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text('[voice]\nengine = "recording"\n')
    assert load_config(good, env=ENV).voice.engine == "recording"
    assert main(["--config", str(good), "config", "check"]) == 0
    assert "configuration OK" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text("[voice\n")
    assert main(["--config", str(bad), "config", "check"]) == 2
    assert "is not valid TOML" in capsys.readouterr().err
    assert main(["--config", str(tmp_path / "none.toml"), "config", "show"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["--config", str(good), "config", "show"]) == 0
    assert 'engine = "recording"' in capsys.readouterr().out


def test_without_a_file_the_defaults_apply() -> None:
    if DEFAULT_CONFIG_PATH.exists():
        pytest.skip("this machine has a system configuration")
    assert load_config(None, env=ENV).source == "built-in defaults"
