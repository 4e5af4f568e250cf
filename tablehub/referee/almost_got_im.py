"""The hub as Dealer for Almost Got 'Im: set-up, rounds, the Vote, and a leak-free Blackout.

Phases of the referee (``self.phase``)::

    idle -> characters -> deal_roles -> roles_check -> dealing -> play <-> night -> over

* **characters**: everyone puts a Character card face up in front of them; the camera
  reads them in the seat areas (``seat-1`` ... clockwise from the hub's left); "next"
  confirms (4 to 7 players).  Engine player ``p`` sits at physical seat ``places[p]``
  (clockwise order is kept).
* **deal_roles** / **roles_check**: the players deal the Secret Roles as the rulebook says;
  then, eyes closed, each player in a fixed slot shows their card at the reveal spot (a
  "night" without a sweep, see ``almost_got_im_blackout``).  The private light answers only
  the awake player: white "read", magenta for Batman "look at the top unused role".  The
  unused roles are never shown to the camera.  A card not read, or roles that do not add
  up, are checked again; then the engine is set up (roles, Batman's unseen peek,
  Characters, the Brains drawn from the session's seed) and the players deal five cards
  each (**dealing**).
* **play**: the engine's turns, read from the camera (``almost_got_im_moves``), abilities
  declared with the knob; the accusation (10 to 0 countdown), seconding (5 to 0), the
  defence, the Vote entered on the panel seat by seat, the verdict (Catwoman's Full House
  at the reveal spot, or "next").
* **night**: the Blackout.  Its schedule is built from the engine's public view before it
  starts and played whole; marks open and close each slot.  Inside a slot the awake
  player's hand at the reveal spot is checked, a target is picked with the knob, and every
  answer goes to the private light.  Public outputs produced meanwhile (the engine resolves
  the Blackout at the last slot) are **held** until the end mark, after "Everyone open
  your eyes.", and then only the rulebook's announcements are spoken.

Nothing that depends on a secret is spoken, shown to all, or logged; the journal (the
dealer's record) keeps the details.

Modules: ``almost_got_im_core`` (state, playing engine moves, holding a night's outputs),
``_setup``, ``_turns`` (with ``_moves``: camera events as moves), ``_council``, ``_night``
(with ``_blackout``: the schedules), ``_words`` (every sentence).
"""

from __future__ import annotations

from typing import Any

from tablehub.observations import CardEvent, Observation, PanelEvent
from tablehub.referee.almost_got_im_blackout import (
    parse_mark,
)
from tablehub.referee.almost_got_im_council import CouncilSteps
from tablehub.referee.almost_got_im_moves import (
    REVEAL,
    split,
)
from tablehub.referee.almost_got_im_night import NightSteps
from tablehub.referee.almost_got_im_setup import SetupSteps
from tablehub.referee.almost_got_im_turns import TurnSteps
from tablehub.referee.base import (
    CancelTimer,
    ChooseSeat,
    Output,
    Record,
    RecordError,
)


class AgiReferee(SetupSteps, TurnSteps, CouncilSteps, NightSteps):
    """The hub as Dealer (see the module docstring)."""

    def opening(self) -> list[Record]:
        return [{"kind": "begin"}]

    def decide(self, observation: Observation) -> list[Record]:
        if self.phase in ("idle", "over"):
            return []
        if isinstance(observation, PanelEvent):
            return self._decide_panel(observation)
        if isinstance(observation, CardEvent):
            if observation.confidence < self.min_confidence:
                return []  # the tracker reports it again once sure
            return self._decide_card(observation)
        return []

    def _decide_panel(self, event: PanelEvent) -> list[Record]:
        request, action = event.request, event.action
        if action == "declared" and not request:
            return self._decide_declared()
        if request not in self._open():
            return []  # stale, or not asked for
        chooser = any(isinstance(o, ChooseSeat) and o.request == request for o in self.prompts)
        if action == "seat_chosen" and event.seat is not None and chooser:
            return [{"kind": "chosen", "request": request, "seat": event.seat}]
        if action == "timeout" and chooser:
            # the referee's own timers end the accusation and the seconding; an
            # ability's target is asked for again
            return [{"kind": "reask"}] if request.startswith("target-") else []
        if action in ("next", "timeout") and not chooser:
            return [{"kind": "next", "request": request, "timeout": action == "timeout"}]
        return []

    def _decide_card(self, event: CardEvent) -> list[Record]:
        records: list[Record] = []
        for change, zone in split(event):
            records += self._decide_step(event, change, zone)
        return records

    def _decide_step(self, event: CardEvent, change: str, zone: str) -> list[Record]:
        if self.phase == "characters" or self.phase == "roles_check":
            return self._decide_setup(event, change, zone)
        if self.phase == "night":
            if zone != REVEAL or self.slot is None or self.slot.get("sweep"):
                return []
            return self._reveal_record(event, change)
        if self.phase == "play":
            return self._decide_play(event, change, zone)
        return []

    def apply_record(self, record: Record) -> list[Output]:
        kind = record["kind"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise RecordError(f"Almost Got 'Im has no record kind {kind!r}")
        outputs: list[Output] = handler(record)
        return outputs

    def _on_rejected(self, record: Record) -> list[Output]:  # pragma: no cover - base class
        return []

    def _on_timer(self, record: Record) -> list[Output]:
        name = str(record["name"])
        parsed = parse_mark(name)
        if parsed is not None:
            return self._on_mark(*parsed)
        return self._council_timer(name.rpartition("-")[0])

    def _on_next(self, record: Record) -> list[Output]:
        request = str(record["request"])
        what = request.rpartition("-")[0]
        self.prompts = [o for o in self.prompts if getattr(o, "request", None) != request]
        if what == "characters":
            return self._characters_done()
        if what == "roles":
            return self._start_roles_check()
        if what == "dealt":
            self.phase = "play"
            self.prompts = []
            self.step = []
            return self._sync([])
        outputs = self._council_next(what)
        if outputs is None:
            outputs = self._turn_next(what)
        if outputs is None:
            raise RecordError(f"unexpected answer to {request!r}")
        return outputs

    def _on_chosen(self, record: Record) -> list[Output]:
        request, seat = str(record["request"]), int(record["seat"])
        player = self.player_at(seat)
        if ":" in request:  # a night's knob: stays open until the slot ends
            return self._aim(player)
        self.prompts = [o for o in self.prompts if getattr(o, "request", None) != request]
        if player is None:
            raise RecordError(f"seat {seat} has no player")
        what = request.split("-")[0]
        outputs = self._council_choice(what, player)
        if outputs is None:
            outputs = self._turn_choice(what, player)
        if outputs is None:
            raise RecordError(f"unexpected choice for {request!r}")
        return outputs

    def _on_moves(self, record: Record) -> list[Output]:
        return self._play(list(record["moves"]))

    def _on_reveal(self, record: Record) -> list[Output]:
        self.reveal = [str(c) for c in record["cards"]]
        if self.phase == "night":
            return self._try_activate()
        if self.phase == "play" and self.e.phase == "verdict":
            return self._try_full_house()
        return []

    def _prompt(self, previous: list[Any]) -> list[Output]:
        self.prompts = []
        self.council = ""
        cancels: list[Output] = [CancelTimer(name) for name in sorted(self.timers)]
        return cancels + self._prompt_step(previous)

    def _prompt_step(self, previous: list[Any]) -> list[Output]:
        e = self.e
        if e.phase == "over":
            return []
        if e.phase == "turn":
            return self._turn_prompt(previous)
        if e.phase == "blackout":
            return self._start_blackout()
        return self._council_prompt()


__all__ = ["AgiReferee"]
