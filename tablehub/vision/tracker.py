"""Stable card events from frame-by-frame sightings (pure: no camera, no clock).

Usage::

    tracker = CardTracker(zones, agree_frames=3)
    for frame in frames:
        sightings = [Sighting(card_id, face_up, confidence, centre_mm), ...]
        events = tracker.update(sightings, occluded=lambda p: hand_covers(p))
        # events: tablehub.observations.CardEvent, change in
        #         "appeared" | "removed" | "flipped" | "moved"

Rules:

* A change is reported only after ``agree_frames`` consecutive frames agree on it (a card
  being slid, a misread frame, a hand's shadow produce nothing).
* ``appeared``: a card (identified face up, or face down) is seen where no known card is.
* ``flipped``: a known card is seen turned over in place (face down -> identified face up
  or back).  ``moved``: a known card is now in another zone (``previous_zone`` says where
  from); moving inside one zone is no event.
* ``removed``: a known card is missing for ``forget_frames`` consecutive frames *while its
  place is visible*.  Where ``occluded(centre_mm)`` is true (a hand or arm over it, a mug)
  absence counts for nothing, so a hand passing over the table produces no events.
* A face-up card the identifier is unsure of (id None) carries no information: it neither
  appears nor changes a known card.

Piles (``piles``, by default the discard zones ``zones.PILES``): a card laid on a known
card's spot (within ``match_mm``, same zone) while that card goes out of view covers it.
The covered card is *under* the new one — still on the table, in the pile's stack, no
event — and absence counts for nothing while it is covered (nor while the card laid on it
is still settling).  When the card on top is taken (removed, or moved to another zone),
the card under it is on top again: seen there, it is simply there again (no "appeared");
not seen for ``forget_frames`` frames, it is removed.  So a discard never looks like a take
and taking the top card never looks like a discard.  A card seen again while the tracker
thought it covered is on top (whatever lay on it slid away).  Face-down cards of one back
on a face-down pile are one card to the tracker (nothing tells them apart).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from tablehub.observations import CardEvent
from tablehub.vision.zones import PILES, TABLE, Zone, zone_of

Point = tuple[float, float]


@dataclass(frozen=True)
class Sighting:
    """One card seen in one frame."""

    card_id: str | None  # None: face down, or face up but not identified
    face_up: bool
    confidence: float
    centre_mm: Point


@dataclass(frozen=True)
class _Known:
    key: int
    card_id: str | None
    face_up: bool
    zone: str
    centre: Point
    confidence: float
    under: int | None = None  # the key of the card lying on this one (a pile), if any


@dataclass
class _Pending:
    card_id: str | None
    face_up: bool
    zone: str
    centre: Point
    confidence: float
    count: int = 1
    seen: bool = True


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


class CardTracker:
    def __init__(
        self,
        zones: Sequence[Zone] = (),
        *,
        agree_frames: int = 3,
        forget_frames: int = 3,
        match_mm: float = 35.0,
        piles: Collection[str] = PILES,
    ) -> None:
        if agree_frames < 1 or forget_frames < 1:
            raise ValueError("agree_frames and forget_frames must be at least 1")
        self.zones = list(zones)
        self.agree_frames = agree_frames
        self.forget_frames = forget_frames
        self.match_mm = match_mm
        self.piles = frozenset(piles)
        self._known: dict[int, _Known] = {}
        self._missing: dict[int, int] = {}
        self._changes: dict[int, _Pending] = {}
        self._new: list[_Pending] = []
        self._next_key = 1

    @property
    def cards(self) -> list[CardEvent]:
        """The settled table now, one "appeared"-shaped record per card in view (cards
        under others on a pile are in ``stacks``)."""
        return [
            CardEvent("appeared", k.card_id, k.zone, k.face_up, k.confidence, k.centre)
            for k in self._known.values()
            if k.under is None
        ]

    @property
    def stacks(self) -> list[list[CardEvent]]:
        """Every pile of more than one card, bottom first (the last one is on top)."""
        out = []
        for top in self._known.values():
            if top.under is not None or not any(k.under == top.key for k in self._known.values()):
                continue
            pile = [top]
            while True:
                below = [k for k in self._known.values() if k.under == pile[-1].key]
                if not below:
                    break
                pile.append(below[0])
            out.append(
                [
                    CardEvent("appeared", k.card_id, k.zone, k.face_up, k.confidence, k.centre)
                    for k in reversed(pile)
                ]
            )
        return out

    def forget(self, zone: str | None = None) -> None:
        """Forget the settled cards in ``zone`` (or everywhere), covered ones included, so
        the next stable reading there is reported again (a re-read)."""
        gone = [k for k, c in self._known.items() if zone is None or c.zone == zone]
        for key in gone:
            del self._known[key]
            self._missing.pop(key, None)
            self._changes.pop(key, None)
        for key, known in list(self._known.items()):
            if known.under in gone:
                self._known[key] = replace(known, under=None)
        self._new = [p for p in self._new if zone is not None and p.zone != zone]

    def _zone(self, point: Point) -> str:
        return zone_of(point, self.zones) if self.zones else TABLE

    def _match_known(self, s: Sighting, taken: set[int]) -> int | None:
        free = [k for k in self._known.values() if k.key not in taken]
        if s.card_id is not None:
            same = [k for k in free if k.card_id == s.card_id]
            if same:
                return min(same, key=lambda k: _dist(k.centre, s.centre_mm)).key
        near = [k for k in free if _dist(k.centre, s.centre_mm) <= self.match_mm]
        if s.card_id is not None:
            # An identified card may be a known face-down card turned over, never another
            # identified card.
            near = [k for k in near if k.card_id is None]
        on_top = [k for k in near if k.under is None]
        near = on_top or near  # a card seen on a pile is its top card, if one is known
        if not near:
            return None
        return min(near, key=lambda k: _dist(k.centre, s.centre_mm)).key

    def update(
        self, sightings: Sequence[Sighting], occluded: Callable[[Point], bool] | None = None
    ) -> list[CardEvent]:
        """Take one frame's sightings; return the events that became certain with it."""
        events: list[CardEvent] = []
        taken: set[int] = set()
        unmatched: list[Sighting] = []
        # Identified cards first, so they claim their own known card before guesses do.
        arriving: list[Point] = []  # where cards are being laid (new ones, or from elsewhere)
        for s in sorted(sightings, key=lambda s: (s.card_id is None, -s.confidence)):
            key = self._match_known(s, taken)
            if key is None:
                if s.card_id is not None or not s.face_up:
                    unmatched.append(s)
                    arriving.append(s.centre_mm)
                continue
            if _dist(self._known[key].centre, s.centre_mm) > self.match_mm:
                arriving.append(s.centre_mm)
            taken.add(key)
            self._missing.pop(key, None)
            if self._known[key].under is not None:  # seen: it is on top now
                self._known[key] = replace(self._known[key], under=None)
            if s.card_id is None and s.face_up:
                continue  # unsure reading of a known card: it is still there, nothing more
            events.extend(self._observe_known(self._known[key], s, taken))
        for key in [k for k in self._changes if k not in taken]:
            del self._changes[key]  # the change was not seen again: start over
        events.extend(self._absent(taken, arriving, occluded))
        events.extend(self._observe_new(unmatched, taken))
        return events

    def _observe_known(self, known: _Known, s: Sighting, taken: set[int]) -> list[CardEvent]:
        zone = self._zone(s.centre_mm)
        seen_id = s.card_id if s.face_up else None
        known_id = known.card_id if known.face_up else None
        if (seen_id, s.face_up, zone) == (known_id, known.face_up, known.zone):
            if _dist(known.centre, s.centre_mm) > self.match_mm:  # slid onto another spot
                self._uncover(known.key)
                self._cover(known.key, zone, s.centre_mm, taken)
            self._known[known.key] = replace(known, centre=s.centre_mm)
            self._changes.pop(known.key, None)
            return []
        pending = self._changes.get(known.key)
        if pending is not None and (pending.card_id, pending.face_up, pending.zone) == (
            seen_id,
            s.face_up,
            zone,
        ):
            pending.count += 1
            pending.centre = s.centre_mm
            pending.confidence = max(pending.confidence, s.confidence)
        else:
            pending = _Pending(seen_id, s.face_up, zone, s.centre_mm, s.confidence)
            self._changes[known.key] = pending
        if pending.count < self.agree_frames:
            return []
        del self._changes[known.key]
        if zone != known.zone:
            self._uncover(known.key)  # it left its pile: what it covered is on top again
            self._cover(known.key, zone, pending.centre, taken)  # and may lie on another
        # A card turned face down keeps the id it showed (the hub saw it), but events only
        # ever name the face that is up.
        self._known[known.key] = _Known(
            known.key,
            seen_id if s.face_up else known.card_id,
            s.face_up,
            zone,
            pending.centre,
            pending.confidence,
        )
        flipped = s.face_up != known.face_up
        return [
            CardEvent(
                "flipped" if flipped else "moved",
                seen_id,
                zone,
                s.face_up,
                pending.confidence,
                pending.centre,
                previous_zone=known.zone if (zone != known.zone or not flipped) else None,
            )
        ]

    def _uncover(self, key: int) -> None:
        """The card ``key`` left its place: whatever lay under it is on top now."""
        above = self._known[key].under
        for other, known in list(self._known.items()):
            if known.under == key:
                self._known[other] = replace(known, under=above)
                self._missing.pop(other, None)  # its absence counts from now on

    def _settling_on(self, known: _Known, arriving: list[Point]) -> bool:
        """A card is being laid on ``known``'s spot of a pile (not settled yet)."""
        return known.zone in self.piles and any(
            _dist(p, known.centre) <= self.match_mm and self._zone(p) == known.zone
            for p in arriving
        )

    def _absent(
        self,
        taken: set[int],
        arriving: list[Point],
        occluded: Callable[[Point], bool] | None,
    ) -> list[CardEvent]:
        events: list[CardEvent] = []
        for key, known in list(self._known.items()):
            if key in taken or key not in self._known:
                continue
            if known.under is not None:
                continue  # under another card on its pile: not in view, still there
            if occluded is not None and occluded(known.centre):
                continue  # covered: absence proves nothing
            if self._settling_on(known, arriving):
                continue  # a card is being laid on it
            self._missing[key] = self._missing.get(key, 0) + 1
            if self._missing[key] >= self.forget_frames:
                self._uncover(key)
                del self._known[key]
                del self._missing[key]
                self._changes.pop(key, None)
                events.append(
                    CardEvent(
                        "removed",
                        known.card_id if known.face_up else None,
                        known.zone,
                        known.face_up,
                        known.confidence,
                        known.centre,
                    )
                )
        return events

    def _observe_new(self, unmatched: list[Sighting], taken: set[int]) -> list[CardEvent]:
        for p in self._new:
            p.seen = False
        events: list[CardEvent] = []
        for s in unmatched:
            zone = self._zone(s.centre_mm)
            match = None
            for p in self._new:
                if (
                    not p.seen
                    and p.card_id == s.card_id
                    and p.face_up == s.face_up
                    and _dist(p.centre, s.centre_mm) <= self.match_mm
                ):
                    match = p
                    break
            if match is None:
                match = _Pending(s.card_id, s.face_up, zone, s.centre_mm, s.confidence, 0)
                self._new.append(match)
            match.count += 1
            match.seen = True
            match.centre = s.centre_mm
            match.zone = zone
            match.confidence = max(match.confidence, s.confidence)
        self._new = [p for p in self._new if p.seen]
        for p in list(self._new):
            if p.count >= self.agree_frames:
                self._new.remove(p)
                key = self._next_key
                self._next_key += 1
                self._cover(key, p.zone, p.centre, taken)
                self._known[key] = _Known(key, p.card_id, p.face_up, p.zone, p.centre, p.confidence)
                events.append(
                    CardEvent("appeared", p.card_id, p.zone, p.face_up, p.confidence, p.centre)
                )
        return events

    def _cover(self, key: int, zone: str, centre: Point, taken: set[int]) -> None:
        """The card ``key``, now at ``centre``, lies on a pile's top card that is out of
        view: it covers it."""
        if zone not in self.piles:
            return
        for other, known in list(self._known.items()):
            if (
                other != key
                and other not in taken
                and known.under is None
                and known.zone == zone
                and _dist(known.centre, centre) <= self.match_mm
            ):
                self._known[other] = replace(known, under=key)
                self._missing.pop(other, None)
