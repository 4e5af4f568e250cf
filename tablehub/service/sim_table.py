"""A simulated High Card table: scene renderer, a marker-based card reader, and players.

This is the foundation's stand-in so the service can be exercised end to end before the
card-vision code lands: cards are drawn into the simulated camera's frames with an ArUco
marker (id = the card's index in the deck) and read back from the frames with OpenCV's
ArUco detector — real frames, real detection, but a much easier problem than reading
printed card faces, which is what ``tablehub/vision/`` does.

``SimulatedPlayers`` acts like the people at the table: the dealer turns the knob and
presses, players lay cards at the reveal spot (sometimes a card already played, sometimes
nothing so their time runs out), someone presses "next".  Every decision is drawn from a
random generator seeded by (seed, number of records accepted so far), so a run that is
killed and resumed makes exactly the same decisions as one that is not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tablehub.devices.camera import Frame, FrameSource
from tablehub.devices.panel import PanelHands
from tablehub.games.high_card import DECK, card_name
from tablehub.observations import CardEvent, Observation
from tablehub.service.app import Hub

WIDTH, HEIGHT = 640, 360
MM_PER_PX = 1.5  # the simulated camera sees a 960 x 540 mm table
REVEAL = (270, 100, 370, 240)  # x0, y0, x1, y1 in pixels: the reveal spot
ARUCO = cv2.aruco.DICT_4X4_100


@dataclass
class Scene:
    """What lies on the simulated table: card id -> top-left pixel."""

    cards: dict[str, tuple[int, int]] = field(default_factory=dict)
    version: int = 0

    def show(self, card: str | None) -> None:
        """Exactly this card at the reveal spot (None: an empty table)."""
        self.cards = {card: (REVEAL[0] + 5, REVEAL[1] + 5)} if card else {}
        self.version += 1


class SceneRenderer:
    """FrameSource for the simulated camera: baize, reveal spot, cards with markers."""

    def __init__(self, scene: Scene, seed: int = 0) -> None:
        self.scene = scene
        self.seed = seed
        self._dictionary = cv2.aruco.getPredefinedDictionary(ARUCO)
        self._base = self._table()

    def _table(self) -> Frame:
        rng = np.random.default_rng(self.seed)
        frame = np.empty((HEIGHT, WIDTH, 3), np.uint8)
        frame[:] = (40, 110, 30)
        noise = rng.integers(-8, 9, size=(HEIGHT, WIDTH, 1), dtype=np.int16)
        frame[:] = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        x0, y0, x1, y1 = REVEAL
        cv2.rectangle(frame, (x0, y0), (x1, y1), (200, 200, 200), 1)
        cv2.putText(
            frame, "reveal", (x0 + 22, y1 + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (220, 220, 220), 1
        )
        return frame

    def __call__(self, index: int) -> Frame:
        frame = self._base.copy()
        rng = np.random.default_rng((self.seed, index))
        for card, (x, y) in self.scene.cards.items():
            cv2.rectangle(frame, (x, y), (x + 90, y + 130), (245, 245, 245), -1)
            marker = cv2.aruco.generateImageMarker(self._dictionary, DECK.index(card), 56)
            frame[y + 12 : y + 68, x + 17 : x + 73] = marker[:, :, None]
            red = card[-1] in "HD"
            cv2.putText(
                frame,
                card,
                (x + 22, y + 105),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.8,
                (30, 30, 200) if red else (20, 20, 20),
                2,
            )
        noise = rng.integers(-4, 5, size=frame.shape, dtype=np.int16)  # sensor noise
        result: Frame = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        return result


def _zone(cx: float, cy: float) -> str:
    x0, y0, x1, y1 = REVEAL
    return "reveal" if x0 <= cx <= x1 and y0 <= cy <= y1 else "table"


class MarkerCardReader:
    """Frames -> CardEvents, from ArUco markers; a reading counts once ``agree`` frames in a
    row show it (a hand passing over the table changes nothing)."""

    def __init__(self, agree: int = 2, on_read: Callable[[str], None] | None = None) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO)
        self.detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
        self.agree = agree
        self.on_read = on_read
        self.stable: dict[str, tuple[str, tuple[float, float]]] = {}
        self._candidate: dict[str, tuple[str, tuple[float, float]]] | None = None
        self._count = 0
        self.frames = 0

    def read(self, frame: Frame) -> dict[str, tuple[str, tuple[float, float]]]:
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = self.detector.detectMarkers(gray)
        seen: dict[str, tuple[str, tuple[float, float]]] = {}
        if ids is not None:
            for quad, marker in zip(corners, ids.flatten(), strict=True):
                if 0 <= int(marker) < len(DECK):
                    cx, cy = (float(v) for v in quad[0].mean(axis=0))
                    seen[DECK[int(marker)]] = (_zone(cx, cy), (cx * MM_PER_PX, cy * MM_PER_PX))
        return seen

    def __call__(self, frame: Frame) -> list[Observation]:
        self.frames += 1
        seen = self.read(frame)
        keys = {c: z for c, (z, _) in seen.items()}
        if self._candidate is not None and keys == {c: z for c, (z, _) in self._candidate.items()}:
            self._count += 1
        else:
            self._candidate, self._count = seen, 1
        if self._count < self.agree:
            return []
        events: list[Observation] = []
        for card, (zone, centre) in seen.items():
            if card not in self.stable or self.stable[card][0] != zone:
                events.append(CardEvent("appeared", card, zone, True, 0.99, centre))
                if self.on_read is not None:
                    self.on_read(
                        f"[camera] frame {self.frames}: {card_name(card)} at the {zone} spot "
                        f"(marker {DECK.index(card)})"
                    )
        for card, (zone, centre) in self.stable.items():
            if card not in seen:
                events.append(CardEvent("removed", card, zone, True, 0.99, centre))
        self.stable = dict(seen)
        return events

    def reread(self, zone: str | None) -> None:
        self.stable = {c: v for c, v in self.stable.items() if zone is not None and v[0] != zone}
        self._candidate, self._count = None, 0


def lying_card(history: list[tuple[int, dict[str, Any]]]) -> str | None:
    """The card the simulated players left at the reveal spot, from the journal: the card
    of the latest card record (accepted or rejected), unless a pass came after it."""
    for _, record in reversed(history):
        if record["kind"] == "move" and record["move"]["kind"] == "card":
            return str(record["move"]["card"])
        if record["kind"] == "rejected" and record["observation"].get("kind") == "card":
            card = record["observation"].get("card_id")
            return str(card) if card else None
        if record["kind"] == "timer":
            return None
    return None


class SimulatedPlayers:
    """People at a High Card table, reacting whenever the hub has handled something."""

    def __init__(
        self,
        scene: Scene,
        hands: PanelHands,
        seed: int,
        pace: float = 0.05,
        say: Callable[[str], None] | None = None,
        source: FrameSource | None = None,
    ) -> None:
        self.scene = scene
        self.hands = hands
        self.seed = seed
        self.pace = pace
        self.say = say or (lambda line: None)
        self.source = source
        self.acted_at: int | None = None

    def __call__(self, hub: Hub) -> None:
        referee = hub.referee
        n = len(referee.history)
        if n == self.acted_at:
            return
        self.acted_at = n
        rng = random.Random(f"{self.seed}:{n}")
        status = referee.status("public")
        names = referee.setup.seats
        phase = status["phase"]
        if phase == "choose_first":
            steps = rng.randrange(len(names))
            self.say(f"[table] the dealer turns the knob {steps} step(s) and presses it")
            hub.loop.call_later(self.pace, self._choose, steps)
        elif phase == "turn":
            seat = status["to_act"]
            seen: list[str] = list(getattr(referee, "engine").seen)  # noqa: B009
            # never lay the very card already lying there: the camera would see no change.
            # What lies there is read from the journal, so a resumed run agrees.
            lying = lying_card(referee.history)
            roll = rng.random()
            if roll < 0.1:
                self.say(f"[table] {names[seat]} hesitates and does nothing")
                self.scene.show(None)
            elif roll < 0.2 and set(seen) - {lying}:
                card = rng.choice(sorted(set(seen) - {lying}))
                self.say(f"[table] {names[seat]} lays the {card_name(card)} again (a mistake)")
                self.scene.show(card)
            else:
                card = rng.choice([c for c in DECK if c not in seen and c != lying])
                self.say(f"[table] {names[seat]} lays the {card_name(card)} at the reveal spot")
                self.scene.show(card)
        elif phase == "wait_next":
            self.say("[table] someone presses next")
            hub.loop.call_later(self.pace, self.hands.press_next)
        elif phase == "over":
            self.scene.show(None)

    def _choose(self, steps: int) -> None:
        self.hands.turn(steps)
        self.hands.press_knob()
