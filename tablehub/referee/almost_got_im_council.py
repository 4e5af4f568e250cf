"""End of round at the hub: the accusation, seconding, defence, the Vote and the verdict.

The Brains accuses with the knob or declines with "next"; after the deliberation the hub
counts 10 to 0 (the rulebook's countdown), after the speeches 5 to 0 for the seconding.
The seconder turns the knob to their own seat.  After the defence ("30 seconds before we
move on!") come the rulebook's Vote lines, and the thumbs are entered seat by seat with
the knob (each one said out loud: the thumbs are public), "next" when all are in.  A
Guilty accused may lay Catwoman's Full House at the reveal spot, else "next".
"""

from __future__ import annotations

from tablehub.games.almost_got_im import AgiState
from tablehub.games.base import Move
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_core import ACCUSE_COUNT, HURRY_AT, SECOND_COUNT, AgiCore
from tablehub.referee.almost_got_im_moves import (
    trial,
)
from tablehub.referee.base import (
    CancelTimer,
    ChooseSeat,
    Output,
    Say,
    SeatLights,
    StartTimer,
)


class CouncilSteps(AgiCore):
    def _council_prompt(self) -> list[Output]:
        """The prompts for the engine's accuse / second / vote / verdict phases."""
        e = self.e
        if e.phase == "accuse":
            k = self.asked + 1
            return [
                SeatLights((self.seat(e.brains),)),
                Say(words.ACCUSE.format(name=self.name(e.brains))),
                self._choose("accuse", _suspects(e), self._accuse_window()),
                *self._wait("noaccuse", self._accuse_window()),
                StartTimer(f"deliberate-{k}", self.times["deliberation_seconds"]),
            ]
        if e.phase == "second":
            speeches = StartTimer(f"speeches-{self.asked + 1}", self.times["speech_seconds"])
            return [Say(words.SECOND), self._ask_second(), speeches]
        if e.phase == "vote":
            self.council = "defence"
            self.guilty = []
            wait = self._wait("defence", self.times["defence_seconds"] + 1)
            hurry = max(0.0, self.times["defence_seconds"] - HURRY_AT)
            return [Say(words.DEFENCE), *wait, StartTimer(f"defence-{self.asked}", hurry)]
        assert e.phase == "verdict" and e.accused is not None
        wait = self._wait("verdict", self.times["verdict_seconds"] + 1)
        timer = StartTimer(f"verdict-{self.asked}", self.times["verdict_seconds"])
        return [Say(words.VERDICT.format(name=self.name(e.accused))), *wait, timer]

    def _council_timer(self, what: str) -> list[Output]:
        """A council timer ran out (nothing if its step is over)."""
        e = self.e
        phase = e.phase if self.phase == "play" else ""
        if what == "deliberate" and phase == "accuse":
            return [StartTimer(f"accuse-count-{self.asked}", ACCUSE_COUNT, "speak")]
        if what == "accuse-count" and phase == "accuse":
            return self._play([{"kind": "no_accusation", "player": e.brains}])
        if what == "speeches" and phase == "second":
            return [StartTimer(f"second-count-{self.asked}", SECOND_COUNT, "speak")]
        if what == "second-count" and phase == "second":
            return self._play([{"kind": "no_second", "player": p} for p in e.poll])
        if what == "defence" and phase == "vote" and self.council == "defence":
            return [Say(words.HURRY), StartTimer(f"last-call-{self.asked}", HURRY_AT)]
        if what == "last-call" and phase == "vote" and self.council == "defence":
            return self._vote_call()
        if what == "verdict" and phase == "verdict":
            return self._play([{"kind": "accept", "player": e.accused}])
        return []

    def _council_next(self, what: str) -> list[Output] | None:
        """ "next" (or its timeout) for a council request; None if it is not one."""
        e = self.e
        if what == "noaccuse":
            return self._play([{"kind": "no_accusation", "player": e.brains}])
        if what == "defence":
            return self._vote_call()
        if what == "votes":
            ballots = [{"kind": "vote", "player": p, "guilty": p in self.guilty} for p in e.voters]
            return self._play(ballots)
        if what == "verdict":
            return self._play([{"kind": "accept", "player": e.accused}])
        return None

    def _council_choice(self, what: str, player: int) -> list[Output] | None:
        """A seat chosen with the knob for a council request; None if it is not one."""
        e = self.e
        if what == "accuse":
            return self._play([{"kind": "accuse", "player": e.brains, "target": player}])
        if what == "second":
            if player not in e.poll:
                return [self._ask_second()]
            index = e.poll.index(player)
            moves: list[Move] = [{"kind": "no_second", "player": p} for p in e.poll[:index]]
            return self._play([*moves, {"kind": "second", "player": player}])
        if what == "guilty":
            if player in self.guilty:
                self.guilty.remove(player)
                said = words.VOTE_UNMARKED
            else:
                self.guilty.append(player)
                said = words.VOTE_MARKED
            choose = self._choose("guilty", list(e.voters), self.times["entry_seconds"])
            return [Say(said.format(name=self.name(player))), choose]
        return None

    def _accuse_window(self) -> float:
        return self.times["deliberation_seconds"] + ACCUSE_COUNT + 1

    def _ask_second(self) -> ChooseSeat:
        return self._choose("second", list(self.e.poll), self._second_window())

    def _second_window(self) -> float:
        return self.times["speech_seconds"] + SECOND_COUNT + 1

    def _vote_call(self) -> list[Output]:
        e = self.e
        self.council = "entry"
        self.prompts = []
        return [
            *[CancelTimer(name) for name in sorted(self.timers)],
            Say(words.rulebook("vote_rules")),
            Say(words.rulebook("vote_count")),
            Say(words.rulebook("vote_hold")),
            Say(words.VOTE_ENTRY),
            self._choose("guilty", list(e.voters), self.times["entry_seconds"]),
            *self._wait("votes", self.times["entry_seconds"]),
        ]

    def _try_full_house(self) -> list[Output]:
        e = self.e
        accused = e.accused
        if accused is None or len(self.reveal) < len(e.hands[accused]):
            return []
        move: Move = {"kind": "reveal", "player": accused, "hand": list(self.reveal)}
        if trial(e, [move]) is not None:
            return [Say(words.NOT_A_WIN)]
        return self._play([move])


def _suspects(e: AgiState) -> list[int]:
    return [p for p in range(e.n) if p != e.brains and not e.subdued[p]]
