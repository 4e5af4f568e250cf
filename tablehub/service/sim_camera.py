"""One simulated table camera for every demo: a table model -> frames -> card events.

The simulated players change a *table model* (what lies where, in table millimetres);
``TableFrames`` renders it with the card-vision scene renderer (stand-in card art) into the
frames of the service's ``SimulatedCamera``, re-rendering only when the table changed;
``SimCardReader`` is the service's ``FrameReader`` for them: each frame's cards become
sightings and the card-vision ``CardTracker`` over the table's zones settles them into
``CardEvent`` s, which the hub's camera feed puts on its queue like a real camera's.

The sightings come from

* ``"truth"`` (default): the renderer's ground truth, what a correct identifier reports
  (a card counts as seen when half of it shows, or a face-up card's index corner);
* ``"real"``: the card finder and identifier themselves on the rendered frame, with the
  game's stand-in deck enrolled as ``tablehub cards enroll --standin`` does (slow here:
  about a second a frame).

``install`` puts camera and reader on a hub.  ``SimCardReader.settled`` tells a simulation
when the camera has caught up with the table (every change reported), so players can act
one visible step at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

import cv2
import numpy as np

from tablehub.devices.camera import Frame, SimulatedCamera
from tablehub.observations import CardEvent, Observation
from tablehub.vision.cardart import standin_faces
from tablehub.vision.identify import EnrolledDeck
from tablehub.vision.scene import Camera, CardPlacement, RenderedScene, Scene, render_scene
from tablehub.vision.tracker import CardTracker, Sighting
from tablehub.vision.zones import Zone

if TYPE_CHECKING:
    from tablehub.service.app import Hub

Vision = Literal["truth", "real"]
VISIONS: dict[str, str] = {
    "truth": "the vision tracker and zones, sightings from the renderer's ground truth",
    "real": "the vision pipeline: card finder, identifier (stand-in deck), tracker, zones",
}
VISIBLE = 0.5  # ground truth: a card counts as seen when this much of it shows, or an
# index corner (as the identifier reads a fanned card by its corner; bench.cards' rule)
PX_PER_MM = 1.0  # the camera's scale (a 900 x 600 mm table: 900 x 600 px)
Placements = Callable[[], list[CardPlacement]]


class TableFrames:
    """FrameSource for the simulated camera: the table model rendered when it changed.

    ``placements()`` lists what lies on the table now; ``version()`` changes whenever it
    does (a counter the model bumps)."""

    def __init__(
        self,
        placements: Placements,
        version: Callable[[], int],
        size_mm: tuple[float, float],
        seed: int = 0,
        texture: str = "felt-green",
    ) -> None:
        self.placements = placements
        self.version = version
        self.size_mm = size_mm
        self.faces = standin_faces()
        width, depth = size_mm
        image = (round(width * PX_PER_MM), round(depth * PX_PER_MM))
        self.camera = Camera(
            image_size=image, target_mm=(width / 2, depth / 2), px_per_mm=PX_PER_MM
        )
        self.seed = seed
        self.texture = texture
        self.last: RenderedScene | None = None
        self._version: int | None = None
        self.renders = 0

    @property
    def size(self) -> tuple[int, int]:
        return self.camera.image_size

    def __call__(self, index: int) -> Frame:
        version = self.version()
        if self.last is None or self._version != version:
            scene = Scene(
                faces=self.faces,
                cards=self.placements(),
                table_mm=self.size_mm,
                texture=self.texture,
                camera=self.camera,
                noise=1.5,
                jpeg_quality=None,
            )
            self.last = render_scene(scene, np.random.default_rng((self.seed, self.renders)))
            self._version = version
            self.renders += 1
        image: Frame = self.last.image
        return image


class SimCardReader:
    """Frames -> CardEvents: sightings per frame (ground truth or the card identifier),
    settled by the card-vision tracker (see the module docstring)."""

    def __init__(
        self,
        frames: TableFrames,
        zones: Sequence[Zone],
        vision: Vision = "truth",
        deck: str = "agi",
        agree: int = 2,
        forget: int = 2,
        on_read: Callable[[list[CardEvent], Frame], None] | None = None,
    ) -> None:
        if vision not in VISIONS:
            raise ValueError(f"vision must be one of {', '.join(VISIONS)}, not {vision!r}")
        self.frames = frames
        self.vision = vision
        self.tracker = CardTracker(zones, agree_frames=agree, forget_frames=forget)
        self.on_read = on_read
        self.read = 0  # frames read
        self.quiet = 0  # frames read since the table last changed or an event came
        self._seen_render = -1
        self._cache: tuple[int, list[Sighting]] | None = None  # (render number, sightings)
        self._deck = enrolled_standin(deck) if vision == "real" else None
        self.settle_frames = agree + forget + 1  # a change is certain within this many

    def sightings(self) -> list[Sighting]:
        rendered = self.frames.last
        if rendered is None:
            return []
        if self._cache is not None and self._cache[0] == self.frames.renders:
            return self._cache[1]
        if self._deck is not None:
            found = self._identify(rendered, self._deck)
        else:
            found = [
                Sighting(c.card_id if c.face_up else None, c.face_up, 0.99, c.centre_mm)
                for c in rendered.cards
                if c.visible >= VISIBLE or (c.face_up and c.index_visible)
            ]
        self._cache = (self.frames.renders, found)
        return found

    @staticmethod
    def _identify(rendered: RenderedScene, deck: EnrolledDeck) -> list[Sighting]:
        from tablehub.vision.identify import read_cards

        to_table = np.linalg.inv(rendered.table_to_image)
        out = []
        for reading in read_cards(rendered.image, deck, px_per_mm=PX_PER_MM):
            centre = np.array([[reading.centre]], np.float64)
            x, y = cv2.perspectiveTransform(centre, to_table)[0][0]
            out.append(
                Sighting(reading.card_id, reading.face_up, reading.confidence, (float(x), float(y)))
            )
        return out

    def __call__(self, frame: Frame) -> list[Observation]:
        self.read += 1
        if self.frames.renders != self._seen_render:
            self._seen_render = self.frames.renders
            self.quiet = 0
        events = self.tracker.update(self.sightings())
        self.quiet = 0 if events else self.quiet + 1
        if events and self.on_read is not None:
            self.on_read(events, frame)
        return list(events)

    def settled(self, version: int) -> bool:
        """Has the camera reported everything up to the table's ``version``?"""
        return self.frames._version == version and self.quiet >= self.settle_frames

    def reread(self, zone: str | None) -> None:
        """Forget what was settled (in ``zone``, or everywhere) so what is in view there is
        reported again."""
        self.tracker.forget(zone)


def enrolled_standin(deck: str) -> EnrolledDeck:
    """A stand-in deck, enrolled as ``tablehub cards enroll --standin`` does."""
    from tablehub.vision.decks import DECKS
    from tablehub.vision.identify import enroll_images

    spec = DECKS[deck]
    faces = standin_faces(8.0)
    images = {c.id: faces(c.id) for c in spec.cards}
    images["back"] = faces(f"{spec.name}:back")
    return enroll_images(spec.name, images, {c.id: c.size_mm for c in spec.cards})


def install(
    hub: Hub,
    frames: TableFrames,
    zones: Sequence[Zone],
    vision: Vision = "truth",
    deck: str = "agi",
    on_read: Callable[[list[CardEvent], Frame], None] | None = None,
) -> SimCardReader:
    """The simulated camera over ``frames`` and its reader, on ``hub``."""
    width, height = frames.size
    camera = SimulatedCamera(width, height, frames, in_loop=True)
    reader = SimCardReader(frames, zones, vision, deck, on_read=on_read)
    hub.devices.camera, hub.devices.reader = camera, reader
    hub.transcript(f"[hub] camera: simulated, {width}x{height}; cards by {VISIONS[vision]}")
    return reader
