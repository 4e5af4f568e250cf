"""The public board's reading of a referee's status (turn, scores, seats moved around the
table) and its robustness: a failing status never stops the hub or the page."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

from tablehub.observations import ManualEvent, Observation
from tablehub.referee.base import Audience, Output, Record, Referee, Say, Setup, Show
from tests.service.webkit import running_site

SEATS = ("Ann", "Bob", "Cy")


class ScriptedReferee(Referee):
    """Its public status is whatever the last ``ManualEvent("status", {...})`` said."""

    game: ClassVar[str] = "scripted-test"
    broken: ClassVar[bool] = False

    def reset(self) -> None:
        self.public: dict[str, Any] = {}

    def decide(self, observation: Observation) -> list[Record]:
        if isinstance(observation, ManualEvent) and observation.action == "status":
            return [{"kind": "status", "status": observation.data}]
        return []

    def apply_record(self, record: Record) -> list[Output]:
        self.public = dict(record["status"])
        return [Say("Noted."), Show(1, "for Bob only"), Show("dealer", "for the dealer")]

    def snapshot(self) -> Any:
        return self.public

    def is_finished(self) -> bool:
        return False

    def status(self, audience: Audience) -> dict[str, Any]:
        if ScriptedReferee.broken:
            raise RuntimeError("status is broken")
        return self.public


def test_turn_and_scores_follow_places_and_only_public_shows_are_announced(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running_site(tmp_path, ScriptedReferee, Setup("scripted-test", SEATS)) as site:
            # engine player p sits at seat places[p]
            public = {"phase": "turn", "round": 2, "rounds": 5, "active": 0, "places": [2, 0, 1]}
            public["totals"] = [5, 3, 1]
            await site.hub.submit(ManualEvent("status", public))
            status = (await site.get("/api/status")).json()
            assert status["turn"] == "Cy"
            assert status["scores"] == [
                {"seat": "Cy", "score": 5},
                {"seat": "Ann", "score": 3},
                {"seat": "Bob", "score": 1},
            ]
            assert [a["text"] for a in status["announcements"]] == ["Noted."]
            page = (await site.get("/")).text
            assert "<dt>round</dt><dd>2 of 5</dd>" in page
            assert "<tr><td>Cy</td><td>5</td></tr>" in page
            assert "for Bob only" not in page and "for the dealer" not in page
            # no turn (-1, or none given): nobody's turn is shown
            await site.hub.submit(ManualEvent("status", {"turn": -1, "scores": [1, 2, 3]}))
            status = (await site.get("/api/status")).json()
            assert status["turn"] is None and status["scores"][2] == {"seat": "Cy", "score": 3}

    asyncio.run(main())


def test_a_failing_status_keeps_the_last_page_and_the_hub_refereeing(tmp_path: Path) -> None:
    async def main() -> None:
        async with running_site(tmp_path, ScriptedReferee, Setup("scripted-test", SEATS)) as site:
            await site.hub.submit(ManualEvent("status", {"phase": "one"}))
            ScriptedReferee.broken = True
            try:
                accepted = await site.hub.submit(ManualEvent("status", {"phase": "two"}))
                assert accepted  # the hub went on
                reply = await site.get("/api/status")
                assert reply.status == 200 and reply.json()["phase"] == "one"
                assert (await site.get("/")).status == 200
            finally:
                ScriptedReferee.broken = False
            await site.hub.submit(ManualEvent("status", {"phase": "three"}))
            assert (await site.get("/api/status")).json()["phase"] == "three"

    asyncio.run(main())
