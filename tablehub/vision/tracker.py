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
and taking the top card never looks like a discard.  A card seen again on its spot while
the tracker thought it covered is on top (whatever lay on it slid away); seen elsewhere,
it has moved (a pile gathered up from under its top card), unless the deck has several
copies of a design (``copies``): then it is another copy (a card under others stays in its
pile).

Copies of one design on a pile (Get Adler! has twelve identical pistols, ``copies``): a
copy laid on a copy leaves the top card's identity unchanged, but a physically new card is
never laid in exactly the same pose.  So sightings carry the card's pose (``centre_mm`` and
``angle_deg``, from its corners: ``card_pose``), and with ``copies``, in a pile zone a
change of the top card's pose beyond ``pose_mm`` or ``pose_deg`` (above the identifier's
frame-to-frame jitter: ``python -m bench.pile_pose``) is a change of card once
``agree_frames`` frames agree on the new pose; a frame where ``occluded`` covers the pile
(a hand over it) neither starts nor confirms one (without ``copies`` a pile's card in a new
pose is that card, nudged).  Then:

* the new pose is that of the copy lying just under the top one: the top copy was taken
  ("removed"), the one under it is on top again;
* a copy of that design has just gone missing elsewhere on the table: it was moved onto
  the pile ("moved", ``previous_zone`` says from where);
* else a new copy was laid on top ("appeared"), the old one now under it.

The same goes for face-down cards of one back on a face-down pile.  A reading without a
pose (``angle_deg`` None: a card read from its index corner) neither starts nor confirms a
pose change.  The rare copy laid within the tolerance of the top card's pose is not seen
(one laid in the pose of the card under the top reads as the top taken): the tracker
reports no new card, so the hub goes on waiting for that play -- its seat light stays on
the player and the card is not shown -- and the table sees the card was not read; the
player lifts it and lays it down again (the Get Adler! referee says so when the button is
pressed while it waits for a card).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from tablehub.observations import CardChange, CardEvent
from tablehub.vision.zones import PILES, TABLE, Zone, zone_of

Point = tuple[float, float]
Occluded = Callable[[Point], bool]

# How far the top card of a pile may seem to move (mm) or turn (degrees) from one frame to
# the next without being another card: above the card identifier's frame-to-frame pose
# jitter at a table camera's scale (about 2 px/mm), below the few millimetres and degrees by
# which a card laid on a pile lands off the one under it.  Measured by bench.pile_pose.
POSE_MM = 2.0
POSE_DEG = 5.0
AVERAGE_OVER = 8  # a settled pose is the running mean of this many readings: one frame's
# outlier barely moves it


@dataclass(frozen=True)
class Sighting:
    """One card seen in one frame."""

    card_id: str | None  # None: face down, or face up but not identified
    face_up: bool
    confidence: float
    centre_mm: Point
    angle_deg: float | None = None  # the card's rotation (``card_pose``); None: unknown


@dataclass(frozen=True)
class _Known:
    key: int
    card_id: str | None
    face_up: bool
    zone: str
    centre: Point
    confidence: float
    under: int | None = None  # the key of the card lying on this one (a pile), if any
    angle: float | None = None  # its pose's angle, when seen with one
    poses: int = 0  # readings averaged into the pose


@dataclass
class _Pending:
    card_id: str | None
    face_up: bool
    zone: str
    centre: Point
    confidence: float
    count: int = 1
    seen: bool = True
    angle: float | None = None
    poses: int = 0
    relaid: bool = False  # a pile's top card seen in a new pose (see the module docstring)


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def card_pose(corners: Sequence[Point]) -> tuple[Point, float]:
    """(centre, angle in degrees) of a card from its corners TL, TR, BR, BL (table mm).

    The angle is the direction of the card's top and bottom edges (and of its sides, turned
    by 90 degrees), averaged, modulo 180: a card turned end over end lies in the same pose
    (and an identifier may read a symmetric face either way up)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    edges = [
        (x1 - x0, y1 - y0),
        (x2 - x3, y2 - y3),
        (y3 - y0, x0 - x3),  # the left side, turned by -90 degrees
        (y2 - y1, x1 - x2),  # the right side
    ]
    sx = sy = 0.0
    for dx, dy in edges:  # doubled angles, so that opposite directions agree
        a = 2 * math.atan2(dy, dx)
        n = math.hypot(dx, dy)
        sx, sy = sx + n * math.cos(a), sy + n * math.sin(a)
    angle = math.degrees(math.atan2(sy, sx)) / 2 % 180.0
    centre = ((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4)
    return centre, angle


def _blend(
    centre: Point, angle: float | None, n: int, seen: Point, seen_angle: float | None
) -> tuple[Point, float | None, int]:
    """The running mean of a pose read ``n`` times, with one more reading."""
    if seen_angle is None:
        return (centre, angle, n) if angle is not None else (seen, None, 0)
    if angle is None or n == 0:
        return seen, seen_angle, 1
    k = min(n, AVERAGE_OVER - 1) + 1
    turn = (seen_angle - angle + 90.0) % 180.0 - 90.0
    mean = (centre[0] + (seen[0] - centre[0]) / k, centre[1] + (seen[1] - centre[1]) / k)
    return mean, (angle + turn / k) % 180.0, n + 1


def _turn(a: float, b: float) -> float:
    """How far apart two card angles are (degrees, modulo 180)."""
    d = (a - b) % 180.0
    return min(d, 180.0 - d)


class CardTracker:
    def __init__(
        self,
        zones: Sequence[Zone] = (),
        *,
        agree_frames: int = 3,
        forget_frames: int = 3,
        match_mm: float = 35.0,
        piles: Collection[str] = PILES,
        pose_mm: float = POSE_MM,
        pose_deg: float = POSE_DEG,
        copies: bool = False,
    ) -> None:
        if agree_frames < 1 or forget_frames < 1:
            raise ValueError("agree_frames and forget_frames must be at least 1")
        if pose_mm <= 0 or pose_deg <= 0:
            raise ValueError("pose_mm and pose_deg must be positive")
        self.zones = list(zones)
        self.agree_frames = agree_frames
        self.forget_frames = forget_frames
        self.match_mm = match_mm
        self.piles = frozenset(piles)
        self.copies = copies
        self.pose_mm = pose_mm
        self.pose_deg = pose_deg
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
            if top.under is not None or self._below(top.key) is None:
                continue
            pile = [top]
            while True:
                below = self._below(pile[-1].key)
                if below is None:
                    break
                pile.append(below)
            out.append(
                [
                    CardEvent("appeared", k.card_id, k.zone, k.face_up, k.confidence, k.centre)
                    for k in reversed(pile)
                ]
            )
        return out

    def _below(self, key: int) -> _Known | None:
        """The card lying just under card ``key`` on its pile, if any."""
        return next((k for k in self._known.values() if k.under == key), None)

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

    def _match_known(self, s: Sighting, taken: set[int], here: bool = False) -> int | None:
        """The known card ``s`` is a sighting of, if any.  ``here``: only a copy of an
        identified card on this very spot (a pile's top copy first, in its pose or in a new
        one: ``_observe_known`` decides), so that every card seen where it was claims
        itself before a card seen elsewhere is taken for one that moved."""
        free = [k for k in self._known.values() if k.key not in taken]
        if s.card_id is not None:
            same = [k for k in free if k.card_id == s.card_id]
            close = [k for k in same if _dist(k.centre, s.centre_mm) <= self.match_mm]
            if here:
                # The card on top here; or one that was under it, seen again in its pose (the
                # card on it was taken): in another pose it is a new copy laid on the pile.
                close = [k for k in close if k.under is None] or [
                    k for k in close if not self._moved_pose(k, s.centre_mm, s.angle_deg)
                ]
                return min(close, key=lambda k: _dist(k.centre, s.centre_mm)).key if close else None
            # Elsewhere: that card, moved (a single copy: even from under a pile, as when
            # a pile is gathered into the deck); with ``copies``, a card in view that moved
            # (a card under others stays in its pile: the one seen is another copy).
            moved = [k for k in same if k.under is None] if self.copies else same
            if moved:
                return min(moved, key=lambda k: _dist(k.centre, s.centre_mm)).key
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
        self, sightings: Sequence[Sighting], occluded: Occluded | None = None
    ) -> list[CardEvent]:
        """Take one frame's sightings; return the events that became certain with it."""
        events: list[CardEvent] = []
        taken: set[int] = set()
        unmatched: list[Sighting] = []
        arriving: list[Point] = []  # where cards are being laid (new ones, or from elsewhere)
        # Identified cards first, so they claim their own known card before guesses do; and
        # cards on their own spot before cards that may have come from elsewhere.
        ordered = sorted(sightings, key=lambda s: (s.card_id is None, -s.confidence))
        later = []
        for s in ordered:
            key = self._match_known(s, taken, here=True) if s.card_id is not None else None
            if key is None:
                later.append(s)
            else:
                events.extend(self._seen(key, s, taken, arriving, occluded))
        for s in later:
            key = self._match_known(s, taken)
            if key is None:
                if s.card_id is not None or not s.face_up:
                    unmatched.append(s)
                    arriving.append(s.centre_mm)
            else:
                events.extend(self._seen(key, s, taken, arriving, occluded))
        for key in [k for k in self._changes if k not in taken]:
            del self._changes[key]  # the change was not seen again: start over
        events.extend(self._absent(taken, arriving, occluded))
        events.extend(self._observe_new(unmatched, taken))
        return events

    def _seen(
        self,
        key: int,
        s: Sighting,
        taken: set[int],
        arriving: list[Point],
        occluded: Occluded | None,
    ) -> list[CardEvent]:
        """The known card ``key`` is seen as ``s``."""
        if _dist(self._known[key].centre, s.centre_mm) > self.match_mm:
            arriving.append(s.centre_mm)
        taken.add(key)
        self._missing.pop(key, None)
        if self._known[key].under is not None:  # seen: it is on top now
            self._known[key] = replace(self._known[key], under=None)
        if s.card_id is None and s.face_up:
            return []  # unsure reading of a known card: it is still there, nothing more
        return self._observe_known(self._known[key], s, taken, occluded)

    def _moved_pose(self, known: _Known, centre: Point, angle: float | None) -> bool:
        """Is ``(centre, angle)`` beyond the pose tolerance of ``known``'s pose?  False
        when either angle is unknown (no pose to compare)."""
        if angle is None or known.angle is None:
            return False
        return (
            _dist(known.centre, centre) > self.pose_mm or _turn(known.angle, angle) > self.pose_deg
        )

    def _observe_known(
        self, known: _Known, s: Sighting, taken: set[int], occluded: Occluded | None
    ) -> list[CardEvent]:
        zone = self._zone(s.centre_mm)
        seen_id = s.card_id if s.face_up else None
        known_id = known.card_id if known.face_up else None
        if (seen_id, s.face_up, zone) == (known_id, known.face_up, known.zone):
            if _dist(known.centre, s.centre_mm) > self.match_mm:  # slid onto another spot
                self._uncover(known.key)
                self._cover(known.key, zone, s.centre_mm, taken)
            elif self.copies and zone in self.piles and known.angle is not None:
                if self._moved_pose(known, s.centre_mm, s.angle_deg):
                    return self._relaid(known, s, taken, occluded)
                self._changes.pop(known.key, None)
                if occluded is None or not occluded(known.centre):  # the same card: refine
                    centre, angle, n = _blend(
                        known.centre, known.angle, known.poses, s.centre_mm, s.angle_deg
                    )
                    self._known[known.key] = replace(known, centre=centre, angle=angle, poses=n)
                return []
            angle = s.angle_deg if s.angle_deg is not None else known.angle
            poses = 1 if s.angle_deg is not None else known.poses
            self._known[known.key] = replace(known, centre=s.centre_mm, angle=angle, poses=poses)
            self._changes.pop(known.key, None)
            return []
        pending = self._changes.get(known.key)
        if (
            pending is not None
            and not pending.relaid
            and (pending.card_id, pending.face_up, pending.zone) == (seen_id, s.face_up, zone)
        ):
            pending.count += 1
            pending.centre = s.centre_mm
            pending.angle = s.angle_deg
            pending.poses = 1 if s.angle_deg is not None else 0
            pending.confidence = max(pending.confidence, s.confidence)
        else:
            pending = _Pending(
                seen_id, s.face_up, zone, s.centre_mm, s.confidence, angle=s.angle_deg,
                poses=1 if s.angle_deg is not None else 0,
            )  # fmt: skip
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
            angle=pending.angle,
            poses=pending.poses,
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

    def _relaid(
        self, known: _Known, s: Sighting, taken: set[int], occluded: Occluded | None
    ) -> list[CardEvent]:
        """The top card of a pile is seen in a new pose: count the frames that agree."""
        if occluded is not None and occluded(known.centre):
            self._changes.pop(known.key, None)  # a hand over the pile: its pose proves nothing
            return []
        pending = self._changes.get(known.key)
        if pending is not None and pending.relaid:
            gap = _dist(pending.centre, s.centre_mm)
            turn = _turn(pending.angle or 0.0, s.angle_deg or 0.0)
            if gap > self.pose_mm or turn > self.pose_deg:
                pending = None  # not the same new pose: start over
        if pending is None or not pending.relaid:
            pending = _Pending(
                known.card_id, known.face_up, known.zone, s.centre_mm, s.confidence, 0,
                relaid=True,
            )  # fmt: skip
            self._changes[known.key] = pending
        pending.centre, pending.angle, pending.poses = _blend(
            pending.centre, pending.angle, pending.poses, s.centre_mm, s.angle_deg
        )
        pending.count += 1
        pending.confidence = max(pending.confidence, s.confidence)
        if pending.count < self.agree_frames:
            return []
        del self._changes[known.key]
        return self._settle_relaid(known, pending, taken)

    def _settle_relaid(self, known: _Known, pose: _Pending, taken: set[int]) -> list[CardEvent]:
        """A pile's top card has settled in a new pose: which card it is now."""
        seen_id = known.card_id if known.face_up else None
        below = self._below(known.key)
        if (
            below is not None
            and (below.card_id, below.face_up) == (known.card_id, known.face_up)
            and not self._moved_pose(below, pose.centre, pose.angle)
        ):  # the top copy was taken: the one under it shows again
            self._uncover(known.key)
            del self._known[known.key]
            self._missing.pop(known.key, None)
            taken.add(below.key)
            return [
                CardEvent(
                    "removed", seen_id, known.zone, known.face_up, known.confidence, known.centre
                )
            ]
        mover = self._gone_copy(known, taken)
        if mover is not None:  # a copy from elsewhere laid on the pile
            self._uncover(mover.key)
            self._missing.pop(mover.key, None)
            key, previous = mover.key, mover.zone
        else:  # a new copy laid on top
            key, previous = self._next_key, None
            self._next_key += 1
        self._known[key] = _Known(
            key, known.card_id, known.face_up, known.zone, pose.centre, pose.confidence,
            angle=pose.angle, poses=pose.poses,
        )  # fmt: skip
        self._known[known.key] = replace(self._known[known.key], under=key)
        taken.add(key)
        change: CardChange = "appeared" if previous is None else "moved"
        return [
            CardEvent(change, seen_id, known.zone, known.face_up, pose.confidence, pose.centre,
                      previous_zone=previous)
        ]  # fmt: skip

    def _gone_copy(self, known: _Known, taken: set[int]) -> _Known | None:
        """A copy of ``known``'s card, in view until just now and missing since: one that
        may have been carried onto ``known``'s pile."""
        for other in self._known.values():
            if (
                other.key != known.key
                and other.key not in taken
                and other.under is None
                and (other.card_id, other.face_up) == (known.card_id, known.face_up)
                and self._missing.get(other.key, 0) >= 1
            ):
                return other
        return None

    def _may_be_relaid(self, known: _Known) -> bool:
        """Is a copy of ``known`` being seen in a new pose on a pile (so ``known``, gone
        from its place, may be that card)?"""
        for key, pending in self._changes.items():
            other = self._known.get(key)
            if (
                pending.relaid
                and other is not None
                and key != known.key
                and (other.card_id, other.face_up) == (known.card_id, known.face_up)
            ):
                return True
        return False

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
        occluded: Occluded | None,
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
            if self._missing[key] >= self.forget_frames and not self._may_be_relaid(known):
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
            match.centre, match.angle, match.poses = _blend(
                match.centre, match.angle, match.poses, s.centre_mm, s.angle_deg
            )
            match.zone = zone
            match.confidence = max(match.confidence, s.confidence)
        self._new = [p for p in self._new if p.seen]
        for p in list(self._new):
            if p.count >= self.agree_frames:
                self._new.remove(p)
                key = self._next_key
                self._next_key += 1
                self._cover(key, p.zone, p.centre, taken)
                self._known[key] = _Known(
                    key, p.card_id, p.face_up, p.zone, p.centre, p.confidence,
                    angle=p.angle, poses=p.poses,
                )  # fmt: skip
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
