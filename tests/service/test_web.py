"""The web page and control API over real HTTP: a Get Adler! session refereed by the Hub,
its web server on an ephemeral port, requests from a real client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp

from tablehub.observations import CardEvent
from tablehub.referee.base import Setup
from tablehub.referee.get_adler import AdlerReferee
from tablehub.service.web.token import write_new_token
from tests.service.webkit import Site, running_site

SEATS = ("Ann", "Bob", "Cy", "Dee")
SETUP = Setup("get-adler", SEATS, {}, seed=0)


def card(card_id: str, zone: str = "discard") -> CardEvent:
    return CardEvent("appeared", card_id, zone, True, 0.99, (100.0, 100.0))


def run(tmp_path: Path, test: Callable[[Site], Awaitable[None]], setup: Setup = SETUP) -> None:
    async def main() -> None:
        async with running_site(tmp_path, AdlerReferee, setup) as site:
            await test(site)

    asyncio.run(main())


async def discard(site: Site, card_id: str) -> None:
    accepted = await site.hub.submit(card(card_id))
    assert accepted and accepted[0][1]["kind"] == "moves", accepted


def test_status_api_and_page_show_the_public_game(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        reply = await site.get("/api/status")
        assert reply.status == 200 and reply.headers["Content-Type"].startswith("application/json")
        status = reply.json()
        engine = site.referee.engine
        assert status["game"] == "get-adler" and status["title"] == "Get Adler!"
        assert status["seats"] == list(SEATS)
        assert status["phase"] == "play" and status["round"] == engine.public_view()["hour"]
        assert status["round_name"] == "hour"
        assert status["turn"] == SEATS[engine.turn]
        said = [a["text"] for a in status["announcements"]]
        assert "It is one o'clock." in said and said[-1] == f"{SEATS[engine.turn]}, your turn."
        assert any("discards a pistol" in text for text in said)
        assert status["devices"]["camera"] == {"state": "SIMULATED", "detail": "table scene"}
        assert status["devices"]["voice"]["state"] == "failed"
        assert status["session"] == {"id": site.hub.session_id, "records": 2, "finished": False}
        assert status["public"]["discard"] == ["pistol-1"]

        page = await site.get("/")
        assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
        for text in ("Get Adler!", "Ann, Bob, Cy, Dee", "SIMULATED", "no sound card"):
            assert text in page.text, text
        assert f"<dt>turn</dt><dd>{SEATS[engine.turn]}</dd>" in page.text
        assert "<dt>hour</dt><dd>1</dd>" in page.text and "2 records journaled" in page.text
        assert "discards a pistol" in page.text
        assert page.headers["Cache-Control"] == "no-store"
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        fragment = await site.get("/fragment")
        assert fragment.text in page.text and "<html" not in fragment.text

    run(tmp_path, test)


def test_seat_names_and_texts_are_escaped_in_the_page(tmp_path: Path) -> None:
    seats = ("<b>Ann</b>", "Bob & Co", "Cy", "Dee")

    async def test(site: Site) -> None:
        page = (await site.get("/")).text
        assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "Bob &amp; Co" in page
        assert "<b>Ann</b>" not in page

    run(tmp_path, test, Setup("get-adler", seats, {}, seed=0))


def test_control_needs_the_right_token(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        before, kinds = site.referee.state(), site.journal_kinds()
        wrong = [{}, site.auth("x" * 43), {"Authorization": f"Basic {site.token}"}]
        wrong.append({"Authorization": site.token})  # no scheme
        wrong.append({"Authorization": f"Bearer {site.token}x"})
        for headers in wrong:
            for path, body in [("/api/undo", {"seq": 2}), ("/api/next", {})]:
                reply = await site.post(path, body, headers=headers)
                assert reply.status == 401, (path, headers, reply.body)
                assert "token" in reply.json()["error"]
                assert reply.headers["WWW-Authenticate"].startswith("Bearer")
            reply = await site.post(
                "/api/correct", {"seq": 2, "record": {"kind": "moves"}}, headers=headers
            )
            assert reply.status == 401
            assert (await site.get("/api/journal", headers)).status == 401
        assert site.referee.state() == before and site.journal_kinds() == kinds
        assert (await site.get("/api/journal", site.auth())).status == 200
        # a new token works at once, the old one no longer
        new = write_new_token(tmp_path)
        assert (await site.get("/api/journal", site.auth())).status == 401
        assert (await site.get("/api/journal", site.auth(new))).status == 200

    run(tmp_path, test)


def test_bad_requests_get_400_with_a_message_and_change_nothing(tmp_path: Path) -> None:
    cases: list[tuple[str, bytes, str]] = [
        ("/api/undo", b"{seq: 2}", "not JSON"),
        ("/api/undo", b"", "not JSON"),
        ("/api/undo", b"\xff\xfe", "not UTF-8"),
        ("/api/undo", b"[2]", "JSON object"),
        ("/api/undo", b"{}", '"seq" is missing'),
        ("/api/undo", b'{"seq": "2"}', "record number"),
        ("/api/undo", b'{"seq": true}', "record number"),
        ("/api/undo", b'{"seq": 0}', "record number"),
        ("/api/undo", b'{"seq": 2.0}', "record number"),
        ("/api/undo", b'{"seq": 2, "why": "misread"}', 'unknown field "why"'),
        ("/api/correct", b'{"seq": 2}', '"record" must be'),
        ("/api/correct", b'{"seq": 2, "record": {"move": 1}}', '"record" must be'),
        ("/api/correct", b'{"seq": 2, "record": {"kind": "undo", "seq": 1}}', "correction"),
        ("/api/correct", b'{"record": {"kind": "moves"}}', '"seq" is missing'),
        ("/api/next", b'{"seat": 1}', 'unknown field "seat"'),
        ("/api/next", b"nope", "not JSON"),
    ]

    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        before, kinds = site.referee.state(), site.journal_kinds()
        for path, raw, message in cases:
            reply = await site.post(path, raw=raw)
            assert reply.status == 400, (path, raw, reply.body)
            assert message in reply.json()["error"], (path, raw, reply.json())
        reply = await site.get("/api/journal?after=-1", site.auth())
        assert reply.status == 400 and "record number" in reply.json()["error"]
        huge = json.dumps({"seq": 2, "record": {"kind": "moves", "pad": "x" * 100_000}})
        reply = await site.post("/api/correct", raw=huge.encode())
        assert reply.status == 413 and "error" in reply.json()
        reply = await site.get("/api/undo")  # wrong method
        assert reply.status == 405 and "error" in reply.json()
        reply = await site.get("/nothing-here")
        assert reply.status == 404 and reply.json() == {"error": "Not Found"}
        assert site.referee.state() == before and site.journal_kinds() == kinds

    run(tmp_path, test)


def test_a_correction_posted_over_http_is_journaled_and_changes_the_game(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")  # a misread: it was a magnifier
        await discard(site, "adler:question")
        first = site.referee.engine.start
        assert site.referee.engine.public_view()["discard"] == ["pistol-1", "question-1"]
        move = {"kind": "discard", "player": first, "card": "magnifier-1"}
        record = {"kind": "moves", "moves": [move]}
        reply = await site.post("/api/correct", {"seq": 2, "record": record})
        assert reply.status == 200, reply.body
        answer = reply.json()
        assert answer["ok"] and answer["message"] == "record 2 corrected"
        last = site.journal.entries(site.hub.session_id)[-1]
        assert last.seq == answer["seq"]
        assert last.record == {"kind": "correct", "seq": 2, "record": record}
        assert last.observation is not None and last.observation["action"] == "correct"
        assert site.referee.engine.public_view()["discard"] == ["magnifier-1", "question-1"]
        status = (await site.get("/api/status")).json()
        assert status["announcements"][-1]["text"].startswith("Corrected. Carrying on.")
        assert status["public"]["discard"] == ["magnifier-1", "question-1"]
        listing = (await site.get("/api/journal?after=0", site.auth())).json()
        by_seq = {e["seq"]: e for e in listing["entries"]}
        assert by_seq[2]["changed"] == "corrected" and by_seq[answer["seq"]]["target"] == 2
        # the correction itself cannot be undone or corrected from the web
        reply = await site.post("/api/undo", {"seq": answer["seq"]})
        assert reply.status == 409 and "cannot be changed" in reply.json()["error"]

    run(tmp_path, test)


def test_an_undo_over_http_takes_the_record_back(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        turn = site.referee.engine.turn
        await discard(site, "adler:question")
        reply = await site.post("/api/undo", {"seq": 3})
        assert reply.status == 200 and reply.json()["message"] == "record 3 undone"
        assert site.referee.engine.public_view()["discard"] == ["pistol-1"]
        assert site.referee.engine.turn == turn
        assert site.journal_kinds()[-1] == "undo"

    run(tmp_path, test)


def test_a_refused_correction_answers_in_public_words_and_changes_nothing(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        await discard(site, "adler:question")
        before = site.referee.snapshot()
        reply = await site.post("/api/undo", {"seq": 2})  # the next turn would not replay
        assert reply.status == 409
        error = reply.json()["error"]
        assert "I cannot undo that." in error and "journal" in error
        rejected = site.journal.entries(site.hub.session_id)[-1].record
        assert rejected["kind"] == "rejected" and "does not replay" in rejected["reason"]
        assert rejected["reason"] not in error and "seat" not in error
        assert site.referee.snapshot() == before
        reply = await site.post("/api/undo", {"seq": 99})  # no such record
        assert reply.status == 409 and "record 99 cannot be changed" in reply.json()["error"]

    run(tmp_path, test)


def test_next_is_the_big_buttons_stand_in(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        reply = await site.post("/api/next", {})
        assert reply.status == 409 and "nothing is waiting" in reply.json()["error"]
        engine = site.referee.engine
        throwaways = ["adler:question"] * 8 + ["adler:magnifier"] * 8
        while engine.round < 4:
            await discard(site, throwaways.pop(0))
        arrester = engine.turn
        accused = (arrester + 2) % 4
        await site.hub.submit(card("adler:arrest", zone=f"seat-{accused + 1}"))
        assert engine.phase == "answer-arrest"
        reply = await site.post("/api/next")  # an empty body is fine here
        assert reply.status == 200 and reply.json()["ok"]
        said = [a["text"] for a in (await site.get("/api/status")).json()["announcements"]]
        assert any(f"An unjust arrest! {SEATS[arrester]} and {SEATS[accused]}" in s for s in said)
        assert engine.phase == "play"
        reply = await site.post("/api/next", {})  # the prompt is answered: a stale press
        assert reply.status == 409 and "changed nothing" in reply.json()["error"]

    run(tmp_path, test)


def test_the_journal_listing_gives_numbers_and_kinds_after_n(tmp_path: Path) -> None:
    async def test(site: Site) -> None:
        await discard(site, "adler:pistol")
        await discard(site, "adler:question")
        listing = (await site.get("/api/journal?after=0", site.auth())).json()
        assert listing["session"] == site.hub.session_id and listing["records"] == 3
        assert [(e["seq"], e["kind"]) for e in listing["entries"]] == [
            (1, "begin"),
            (2, "moves"),
            (3, "moves"),
        ]
        assert all(set(e) <= {"seq", "kind", "correctable"} for e in listing["entries"])
        later = (await site.get("/api/journal?after=2", site.auth())).json()
        assert [e["seq"] for e in later["entries"]] == [3] and later["latest"] == 3

    run(tmp_path, test)


def test_events_stream_the_status_at_each_change(tmp_path: Path) -> None:
    async def main() -> None:
        async with running_site(tmp_path, AdlerReferee, SETUP, heartbeat=0.05) as site:
            stream = await site.http.get(site.url + "/api/events")
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            first = await event(stream)
            assert first["version"] == site.board.version
            assert await stream.content.readuntil(b"\n\n") == b": still here\n\n"
            await discard(site, "adler:pistol")
            second = await event(stream)
            assert second["version"] == first["version"] + 1
            assert any("pistol" in str(a) for a in second["announcements"])
            assert second == (await site.get("/api/status")).json()
            stream.close()

    asyncio.run(main())


async def event(stream: aiohttp.ClientResponse) -> dict[str, object]:
    """The next ``status`` event (comments skipped)."""
    while True:
        chunk = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)).decode()
        if chunk.startswith("event: status\n"):
            data = chunk.split("\n")[1]
            assert data.startswith("data: ")
            result: dict[str, object] = json.loads(data[len("data: ") :])
            return result
