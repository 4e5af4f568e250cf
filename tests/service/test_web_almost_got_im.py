"""The web page over the real Almost Got 'Im referee (the hub as Dealer).

A game is first played at a scripted offline table (``tests.referee.agi_table``): the set-up
with its eyes-closed roles check, a round of public discards, then a Blackout in which
every awake player does something random (pass, lay a junk hand face down or up, lay the
role's hand and point at someone).  The same observations are then replayed through the
Hub with the web server running, and at every step every response the site serves is
checked for role names and the cards shown at the reveal spot.  Two games with the same
public history and different secrets (who holds which role, who acted, how) must serve
the same sequence of pages and statuses, and the same page at the end.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

from tablehub.games.almost_got_im.cards import DECK, role_card_id, to_vision_id
from tablehub.observations import Observation
from tablehub.referee.almost_got_im import AgiReferee
from tablehub.service.app import Devices
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import HANDS, JUNK, AgiTable
from tests.service.webkit import running_site

CHARACTERS = ["riddler", "scarecrow", "penguin", "poison-ivy", "bane"]
USED = {c for hand in (*HANDS.values(), JUNK) for c in cards(hand)}
PUBLIC_CARD = next(c for c in DECK if c not in USED)


class SilentVoice:
    """A voice that plays no schedule (its marks come from the scripted replay instead)."""

    description = "silent (test)"

    def speak(self, text: str) -> None:
        pass

    async def play_schedule(self, schedule: Any, on_mark: Any) -> None:
        pass

    def play_sound_nowait(self, name: str, seconds: float) -> None:
        pass

    async def drain(self) -> None:
        pass


def play(roles: tuple[str, ...], seed: int) -> tuple[AgiTable, list[Observation]]:
    """Round one at the offline table; every observation the referee was given, in order."""
    t = AgiTable(list(roles), characters=CHARACTERS)
    seen: list[Observation] = []
    observe = t.referee.observe

    def recording(observation: Observation) -> Any:
        seen.append(observation)
        return observe(observation)

    t.referee.observe = recording  # type: ignore[method-assign]
    t.sit_down()
    t.next("roles")
    t.night(on_wake=lambda i, p: t.card("appeared", role_card_id(t.roles[p]), "reveal"))
    t.next("dealt")
    t.card("appeared", PUBLIC_CARD, "discard-1")
    for _ in roles[1:]:  # the same public turns whatever the roles
        t.card("removed", PUBLIC_CARD, "discard-1")
        t.card("appeared", PUBLIC_CARD, "discard-1")
    assert t.referee.phase == "night"
    rng = random.Random(seed)
    tag = t.referee.night.tag  # type: ignore[union-attr]

    def act(i: int, player: int) -> None:
        others = [p for p in range(len(roles)) if p != player]
        behaviour = rng.choice(("pass", "face_down", "junk", "act", "act"))
        if behaviour == "face_down":
            for card in cards(JUNK):
                t.card("appeared", card, "reveal", face_up=False)
        elif behaviour == "junk":
            t.lay_hand(JUNK)
        elif behaviour == "act":
            t.lay_hand(HANDS[t.roles[player]])
            t.choose(f"{tag}:aim", rng.choice(others))

    t.night(on_wake=act)
    assert t.referee.phase != "night"
    return t, seen


def secret_words(roles: tuple[str, ...]) -> set[str]:
    """Role keys and role-card ids, and every card of the hands laid in the night."""
    words = set(roles) | {role_card_id(r) for r in roles}
    for hand in (*HANDS.values(), JUNK):
        words |= {c for c in cards(hand)} | {to_vision_id(c) for c in cards(hand)}
    return {w.lower() for w in words}


def words_of(body: bytes) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w:-]+", body.decode("utf-8"))}


async def replay(
    folder: Path, table: AgiTable, seen: list[Observation], secret: set[str]
) -> tuple[list[bytes], bytes]:
    """The observations through the Hub and the web server: (each distinct status served,
    in order; the journal listing at the end)."""
    statuses: list[bytes] = []
    devices = Devices(voice=SilentVoice())  # type: ignore[arg-type]
    async with running_site(folder, AgiReferee, table.referee.setup, hub_devices=devices) as site:
        for observation in seen:
            await site.hub.submit(observation)
            served = await site.served()
            for path, body in served.items():
                leaked = secret & words_of(body)
                assert not leaked, f"{path} serves {sorted(leaked)}"
            if not statuses or statuses[-1] != served["/api/status"]:
                statuses.append(served["/api/status"])
        assert site.referee.state()["game"] == table.referee.state()["game"]  # the same game
        truth = words_of(json.dumps(site.referee.snapshot()).encode())
        assert {r for r in secret if not r.startswith("agi:")} <= truth  # a leak would show
        listing = (await site.get("/api/journal?after=0", site.auth())).json()
    # the listing's numbers are the journal's: a night with more records shifts the later
    # ones (see README, "The web page"); compare the kinds and notes only
    for entry in listing["entries"]:
        entry.pop("seq", None), entry.pop("before", None), entry.pop("target", None)
    listing.pop("latest")
    return statuses, json.dumps(listing).encode()


NIGHT_RESULT = re.compile(r"(.+) has been Subdued\.|No one was Subdued\.")


def without_the_nights_result(status: bytes) -> dict[str, Any]:
    """A status with the rulebook's announcement of the night's result taken out (who was
    Subdued, if anyone: public once eyes are open, and rightly different between games)."""
    data: dict[str, Any] = json.loads(status)
    for said in data["announcements"]:
        said["text"] = NIGHT_RESULT.sub("<result>", said["text"])
    public = data["public"]
    public["announcements"] = [
        [n, NIGHT_RESULT.sub("<result>", s)] for n, s in public["announcements"]
    ]
    for seat in public["seats"]:
        seat.pop("subdued")
    public.pop("subdues")
    return data


def test_secrets_never_reach_the_page_and_do_not_change_it(tmp_path: Path) -> None:
    cases = [
        (("watchful", "batman", "crafty", "telepathic"), 1),
        (("batman", "telepathic", "watchful", "crafty"), 2),
        (("crafty", "watchful", "telepathic", "batman"), 3),
    ]

    async def main() -> None:
        reference: tuple[list[bytes], bytes] | None = None
        for k, (roles, seed) in enumerate(cases):
            table, seen = play(roles, seed)
            secret = secret_words(roles) - {"batman"}  # "Batman" is also a public word here
            statuses, listing = await replay(tmp_path / str(k), table, seen, secret)
            if reference is None:
                reference = (statuses, listing)
                assert len(statuses) > 10  # the page did change as the game went on
            # the same pages in the same order until eyes open; then only the result differs
            assert statuses[:-1] == reference[0][:-1], roles
            last, first_last = statuses[-1], reference[0][-1]
            assert without_the_nights_result(last) == without_the_nights_result(first_last)
            assert listing == reference[1], roles

    asyncio.run(main())
