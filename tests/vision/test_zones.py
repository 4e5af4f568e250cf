"""Default zones: every seat gets an area, the hub's spots lie in front of it."""

from __future__ import annotations

import pytest

from tablehub.vision.zones import Zone, default_zones, zone_of, zones_from_config


def test_default_zones_cover_spots_and_every_seat() -> None:
    zones = default_zones(1200, 900, 7)
    names = {z.name for z in zones}
    assert {"reveal", "discard-1", "discard-2", "discard-3", "trick"} <= names
    assert {f"seat-{n}" for n in range(1, 8)} <= names
    assert zone_of((600, 450 + 40), zones) == "trick"
    assert zone_of((600, 0.1 * 900 + 45), zones) == "reveal"
    assert zone_of((600 - 110, 0.1 * 900 + 165), zones) == "discard-1"
    assert zone_of((600 + 110, 0.1 * 900 + 165), zones) == "discard-3"
    assert zone_of((5, 5), zones) == "table"  # the hub's corner belongs to nobody


def test_seats_run_clockwise_round_the_far_side() -> None:
    zones = default_zones(1000, 1000, 4)
    # Seat 1 is to the hub's left (x small), the last seat to its right.
    assert zone_of((40, 400), zones) == "seat-1"
    assert zone_of((960, 400), zones) == "seat-4"
    far = zone_of((500, 980), zones)
    assert far in {"seat-2", "seat-3"}


def test_overrides_replace_and_add() -> None:
    zones = zones_from_config(
        1000,
        1000,
        3,
        [{"name": "trick", "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]]},
         {"name": "bank", "polygon": [[900, 900], [1000, 900], [1000, 1000]]}],
    )  # fmt: skip
    assert zone_of((50, 50), zones) == "trick"
    assert zone_of((500, 540), zones) != "trick"
    assert zone_of((990, 950), zones) == "bank"


@pytest.mark.parametrize(
    "entries",
    [
        [{"name": "", "polygon": [[0, 0], [1, 0], [1, 1]]}],
        [{"name": "x", "polygon": [[0, 0], [1, 0]]}],
        [{"name": "x", "polygon": [[0, 0], [1, "a"], [1, 1]]}],
    ],
)
def test_bad_zone_config_is_refused(entries: list[dict[str, object]]) -> None:
    with pytest.raises(ValueError, match=r"table\.zones\[0\]"):
        zones_from_config(1000, 1000, 3, entries)


def test_bad_table_is_refused() -> None:
    with pytest.raises(ValueError, match="seats"):
        default_zones(1000, 1000, 8)
    with pytest.raises(ValueError, match="table"):
        default_zones(100, 1000, 4)
    assert Zone("t", ((0, 0), (10, 0), (10, 10))).contains((9, 1))
