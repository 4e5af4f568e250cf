"""A simulated Chaos in Gotham City table: players, their cards, and what lies where.

The *truth* is a full-knowledge engine (``hands_seen = True``): it shuffles and deals, and
bot players (``games.chaos_in_gotham.bots``) choose legal moves, so they always follow suit.
Each truth move becomes what people do at a real table — a villain card laid in front of a
player, a card laid into the trick area on the player's side, the winner taking the trick
and the location card, The Riddler turning his card over, Two-Face pressing "declared" —
recorded as a set of physical cards (``placed``).  The shared simulated camera
(``tablehub.service.sim_camera``) renders that set (``placements``) and reads it back into
card events; without rendering, ``sightings`` gives the card-vision tracker what a perfect
identifier would see (the tests' fast way).

The referee never sees the truth; the demo compares the two at the end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tablehub.games.base import CHANCE, Event, Move
from tablehub.games.chaos_in_gotham.bots import choose_move
from tablehub.games.chaos_in_gotham.state import ChaosState
from tablehub.observations import PanelEvent
from tablehub.referee.chaos_table import TableLayout
from tablehub.vision.scene import CardPlacement
from tablehub.vision.tracker import Sighting

FAN_MM = 40.0  # Catwoman's face-down discards are laid overlapping by this much, so the
# camera sees each of them (face-down cards on one spot look like one card)


@dataclass(frozen=True)
class Placed:
    """One physical card on the table (``card_id`` is the camera's id of its face)."""

    card_id: str
    zone: str
    centre: tuple[float, float]
    face_up: bool
    angle_deg: float = 0.0


Stage = PanelEvent | dict[str, Placed]
"""What the table did: a panel press, or a snapshot of every card on the table."""


class ChaosTableSim:
    """Players at a table; ``advance()`` plays one truth move and says what was done."""

    def __init__(
        self,
        players: int,
        layout: TableLayout,
        seed: int,
        ambiguous_rate: float = 0.04,
    ) -> None:
        self.rng = random.Random(seed)
        self.layout = layout
        self.first = self.rng.randrange(players)
        self.truth = ChaosState(players, {"first_player": self.first})
        self.placed: dict[str, Placed] = {}  # key: a physical card (trick id, villain, back-n)
        self.ambiguous_rate = ambiguous_rate
        self.last_play_seat: int | None = None
        self.stages: list[Stage] = []
        self._villains: list[tuple[int, str]] = []
        self._backs = 0
        self._trump_top: str | None = None
        self.version = 0  # bumped whenever ``placed`` changes (the camera re-renders)

    # --- the players answer the hub ------------------------------------------------------
    def answer(self, request: str) -> PanelEvent | None:
        """What the table does when the hub asks on the panel (truthfully)."""
        if request == "first":
            return PanelEvent("seat_chosen", self.first, request=request)
        if request == "who-played" and self.last_play_seat is not None:
            return PanelEvent("seat_chosen", self.last_play_seat, request=request)
        return None

    # --- one move ------------------------------------------------------------------------
    def done(self) -> bool:
        return self.truth.is_terminal()

    def advance(self) -> list[Stage]:
        """Play one truth move; return what happened, in order: panel presses, and table
        snapshots (``dict`` of what lies where) for the camera to look at."""
        truth = self.truth
        if truth.current_player() == CHANCE:
            move = self.rng.choice(truth.legal_moves())
        else:
            move = choose_move(truth, self.rng)
        self.stages = []
        if move.get("swap"):
            self.stages.append(PanelEvent("declared", move["player"], "swap"))
        events = truth.apply(move)
        self._act(move, events)
        return self.stages

    def _snap(self) -> None:
        self.version += 1
        self.stages.append(dict(self.placed))

    def placements(self) -> list[CardPlacement]:
        """What lies on the table now, for the scene renderer (in the order laid)."""
        return [
            CardPlacement(p.card_id, p.centre, p.angle_deg, p.face_up) for p in self.placed.values()
        ]

    def _put(
        self, key: str, card_id: str, zone: str, centre: tuple[float, float], up: bool
    ) -> None:
        angle = self.rng.uniform(-12.0, 12.0)
        self.placed[key] = Placed(card_id, zone, centre, up, angle)

    def _jitter(self, point: tuple[float, float], mm: float) -> tuple[float, float]:
        return (point[0] + self.rng.uniform(-mm, mm), point[1] + self.rng.uniform(-mm, mm))

    def _act(self, move: Move, events: list[Event]) -> None:
        kind = move["kind"]
        zones = self.layout.zones
        if kind == "villain":
            self._villains.append((move["seat"], move["villain"]))
            if self.truth.steps[0]["step"] != "villain":  # all dealt: laid out in any order
                self.rng.shuffle(self._villains)
                for seat, villain in self._villains:
                    spot = self._jitter(self.layout.seats[seat], 10)
                    zone = self.layout.seat_zone(seat)
                    self._put(f"villain-{villain}", f"chaos:villain-{villain}", zone, spot, True)
                    self._snap()
                self._villains = []
        elif kind == "catwoman":
            for n, _ in enumerate(move["discard"]):
                self._backs += 1
                x, y = self.discard_spot()
                spot = self._jitter((x + FAN_MM * (n - 1), y), 3)
                self._put(f"back-{self._backs}", "chaos:back", zones["discard"], spot, False)
                self._snap()
        elif kind == "trump":
            if self._trump_top is not None:
                self.placed.pop(self._trump_top, None)  # covered by the new card
            self._trump_top = move["card"]
            spot = self._jitter(self.trump_spot(), 3)
            self._put(move["card"], f"chaos:{move['card']}", zones["trump"], spot, True)
            self._snap()
        elif kind == "location":
            x, y = self.location_spot()
            if self.truth.loc_options:  # The Penguin's two cards lie side by side
                x += 40.0 if len(self.truth.loc_options) == 2 else -40.0
            card = move["card"]
            self._put(f"loc-{card}", f"chaos:loc-{card}", zones["location"], (x, y), True)
            self._snap()
        elif kind == "penguin":
            for event in events:
                if event["kind"] == "penguin":
                    for other in event["set_aside"]:
                        self.placed.pop(f"loc-{other}", None)
            self._snap()
        elif kind == "play":
            self._play(move, events)

    def _play(self, move: Move, events: list[Event]) -> None:
        seat = move["player"]
        self.last_play_seat = seat
        card = move["card"]
        if self.rng.random() < self.ambiguous_rate:
            spot = self._jitter(self.layout.trick_centre, 4)  # pushed right into the middle
        else:
            spot = self._jitter(self.layout.play_spot(seat), 8)
        face_up = not move.get("face_down", False)
        self._put(card, f"chaos:{card}", self.layout.zones["trick"], spot, face_up)
        self._snap()
        trick = [e for e in events if e["kind"] == "trick"]
        if not trick:
            return
        for key, placed in list(self.placed.items()):  # The Riddler turns his card over
            if placed.zone == self.layout.zones["trick"] and not placed.face_up:
                self.placed[key] = Placed(
                    placed.card_id, placed.zone, placed.centre, True, placed.angle_deg
                )
                self._snap()
        for played in trick[0]["cards"]:  # the winner takes the trick ...
            self.placed.pop(played, None)
        if trick[0]["location"]:  # ... and the location card
            self.placed.pop(f"loc-{trick[0]['location']}", None)
        if any(e["kind"] == "round-end" for e in events):  # everything is gathered up
            self.placed.clear()
            self._trump_top = None
        self._snap()

    def discard_spot(self) -> tuple[float, float]:
        return self.layout.spots["discard"]

    def trump_spot(self) -> tuple[float, float]:
        return self.layout.spots["trump"]

    def location_spot(self) -> tuple[float, float]:
        return self.layout.spots["location"]


def sightings(placed: dict[str, Placed]) -> list[Sighting]:
    """Every card on the table as a perfect identifier sees it (nothing covers anything)."""
    return [
        Sighting(p.card_id if p.face_up else None, p.face_up, 0.99, p.centre)
        for p in placed.values()
    ]
