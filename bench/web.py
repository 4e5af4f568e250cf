"""Web page figures, over real HTTP on 127.0.0.1 against a Get Adler! hub.

* ``/api/status`` and ``/`` latency (p50/p95) and sequential and 8-client throughput;
* a change reaching live pages: a card read by the hub until the server-sent event arrives
  at each of 20 open streams (p50/p95);
* a correction's round trip: ``POST /api/undo`` until the answer (journaled and applied);
* what the page costs the hub: the board's work per handled observation.

``python -m bench.web [--requests N]``; ``--quick`` for a first look.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from tablehub.observations import CardEvent
from tablehub.referee.base import Setup
from tablehub.referee.get_adler import AdlerReferee
from tablehub.service.app import Devices, Hub, open_session
from tablehub.service.journal import Journal
from tests.service.webkit import Site, running_site

SETUP = Setup("get-adler", ("Ann", "Bob", "Cy", "Dee", "Eve"), {}, seed=0)
CARDS = ["adler:question"] * 10 + ["adler:magnifier"] * 10 + ["adler:document"] * 10


def card(card_id: str) -> CardEvent:
    return CardEvent("appeared", card_id, "discard", True, 0.99, (100.0, 100.0))


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {statistics.median(ordered) * 1000:6.2f} ms  p95 {p95 * 1000:6.2f} ms"


async def latency(site: Site, path: str, count: int) -> None:
    times = []
    started = time.perf_counter()
    for _ in range(count):
        t0 = time.perf_counter()
        assert (await site.get(path)).status == 200
        times.append(time.perf_counter() - t0)
    rate = count / (time.perf_counter() - started)
    print(f"GET {path:12s} {ms(times)}  {rate:6.0f} requests/s (one client)")


async def parallel(site: Site, path: str, count: int, clients: int = 8) -> None:
    async def client() -> None:
        for _ in range(count // clients):
            assert (await site.get(path)).status == 200

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    rate = (count // clients) * clients / (time.perf_counter() - started)
    print(f"GET {path:12s} {rate:6.0f} requests/s ({clients} clients at once)")


async def fan_out(site: Site, changes: int, streams: int = 20) -> None:
    responses = [await site.http.get(site.url + "/api/events") for _ in range(streams)]
    for response in responses:  # the first event: the status at connection
        await response.content.readuntil(b"\n\n")
    times: list[float] = []

    async def arrival(response: aiohttp.ClientResponse, since: float) -> None:
        while not (await response.content.readuntil(b"\n\n")).startswith(b"event: status"):
            pass
        times.append(time.perf_counter() - since)

    for i in range(changes):
        t0 = time.perf_counter()
        await site.hub.submit(card(CARDS[i % len(CARDS)]))
        await asyncio.gather(*(arrival(r, t0) for r in responses))
    for response in responses:
        response.close()
    print(f"card read -> event at {streams} live pages   {ms(times)}")


async def undo_round_trip(site: Site, count: int) -> None:
    times = []
    for i in range(count):
        await site.hub.submit(card(CARDS[i % len(CARDS)]))
        last = site.referee.history[-1][0]
        t0 = time.perf_counter()
        reply = await site.post("/api/undo", {"seq": last})
        times.append(time.perf_counter() - t0)
        assert reply.status == 200, reply.body
    print(f"POST /api/undo (journaled, replayed) {ms(times)}")


async def board_cost(folder: Path, count: int) -> None:
    """The board's own work per handled observation (public status rebuilt, the shadow
    referee's replay of the new records), against the hub's whole step."""
    from tablehub.service.web.board import PublicBoard

    journal = Journal(folder / "cost.sqlite3")
    referee, session, _ = open_session(journal, AdlerReferee, SETUP)
    hub = Hub(journal, referee, session, Devices())
    board = PublicBoard(hub)
    spent: list[float] = []
    refresh = board.refresh

    def timed() -> None:
        t0 = time.perf_counter()
        refresh()
        spent.append(time.perf_counter() - t0)

    hub.after_handle[-1] = lambda _hub: timed()
    task = asyncio.create_task(hub.run(False))
    steps: list[float] = []
    for i in range(count):
        t0 = time.perf_counter()
        await hub.submit(card(CARDS[i % len(CARDS)]))
        steps.append(time.perf_counter() - t0)
    hub.stop()
    await task
    await hub.close()
    journal.close()
    print(f"hub step per card read (journal fsync included) {ms(steps)}")
    print(f"  of which the web board (status + shadow replay) {ms(spent)}")


async def main(requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with running_site(folder / "site", AdlerReferee, SETUP) as site:
            for i in range(12):  # a game under way
                await site.hub.submit(card(CARDS[i]))
            await latency(site, "/api/status", requests)
            await latency(site, "/", requests)
            await parallel(site, "/api/status", requests)
            await fan_out(site, max(10, requests // 20))
            await undo_round_trip(site, max(10, requests // 20))
        await board_cost(folder, 25)  # a five-player game has 35 turns


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per figure")
    parser.add_argument("--quick", action="store_true", help="200 requests per figure")
    args = parser.parse_args()
    asyncio.run(main(200 if args.quick else args.requests))
