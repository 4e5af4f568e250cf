"""A simulated Get Adler! table: where the cards lie, for the shared simulated camera.

The physical truth the camera looks at (``tablehub.service.sim_camera`` renders
``placements`` and reads it back):

* the action card deck, face down in the middle (the ``trick`` circle);
* the discard pile (``discard-2``, in front of the hub), cards face up;
* each player's character card, face down in front of them (``seat-N``, N from 1);
* during a confrontation, the cards "placed on top of the arrest card" in front of the
  accused (the rulebook's words): a second pile, in that seat's zone;
* the mission document shown at the reveal spot (expert rules) and the top-secret
  documents laid down in a row there at seven o'clock.

It knows no rules: the simulated players (``tablehub.service.get_adler_demo``) move the
cards.  Every card laid lands a few millimetres and degrees off its spot
(``sim_camera.lay``), so copies of one design on a pile differ in pose, as on a real
table; ``relay`` lifts the card just laid and lays it down again (when the hub did not
see it).  ``placements`` draws the top two cards of each pile (the rest lie under them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tablehub.service.sim_camera import lay
from tablehub.vision.reader import seat_piles
from tablehub.vision.scene import CardPlacement
from tablehub.vision.zones import Zone, default_zones, seat_spot, zone_of

Point = tuple[float, float]
BACK = "adler:back"  # the camera's id of a card back (the renderer draws it face down)
SEAT_REACH = 0.67  # seat spots: this far from the table centre towards its edge
SEAT_SIDE = 45.0  # mm either side of the seat's line: character card left, pile right
DOCUMENT_STEP = 70.0  # mm between documents laid in a row (more than a card's width)
DECK_OFFSET = (70.0, 0.0)  # the deck, from the centre of the trick circle


def pile_zones(zones: Sequence[Zone]) -> tuple[str, ...]:
    """Where Get Adler! cards are laid on each other: the discard piles and every seat's
    area (a confrontation's cards go on the arrest card in front of the accused), as the
    service's card reader has it."""
    return seat_piles(zones)


@dataclass(frozen=True)
class Laid:
    """One physical card on the table (``card_id``: the camera's id of its face)."""

    card_id: str
    centre: Point
    angle: float
    face_up: bool = True


@dataclass
class AdlerTable:
    players: int
    width: float
    depth: float
    rng: random.Random
    zones: tuple[Zone, ...] = ()
    deck: bool = False  # a deck lies in the middle
    discard: list[Laid] = field(default_factory=list)  # bottom first
    stack: list[Laid] = field(default_factory=list)  # the confrontation, on the arrest card
    stack_seat: int = -1  # whose seat the confrontation's cards lie in front of
    characters: list[Laid] = field(default_factory=list)
    shown: list[Laid] = field(default_factory=list)  # documents at the reveal spot
    last: str = ""  # the pile of the card laid last ("discard" or "stack"), for ``relay``
    version: int = 0  # bumped on every change (the camera re-renders)

    def __post_init__(self) -> None:
        self.zones = tuple(default_zones(self.width, self.depth, self.players))
        self.characters = []
        for seat in range(self.players):
            spot, angle = self.seat_spot(seat, -SEAT_SIDE)
            self.characters.append(Laid(BACK, *lay(self.rng, spot, angle), face_up=False))

    # --- geometry ---------------------------------------------------------------------------
    def centre_of(self, name: str) -> Point:
        zone = next(z for z in self.zones if z.name == name)
        xs = [p[0] for p in zone.polygon]
        ys = [p[1] for p in zone.polygon]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def seat_spot(self, seat: int, side: float) -> tuple[Point, float]:
        """A spot in front of ``seat`` (``side`` mm along the table's edge) and the angle
        of a card laid there facing the player."""
        return seat_spot(self.width, self.depth, self.players, seat, SEAT_REACH, side)

    @property
    def deck_spot(self) -> Point:
        x, y = self.centre_of("trick")
        return (x + DECK_OFFSET[0], y + DECK_OFFSET[1])

    @property
    def discard_spot(self) -> Point:
        return self.centre_of("discard-2")

    def zone_at(self, point: Point) -> str:
        return zone_of(point, self.zones)

    # --- cards moving -----------------------------------------------------------------------
    def changed(self) -> None:
        self.version += 1

    def set_deck(self, present: bool) -> None:
        if present != self.deck:
            self.deck = present
            self.changed()

    def to_discard(self, card_id: str) -> None:
        """A card from a hand laid face up on the discard pile."""
        self.discard.append(Laid(card_id, *lay(self.rng, self.discard_spot)))
        self.last = "discard"
        self.changed()

    def to_stack(self, seat: int, card_id: str) -> None:
        """An arrest card laid in front of ``seat``, or a confrontation's card laid on it."""
        if not self.stack:
            self.stack_seat = seat
        spot, angle = self.seat_spot(self.stack_seat, SEAT_SIDE)
        self.stack.append(Laid(card_id, *lay(self.rng, spot, angle)))
        self.last = "stack"
        self.changed()

    def relay(self) -> None:
        """The card laid last is lifted and laid down again (in a new pose)."""
        if self.last == "stack" and self.stack:
            spot, angle = self.seat_spot(self.stack_seat, SEAT_SIDE)
            pile = self.stack
        elif self.last == "discard" and self.discard:
            spot, angle, pile = self.discard_spot, 0.0, self.discard
        else:
            return
        pile.append(Laid(pile.pop().card_id, *lay(self.rng, spot, angle)))
        self.changed()

    def stack_onto_discard(self) -> None:
        """An unjust arrest: the arrest card goes onto the discard pile."""
        for card in self.stack:
            self.discard.append(Laid(card.card_id, *lay(self.rng, self.discard_spot)))
        self.stack, self.stack_seat = [], -1
        self.changed()

    def stack_under_discard(self) -> None:
        """The confrontation is over: its cards go to the bottom of the discard pile, in
        the order they lie (on an empty pile they are the pile)."""
        under = [Laid(c.card_id, *lay(self.rng, self.discard_spot)) for c in self.stack]
        self.discard = under + self.discard
        self.stack, self.stack_seat = [], -1
        self.changed()

    def reshuffle(self) -> None:
        """The discard pile is shuffled into a new deck."""
        self.discard = []
        self.deck = True
        self.changed()

    def flip_character(self, seat: int, card_id: str) -> None:
        old = self.characters[seat]
        self.characters[seat] = Laid(card_id, old.centre, old.angle, face_up=True)
        self.changed()

    def show(self, card_id: str) -> None:
        """A document laid face up at the reveal spot: the first in its middle, the next
        ones in a row to its right."""
        x, y = self.centre_of("reveal")
        spot = (x + DOCUMENT_STEP * len(self.shown), y)
        self.shown.append(Laid(card_id, *lay(self.rng, spot)))
        self.changed()

    def clear_shown(self) -> None:
        self.shown = []
        self.changed()

    # --- what the camera sees ---------------------------------------------------------------
    def placements(self) -> list[CardPlacement]:
        out: list[CardPlacement] = []
        if self.deck:
            out.append(CardPlacement(BACK, self.deck_spot, 3.0, face_up=False))
        for pile in (self.discard, self.stack):
            for depth, card in enumerate(pile[-2:]):  # the top and the card just under it
                out.append(_placement(card, lift=0.5 * depth))
        out += [_placement(c) for c in self.characters]
        out += [_placement(c) for c in self.shown]
        return out


def _placement(card: Laid, lift: float = 0.0) -> CardPlacement:
    return CardPlacement(card.card_id, card.centre, card.angle, card.face_up, lift_mm=lift)
