"""The feed hook (how the dice tower plugs in): a registered source posts observations."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from tablehub.config import Config, parse_config
from tablehub.observations import ManualEvent, Observation
from tablehub.service import runner

STARTED: list[str] = []


def make_feed(
    config: Config, simulated: bool, say: Callable[[str], None]
) -> Callable[[Callable[[Observation], None]], object]:
    async def feed(post: Callable[[Observation], None]) -> None:
        STARTED.append("dice")
        post(ManualEvent("hello-from-the-tower"))
        await asyncio.Event().wait()  # runs until the hub cancels it

    return feed


def broken_feed(config: Config, simulated: bool, say: Callable[[str], None]) -> None:
    raise RuntimeError("no tower on /dev/tablehub-dice")


def test_registered_feeds_run_and_broken_ones_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(runner.FEEDS, "dice", "tests.service.test_feeds:make_feed")
    monkeypatch.setitem(runner.FEEDS, "other", "tests.service.test_feeds:broken_feed")
    config = parse_config(
        {"voice": {"engine": "recording"}, "seats": {"count": 2}, "camera": {"fps": 20}},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    lines: list[str] = []
    opts = runner.RunOptions(
        game="high-card",
        simulated=True,
        options={"rounds": 1, "turn_seconds": 0.5},
        transcript=lines.append,
        pace=0.01,
    )
    outcome = asyncio.run(runner.serve(config, opts))
    assert outcome.finished and STARTED == ["dice"]
    assert any("other not available: no tower on /dev/tablehub-dice" in line for line in lines)
