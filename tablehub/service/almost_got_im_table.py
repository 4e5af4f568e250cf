"""A simulated Almost Got 'Im table: the cards where people put them, seen by a camera.

``SimTable`` is the physical truth — the deck in order, every hand, the three discard
piles, the reveal spot, the cards in front of each seat, the Secret Role cards (dealt,
under the Characters, and the unused pile).  It knows nothing of the rules: the
simulated players (``almost_got_im_players``) move the cards.

``SimTable.placements`` is what the shared simulated camera (``tablehub.service.sim_camera``)
renders and reads: the top of the deck, the top two cards of each discard pile (a card
covered by a newer one is under it, the tracker's pile stacks), the reveal spot and the
cards in front of each seat.

Geometry: the vision layer's default zones for the configured table (``reveal`` in front
of the hub, ``discard-1..3`` behind it, the deck in the ``trick`` circle, ``seat-1..N``
clockwise from the hub's left; physical seat ``i`` is ``seat-{i+1}``).
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field

from tablehub.games.almost_got_im.cards import DECK, character_card_id
from tablehub.vision.scene import CardPlacement
from tablehub.vision.zones import Zone, default_zones, seat_spot, zone_of

Point = tuple[float, float]
FAN_STEP = 30.0  # mm between the cards of a hand laid at the reveal spot


@dataclass(frozen=True)
class Layout:
    """Where things go on the table (table mm), from the vision layer's zones."""

    width: float
    depth: float
    seats: int
    zones: tuple[Zone, ...]

    @classmethod
    def of(cls, width: float, depth: float, seats: int) -> Layout:
        return cls(width, depth, seats, tuple(default_zones(width, depth, seats)))

    def centre_of(self, name: str) -> Point:
        zone = next(z for z in self.zones if z.name == name)
        xs = [p[0] for p in zone.polygon]
        ys = [p[1] for p in zone.polygon]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    @property
    def deck(self) -> Point:
        x, y = self.centre_of("trick")
        return (x + 70.0, y)

    def pile(self, k: int) -> Point:
        return self.centre_of(f"discard-{k + 1}")

    def reveal(self, i: int, count: int) -> Point:
        x, y = self.centre_of("reveal")
        return (x + FAN_STEP * (i - (count - 1) / 2), y)

    def seat(self, seat: int, slot: int = 0) -> tuple[Point, float]:
        """The spot of card ``slot`` in front of ``seat`` and its angle (degrees)."""
        side = 65.0 * (slot + 1) // 2 * (1 if slot % 2 else -1)  # extras to either side
        return seat_spot(self.width, self.depth, self.seats, seat, 0.77, side)

    def zone_at(self, point: Point) -> str:
        return zone_of(point, self.zones)


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
    def placements(self, layout: Layout) -> list[CardPlacement]:
        out: list[CardPlacement] = []
        if self.deck:
            out.append(CardPlacement(self.deck[0], layout.deck, 3.0, face_up=False))
        for k, pile in enumerate(self.piles):
            x, y = layout.pile(k)
            for depth, card in enumerate(pile[-2:]):  # the top and the card just under it
                dx, dy = _nudge(card)  # no two cards ever land exactly on the same spot
                spot = (x + dx, y + dy)
                out.append(CardPlacement(card, spot, 2.0 * depth, lift_mm=0.5 * depth))
        for i, (card, up) in enumerate(self.reveal):
            out.append(CardPlacement(card, layout.reveal(i, len(self.reveal)), face_up=up))
        for seat in range(self.seats):
            cards = [character_card_id(k) for k in self.characters[seat]] + self.shown[seat]
            for slot, card in enumerate(cards):
                spot, angle = layout.seat(seat, slot)
                out.append(CardPlacement(card, spot, angle))
        return out


def _nudge(card: str) -> Point:
    """A few millimetres off the pile's centre, the same for a card every time."""
    h = zlib.crc32(card.encode())
    return (float(h % 7 - 3), float(h // 7 % 7 - 3))
