"""The web server: aiohttp in the hub's own asyncio loop (no threads), public reads, token
controls.

Routes (every answer ``Cache-Control: no-store``; errors are JSON ``{"error": ...}``, never
a traceback):

=====================  =====  ===========================================================
``GET /``              open   the status page (HTML)
``GET /fragment``      open   its changing part, for the page's script
``GET /api/status``    open   the public status (JSON, ``PublicBoard.status``)
``GET /api/events``    open   server-sent events: ``status`` with the status, at each change
``GET /control``       open   the corrections page (it asks for the token, then uses the API)
``GET /api/journal``   token  ``?after=N``: records after journal seq N, number and kind only
``POST /api/undo``     token  ``{"seq": N}``: undo record N
``POST /api/correct``  token  ``{"seq": N, "record": {...}}``: replace record N
``POST /api/next``     token  the big "next" button's stand-in
=====================  =====  ===========================================================

Controls become observations on the hub's queue (``Hub.submit``): a ``ManualEvent`` undo or
correct, a ``PanelEvent("next")`` for the request the referee is waiting on.  So they are
decided by the referee, journaled and performed like everything else, and the answer says
what the referee did: 200 when it accepted, 409 with the referee's *public* words when it
refused (its full reason may name secrets; it stays in the journal).  During a Blackout
nothing is controlled from the web.  Bad JSON or fields: 400, nothing changes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from tablehub.observations import ManualEvent, Observation, PanelEvent
from tablehub.referee.base import META_KINDS
from tablehub.service.app import Accepted, Hub
from tablehub.service.web import page
from tablehub.service.web.board import PublicBoard
from tablehub.service.web.token import TokenError, authorized, read_token

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024  # a correction is a small JSON record
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Refused(Exception):
    """An answer other than success: HTTP ``status`` with a message for a person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class WebServer:
    """The page and API of one hub session."""

    def __init__(
        self,
        hub: Hub,
        board: PublicBoard,
        token_file: Path,
        answer_timeout: float = 10.0,
        heartbeat: float = 15.0,
        max_streams: int = 32,
        device_poll: float = 2.0,
    ) -> None:
        self.hub = hub
        self.device_poll = device_poll  # seconds between looks at the board's live devices
        self._poller: asyncio.Task[None] | None = None
        self.board = board
        self.token_file = token_file
        self.answer_timeout = answer_timeout
        self.heartbeat = heartbeat
        self.max_streams = max_streams
        self.streams = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.app = self._make_app()

    # --- start and stop -----------------------------------------------------------------
    async def start(self, host: str, port: int) -> list[tuple[str, int]]:
        """Listen on ``host:port`` (port 0: any free one); the (host, port)s listened on.
        ``OSError`` when the address cannot be used."""
        runner = web.AppRunner(self.app, shutdown_timeout=1.0)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.board.probes:
            self._poller = asyncio.get_running_loop().create_task(self._poll_devices())
        return [(str(a[0]), int(a[1])) for a in runner.addresses]

    async def _poll_devices(self) -> None:
        """A device that changes by itself (the tower unplugged, reconnected) changes no
        record, so the board is refreshed on a timer too; it wakes pages only on a change."""
        while not self._closing:
            await asyncio.sleep(self.device_poll)
            self.board.refresh()

    async def stop(self) -> None:
        self._closing = True
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None
        self.board.close()  # live pages' event streams end
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[_guard], client_max_size=MAX_BODY)
        app.router.add_get("/", self.index)
        app.router.add_get("/fragment", self.fragment)
        app.router.add_get("/control", self.control)
        app.router.add_get("/page.css", _static(page.CSS, "text/css"))
        app.router.add_get("/page.js", _static(page.PAGE_JS, "text/javascript"))
        app.router.add_get("/control.js", _static(page.CONTROL_JS, "text/javascript"))
        app.router.add_get("/api/status", self.api_status)
        app.router.add_get("/api/events", self.api_events)
        app.router.add_get("/api/journal", self.api_journal)
        app.router.add_post("/api/undo", self.api_undo)
        app.router.add_post("/api/correct", self.api_correct)
        app.router.add_post("/api/next", self.api_next)
        return app

    # --- open to everyone ---------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        return _html(page.page(self.board.status()))

    async def fragment(self, request: web.Request) -> web.StreamResponse:
        return _html(page.main(self.board.status()))

    async def control(self, request: web.Request) -> web.StreamResponse:
        return _html(page.control_page())

    async def api_status(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.board.status_json(), content_type="application/json")

    async def api_events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the status now, then again at every change; a comment line
        every ``heartbeat`` seconds keeps proxies and phones from dropping the stream."""
        if self.streams >= self.max_streams:
            raise Refused(503, "too many live pages are open; reload later")
        response = web.StreamResponse(headers={**HEADERS, "X-Accel-Buffering": "no"})
        response.content_type = "text/event-stream"
        response.charset = "utf-8"
        await response.prepare(request)
        self.streams += 1
        try:
            version: int | None = None
            while not self._closing:
                if self.board.version != version:
                    version = self.board.version
                    data = self.board.status_json()
                    await response.write(f"event: status\ndata: {data}\n\n".encode())
                else:
                    await response.write(b": still here\n\n")
                await self.board.wait_change(version, self.heartbeat)
        except (ConnectionResetError, ConnectionError):
            pass  # the page went away
        finally:
            self.streams -= 1
        return response

    # --- with the token -----------------------------------------------------------------
    def _authorize(self, request: web.Request) -> None:
        try:
            token = read_token(self.token_file)
        except TokenError as err:
            log.error("web control refused: %s", err)
            raise Refused(
                503,
                "control is unavailable: the token file is damaged or "
                "unreadable (see the service log)",
            ) from None
        if token is None or not authorized(request.headers.get("Authorization"), token):
            raise Refused(
                401,
                "a valid control token is needed: Authorization: Bearer <token>"
                " ('tablehub token' on the hub shows it)",
            )

    async def api_journal(self, request: web.Request) -> web.StreamResponse:
        self._authorize(request)
        raw = request.query.get("after", "0")
        if not raw.isdigit() or len(raw) > 18:
            raise Refused(400, f"after={_short(raw)}: expected a record number (0 or more)")
        return _json(self.board.journal(int(raw)))

    async def api_undo(self, request: web.Request) -> web.StreamResponse:
        self._authorize(request)
        body = await _body(request, {"seq"})
        seq = _seq(body)
        self._may_correct(seq)
        accepted = await self._submit(ManualEvent("undo", {"seq": seq}))
        return self._outcome(accepted, "undo", seq)

    async def api_correct(self, request: web.Request) -> web.StreamResponse:
        self._authorize(request)
        body = await _body(request, {"seq", "record"})
        seq = _seq(body)
        record = body.get("record")
        if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
            raise Refused(400, '"record" must be a JSON object with a string "kind"')
        if record["kind"] in META_KINDS:
            raise Refused(400, f'"record" may not be a correction itself ({record["kind"]})')
        self._may_correct(seq)
        accepted = await self._submit(ManualEvent("correct", {"seq": seq, "record": record}))
        return self._outcome(accepted, "correct", seq)

    async def api_next(self, request: web.Request) -> web.StreamResponse:
        self._authorize(request)
        await _body(request, set(), optional=True)
        if self.board.night:
            raise Refused(409, "the Blackout is running: only the panel's button works now")
        waiting = self.board.next_request
        if waiting is None:
            raise Refused(409, "nothing is waiting for the next button")
        accepted = await self._submit(PanelEvent("next", request=waiting))
        refused = [r for _, r in accepted if r.get("kind") == "rejected"]
        if refused:
            raise Refused(409, f"refused: {refused[0].get('public', 'not now')}")
        if not accepted:
            raise Refused(409, "the press changed nothing: nothing is waiting for it now")
        return _json({"ok": True, "message": "next pressed"})

    # --- helpers ------------------------------------------------------------------------
    def _may_correct(self, seq: int) -> None:
        if self.board.night:
            raise Refused(409, "the Blackout is running: corrections wait until it is over")
        if not self.board.correctable(seq):
            raise Refused(
                409,
                f"record {seq} cannot be changed from here: see GET /api/journal for the "
                "records (corrections and a Blackout's sealed records cannot be changed)",
            )

    async def _submit(self, observation: Observation) -> list[Accepted]:
        """Queue ``observation`` and wait for the hub to handle it (in its turn)."""
        if self._closing or self.hub.finished:
            raise Refused(503, "the session is over or the hub is stopping")
        future = self.hub.submit(observation)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.answer_timeout)
        except TimeoutError:
            raise Refused(
                503,
                "the hub has not handled it yet (busy?); it stays queued: check /api/journal",
            ) from None
        except asyncio.CancelledError:
            if future.cancelled():  # the hub stopped before handling it
                raise Refused(503, "the hub stopped before handling it") from None
            raise

    def _outcome(self, accepted: list[Accepted], action: str, seq: int) -> web.StreamResponse:
        for new_seq, record in accepted:
            if record.get("kind") == action:
                done = "undone" if action == "undo" else "corrected"
                return _json({"ok": True, "message": f"record {seq} {done}", "seq": new_seq})
        for new_seq, record in accepted:
            if record.get("kind") == "rejected":
                said = str(record.get("public") or f"I cannot {action} that.")
                raise Refused(
                    409,
                    f"refused: {said} The game does not replay with that change; the reason "
                    f"is in the hub's journal (record {new_seq}).",
                )
        raise Refused(409, f"the {action} of record {seq} changed nothing")


# --- plumbing ---------------------------------------------------------------------------


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer gets the safety headers; every error is a short JSON message."""
    try:
        response = await handler(request)
    except Refused as refused:
        response = _error(refused.status, refused.message)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = _error(exc.status, exc.reason)
        if exc.status == 405:
            response.headers["Allow"] = exc.headers.get("Allow", "")
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("web: %s %s failed", request.method, request.path)
        response = _error(500, "internal error (the hub's log has the details)")
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


def _error(status: int, message: str) -> web.Response:
    response = web.Response(
        status=status, text=json.dumps({"error": message}), content_type="application/json"
    )
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tablehub"'
    return response


def _json(data: Any) -> web.Response:
    return web.Response(text=json.dumps(data, sort_keys=True), content_type="application/json")


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html", charset="utf-8")


def _static(text: str, content_type: str) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(text=text, content_type=content_type, charset="utf-8")

    return handler


async def _body(request: web.Request, fields: set[str], optional: bool = False) -> dict[str, Any]:
    """The request's JSON object, with only ``fields`` in it (400 otherwise)."""
    raw = await request.read()  # over MAX_BODY: 413 from aiohttp
    if not raw.strip() and optional:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise Refused(
            400, f"the body is not JSON: {err.msg} (line {err.lineno}, column {err.colno})"
        ) from None
    if not isinstance(data, dict):
        raise Refused(400, 'the body must be a JSON object, such as {"seq": 12}')
    unknown = sorted(set(data) - fields)
    if unknown:
        allowed = ", ".join(f'"{f}"' for f in sorted(fields)) or "none"
        raise Refused(400, f"unknown field {_short(unknown[0])} (allowed: {allowed})")
    return data


def _seq(body: dict[str, Any]) -> int:
    if "seq" not in body:
        raise Refused(400, '"seq" is missing: the number of the record (see /api/journal)')
    seq = body["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise Refused(400, f'"seq" = {_short(seq)}: expected a record number (1 or more)')
    return seq


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
