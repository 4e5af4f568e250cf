"""Nights at the hub: the roles check and the Blackout, played as pre-built schedules.

A night's schedule (``almost_got_im_blackout``) is built from public facts before it starts
and played whole; its marks open and close each slot.  In a Blackout slot every awake
player is offered the knob the same way; a hand laid face up at the reveal spot is checked
against the role (Jokers wild) and answered on the private light only; the engine's move
is played then, or a pass when the slot closes.  The sweep lights white for the Saboteur's
victim and "off" for everyone else.  At the end mark the held announcements go out.
"""

from __future__ import annotations

from tablehub.games.almost_got_im.blackout import targets
from tablehub.games.base import Move
from tablehub.referee.almost_got_im_blackout import (
    NightPlan,
    blackout_plan,
    build_schedule,
)
from tablehub.referee.almost_got_im_core import RED_SECONDS, AgiCore
from tablehub.referee.base import (
    ChooseSeat,
    Output,
    PlaySchedule,
    PrivateLight,
    RecordError,
    SeatLights,
)


class NightSteps(AgiCore):
    def _start_night(self, plan: NightPlan, before: list[Output], phase: str) -> list[Output]:
        self.night = plan
        self.slot = None
        self.reveal = []
        self.held = []
        self.victim = None
        self.prompts = []
        self.phase = phase
        self.frozen = self.engine.public_view() if self.engine is not None else None
        schedule = build_schedule(plan, self.timing)
        return [*before, SeatLights(()), PlaySchedule(schedule)]

    def _start_blackout(self) -> list[Output]:
        e = self.e
        plan = blackout_plan(e.public_view())
        if [w.player for w in plan.awake] != e.order:  # pragma: no cover - engine invariant
            raise RecordError("the Blackout's public plan differs from the engine's order")
        outputs = self._start_night(plan, [], "night")
        return outputs

    def _on_mark(self, tag: str, kind: str, index: int | None) -> list[Output]:
        plan = self.night
        if plan is None or plan.tag != tag:
            raise RecordError(f"mark of night {tag!r} outside it")
        if kind == "end":
            return self._night_over()
        assert index is not None
        sweep = kind in ("sweep", "sweepshut")
        waking = (plan.sweep if sweep else plan.awake)[index]
        seat = self.seat(waking.player)
        if kind in ("wake", "sweep"):
            self.slot = {"i": index, "player": waking.player, "sweep": sweep, "aim": None,
                         "red": False}  # fmt: skip
            self.reveal = []
            if kind == "sweep":
                colour = "white" if waking.player == self.victim else "off"
                return [PrivateLight(colour, self.timing.sweep, seat)]
            if plan.kind == "blackout":
                return [self._aim_prompt(waking.player)]
            return []
        # shut / sweepshut: the slot is over, whatever happened in it
        outputs: list[Output] = []
        if kind == "shut" and plan.kind == "blackout":
            e = self.e
            if e.phase == "blackout" and e.order[e.awake] == waking.player:
                outputs += self._play([{"kind": "pass", "player": waking.player}])
        self.slot = None
        self.reveal = []
        self.prompts = []
        return [*outputs, PrivateLight("off", 0.5, seat)]

    def _aim_prompt(self, player: int) -> ChooseSeat:
        """The knob, offered to every awake player the same way (others' seats)."""
        others = [p for p in range(self.e.n) if p != player]
        return self._choose(f"{self.night.tag}:aim", others, self.timing.slot)  # type: ignore[union-attr]

    def _night_over(self) -> list[Output]:
        plan = self.night
        assert plan is not None
        self.night = None
        self.slot = None
        self.frozen = None
        self.reveal = []
        self.victim = None
        if plan.kind == "roles":
            self.phase = "roles_check"
            return self._roles_done()
        held, self.held = self.held, []
        self.prompts = []
        self.phase = "over" if self.e.phase == "over" else "play"
        if self.phase == "play":
            self.step = []  # prompt for wherever the engine is now
            return held + self._sync([])
        return held

    def _aim(self, player: int | None) -> list[Output]:
        if self.phase != "night" or self.slot is None or player is None:
            return []
        self.slot["aim"] = player
        return self._try_activate()

    def _try_activate(self) -> list[Output]:
        """The awake player's hand at the reveal spot (and target, if the role points): act
        if it all fits; answers go to the private light only."""
        slot, e = self.slot, self.e
        if slot is None or self.night is None or self.night.kind != "blackout":
            return []
        player = int(slot["player"])
        seat = self.seat(player)
        if e.phase != "blackout" or e.order[e.awake] != player:
            return []  # already acted
        hand = list(self.reveal)
        if len(hand) < len(e.hands[player]):
            slot["red"] = False
            return []  # still laying cards down
        role = str(e.roles[player])
        allowed = targets(e, player, role)
        aim = slot["aim"]
        move: Move = {"kind": "activate", "player": player, "hand": hand}
        if allowed != [None]:
            if aim is None:
                probe = {**move, "target": allowed[0]} if allowed else None
                if probe is not None and e.check(probe) is None:
                    return [PrivateLight("yellow", self.timing.slot, seat)]
                return self._red(seat)
            move["target"] = aim
        if e.check(move) is not None:
            outputs = self._red(seat)
            if aim is not None:
                slot["aim"] = None
                outputs.append(self._aim_prompt(player))
            return outputs
        return self._play([move])

    def _red(self, seat: int) -> list[Output]:
        assert self.slot is not None
        self.slot["red"] = True
        return [PrivateLight("red", RED_SECONDS, seat)]
