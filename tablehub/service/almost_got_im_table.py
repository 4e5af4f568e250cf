"""A simulated Almost Got 'Im table: the cards where people put them, seen by a camera.

``SimTable`` is the physical truth — the deck in order, every hand, the three discard
piles, the reveal spot, the cards in front of each seat, the Secret Role cards (dealt,
under the Characters, and the unused pile).  It knows nothing of the rules: the
simulated players (``almost_got_im_players``) move the cards.

``TableCamera`` renders the visible part with the card-vision scene renderer
(``tablehub.vision.scene``; the stand-in card art) into frames for the simulated camera,
re-rendering only when something moved.  ``TruthReader`` turns frames into CardEvents
from the renderer's ground truth — the stand-in for the card-vision pipeline until its
finder/identifier/tracker lands: it reports a face-up card once it shows, and its removal
once it is gone (a card merely covered by another on a pile is still there, as a tracker
following the pile would know).  Swap in the real pipeline through the service's
``FrameReader`` (``tablehub.vision.reader.make_frame_reader``) when it exists.

Geometry (table millimetres, x right, y away from the hub): deck in the middle, the three
discard piles in a row above it, the reveal spot below it, the seats round the edge
clockwise from the hub's side.  Zone names are the card-vision ones: ``discard-1..3``,
``reveal``, ``seat-N``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablehub.devices.camera import Frame
from tablehub.games.almost_got_im.cards import (
    DECK,
    character_card_id,
    role_card_id,
    to_vision_id,
)
from tablehub.observations import CardEvent, Observation
from tablehub.vision.cardart import standin_faces
from tablehub.vision.scene import Camera, CardPlacement, RenderedScene, Scene, render_scene

TABLE_MM = (900.0, 900.0)
CENTRE = (450.0, 450.0)
PILES = ((330.0, 315.0), (450.0, 315.0), (570.0, 315.0))
REVEAL = (450.0, 590.0)
REVEAL_STEP = 68.0
SEAT_RADIUS = 345.0
PILE_ZONE, SEAT_ZONE = 45.0, 130.0
VISIBLE = 0.5  # a card counts as seen when this much of it shows
FACE_PX_PER_MM = 2.0  # card art resolution: plenty for a camera at under 1 px/mm


def seat_position(seat: int, seats: int) -> tuple[float, float]:
    """Seat 0 on the hub's side, numbers growing clockwise (in the camera's view)."""
    angle = math.pi / 2 + 2 * math.pi * seat / seats
    return (CENTRE[0] + SEAT_RADIUS * math.cos(angle), CENTRE[1] + SEAT_RADIUS * math.sin(angle))


def zone_at(point: tuple[float, float], seats: int) -> str:
    x, y = point
    for k, (px, py) in enumerate(PILES):
        if math.hypot(x - px, y - py) <= PILE_ZONE:
            return f"discard-{k + 1}"
    if abs(x - REVEAL[0]) <= 200 and abs(y - REVEAL[1]) <= 60:
        return "reveal"
    for seat in range(seats):
        sx, sy = seat_position(seat, seats)
        if math.hypot(x - sx, y - sy) <= SEAT_ZONE:
            return f"seat-{seat}"
    return "table"


@dataclass
class SimTable:
    """The physical table (engine card ids; the top of the deck is ``deck[0]``)."""

    seats: int
    rng: random.Random
    deck: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    piles: list[list[str]] = field(default_factory=lambda: [[], [], []])
    reveal: list[tuple[str, bool]] = field(default_factory=list)  # (card, face up)
    characters: list[list[str]] = field(default_factory=list)  # per seat, own first
    shown: list[list[str]] = field(default_factory=list)  # cards shown in front of a seat
    roles: list[str] = field(default_factory=list)  # under the Character cards (secret)
    unused_roles: list[str] = field(default_factory=list)
    version: int = 0

    def __post_init__(self) -> None:
        self.hands = [[] for _ in range(self.seats)]
        self.characters = [[] for _ in range(self.seats)]
        self.shown = [[] for _ in range(self.seats)]

    def changed(self) -> None:
        self.version += 1

    # --- set-up ---------------------------------------------------------------------------
    def new_deck(self) -> None:
        self.deck = list(DECK)
        self.rng.shuffle(self.deck)
        self.piles = [[], [], []]
        self.changed()

    def deal(self, first: int, count: int = 5) -> None:
        for _ in range(count):
            for i in range(self.seats):
                self.hands[(first + i) % self.seats].append(self.deck.pop(0))
        self.changed()

    # --- cards moving ---------------------------------------------------------------------
    def draw(self, seat: int, count: int = 1) -> list[str]:
        """From the top of the deck into a hand (nobody sees them)."""
        drawn = [self.deck.pop(0) for _ in range(min(count, len(self.deck)))]
        self.hands[seat] += drawn
        self.changed()
        return drawn

    def take(self, seat: int, pile: int) -> str:
        card = self.piles[pile].pop()
        self.hands[seat].append(card)
        self.changed()
        return card

    def discard(self, seat: int, card: str, pile: int) -> None:
        self.hands[seat].remove(card)
        self.piles[pile].append(card)
        self.changed()

    def lay(self, seat: int, cards: list[str], face_up: bool) -> None:
        """Cards from a hand to the reveal spot."""
        for card in cards:
            self.hands[seat].remove(card)
            self.reveal.append((card, face_up))
        self.changed()

    def pick_up(self, seat: int) -> None:
        """The cards at the reveal spot back into ``seat``'s hand."""
        self.hands[seat] += [c for c, _ in self.reveal]
        self.reveal = []
        self.changed()

    def turn_in(self, seat: int) -> None:
        """A used hand: the cards at the reveal spot to the bottom of the deck, five new."""
        self.deck += [c for c, _ in self.reveal]
        self.reveal = []
        self.draw(seat, 5)

    def swap_hand(self, seat: int) -> None:
        """Sabotaged: the whole hand to the bottom of the deck, five new from the top."""
        self.deck += self.hands[seat]
        self.hands[seat] = []
        self.draw(seat, 5)

    def refill(self) -> None:
        """Everything under the top of each discard pile shuffled back into the deck."""
        for pile in self.piles:
            self.deck += pile[:-1]
            del pile[:-1]
        self.rng.shuffle(self.deck)
        self.changed()

    def show(self, seat: int, card: str, where: str = "reveal") -> None:
        """A card shown face up without leaving its owner (a role card, a Joker)."""
        if where == "reveal":
            self.reveal.append((card, True))
        else:
            self.shown[seat].append(card)
        self.changed()

    def hide(self, seat: int, card: str) -> None:
        self.reveal = [(c, up) for c, up in self.reveal if c != card]
        if card in self.shown[seat]:
            self.shown[seat].remove(card)
        self.changed()

    # --- what the camera sees -------------------------------------------------------------
    def placements(self) -> list[CardPlacement]:
        out: list[CardPlacement] = []
        if self.deck:
            out.append(CardPlacement(to_vision_id(self.deck[0]), CENTRE, 3.0, face_up=False))
        for k, pile in enumerate(self.piles):
            for depth, card in enumerate(pile[-2:]):  # the top and the card just under it
                lift = 0.5 * depth
                out.append(CardPlacement(to_vision_id(card), PILES[k], 2.0 * depth, lift_mm=lift))
        first = REVEAL[0] - REVEAL_STEP * (len(self.reveal) - 1) / 2
        for i, (card, up) in enumerate(self.reveal):
            spot = (first + REVEAL_STEP * i, REVEAL[1])
            out.append(CardPlacement(_vision(card), spot, face_up=up))
        for seat in range(self.seats):
            x, y = seat_position(seat, self.seats)
            ux, uy = (CENTRE[0] - x) / SEAT_RADIUS, (CENTRE[1] - y) / SEAT_RADIUS
            angle = math.degrees(math.atan2(uy, ux)) - 90.0
            for i, key in enumerate(self.characters[seat]):
                spot = (x - uy * 95.0 * i, y + ux * 95.0 * i)
                out.append(CardPlacement(character_card_id_vision(key), spot, angle))
            for i, card in enumerate(self.shown[seat]):
                spot = (x + uy * (80.0 + 70.0 * i), y - ux * (80.0 + 70.0 * i))
                out.append(CardPlacement(_vision(card), spot, angle))
        return out


def _vision(card: str) -> str:
    return to_vision_id(card)


def character_card_id_vision(key: str) -> str:
    return to_vision_id(character_card_id(key))


def role_card_vision(role: str) -> str:
    return to_vision_id(role_card_id(role))


class TableCamera:
    """FrameSource for the simulated camera: renders the table when it has changed."""

    def __init__(self, table: SimTable, size: tuple[int, int] = (640, 640), seed: int = 0) -> None:
        self.table = table
        self.faces = standin_faces(FACE_PX_PER_MM)
        self.camera = Camera(image_size=size, target_mm=CENTRE, px_per_mm=size[0] / TABLE_MM[0])
        self.seed = seed
        self.last: RenderedScene | None = None
        self._version = -1
        self.renders = 0

    def __call__(self, index: int) -> Frame:
        if self.last is None or self._version != self.table.version:
            scene = Scene(
                faces=self.faces,
                cards=self.table.placements(),
                table_mm=TABLE_MM,
                texture="cloth",
                camera=self.camera,
                noise=1.5,
                jpeg_quality=None,
            )
            self.last = render_scene(scene, np.random.default_rng((self.seed, self.renders)))
            self._version = self.table.version
            self.renders += 1
        image: Frame = self.last.image
        return image


class TruthReader:
    """CardEvents from the renderer's ground truth (the card-vision stand-in; see the
    module docstring).  A change counts once ``agree`` frames in a row show it."""

    def __init__(
        self,
        camera: TableCamera,
        seats: int,
        agree: int = 2,
        on_read: Callable[[list[CardEvent], Frame], None] | None = None,
    ) -> None:
        self.camera = camera
        self.seats = seats
        self.agree = agree
        self.on_read = on_read
        self.stable: dict[str, tuple[str, tuple[float, float]]] = {}  # card -> zone, centre
        self._candidate: tuple[Any, ...] | None = None
        self._count = 0

    def _look(self) -> tuple[dict[str, tuple[str, tuple[float, float]]], set[str]]:
        rendered = self.camera.last
        seen: dict[str, tuple[str, tuple[float, float]]] = {}
        present: set[str] = set()
        if rendered is None:
            return seen, present
        for card in rendered.cards:
            if not card.face_up:
                continue
            present.add(card.card_id)
            if card.visible >= VISIBLE:
                seen[card.card_id] = (zone_at(card.centre_mm, self.seats), card.centre_mm)
        return seen, present

    def __call__(self, frame: Frame) -> list[Observation]:
        seen, present = self._look()
        key = (tuple(sorted((c, z) for c, (z, _) in seen.items())), tuple(sorted(present)))
        if key == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = key, 1
        if self._count != self.agree:
            return []
        events: list[CardEvent] = []
        for card, (zone, centre) in list(self.stable.items()):
            gone = card not in present
            moved = card in seen and seen[card][0] != zone
            if gone or moved:
                events.append(CardEvent("removed", card, zone, True, 0.99, centre))
                del self.stable[card]
        for card, (zone, centre) in seen.items():
            if card not in self.stable:
                events.append(CardEvent("appeared", card, zone, True, 0.99, centre))
                self.stable[card] = (zone, centre)
        if events and self.on_read is not None:
            self.on_read(events, frame)
        return list(events)

    def reread(self, zone: str | None) -> None:
        """Forget what was settled (in ``zone``) so it is reported again."""
        self.stable = {c: v for c, v in self.stable.items() if zone is not None and v[0] != zone}
        self._candidate, self._count = None, 0
