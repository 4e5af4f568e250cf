"""The reader's bookkeeping rules, on readings made by hand."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from bench.cards import standin_deck
from tablehub.vision import corners, identify, match
from tablehub.vision.identify import CardReading, EnrolledDeck
from tablehub.vision.scene import random_scene, render_scene
from tablehub.vision.templates import CELL, GRID, INDEX_MM, Enrolled, cell_layout, grid_shape


def _reading(card_id: str, complete: bool, x: float = 0.0) -> CardReading:
    quad = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float) + np.array([x, 0.0])
    return CardReading(card_id, 0.9, quad, True, complete)


def _deck(counts: dict[str, int]) -> EnrolledDeck:
    return EnrolledDeck("t", Enrolled(groups=[]), {}, counts)


def _read(card_id: str, complete: bool, shown_gap: float, x: float) -> identify._Read:
    """A reading as the reader keeps it, with the decision it came from."""
    reading = _reading(card_id, complete, x)
    dec = match.Decision(card_id, card_id, 0, (0.0, 0.0), 60, 20, 100, 0.4, 10.0, "",
                         shown_gap=shown_gap, whole_view=complete)  # fmt: skip
    return identify._Read(reading, reading.corners, 0.8, decision=dec)


def test_a_card_read_twice_whole_is_a_duplicate() -> None:
    readings = [_reading("a", True), _reading("a", True, 100)]
    identify._mark_duplicates(readings, _deck({"a": 1}))
    assert [r.duplicate for r in readings] == [True, True]


def test_a_part_read_as_a_card_seen_whole_elsewhere_is_left_out() -> None:
    """A strip of a covered card read as the card lying whole beside it: a misread, not a
    second copy (a part is weaker evidence than a whole card)."""
    deck = _deck({"a": 1, "b": 1})
    done = [_read("a", True, 10.0, 0), _read("a", False, 10.0, 100), _read("b", False, 10.0, 200)]
    kept = identify._without_misread_copies(done, deck, identify.Thresholds())
    readings = [r.reading for r in kept]
    identify._mark_duplicates(readings, deck)
    assert [(r.card_id, r.complete, r.duplicate) for r in readings] == [
        ("a", True, False),
        ("b", False, False),
    ]


def test_copies_the_deck_holds_are_no_duplicates() -> None:
    readings = [_reading("a", True), _reading("a", False, 100)]
    identify._mark_duplicates(readings, _deck({"a": 2}))
    assert len(readings) == 2 and not any(r.duplicate for r in readings)


def test_parts_alone_read_twice_are_duplicates() -> None:
    readings = [_reading("a", False), _reading("a", False, 100)]
    identify._mark_duplicates(readings, _deck({"a": 1}))
    assert [r.duplicate for r in readings] == [True, True]


def test_cards_are_read_top_first_even_when_phantoms_make_a_circle() -> None:
    """Best supported first (0..3), each after the cards on top of it.  Card 0 (a pile's
    bottom card: its outline shows best) lies under 1 and 2, two phantoms that lie on
    each other; it must still wait for them."""
    below = [{1, 2}, {2}, {1}, set()]
    assert identify._layered([0, 1, 2, 3], below) == [3, 1, 2, 0]


def _part(card_id: str, shown_gap: float, x: float) -> identify._Read:
    return _read(card_id, False, shown_gap, x)


def test_of_two_parts_read_as_one_card_the_weaker_is_a_misread() -> None:
    """Strips of two cards both read as the bats king (the deck has one): the one whose
    print shows little gap over its rivals is dropped; a clear one stays, a duplicate."""
    t = identify.Thresholds()
    weak, strong = _part("k", 1.3, 0), _part("k", 10.8, 100)
    assert identify._without_misread_copies([weak, strong], _deck({"k": 1}), t) == [strong]
    clear = _part("k", 9.0, 200)
    kept = identify._without_misread_copies([clear, strong], _deck({"k": 1}), t)
    assert kept == [clear, strong]
    assert identify._without_misread_copies([weak, strong], _deck({"k": 2}), t) == [weak, strong]


def test_two_readings_of_one_card_neither_seen_whole_nor_clearer_are_both_left_out() -> None:
    """The two of clubs on a pile, its outline found 4 mm off and read (its cells seen
    all round, nearly all explained) as the two of spades, which lies under it and is
    read there too from its index corner: neither is seen whole with a sharp outline, and
    each shows about as little gap over its rivals, so nothing tells which one is the
    card (full benchmark, heruka 1280x720 seed 7 scene 128).  A reading far clearer than
    the other still stays."""
    t = identify.Thresholds()
    off_pose, under = _read("2s", True, 2.8, 0), _part("2s", 2.5, 3)
    off_pose = replace(off_pose, decision=replace(off_pose.decision, whole_view=False))
    assert identify._without_misread_copies([off_pose, under], _deck({"2s": 1}), t) == []
    clearer = _part("2s", 6.0, 3)
    kept = identify._without_misread_copies([off_pose, clearer], _deck({"2s": 1}), t)
    assert kept == [clearer]
    lone = _part("2s", 1.0, 3)
    assert identify._without_misread_copies([off_pose, lone], _deck({"2s": 1}), t) == [off_pose]


def _shown(share: float) -> match.Look:
    """A look whose card shows ``share`` of its area (the rest under cards read)."""
    mask = np.zeros((104, 104), np.uint8)
    mask[2:-2, 2 : 2 + round(100 * share)] = 255
    return match.Look(np.zeros((104, 104, 3), np.float32), mask, (63.0, 88.0), 2)


def test_a_doubtful_outline_is_given_up_only_when_its_coarse_look_fits_no_card() -> None:
    """Little shown and every card fitting about as badly: a phantom.  A card that fits
    clearly best, or one showing enough to tell, goes on to a closer look."""
    flat = np.array([[0.023, 0.024, 0.025, 0.026], [0.027, 0.025, 0.024, 0.028]])
    clear = np.array([[0.004, 0.024, 0.025, 0.026], [0.027, 0.025, 0.024, 0.028]])
    assert match._phantom(flat, _shown(0.3))
    assert not match._phantom(clear, _shown(0.3))
    assert not match._phantom(flat, _shown(0.8))


def _outline(centre: tuple[float, float], angle_deg: float) -> np.ndarray:
    """The outline samples (mm) of a poker card, in the order of ``Hypotheses.edges``."""
    hyp = corners.Hypotheses(
        np.array([centre], float), np.radians([angle_deg]), np.array([[63.0, 88.0]]),
        np.ones(1), np.ones(1),
    )  # fmt: skip
    out: np.ndarray = corners.outline_points(hyp)[0]
    return out


def test_an_outline_made_of_the_edges_of_the_card_on_it_is_not_looked_at() -> None:
    """An outline under a card read, whose edges are that card's sides and print, has too
    few edges of its own to be examined; a card sticking out from under it shows its own
    sides beyond it."""
    top = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float)
    phantom = _outline((32.5, 45.0), 2.0)  # just off the card: its edges lie on it
    assert identify._own_edges(phantom, np.ones(len(phantom), bool), [top]) < identify.OWN_EDGES
    under = _outline((60.0, 70.0), 20.0)  # half out from under the card
    assert identify._own_edges(under, np.ones(len(under), bool), [top]) >= identify.OWN_EDGES
    edges = ~identify._inside(under, top, -2.0)  # where it shows, its sides show
    assert identify._own_edges(under, edges, [top]) >= identify.OWN_EDGES
    assert identify._own_edges(under, ~edges, [top]) == 0


def test_an_outline_no_card_explains_is_given_up_as_the_full_decision_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``identify`` stops once no card it could be explains print enough to be card-like;
    on rendered scenes the full decision agrees every time: not accepted, not card-like."""
    deck, faces, ids = standin_deck("agi")
    full = match.identify
    stopped = 0

    def both(*args: Any, **kwargs: Any) -> match.Decision:
        nonlocal stopped
        dec = full(*args, **kwargs)
        with monkeypatch.context() as m:
            m.setattr(match, "_most_print_explained", lambda *a: 10**9)
            ref = full(*args, **kwargs)
        if dec is match.NOTHING and ref is not match.NOTHING:
            stopped += 1
            assert ref.label is None and not ref.card_like
        else:
            assert dec == ref
        return dec

    monkeypatch.setattr(match, "identify", both)
    rng = np.random.default_rng(5)
    for _ in range(2):
        scene = random_scene(faces, ids, rng, image_size=(2304, 1296), px_per_mm=(1.8, 3.0))
        rendered = render_scene(scene, rng)
        identify.read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)
    assert stopped > 0


def test_index_differences_follow_each_cards_way_round() -> None:
    """Index corners are compared corner for corner as the cards lie: a card turned the
    other way shows its other corner where this one shows its top-left (a back's two
    corners differ; a face's are the same turned)."""
    deck, _, _ = standin_deck("chaos")
    group = deck.templates.group_for((63.0, 88.0))
    assert group is not None
    a = list(group.labels).index("back")
    tmpl = group.index[0].reshape(len(group.labels), 2, -1)
    own = float(np.square(tmpl[a, 0] - tmpl[a, 1]).sum()) / (6 * 6 * 3) / match.CAP
    top_left = np.array([True, False])
    same_way = match._index_differ(group, 0, a, 1, [a], [1], top_left, [None, None])
    other_way = match._index_differ(group, 0, a, 0, [a], [1], top_left, [None, None])
    assert same_way[0] == 0.0
    assert own > 1.0
    assert other_way[0] == pytest.approx(own)


def test_a_close_look_tells_a_club_from_a_spade_where_the_two_differ() -> None:
    """``match._fine_lead``: the clubs 2 and the spades 2 (oc-simple) differ only in their
    suit signs, a few pixels of lobes against a point.  Seen as the clubs 2 with the pose
    a grid pixel off, the pixels where the two differ, each lined up on its own, fit the
    clubs 2 nearly exactly as they differ; and what is hidden, or a hand on the card
    (cells neither card explains), says nothing."""
    deck, _, _ = standin_deck("oc-simple")
    (group,) = deck.templates.groups
    labels = list(group.labels)
    clubs, spades = labels.index("oc-simple:c-2"), labels.index("oc-simple:s-2")
    level = 1
    x0, y0, cols, rows = cell_layout(group.size_mm)
    w, h = grid_shape(group.size_mm)
    inner = group.cells[level][clubs].reshape(rows, cols, CELL, CELL, 3)
    image = np.ones((h, w, 3), np.float32)
    image[y0 : y0 + rows * CELL, x0 : x0 + cols * CELL] = inner.transpose(0, 2, 1, 3, 4).reshape(
        rows * CELL, cols * CELL, 3
    )
    view: Any = SimpleNamespace(
        image=np.roll(image, (1, -1), axis=(0, 1)), shown=np.full((h, w), 255, np.uint8)
    )
    every = np.ones(rows * cols, bool)
    both, own = match._fine_lead(group, view, level, 0, clubs, spades, 0, every)
    assert both > 0.85 and own > 0.75
    both, own = match._fine_lead(group, view, level, 0, spades, clubs, 0, every)
    assert both < -0.85 and own < -0.85
    assert match._fine_lead(group, view, level, 0, clubs, spades, 0, ~every) == (0.0, 0.0)
    view.shown = np.zeros((h, w), np.uint8)
    assert match._fine_lead(group, view, level, 0, clubs, spades, 0, every) == (0.0, 0.0)


def test_an_index_corner_lines_up_between_whole_pixels() -> None:
    """The mismatch of an index corner over its whole-pixel shifts is a bowl whose floor
    may lie between pixels: the least value is taken from a parabola through the best
    shift and its neighbours, not from the best shift alone (a stroke half a pixel off
    would otherwise cost as much as another index)."""
    side = 2 * match.INDEX_SHIFT + 1
    dy, dx = np.mgrid[0:side, 0:side] - match.INDEX_SHIFT
    floor, at = 2.0, (0.4, -0.3)  # the true least mismatch, between pixels
    bowl = floor + 5.0 * ((dy - at[0]) ** 2 + (dx - at[1]) ** 2)
    edge = floor + 5.0 * ((dy - 2.0) ** 2 + (dx - 2.0) ** 2)  # least at the last shift
    ssd = np.stack([bowl.ravel(), edge.ravel()], axis=1)
    least = match._subpixel_min(ssd)
    assert ssd[:, 0].min() > floor + 1.0
    assert least[0] == pytest.approx(floor)
    assert least[1] == pytest.approx(floor)  # at the edge of the search: as it was


def test_a_look_is_given_up_early_unless_a_card_explains_its_corner() -> None:
    """Whether a card could be read from its index corner (``match._corner_explained``):
    only where some card with a printed index there explains nearly all the cells round
    the corner in view.  Else the look is given up before the costly comparisons."""
    size = (63.0, 88.0)
    cells = 20 * 28
    zone = match._corner_zone(size, np.array([True, False]), (24.0, 33.0))
    assert 20 <= zone.sum() < 100  # the cells within 24 x 33 mm of the top-left corner
    view = SimpleNamespace(shifts=[np.zeros(1), None], valid=[np.ones(cells, bool)] * 2)
    printed = SimpleNamespace(index_inked=np.array([[True, True], [True, True]]))
    bare = SimpleNamespace(index_inked=np.array([[False, False], [True, True]]))
    cand = np.array([0, 1])
    fits = np.ones((cells, 2), np.float32)
    fits[zone, 0] = 0.0  # card 0 explains its top-left corner, card 1 nothing
    nothing = np.ones((cells, 2), np.float32)
    assert match._corner_explained(printed, view, [fits, nothing], cand, size)
    assert not match._corner_explained(printed, view, [nothing, nothing], cand, size)
    # A bare index (a joker's) is read from nowhere: any plain paper would fit it.
    assert not match._corner_explained(bare, view, [fits, nothing], cand, size)
    # A narrower zone explained is enough (a strip of a fan: the card on it, not read,
    # covers the first zone's outer cells), but still one round the whole index.
    narrow = match._corner_zone(size, np.array([True, False]), (12.0, 33.0))
    strip = np.ones((cells, 2), np.float32)
    strip[narrow, 0] = 0.0
    assert match._corner_explained(printed, view, [strip, nothing], cand, size)
    _, _, x1, y1 = INDEX_MM
    assert all(zx >= x1 - 1.0 and zy >= y1 for zx, zy in match.CORNER_ZONES_MM)
    part = match._corner_zone(size, np.array([True, False]), (x1 - 6.0, 33.0))
    inside = np.ones((cells, 2), np.float32)
    inside[part, 0] = 0.0
    assert not match._corner_explained(printed, view, [inside, nothing], cand, size)


def _card_on_felt(px_per_mm: float = 3.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A straight top view of a 63 x 88 mm card (paper a little warm, a red pip, a black
    glyph) on green felt: the image, the table homography and the card's outline (mm)."""
    s = px_per_mm
    image = np.zeros((round(140 * s), round(120 * s), 3), np.uint8)
    image[:] = (40, 110, 30)
    x0, y0 = 20.0, 20.0
    image[round(y0 * s) : round((y0 + 88) * s), round(x0 * s) : round((x0 + 63) * s)] = (
        215, 225, 232,
    )  # fmt: skip
    image[round(30 * s) : round(40 * s), round(28 * s) : round(36 * s)] = (40, 40, 200)
    image[round(30 * s) : round(42 * s), round(70 * s) : round(74 * s)] = (20, 20, 20)
    quad = np.array([[x0, y0], [x0 + 63, y0], [x0 + 63, y0 + 88], [x0, y0 + 88]])
    return image, np.diag([s, s, 1.0]), quad


@pytest.mark.parametrize("skin", [(120, 160, 210), (40, 60, 100), (140, 180, 225)])
def test_a_plain_stretch_of_skin_on_a_card_is_foreign_but_print_and_shadow_are_not(
    skin: tuple[int, int, int],
) -> None:
    """The reflectance takes any plain surface for white paper (its own local white), so
    the palm of a hand over a card looked like the card's bare paper and a card under it
    matched mostly blank cards.  The palm's colour against the card's paper tells it apart
    (``match._foreign``); neutral shade (a shadow) and the card's own print do not."""
    image, h, quad = _card_on_felt()
    s = 3
    image[60 * s : 100 * s, 20 * s : 90 * s] = skin  # a palm over the lower half
    shade = image[45 * s : 55 * s, 20 * s : 83 * s].astype(np.float32) * 0.7
    image[45 * s : 55 * s, 20 * s : 83 * s] = shade.astype(np.uint8)  # a shadow band
    lk = match.look(image, h, quad, (63.0, 88.0), [])
    foreign = lk.foreign()
    grid = match.GRID
    pad = lk.pad

    def share(x0: float, y0: float, x1: float, y1: float) -> float:
        """Foreign share of a card region (mm from the card's top-left corner)."""
        part = foreign[
            pad + round(y0 * grid) : pad + round(y1 * grid),
            pad + round(x0 * grid) : pad + round(x1 * grid),
        ]
        return float((part > 0).mean())

    assert share(5, 48, 58, 75) > 0.9  # the palm, its edges aside
    assert share(5, 26, 58, 34) == 0.0  # the shadow
    assert share(5, 8, 58, 24) == 0.0  # paper and print
    hidden = lk.without_foreign()
    assert (hidden.mask[foreign > 0] == 0).all() and (hidden.mask[foreign == 0] > 0).all()


def _inside(poly: np.ndarray, point: tuple[float, float]) -> bool:
    return bool(cv2.pointPolygonTest(poly.astype(np.float32), point, False) > 0)


CARD = (63.0, 88.0)
AT = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float) + np.array([100.0, 50.0])


def test_the_side_of_a_card_past_a_line_it_does_not_explain_is_cut_out() -> None:
    """Cells not explained beyond a straight line (a card not read lying across it) are
    cut out by a half-plane; the side explained stays, though a few cells there are not
    explained either (glare, a rival's sign)."""
    x0, _, cols, rows = cell_layout(CARD)
    u = (x0 + CELL * (np.arange(cols) + 0.5)) / GRID
    cells = np.ones((rows, cols), np.int8)
    cells[:, u > 40.0] = 0
    cells[3, 2] = cells[10, 5] = 0
    cells[0, :] = -1  # hidden by a card read
    cut = identify._side_not_explained(cells.ravel(), AT, CARD)
    assert cut is not None
    assert _inside(cut, (100 + 50.0, 50 + 44.0)) and _inside(cut, (100 + 60.0, 50 + 5.0))
    assert not _inside(cut, (100 + 30.0, 50 + 44.0)) and not _inside(cut, (100 + 5.0, 50 + 80.0))


def test_a_slanted_side_is_cut_out_along_its_slant() -> None:
    """A card lying across a corner cuts it off at a slant."""
    x0, y0, cols, rows = cell_layout(CARD)
    gy, gx = np.mgrid[0:rows, 0:cols]
    u, v = (x0 + CELL * (gx + 0.5)) / GRID, (y0 + CELL * (gy + 0.5)) / GRID
    cells = np.where(u + v > 90.0, 0, 1).astype(np.int8)
    cut = identify._side_not_explained(cells.ravel(), AT, CARD)
    assert cut is not None
    assert _inside(cut, (100 + 58.0, 50 + 80.0)) and not _inside(cut, (100 + 20.0, 50 + 60.0))
    assert not _inside(cut, (100 + 55.0, 50 + 20.0))


def test_cells_not_explained_all_over_a_card_are_not_cut_out() -> None:
    """Cells a wrong card leaves unexplained lie all over it: no line parts them."""
    _, _, cols, rows = cell_layout(CARD)
    cells = (np.random.default_rng(3).random((rows, cols)) > 0.3).astype(np.int8)
    assert identify._side_not_explained(cells.ravel(), AT, CARD) is None
    assert identify._side_not_explained(np.ones(rows * cols, np.int8), AT, CARD) is None


def test_a_reading_with_rough_parts_cut_out_names_another_card_only_from_its_print() -> None:
    """A second look with parts cut out whose place is known only roughly may name the
    card the first look fitted best, or another card whose print tells it from every
    other; not another card read from its index corner alone."""
    t = identify.Thresholds()
    first = match.Decision(None, "g8", 0, (0.0, 0.0), 40, 10, 62, 0.1, 0.5, "g5")
    same = match.Decision("g8", "g8", 0, (0.0, 0.0), 60, 15, 62, 0.12, 0.5, "g5")
    by_index = match.Decision("g5", "g5", 0, (0.0, 0.0), 62, 15, 62, 0.12, 0.5, "g8")
    by_print = replace(by_index, gap=t.min_gap + 1.0, margin=0.4)
    assert identify._overrules(first, same, t)
    assert not identify._overrules(first, by_index, t)
    assert identify._overrules(first, by_print, t)
