"""Nothing the web page serves may carry a secret.

* The hub as Dealer over the real Almost Got 'Im engine (roles, hands, private events, a
  dealer's Show): every response the site serves, and every server-sent event, is checked
  at every step for the role and hand-card names that are secret at that moment.
* Secrets swapped (every player's hidden cards and role re-drawn, the public view kept):
  the served bytes do not change.
* A night (a schedule playing, as the Blackout): what a player does in it is sealed: two
  sessions that differ only in the night's secret actions serve the same bytes after it,
  and nothing is controlled from the web while it plays.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any, ClassVar

import aiohttp

from tablehub.devices.schedule import ScheduleBuilder
from tablehub.games import load_game
from tablehub.games.base import PUBLIC
from tablehub.observations import ManualEvent, Observation, PanelEvent, TimerEvent
from tablehub.referee.base import (
    Audience,
    Output,
    PlaySchedule,
    PrivateLight,
    Record,
    RecordError,
    Referee,
    Say,
    Setup,
    Show,
    WaitNext,
)
from tests.service.webkit import Site, running_site

AGI = load_game("almost-got-im")
SEATS = ("Ann", "Bob", "Cy", "Dee", "Eve")


class DealerReferee(Referee):
    """The hub as Dealer: it deals (chance moves), so it knows every role and hand.  Moves
    come as ``ManualEvent("play", {"move": ...})``; private events go to their seat's
    ``Show``, the whole truth to the dealer's ``Show`` — places the page must never read."""

    game: ClassVar[str] = "dealer-test"

    def reset(self) -> None:
        self.engine = AGI.new_initial_state(len(self.setup.seats), {})

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, ManualEvent) and observation.action == "play":
            move = observation.data["move"]
            reason = self.engine.check(move)
            if reason is not None:
                return self.reject(observation, reason, "That is not possible now.", "play")
            return [{"kind": "move", "move": move}]
        return []

    def apply_record(self, record: Record) -> list[Output]:
        if record.get("kind") != "move":
            raise RecordError(f"no record kind {record.get('kind')!r}")
        outputs: list[Output] = []
        for event in self.engine.apply(record["move"]):
            audience = event.get("audience")
            if audience == PUBLIC:
                outputs += [Say(f"{event['kind']}."), Show("public", str(event["kind"]))]
            else:
                outputs.append(Show(str(audience), json.dumps(event), dict(event)))
                if isinstance(audience, int):
                    outputs.append(PrivateLight("green", 1.0, audience))
        outputs.append(Show("dealer", "the truth", {"state": self.engine.to_json()}))
        return outputs

    def snapshot(self) -> Any:
        return self.engine.to_json()

    def is_finished(self) -> bool:
        return self.engine.is_terminal()

    def status(self, audience: Audience) -> dict[str, Any]:
        return self.engine.public_view()


def secrets_now(referee: DealerReferee, public: set[str]) -> set[str]:
    """Role names and hand cards the Dealer knows that nothing public has shown so far."""
    state = referee.engine.to_json()
    tokens = {r for r in state["roles"] + state["unused"] if r}
    tokens |= {c for hand in state["hands"] for c in hand if c}
    return {t for t in tokens if t.lower() not in public}


def words(text: str) -> set[str]:
    """The words of ``text`` as card ids and role names are written (``agi:hearts-10``)."""
    return {w.lower() for w in re.findall(r"[\w:-]+", text)}


def test_no_role_or_hand_reaches_any_served_response(tmp_path: Path) -> None:
    rng = random.Random(7)
    stream_text: list[str] = []
    checked = 0

    async def main() -> None:
        nonlocal checked
        setup = Setup("dealer-test", SEATS, {}, seed=3)
        async with running_site(tmp_path, DealerReferee, setup) as site:
            async with site.http.get(site.url + "/api/events") as stream:
                reader = asyncio.create_task(read_events(stream, stream_text))
                referee: DealerReferee = site.referee
                public: set[str] = set()
                for _ in range(110):
                    moves = referee.engine.legal_moves()
                    if referee.engine.is_terminal() or not moves:
                        break
                    accepted = await site.hub.submit(
                        ManualEvent("play", {"move": rng.choice(moves)})
                    )
                    assert [r["kind"] for _, r in accepted] == ["move"]
                    public |= words(json.dumps(referee.engine.public_view()))
                    public |= words(" ".join(a["text"] for a in site.board.announcements))
                    secret = secrets_now(referee, public)
                    assert secret, "nothing secret to look for"
                    truth = words(json.dumps(referee.snapshot()) + json.dumps(site.hub.status))
                    assert {s.lower() for s in secret} <= truth  # a leak would be seen
                    await until_streamed(site, stream_text)
                    served = await site.served()
                    served["/api/events"] = "".join(stream_text).encode()
                    stream_text.clear()
                    for path, body in served.items():
                        said = words(body.decode())
                        leaked = sorted(s for s in secret if s.lower() in said)
                        assert not leaked, f"{path} serves the secret {leaked}"
                    checked += 1
                reader.cancel()
            assert referee.engine.public_view()["phase"] not in ("setup",)  # got into play

    asyncio.run(main())
    assert checked >= 100


async def read_events(stream: aiohttp.ClientResponse, into: list[str]) -> None:
    while True:
        into.append((await stream.content.readuntil(b"\n\n")).decode())


async def until_streamed(site: Site, received: list[str]) -> None:
    """Wait until the event stream has delivered the board's current version."""
    version = f'"version": {site.board.version}'
    for _ in range(500):
        if any(version in chunk for chunk in received):
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"the event stream never sent {version}")


def test_swapping_every_secret_changes_no_served_byte(tmp_path: Path) -> None:
    rng = random.Random(11)

    async def main() -> None:
        setup = Setup("dealer-test", SEATS, {}, seed=3)
        async with running_site(tmp_path, DealerReferee, setup) as site:
            referee: DealerReferee = site.referee
            while referee.engine.public_view()["phase"] != "turn" or referee.engine.round < 2:
                move = rng.choice(referee.engine.legal_moves())
                await site.hub.submit(ManualEvent("play", {"move": move}))
            before = await site.served()
            truth, public = referee.engine.to_json(), referee.engine.public_view()
            for player in range(len(SEATS)):
                referee.engine = referee.engine.resample_hidden(player, random.Random(player))
            swapped = referee.engine.to_json()
            assert swapped["hands"] != truth["hands"] and swapped["roles"] != truth["roles"]
            assert referee.engine.public_view() == public
            site.board.refresh()  # what the hub does after every observation
            assert await site.served() == before

    asyncio.run(main())


# --- a night: records made while a schedule plays are sealed ---------------------------------


class NightReferee(Referee):
    """Roles from the seed; a night (a schedule with two marks) in which the awake player may
    point at a seat with the knob; "next" starts the night."""

    game: ClassVar[str] = "night-test"
    ROLES: ClassVar[tuple[str, ...]] = ("werewolf", "seer", "villager", "villager")

    def reset(self) -> None:
        self.roles = random.Random(self.setup.seed).sample(self.ROLES, len(self.setup.seats))
        self.phase = "day"
        self.pointed: list[int] = []
        self.nights = 0

    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, PanelEvent):
            if observation.action == "next" and self.phase == "day":
                return [{"kind": "night"}]
            if observation.action == "seat_chosen" and self.phase == "night":
                return [{"kind": "point", "seat": observation.seat, "role": "seer"}]
        return []

    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        if kind == "begin":
            return [Say("Welcome."), WaitNext("dusk", 600.0)]
        if kind == "night":
            self.phase, self.nights = "night", self.nights + 1
            schedule = (
                ScheduleBuilder(f"night-{self.nights}")
                .say(0.0, "Everyone close your eyes.", 2.0)
                .mark(500.0, "open")
                .mark(900.0, "close")
                .build(1000.0)
            )
            return [PlaySchedule(schedule)]
        if kind == "point":
            self.pointed.append(int(record["seat"]))
            return [PrivateLight("green", 2.0, 0), Show(0, f"{self.roles[record['seat']]}")]
        if kind == "timer" and record["name"] == "close":
            self.phase = "day"
            return [Say("Everyone open your eyes."), WaitNext("dusk", 600.0)]
        if kind == "timer":
            return []
        raise RecordError(f"no record kind {kind!r}")

    def snapshot(self) -> Any:
        return {"roles": self.roles, "phase": self.phase, "pointed": self.pointed}

    def is_finished(self) -> bool:
        return False

    def status(self, audience: Audience) -> dict[str, Any]:
        return {"phase": self.phase, "round": self.nights}


def test_a_night_is_sealed_and_serves_the_same_bytes_whatever_happened_in_it(
    tmp_path: Path,
) -> None:
    async def night(folder: Path, seed: int, acts: int) -> tuple[dict[str, bytes], list[Any]]:
        folder.mkdir()
        setup = Setup("night-test", ("Ann", "Bob", "Cy", "Dee"), {}, seed=seed)
        async with running_site(folder, NightReferee, setup) as site:
            assert (await site.post("/api/next", {})).status == 200
            assert site.referee.playing is not None
            during = await site.served()
            await site.hub.submit(TimerEvent("open"))
            for seat in range(acts):
                assert await site.hub.submit(PanelEvent("seat_chosen", seat=seat))
            # nothing is controlled from the web during the night, and nothing changes
            kinds = site.journal_kinds()
            reply = await site.post("/api/next", {})
            assert reply.status == 409 and "Blackout" in reply.json()["error"]
            reply = await site.post("/api/undo", {"seq": 1})
            assert reply.status == 409 and "Blackout" in reply.json()["error"]
            assert site.journal_kinds() == kinds
            assert await site.served() == during  # the page froze when the night began
            await site.hub.submit(TimerEvent("close"))
            assert site.referee.playing is None
            after = await site.served()
            listing = json.loads(after["/api/journal"])["entries"]
            # a sealed record is not listed, and cannot be undone from the web
            listed = {e["seq"] for e in listing}
            night_seqs = [
                e.seq
                for e in site.journal.entries(site.hub.session_id)
                if e.record["kind"] in ("point", "timer")
            ]
            assert len(night_seqs) == 2 + acts
            for seq in night_seqs:
                assert seq not in listed
                reply = await site.post("/api/undo", {"seq": seq})
                assert reply.status == 409 and "cannot be changed" in reply.json()["error"]
            return after, listing

    async def main() -> None:
        quiet, _ = await night(tmp_path / "quiet", seed=1, acts=0)
        busy, busy_list = await night(tmp_path / "busy", seed=2, acts=3)
        assert quiet == busy
        assert [e["kind"] for e in busy_list] == ["begin", "night", "sealed"]
        status = json.loads(busy["/api/status"])
        assert status["session"]["records"] == 2  # the night's records are not counted
        said = [a["text"] for a in status["announcements"]]
        assert said[-1] == "Everyone open your eyes."

    asyncio.run(main())
