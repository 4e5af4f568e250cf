"""``tablehub run --simulated --game dice-tray``: the virtual tower process throws, the
simulated camera over the tray shows the same dice to the real pip counter, and the hub
accepts only what both read - which must be the dice as they lay."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tablehub.config import Config, parse_config
from tablehub.devices.dice_tower_sim import parse_shown
from tablehub.devices.panel import PanelHands
from tablehub.referee.base import AskTable, Output, Say, Show
from tablehub.service import runner
from tablehub.service.app import Hub
from tablehub.service.dice_tray_sim import simulation
from tablehub.service.runner import Outcome, RunOptions, serve

Simulation = Callable[[Hub, PanelHands | None], None]


def _run(tmp_path: Path, seed: int, options: dict[str, Any]) -> tuple[Outcome, list[str]]:
    """``tablehub run --simulated --game dice-tray`` to its end, and its transcript."""
    config = parse_config(
        {"voice": {"engine": "recording"}, "seats": {"count": 2}, "camera": {"fps": 20}},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    lines: list[str] = []
    opts = RunOptions(
        game="dice-tray", simulated=True, seed=seed, options=options, transcript=lines.append
    )
    outcome = asyncio.run(asyncio.wait_for(serve(config, opts), 40))
    assert outcome.finished, lines[-15:]
    return outcome, lines


def test_simulated_dice_tray_accepts_the_throws_the_tower_showed(tmp_path: Path) -> None:
    outcome, lines = _run(tmp_path, 5, {"throws": 3, "roll_seconds": 0.05})

    shown: list[list[tuple[int, str]]] = []  # the dice as they lay, at each accepted throw
    last: list[tuple[int, str]] = []
    for line in lines:
        if line.startswith("[table] throw "):  # the tower's "shown" line, in the transcript
            last = sorted((int(v), c) for c, v in re.findall(r"(\w+) (\d)", line.split("show")[1]))
        elif re.fullmatch(r"\[journal\] #\d+ dice", line):
            shown.append(last)
    accepted = [sorted((v, c) for v, c in throw) for throw in outcome.state["game"]["throws"]]
    assert len(accepted) == 3
    assert accepted == shown
    assert any("3 accepted, 3 of them as the dice lay" in line for line in lines)

    # the tower process was stopped with the hub (it removes its device link on exit)
    [started] = [line for line in lines if "virtual dice tower (SIMULATED) on" in line]
    assert not Path(started.split(" on ")[1].split(",")[0]).exists()


def test_a_shown_line_is_parsed_or_refused() -> None:
    assert parse_shown("shown 3 6:green,2:purple") == (3, [(6, "green"), (2, "purple")])
    for bad in ("shown 3", "shown 3 7:green", "shown 3 6:blue", "result 3 6:green"):
        with pytest.raises(ValueError):
            parse_shown(bad)


def pressing(config: Config, seed: int, say: Callable[[str], None]) -> Simulation:
    """The tray's simulation, and someone pressing "next" whenever the hub wants a throw."""
    tray = simulation(config, seed, say)

    def install(hub: Hub, hands: PanelHands | None) -> None:
        tray(hub, hands)
        assert hands is not None

        def press(out: Output) -> None:
            if isinstance(out, AskTable | Show) or (isinstance(out, Say) and "Roll" in out.text):
                hub.loop.call_later(0.05, hands.press_next)

        hub.output_watchers.append(press)

    return install


def test_with_roll_seconds_0_the_player_throws_on_the_next_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(runner.SIMULATIONS, "dice-tray", f"{__name__}:pressing")
    _, lines = _run(tmp_path, 2, {"throws": 2, "roll_seconds": 0})
    presses = sum("[table] next pressed" in line for line in lines)
    throws = sum(line.startswith("[table] throw ") for line in lines)
    assert presses >= throws >= 2
