"""``tablehub run --simulated`` referees each game at its simulated table (players, cards
through the shared simulated camera, panel on mock pins), not only High Card."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tablehub.config import Config, SeatsConfig, VoiceConfig
from tablehub.service.clock import run_virtual
from tablehub.service.runner import SIMULATIONS, RunOptions, serve
from tablehub.service.sim_camera import SimCardReader


def _config(tmp_path: Path, seats: tuple[str, ...]) -> Config:
    return replace(
        Config(),
        seats=SeatsConfig(seats),
        data_dir=tmp_path,
        journal_path=tmp_path / "journal.sqlite3",
        voice=VoiceConfig(engine="recording", timeout=3600.0),
    )


@pytest.mark.parametrize(
    ("game", "seats"),
    [("chaos-in-gotham", ("Ann", "Bob")), ("almost-got-im", ("A", "B", "C", "D", "E"))],
)
def test_a_whole_game_at_the_games_simulated_table(
    game: str, seats: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert game in SIMULATIONS
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path))
    lines: list[str] = []

    def transcript(line: str) -> None:
        lines.append(line)

    opts = RunOptions(game=game, simulated=True, seed=3, transcript=transcript, fresh=True)
    if game == "almost-got-im":  # a short game: the round limit
        opts.options = {"max_rounds": 2, "deliberation_seconds": 5.0, "defence_seconds": 10.0}
    outcome = run_virtual(serve(_config(tmp_path, seats), opts))
    assert outcome.finished, lines[-20:]
    assert any("[hub] camera: simulated" in line for line in lines)
    assert sum("[journal]" in line for line in lines) > 20


def test_the_simulation_installs_the_shared_camera(tmp_path: Path) -> None:
    from tablehub.service.app import Devices

    lines: list[str] = []

    class FakeHub:
        def __init__(self) -> None:
            self.devices = Devices()
            self.transcript = lines.append
            self.output_watchers: list[object] = []
            self.after_handle: list[object] = []

    from tablehub.service.almost_got_im_demo import simulation

    hub = FakeHub()
    with pytest.raises(RuntimeError, match="mock pins"):
        simulation(_config(tmp_path, ("A", "B", "C", "D")), 1, lines.append)(hub, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="4 to 7 seats"):
        simulation(_config(tmp_path, ("A", "B")), 1, lines.append)
    assert not isinstance(hub.devices.reader, SimCardReader)
