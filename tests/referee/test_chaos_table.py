"""Table geometry for the Chaos referee: which seat a card in the trick area came from."""

from __future__ import annotations

import pytest

from tablehub.referee.chaos_table import TableLayout, default_layout


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_each_seats_play_spot_points_back_at_that_seat(seats: int) -> None:
    layout = default_layout(seats)
    for seat in range(seats):
        assert layout.seat_towards(layout.play_spot(seat)) == seat
        assert layout.seat_of_zone(layout.seat_zone(seat)) == seat
    assert layout.seat_towards(layout.trick_centre) is None  # right in the middle: unknown


def test_seat_zones_are_numbered_from_one_clockwise_from_the_hubs_left() -> None:
    layout = default_layout(4)
    assert [layout.seat_zone(s) for s in range(4)] == ["seat-1", "seat-2", "seat-3", "seat-4"]
    # Seat 0 sits to the hub's left (small x), the next seat further round, clockwise.
    (x0, y0), (_, y1) = layout.seats[0], layout.seats[1]
    assert x0 < layout.trick_centre[0] and y1 > y0


def test_layout_survives_json() -> None:
    layout = default_layout(5)
    again = TableLayout.from_json(layout.to_json())
    assert again == layout
