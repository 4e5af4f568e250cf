"""The nights of Almost Got 'Im: the Blackout and the roles check, planned before they start.

Whatever the secrets, the table must hear the same thing at the same time, so a night is
a fixed ``Schedule`` built from **public facts only**: a ``NightPlan`` (who is woken, in
which order, by which Character name) and a ``NightTiming`` (slot lengths from the
configuration).  ``blackout_plan`` takes nothing but the engine's *public* view, so it
cannot depend on a role, a hand or a choice.  What happens inside a slot (a hand laid
face up, a target picked, a private answer) changes the panel's private light for the
awake player and nothing the speaker plays.

Timeline of a Blackout (nominal figures: 12 s slots, 6 s sweep slots, 3.5 s calls)::

    0.0    "Everyone close your eyes."                  masking shuffle starts (to the end)
    3.0    "<Character>, open your eyes."               for each awake player, from the
    6.5      mark wake:i   ... the slot (12 s) ...      Brains clockwise, Subdued skipped:
    18.5     mark shut:i   "<Character>, close your eyes."   19 s each
    ...    "Keep your eyes closed. Once more around the table: ..."   (the sweep, always)
           "<Character>, open your eyes."  mark sweep:j  (6 s)  mark sweepshut:j
           "<Character>, close your eyes."              everyone, 13 s each
    ...    "Everyone open your eyes."                   then mark end: announcements

A roles check is the same shape with its own calls ("... show your Secret Role card") and
no sweep.  Marks come back to the referee as timer records at exactly these times (the
service plays the schedule on one clock), so the slots cannot stretch or shrink.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tablehub.devices.schedule import Schedule, ScheduleBuilder
from tablehub.referee import almost_got_im_words as words

NightKind = Literal["blackout", "roles"]
MARK_KINDS = ("wake", "shut", "sweep", "sweepshut", "end")


@dataclass(frozen=True)
class NightTiming:
    """Seconds allotted to each part of a night (the same for every player, always)."""

    slot: float = 12.0  # eyes open, to act (the [blackout] slot_seconds)
    sweep: float = 6.0  # eyes open in the second sweep (sweep_slot_seconds)
    call: float = 3.5  # "<Character>, open your eyes." and "... close your eyes."
    role_call: float = 5.5  # the roles check's longer calls
    everyone: float = 3.0  # "Everyone close your eyes." / "Everyone open your eyes."
    sweep_intro: float = 6.5  # words.SWEEP
    masking: bool = True  # the shuffle bed under the whole night

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Waking:
    player: int  # the engine's player index
    name: str  # the Character's name, as called


@dataclass(frozen=True)
class NightPlan:
    """Everything a night's schedule is built from: public facts only."""

    tag: str  # unique per night: "blackout-3", "roles-1"
    kind: NightKind
    awake: tuple[Waking, ...]  # woken for a full slot, in order
    sweep: tuple[Waking, ...] = ()  # woken again for the short sweep (Blackout: everyone)

    def to_json(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "kind": self.kind,
            "awake": [[w.player, w.name] for w in self.awake],
            "sweep": [[w.player, w.name] for w in self.sweep],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NightPlan:
        return cls(
            tag=str(data["tag"]),
            kind=data["kind"],
            awake=tuple(Waking(int(p), str(n)) for p, n in data["awake"]),
            sweep=tuple(Waking(int(p), str(n)) for p, n in data["sweep"]),
        )


def blackout_plan(view: dict[str, Any]) -> NightPlan:
    """The Blackout's plan from the engine's **public view** at its start: from the Brains
    clockwise, Subdued players skipped; the sweep wakes everyone (who the Saboteur's victim
    is, or whether there is one, must not change it)."""
    seats = view["seats"]
    n = len(seats)
    clockwise = [(view["brains"] + i) % n for i in range(n)]
    awake = tuple(Waking(s, seats[s]["name"]) for s in clockwise if not seats[s]["subdued"])
    sweep = tuple(Waking(s, seats[s]["name"]) for s in clockwise)
    return NightPlan(f"blackout-{view['round']}", "blackout", awake, sweep)


def roles_plan(players: list[tuple[int, str]], attempt: int) -> NightPlan:
    """The roles check of ``players`` ((player, Character name), in seat order)."""
    awake = tuple(Waking(p, name) for p, name in players)
    return NightPlan(f"roles-{attempt}", "roles", awake)


def mark(tag: str, kind: str, index: int | None = None) -> str:
    return f"{tag}:{kind}" if index is None else f"{tag}:{kind}:{index}"


def parse_mark(name: str) -> tuple[str, str, int | None] | None:
    """``"blackout-3:wake:1"`` -> ("blackout-3", "wake", 1); None if not a night's mark."""
    parts = name.split(":")
    if len(parts) == 2 and parts[1] == "end":
        return parts[0], "end", None
    if len(parts) == 3 and parts[1] in MARK_KINDS and parts[2].isdigit():
        return parts[0], parts[1], int(parts[2])
    return None


def build_schedule(plan: NightPlan, timing: NightTiming) -> Schedule:
    """The night's audio timeline (see the module docstring)."""
    b = ScheduleBuilder(plan.tag)
    t = 0.0
    b.say(t, words.close_eyes(), timing.everyone)
    t += timing.everyone
    call = timing.role_call if plan.kind == "roles" else timing.call
    for i, waking in enumerate(plan.awake):
        if plan.kind == "roles":
            wake_text = words.ROLE_WAKE.format(name=waking.name)
            sleep_text = words.ROLE_SLEEP.format(name=waking.name)
        else:
            wake_text, sleep_text = words.wake(waking.name), words.sleep(waking.name)
        b.say(t, wake_text, call)
        b.mark(t + call, mark(plan.tag, "wake", i))
        b.mark(t + call + timing.slot, mark(plan.tag, "shut", i))
        b.say(t + call + timing.slot, sleep_text, call)
        t += 2 * call + timing.slot
    if plan.sweep:
        b.say(t, words.SWEEP, timing.sweep_intro)
        t += timing.sweep_intro
        for j, waking in enumerate(plan.sweep):
            b.say(t, words.wake(waking.name), timing.call)
            b.mark(t + timing.call, mark(plan.tag, "sweep", j))
            b.mark(t + timing.call + timing.sweep, mark(plan.tag, "sweepshut", j))
            b.say(t + timing.call + timing.sweep, words.sleep(waking.name), timing.call)
            t += 2 * timing.call + timing.sweep
    b.say(t, words.open_eyes(), timing.everyone)
    t += timing.everyone
    b.mark(t, mark(plan.tag, "end"))
    if timing.masking:
        b.sound(0.0, "shuffle", t)
    return b.build(t)
