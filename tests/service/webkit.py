"""Test support for the web page: a hub with its real web server on an ephemeral port, and a
real HTTP client (aiohttp) talking to it over TCP."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tablehub.observations import ManualEvent
from tablehub.referee.base import Referee, Setup
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal
from tablehub.service.web.board import DeviceProbe, DeviceState, PublicBoard
from tablehub.service.web.server import WebServer
from tablehub.service.web.token import ensure_token, token_path

DEVICES = {
    "camera": DeviceState("SIMULATED", "table scene"),
    "panel": DeviceState("ok", "GPIO"),
    "voice": DeviceState("failed", "no sound card"),
}


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


@dataclass
class Site:
    """A running hub session with its web server; ``get``/``post`` are real HTTP requests."""

    hub: Hub
    board: PublicBoard
    server: WebServer
    journal: Journal
    url: str
    token: str
    http: aiohttp.ClientSession

    @property
    def referee(self) -> Any:
        return self.hub.referee

    def auth(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        async with self.http.get(self.url + path, headers=headers) as response:
            return Reply(response.status, await response.read(), dict(response.headers))

    async def post(
        self,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        hdrs = headers if headers is not None else self.auth()
        async with self.http.post(self.url + path, data=data, headers=hdrs) as response:
            return Reply(response.status, await response.read(), dict(response.headers))

    async def served(self) -> dict[str, bytes]:
        """Everything the site serves now (with the token where needed), by path."""
        paths = ["/", "/fragment", "/api/status", "/control", "/page.js", "/control.js"]
        replies = {p: (await self.get(p)).body for p in paths}
        replies["/api/journal"] = (await self.get("/api/journal?after=0", self.auth())).body
        return replies

    def journal_kinds(self) -> list[str]:
        return [e.record["kind"] for e in self.journal.entries(self.hub.session_id)]


@contextlib.asynccontextmanager
async def running_site(
    tmp_path: Path,
    referee_cls: type[Referee],
    setup: Setup,
    devices: dict[str, DeviceState] | None = None,
    hub_devices: Devices | None = None,
    probes: dict[str, DeviceProbe] | None = None,
    **server_options: Any,
) -> AsyncIterator[Site]:
    """A new session of ``referee_cls`` refereed by a Hub (its loop running) with the web
    server on 127.0.0.1 and a free port."""
    journal = Journal(tmp_path / "journal.sqlite3")
    referee, session, resumed = open_session(journal, referee_cls, setup)
    hub = Hub(journal, referee, session, hub_devices or Devices())
    board = PublicBoard(hub, DEVICES if devices is None else devices, probes)
    token, _ = ensure_token(tmp_path)
    server = WebServer(hub, board, token_path(tmp_path), **server_options)
    (host, port), *_ = await server.start("127.0.0.1", 0)
    running = asyncio.create_task(hub.run(resumed))
    async with aiohttp.ClientSession() as http:
        site = Site(hub, board, server, journal, f"http://{host}:{port}", token, http)
        try:
            await settle(hub)
            yield site
        finally:
            await server.stop()
            hub.stop()
            await running
            await hub.close()
            journal.close()


async def settle(hub: Hub) -> None:
    """Wait until the hub has handled everything queued so far (a no-op observation goes
    through the queue behind them)."""
    assert await hub.submit(ManualEvent("settle")) == []
