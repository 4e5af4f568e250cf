"""What the web page shows: public facts only, kept up to date as the hub works.

Sources, and nothing else:

* ``referee.status("public")`` — the referee's own public status (never ``snapshot()``,
  ``state()`` or a dealer/seat view);
* the public outputs the hub performs: ``Say`` (the speaker, heard by everyone),
  ``AskTable`` questions and ``Show`` for the audience ``"public"`` (a ``Show`` for a seat or
  the dealer is ignored);
* the session's public set-up (game, seat names, options; never the seed, which drives the
  hub's own random choices) and the device health found at start;
* the journal's records, counted and listed by kind only, **without** those journaled while
  a schedule (the Blackout) was playing.  Those are *sealed*: how many there were and what
  kinds would tell who acted in the night.  Which records are sealed is found by replaying
  the journal through a second referee (``playing`` before each record), so it is the same
  live and after a resume.

The status changes (``version`` goes up, waiters wake) only when the public status
itself changes, so even the timing of updates carries nothing secret.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from tablehub.games import load_game
from tablehub.referee.base import (
    META_KINDS,
    AskTable,
    Output,
    Record,
    Referee,
    Say,
    Show,
    WaitNext,
)
from tablehub.service.app import Hub

log = logging.getLogger(__name__)

ANNOUNCEMENTS = 20  # how many recent public announcements the page keeps
TURN_KEYS = ("turn", "to_move", "active", "current_player")  # whose turn, by engine player
SCORE_KEYS = ("scores", "totals")  # public scores by engine player
ROUND_KEYS = ("round", "hour")
DEVICE_ORDER = ("camera", "tower", "panel", "voice")


@dataclass(frozen=True)
class DeviceState:
    """How a device is: ``state`` is "ok", "SIMULATED", "not in use" or "failed"."""

    state: str
    detail: str = ""


DeviceProbe = Callable[[], DeviceState]
"""A device's state now, for devices that change while the hub runs (the dice tower)."""


class PublicBoard:
    """The public status of one hub session, for the page, ``/api/status`` and the events."""

    def __init__(
        self,
        hub: Hub,
        devices: dict[str, DeviceState] | None = None,
        probes: dict[str, DeviceProbe] | None = None,
    ) -> None:
        self.hub = hub
        self.devices = dict(devices or {})
        self.probes = dict(probes or {})  # asked at every refresh, over ``devices``
        self.announcements: deque[dict[str, Any]] = deque(maxlen=ANNOUNCEMENTS)
        self._said = 0  # announcements so far (numbers them)
        self.next_request: str | None = None  # the last WaitNext the referee asked for
        self.version = 0
        self._status: dict[str, Any] = {}
        self._changed = asyncio.Event()
        self._closed = False
        referee = hub.referee
        self._shadow: Referee | None = type(referee)(referee.setup)
        self.sealed: list[bool] = []  # one per record in referee.history
        self.refresh()
        hub.output_watchers.append(self._output)
        hub.after_handle.append(lambda _hub: self.refresh())

    # --- what the server asks -----------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """The current public status (JSON-ready); see ``/api/status``."""
        return {**self._status, "version": self.version}

    def status_json(self) -> str:
        return json.dumps(self.status(), sort_keys=True, ensure_ascii=False, default=str)

    def journal(self, after: int = 0) -> dict[str, Any]:
        """The records after journal seq ``after``, by kind only; a sealed run (one night)
        is one ``{"kind": "sealed"}`` entry with no numbers at all."""
        self._sync()
        history = self.hub.referee.history
        changed: dict[int, str] = {}
        for _, record in history:
            if record.get("kind") == "undo":
                changed[int(record["seq"])] = "undone"
            elif record.get("kind") == "correct":
                changed[int(record["seq"])] = "corrected"
        listing: list[dict[str, Any]] = []
        night: dict[str, Any] | None = None
        for (seq, record), sealed in zip(history, self.sealed, strict=True):
            if sealed:
                if night is None:
                    night = {"kind": "sealed", "seq": None, "before": None}
                    listing.append(night)
                continue
            if night is not None:
                night["before"] = seq  # the first public record after the night
                night = None
            listing.append(_entry(seq, record, changed))
        if night is None and self.night:  # a night shows from its start, acted in or not
            listing.append({"kind": "sealed", "seq": None, "before": None})
        shown = [
            e
            for e in listing
            if (e["seq"] is not None and e["seq"] > after)
            or (e["seq"] is None and (e["before"] is None or e["before"] > after))
        ]
        public = self.public_seqs()
        return {
            "session": self.hub.session_id,
            "records": len(public),
            "latest": public[-1] if public else None,
            "entries": shown,
        }

    def public_seqs(self) -> list[int]:
        """Journal seqs of the records anybody may know of (not sealed)."""
        self._sync()
        history = self.hub.referee.history
        return [seq for (seq, _), s in zip(history, self.sealed, strict=True) if not s]

    def correctable(self, seq: int) -> bool:
        """Whether record ``seq`` may be undone or corrected from the web: a public record
        of the game (not a correction itself, not sealed)."""
        self._sync()
        for (s, record), sealed in zip(self.hub.referee.history, self.sealed, strict=True):
            if s == seq:
                return not sealed and record.get("kind") not in META_KINDS
        return False

    @property
    def night(self) -> bool:
        """A schedule (the Blackout) is playing: no control from the web meanwhile."""
        return self.hub.referee.playing is not None

    async def wait_change(self, version: int, timeout: float) -> None:
        """Return when the status is past ``version``, the board closes, or on timeout."""
        if self.version != version or self._closed:
            return
        event = self._changed
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return

    def close(self) -> None:
        self._closed = True
        self._changed.set()

    @property
    def closed(self) -> bool:
        return self._closed

    # --- keeping up with the hub --------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the public status; wake the waiters only if it changed."""
        self._sync()
        try:
            status = self._build()
        except Exception:
            log.exception("the public status could not be built; the page keeps the last one")
            return
        if status != self._status:
            self._status = status
            self.version += 1
            self._changed.set()
            self._changed = asyncio.Event()

    def _output(self, out: Output) -> None:
        text: str | None = None
        if isinstance(out, Say):
            text = out.text
        elif isinstance(out, AskTable):
            text = out.question
        elif isinstance(out, Show) and out.audience == "public":
            text = out.text
        elif isinstance(out, WaitNext):
            self.next_request = out.request
        if text and (not self.announcements or self.announcements[-1]["text"] != text):
            self._said += 1
            self.announcements.append({"n": self._said, "text": text})

    def _sync(self) -> None:
        """Replay new records through the shadow referee to know which are sealed."""
        history = self.hub.referee.history
        while len(self.sealed) < len(history):
            seq, record = history[len(self.sealed)]
            shadow = self._shadow
            if shadow is None:  # replay failed once: seal the rest, to be safe
                self.sealed.append(True)
                continue
            self.sealed.append(shadow.playing is not None)
            try:
                shadow.apply(seq, copy.deepcopy(record))
            except Exception:
                log.exception("web page: replaying record %s failed; later records sealed", seq)
                self._shadow = None

    def _build(self) -> dict[str, Any]:
        referee, setup = self.hub.referee, self.hub.referee.setup
        public = referee.status("public")
        public = json.loads(json.dumps(public, default=str))  # a JSON copy, nothing shared
        seats = list(setup.seats)
        places = public.get("places")
        return {
            "game": setup.game,
            "title": _title(setup.game),
            "seats": seats,
            "options": json.loads(json.dumps(setup.options, default=str)),
            "phase": public.get("phase"),
            "round": _first(public, ROUND_KEYS),
            "round_name": next((k for k in ROUND_KEYS if public.get(k) is not None), "round"),
            "rounds": public.get("rounds"),
            "turn": _seat_name(_first(public, TURN_KEYS), seats, places),
            "scores": _scores(_first(public, SCORE_KEYS), seats, places),
            "announcements": list(self.announcements),
            "devices": self._device_states(),
            "session": {
                "id": self.hub.session_id,
                "records": sum(1 for s in self.sealed if not s),
                "finished": self.hub.finished or referee.is_finished(),
            },
            "public": public,
        }

    def _device_states(self) -> dict[str, dict[str, str]]:
        states = dict(self.devices)
        for name, probe in self.probes.items():
            try:
                states[name] = probe()
            except Exception:  # a probe must never stop the page: keep the last known
                log.debug("device probe %s failed", name, exc_info=True)
        self.devices = states
        return {name: asdict(states[name]) for name in _device_order(states)}


def _entry(seq: int, record: Record, changed: dict[int, str]) -> dict[str, Any]:
    """One public record: its number and kind, and what a person needs to act on it."""
    kind = str(record.get("kind"))
    entry: dict[str, Any] = {"seq": seq, "kind": kind}
    if kind in META_KINDS:
        entry["target"] = record.get("seq")
    else:
        entry["correctable"] = True
    if seq in changed:
        entry["changed"] = changed[seq]
    if kind == "rejected" and isinstance(record.get("public"), str):
        entry["note"] = record["public"]  # written for the table (never the reason)
    return entry


def _device_order(devices: dict[str, DeviceState]) -> list[str]:
    known = [name for name in DEVICE_ORDER if name in devices]
    return known + sorted(name for name in devices if name not in DEVICE_ORDER)


@functools.cache
def _title(game: str) -> str:
    """The game's printed title ("Get Adler!"), or its registry name."""
    try:
        return load_game(game).info.title
    except (KeyError, ImportError, TypeError, AttributeError):
        return game


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if data.get(key) is not None:
            return data[key]
    return None


def _seat(player: Any, places: Any) -> int | None:
    """The seat of engine player ``player`` (``places`` maps them when they differ)."""
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        return None
    if isinstance(places, list):
        place = places[player] if player < len(places) else None
        return place if isinstance(place, int) and not isinstance(place, bool) else None
    return player


def _seat_name(player: Any, seats: list[str], places: Any) -> str | None:
    seat = _seat(player, places)
    return seats[seat] if seat is not None and seat < len(seats) else None


def _scores(values: Any, seats: list[str], places: Any) -> list[dict[str, Any]] | None:
    if not isinstance(values, list):
        return None
    rows: list[dict[str, Any]] = []
    for player, value in enumerate(values):
        name = _seat_name(player, seats, places)
        rows.append({"seat": name if name is not None else f"player {player}", "score": value})
    return rows
