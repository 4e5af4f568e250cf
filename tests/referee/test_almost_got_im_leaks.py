"""The leak test: what the table hears and sees during a night must not depend on secrets.

For two games with the same public history that differ in secrets — who holds which
Secret Role, whether each awake player acts, with which hand, at whom, with which answer —
the nights' audio schedules (texts, sounds, start times, durations) are identical, and so
is every output meant for more than the awake player (speech, sounds, seat LEDs, timers,
status), mark by mark.  Only the private light and the knob (the awake player's) may
differ.  After "Everyone open your eyes." only the rulebook's announcements follow.

Swept: every role assignment for 4 and 5 players; for 6 and 7 every set of roles in play
with each role in every seat (cyclic rotations) plus a random sample of assignments
(``python -m bench.agi_leaks`` sweeps every assignment of every player count).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tablehub.games.almost_got_im.cards import DECK, role_card_id
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_blackout import parse_mark
from tablehub.referee.base import ChooseSeat, Output, PlaySchedule, PrivateLight, Say
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import HANDS, JUNK, AgiTable

RULES = default_rules()
CHARACTERS = ["riddler", "scarecrow", "penguin", "poison-ivy", "bane", "mr-freeze", "killer-croc"]
USED = {c for hand in (*HANDS.values(), JUNK) for c in cards(hand)}
PUBLIC_CARD = next(c for c in DECK if c not in USED)  # never in a hand laid in the tests
BEHAVIOURS = ("pass", "face_down", "junk", "act", "act", "aim_only")


def assignments(n: int) -> Iterator[tuple[str, ...]]:
    """Every seat -> role assignment for ``n`` players (Batman always in)."""
    others = [r for r in RULES.roles_for(n) if r != "batman"]
    for rest in itertools.permutations(others, n - 1):
        for seat in range(n):
            yield (*rest[:seat], "batman", *rest[seat:])


def sample(n: int, extra: int, seed: int) -> list[tuple[str, ...]]:
    """Every set of roles in play, each rotated through every seat, plus random ones."""
    others = [r for r in RULES.roles_for(n) if r != "batman"]
    chosen: list[tuple[str, ...]] = []
    for combo in itertools.combinations(others, n - 1):
        base = ("batman", *combo)
        chosen += [base[k:] + base[:k] for k in range(n)]
    rng = random.Random(seed)
    for _ in range(extra):
        roles = ["batman", *rng.sample(others, n - 1)]
        rng.shuffle(roles)
        chosen.append(tuple(roles))
    return chosen


class Night:
    """One played night: its schedule and outputs grouped by the mark they followed."""

    def __init__(self, t: AgiTable, start: int) -> None:
        self.outputs = t.outputs[start:]
        self.schedule = next(o.schedule for o in self.outputs if isinstance(o, PlaySchedule))
        self.records = t.table.records
        self.t = t

    @staticmethod
    def public(outputs: list[Output]) -> list[Output]:
        return [o for o in outputs if not isinstance(o, PrivateLight | ChooseSeat)]


def play_night(t: AgiTable, rng: random.Random, before: int) -> tuple[list[Any], list[str]]:
    """Fire the running night's marks; every awake player does something random.  Returns
    (per-mark public outputs up to the last mark before the end, announcements after it)."""
    plan = t.referee.night
    assert plan is not None
    groups: list[Any] = [("start", Night.public(t.outputs[before:]))]
    end_said: list[str] = []
    for cue in t.schedule().marks():
        start = len(t.outputs)
        t.table.fire(cue.text)
        parsed = parse_mark(cue.text)
        assert parsed is not None
        _, kind, index = parsed
        if kind == "wake" and index is not None:
            player = plan.awake[index].player
            if plan.kind == "blackout":
                act(t, player, rng)
            else:  # the roles check: show the card, sometimes twice
                for _ in range(rng.choice((1, 1, 2))):
                    t.card("appeared", role_card_id(t.roles[player]), "reveal")
        out = t.outputs[start:]
        for o in out:  # the private outputs are for the awake player only
            if isinstance(o, PrivateLight) and t.referee.slot is not None:
                assert o.seat == t.referee.places[t.referee.slot["player"]]
        if kind == "end":
            end_said = [o.text for o in out if isinstance(o, Say)]
            if not t.referee.is_finished():  # the next round's prompts: the same for all
                end_said.append(repr([o for o in out if not isinstance(o, Say)]))
        else:
            groups.append((cue.text, Night.public(out)))
            assert not [o for o in out if not isinstance(o, PrivateLight | ChooseSeat)], out
    return groups, end_said


def act(t: AgiTable, player: int, rng: random.Random) -> None:
    """What an awake player may do in a slot (any of it, whatever their role)."""
    behaviour = rng.choice(BEHAVIOURS)
    tag = t.referee.night.tag  # type: ignore[union-attr]
    others = [p for p in range(len(t.roles)) if p != player]
    if behaviour == "face_down":
        for card in cards(JUNK):
            t.card("appeared", card, "reveal", face_up=False)
    elif behaviour == "junk":
        t.lay_hand(JUNK)
    elif behaviour == "act":
        t.lay_hand(HANDS[t.roles[player]])
        if rng.random() < 0.9:
            t.choose(f"{tag}:aim", rng.choice(others))
    elif behaviour == "aim_only":
        t.choose(f"{tag}:aim", rng.choice(others))


def round_one(roles: tuple[str, ...], seed: int) -> tuple[list[Any], list[Any], list[str]]:
    """Set up (the roles check is a night too) and play round 1 with the same public
    discards whatever the roles; the Blackout's players act at random (seeded)."""
    rng = random.Random(seed)
    t = AgiTable(list(roles), characters=CHARACTERS)
    t.sit_down()
    start = len(t.outputs)
    t.next("roles")
    roles_night, _ = play_night(t, rng, start)
    t.next("dealt")
    # the same public turns whatever the roles: a card discarded, then taken and discarded
    # again by each player in turn (the rulebook allows discarding the card just taken)
    t.card("appeared", PUBLIC_CARD, "discard-1")
    for _ in roles[1:]:
        t.card("removed", PUBLIC_CARD, "discard-1")
        t.card("appeared", PUBLIC_CARD, "discard-1")
    assert t.referee.phase == "night"
    index = max(i for i, o in enumerate(t.outputs) if isinstance(o, PlaySchedule))
    blackout, said = play_night(t, rng, index)
    return roles_night, blackout, said


ANNOUNCEMENT = re.compile(
    "|".join(
        (
            r"(.+) has been Subdued\.",
            r"No one was Subdued\.",
            r"Everyone draw a card from the Poker deck\.",
            r"(.+) is feeling much better and is no longer Subdued\.",
            re.escape(RULES.say["game_over_homicidal"]),
            re.escape(RULES.say["batman_wins"]),
            re.escape(RULES.say["batman_and_catwoman_win"]),
            r"The Secret Roles were: .+\.",
            r"Game over: .+\.",
            r"Pass the Brains token to (.+)\.",
            r"Round \d+\. (.+) has the Brains and goes first\.",
        )
    )
)


def check_same(cases: list[tuple[str, ...]], seed: int) -> int:
    reference: tuple[list[Any], list[Any]] | None = None
    next_round: str | None = None
    for k, roles in enumerate(cases):
        roles_night, blackout, said = round_one(roles, seed * 100_003 + k)
        if reference is None:
            reference = (roles_night, blackout)
        assert roles_night == reference[0], roles
        assert blackout == reference[1], roles
        if said and said[-1].startswith("["):  # the game goes on: the next round's prompts
            next_round = next_round or said[-1]
            assert said.pop() == next_round, roles
        for line in said:
            assert ANNOUNCEMENT.fullmatch(line), line
    return len(cases)


def test_every_role_assignment_of_four_players_sounds_the_same() -> None:
    assert check_same(list(assignments(4)), 4) == 480


@pytest.mark.parametrize("players", [5, 6, 7])
def test_every_role_set_in_every_seat_sounds_the_same(players: int) -> None:
    cases = sample(players, 60, players)
    assert check_same(cases, players) == len(cases) >= 135


def test_a_thwarted_subdue_sounds_like_nothing_happened() -> None:
    """Watchful saves Batman's target: nothing is announced that differs from a quiet night."""
    roles = ("watchful", "batman", "crafty", "telepathic")
    quiet = AgiTable(list(roles))
    quiet.set_up()
    quiet.quiet_turns()
    start = len(quiet.outputs)
    quiet.blackout()
    saved = AgiTable(list(roles))
    saved.set_up()
    saved.quiet_turns()
    begin = len(saved.outputs)
    saved.blackout(acts={1: 2, 0: 2})  # Watchful (The Riddler) protects The Penguin
    assert Night.public(quiet.outputs[start:]) == Night.public(saved.outputs[begin:])
    assert saved.said()[-3:] == quiet.said()[-3:]
    assert "No one was Subdued." in saved.said()[-3:]


def test_batman_and_the_homicidal_player_subdue_in_the_same_words() -> None:
    """Seven players: who performed a Subdue is never said."""
    roles = ["watchful", "batman", "crafty", "healer", "homicidal", "saboteur", "telepathic"]
    outs = []
    for actor in (1, 4):  # Batman, then Homicidal, subdues The Penguin (seat 2)
        t = AgiTable(roles, characters=CHARACTERS)
        t.set_up()
        t.quiet_turns()
        start = len(t.outputs)
        t.blackout(acts={actor: 2})
        outs.append(Night.public(t.outputs[start:]))
        assert "The Penguin has been Subdued." in t.said()
    assert outs[0] == outs[1]


def test_the_night_speaks_only_the_dealers_words() -> None:
    t = AgiTable(["watchful", "batman", "crafty", "telepathic"])
    t.set_up()
    t.quiet_turns()
    texts = set(t.schedule().texts())
    names = [t.referee.name(p) for p in range(4)]
    allowed = {words.close_eyes(), words.open_eyes(), words.SWEEP}
    allowed |= {words.wake(n) for n in names} | {words.sleep(n) for n in names}
    assert texts <= allowed
