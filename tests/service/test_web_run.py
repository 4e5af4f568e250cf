"""The web server as ``tablehub run`` starts it: the [web] configuration, the control token
file and command, the hub's ``submit``, and the server's life inside ``serve``."""

from __future__ import annotations

import asyncio
import os
import socket
import stat
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import pytest

from tablehub.cli import main
from tablehub.config import ConfigError, parse_config, to_toml
from tablehub.observations import ManualEvent, PanelEvent
from tablehub.referee.base import Setup
from tablehub.referee.example import HighCardReferee
from tablehub.service import runner
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal
from tablehub.service.web.token import (
    TokenError,
    authorized,
    ensure_token,
    read_token,
    token_path,
    write_new_token,
)

# --- configuration ---------------------------------------------------------------------


def test_web_can_be_switched_off_and_a_bad_switch_is_named() -> None:
    assert parse_config({}).web.enabled is True
    assert parse_config({"web": {"enabled": False}}).web.enabled is False
    assert "enabled = true" in to_toml(parse_config({}))
    with pytest.raises(ConfigError) as err:
        parse_config({"web": {"enabled": "no", "port": 80}})
    assert 'web.enabled = "no": expected true or false' in err.value.problems
    assert any(p.startswith("web.port: unknown key") for p in err.value.problems)


# --- the token ---------------------------------------------------------------------------


def test_the_token_is_made_once_private_and_kept(tmp_path: Path) -> None:
    old = os.umask(0o000)  # even a careless umask gives a private file
    try:
        token, made = ensure_token(tmp_path / "data")
    finally:
        os.umask(old)
    path = token_path(tmp_path / "data")
    assert made and len(token) >= 43
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_token(tmp_path / "data") == (token, False)
    new = write_new_token(tmp_path / "data")
    assert new != token and read_token(path) == new
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # someone widened it: reading makes it private again
    assert read_token(path) == new and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_token_file_is_refused_with_a_message(tmp_path: Path) -> None:
    token_path(tmp_path).write_text("short\n")
    with pytest.raises(TokenError, match=r"damaged.*tablehub token --new"):
        ensure_token(tmp_path)
    token_path(tmp_path).write_text("a" * 40 + " ;\n")
    with pytest.raises(TokenError, match="damaged"):
        read_token(token_path(tmp_path))


def test_authorization_header_forms() -> None:
    token = "t" * 43
    assert authorized(f"Bearer {token}", token)
    assert authorized(f"bearer  {token} ", token)
    for header in (None, "", token, f"Basic {token}", f"Bearer {token[:-1]}", "Bearer ", "Bearer"):
        assert not authorized(header, token), header
    assert not authorized("Bearer tëken", token)  # not ASCII: no crash, no match


def test_the_token_command_shows_makes_and_replaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TABLEHUB_DATA_DIR", str(tmp_path))
    assert main(["token"]) == 0
    first = capsys.readouterr().out.strip()
    assert first == read_token(token_path(tmp_path))
    assert main(["token"]) == 0 and capsys.readouterr().out.strip() == first
    assert main(["token", "--new"]) == 0
    second = capsys.readouterr().out.strip()
    assert second != first and second == read_token(token_path(tmp_path))
    assert main(["token", "--path"]) == 0
    assert capsys.readouterr().out.strip() == str(token_path(tmp_path))
    token_path(tmp_path).write_text("garbage")
    assert main(["token"]) == 1
    assert "damaged" in capsys.readouterr().err


# --- Hub.submit --------------------------------------------------------------------------


def test_submit_answers_with_the_records_in_queue_order(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    setup = Setup("high-card", ("Ann", "Bob"), {"rounds": 1})
    referee, session, resumed = open_session(journal, HighCardReferee, setup)

    async def scenario() -> None:
        hub = Hub(journal, referee, session, Devices())
        task = asyncio.create_task(hub.run(resumed))
        hub.post(PanelEvent("seat_chosen", seat=1, request="first"))  # queued first
        answer = await hub.submit(ManualEvent("nothing"))
        assert answer == []
        assert referee.history[-1][1]["kind"] == "move"  # handled before the submitted one
        hub.stop()
        await task
        pending = hub.submit(ManualEvent("never handled"))
        await hub.close()
        assert pending.cancelled()  # the hub stopped: the sender hears so

    asyncio.run(scenario())
    journal.close()


# --- inside `tablehub run` ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class WatchedHub(Hub):
    """The service's Hub, remembered so the test can look at it and stop it."""

    made: ClassVar[list[WatchedHub]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        WatchedHub.made.append(self)


def serve_get_adler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, web: dict[str, Any], fetch: bool = True
) -> tuple[list[str], dict[str, Any] | None]:
    """Run the service (a Get Adler! session, which waits for the table) with ``web``; read
    /api/status while it runs (``fetch``), then stop it."""
    WatchedHub.made.clear()
    monkeypatch.setattr(runner, "Hub", WatchedHub)
    config = parse_config(
        {"voice": {"engine": "recording"}, "seats": {"count": 4}, "web": web},
        env={"TABLEHUB_DATA_DIR": str(tmp_path)},
    )
    lines: list[str] = []
    opts = runner.RunOptions(game="get-adler", simulated=True, transcript=lines.append, web=True)

    async def scenario() -> dict[str, Any] | None:
        service = asyncio.create_task(runner.serve(config, opts))
        while not any(line.startswith("[web]") for line in lines):
            await asyncio.sleep(0.01)
        status: dict[str, Any] | None = None
        if fetch:
            async with (
                aiohttp.ClientSession() as http,
                http.get(f"http://{web['bind']}/api/status") as reply,
            ):
                status = await reply.json()
        WatchedHub.made[0].stop()
        await service
        if fetch:
            with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the hub
                async with aiohttp.ClientSession() as http:
                    await http.get(f"http://{web['bind']}/api/status")
        return status

    return lines, asyncio.run(scenario())


def test_run_serves_the_page_and_prints_the_new_token_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bind = f"127.0.0.1:{free_port()}"
    lines, status = serve_get_adler(tmp_path, monkeypatch, {"bind": bind})
    token = read_token(token_path(tmp_path))
    assert token is not None
    assert f"[web] status page on http://{bind}/" in lines
    assert sum(token in line for line in lines) == 1  # printed once, when it was made
    assert status is not None and status["game"] == "get-adler"
    assert status["devices"]["panel"]["state"] == "SIMULATED"
    assert status["devices"]["voice"]["state"] == "SIMULATED"
    assert status["devices"]["tower"]["state"] in ("not in use", "SIMULATED", "failed")
    lines, _ = serve_get_adler(tmp_path, monkeypatch, {"bind": bind})  # the session resumes
    assert any(line.startswith("[hub] resumed session") for line in lines)
    assert not any(token in line for line in lines)
    assert f"[web] control token in {token_path(tmp_path)} ('tablehub token' shows it)" in lines


def test_run_without_web_or_with_a_busy_port_still_referees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _ = serve_get_adler(tmp_path, monkeypatch, {"enabled": False}, fetch=False)
    assert "[web] off (web.enabled = false)" in lines
    assert "[journal] #1 begin" in lines
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        bind = f"127.0.0.1:{busy.getsockname()[1]}"
        lines, _ = serve_get_adler(tmp_path, monkeypatch, {"bind": bind}, fetch=False)
    assert any(line.startswith(f"[web] not started: cannot listen on {bind}") for line in lines)
    assert any(line.startswith("[hub] resumed session") for line in lines)
