"""``tablehub doctor``: simulated devices all OK; real problems named with a fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.config import parse_config
from tablehub.devices import health


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_simulated_devices_are_all_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[camera]\nwidth = 640\nheight = 480\n")  # voice: the default pyttsx3
    assert main(["--config", str(config), "doctor", "--simulated"]) == 0
    out = capsys.readouterr().out
    for name in ("journal", "camera", "panel", "voice", "audio output"):
        assert f"OK    {name}" in out, out
    assert "everything OK" in out


def test_a_broken_device_fails_with_a_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    missing = tmp_path / "no-such-recording"
    config.write_text(f'[camera]\nsource = "replay"\nreplay_path = "{missing}"\n')
    assert main(["--config", str(config), "doctor", "--only", "camera"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  camera        replay of {missing}: {missing} does not exist" in out
    assert "fix: check camera.replay_path" in out


def test_bad_config_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[voice]\nrate = 1\n")
    assert main(["--config", str(config), "doctor"]) == 2
    assert "voice.rate = 1: expected a whole number from 80 to 450" in capsys.readouterr().err


def test_a_crashing_provider_is_a_failed_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(health.PROVIDERS, "dice tower", "tablehub.devices.health:nonexistent")
    checks = health.run_checks(parse_config({}), simulated=True, only=["dice tower"])
    assert [(c.name, c.ok) for c in checks] == [("dice tower", False)]
    assert "the check itself failed" in checks[0].detail


def test_hung_voice_engine_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from tablehub.devices import voice

    class Hung(voice.RecordingEngine):
        def synthesize(self, text: str, path: Path) -> None:
            threading.Event().wait(5)

    monkeypatch.setattr(voice, "engine_factory", lambda *a: Hung)
    config = parse_config({"voice": {"timeout": 0.5}})
    checks = health.run_checks(config, simulated=True, only=["voice"])
    assert not checks[0].ok and "abandoned by the watchdog" in checks[0].detail
