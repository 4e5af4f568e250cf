"""The simulated Almost Got 'Im table seen through the vision tracker and zones."""

from __future__ import annotations

import random

from tablehub.observations import CardEvent
from tablehub.service.almost_got_im_table import Layout, SimTable
from tablehub.service.sim_camera import SimCardReader, TableFrames


def table(seats: int = 5) -> tuple[SimTable, TableFrames, SimCardReader]:
    t = SimTable(seats, random.Random(1))
    layout = Layout.of(900.0, 600.0, seats)
    camera = TableFrames(lambda: t.placements(layout), lambda: t.version, (900.0, 600.0))
    return t, camera, SimCardReader(camera, layout.zones)


def look(camera: TableFrames, reader: SimCardReader, frames: int = 4) -> list[tuple[str, str, str]]:
    events: list[CardEvent] = []
    for i in range(frames):
        events += [e for e in reader(camera(i)) if isinstance(e, CardEvent)]
    return [(e.change, e.card_id or "face down", e.zone) for e in events]


def test_characters_in_the_seat_areas_and_a_hand_fanned_at_the_reveal_spot() -> None:
    t, camera, reader = table()
    for seat, key in enumerate(["riddler", "bane", "penguin", "joker", "clayface"]):
        t.characters[seat].append(key)
    t.changed()
    assert look(camera, reader) == [
        ("appeared", f"agi:char-{key}", f"seat-{seat + 1}")
        for seat, key in enumerate(["riddler", "bane", "penguin", "joker", "clayface"])
    ]
    t.new_deck()
    t.deal(0)
    assert look(camera, reader) == [("appeared", "face down", "trick")]  # the deck
    hand = list(t.hands[2])
    t.lay(2, hand, face_up=True)
    assert look(camera, reader) == [("appeared", card, "reveal") for card in hand]
    t.turn_in(2)
    assert look(camera, reader) == [("removed", card, "reveal") for card in hand]


def test_a_discard_on_a_pile_covers_the_top_and_a_take_uncovers_it() -> None:
    t, camera, reader = table()
    t.new_deck()
    t.deal(0)
    look(camera, reader)
    first, second = t.draw(0, 2)
    t.discard(0, first, 2)
    assert look(camera, reader) == [("appeared", first, "discard-3")]
    t.discard(0, second, 2)
    assert look(camera, reader) == [("appeared", second, "discard-3")]  # first is covered
    t.take(1, 2)
    assert look(camera, reader) == [("removed", second, "discard-3")]  # first shows again
    t.take(1, 2)
    assert look(camera, reader) == [("removed", first, "discard-3")]


def test_a_card_back_from_the_deck_covers_what_it_is_laid_on() -> None:
    """A card the tracker still remembers elsewhere (under a pile, before a refill) counts
    from where it is laid now: it covers the pile's top, it does not hide under it."""
    t, camera, reader = table()
    t.new_deck()
    t.deal(0)
    look(camera, reader)
    old, mid, top = t.draw(0, 3)
    t.discard(0, old, 0)
    look(camera, reader)
    t.discard(0, mid, 0)
    look(camera, reader)
    t.refill()  # old goes back into the deck; the tracker still thinks it is under mid
    t.deck.remove(old)
    t.hands[0].append(old)
    t.discard(0, top, 1)
    look(camera, reader)
    t.discard(0, old, 1)  # old, seen before under pile 1, now on top of pile 2
    assert look(camera, reader) == [("moved", old, "discard-2")]  # and top is covered
    t.take(1, 1)
    assert look(camera, reader) == [("removed", old, "discard-2")]  # top shows again
