"""Finding card outlines (``tablehub.vision.corners``): corners that show only one strong
side, and outline samples that land on a card back's pattern."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.cards import bench_scene, standin_deck
from tablehub.vision import corners
from tablehub.vision.identify import EnrolledDeck
from tablehub.vision.scene import (
    Camera,
    CardPlacement,
    Lighting,
    RenderedScene,
    Scene,
    render_scene,
)

Array = np.ndarray


def _offset_mm(quad: Array, truth: Array) -> float:
    """How far (mm) rectangle ``quad`` is from ``truth``, either way up."""
    return float(min(np.abs(np.roll(quad, k, 0) - truth).max() for k in (0, 2)))


def _card_in_scene(
    deck_name: str, size: str, seed: int, index: int, card_id: str
) -> tuple[EnrolledDeck, RenderedScene, Array]:
    """A benchmark scene's enrolled deck, the scene, and ``card_id``'s true outline in
    table millimetres."""
    deck, faces, ids = standin_deck(deck_name)
    rendered = bench_scene(faces, ids, size, seed, index)
    (card,) = [c for c in rendered.cards if c.card_id == card_id]
    truth = corners.transform(np.linalg.inv(rendered.table_to_image), card.corners_px)
    return deck, rendered, truth


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_corner_with_one_side_on_another_card_is_found(seed: int) -> None:
    """A fan from the benchmark (chaos, 2304x1296, wood table): the yellow 5 lies on a
    location card and under the red 3 and a back.  Its top-left corner shows, its top
    side against the table, its left side on the location card's white paper only as a
    thin line, too faint for the edge map.  No corner was found for the 5 at all; now a
    strong side ending where a faint straight line starts square to it is a corner."""
    deck, faces, _ = standin_deck("chaos")
    scene = Scene(
        faces=faces,
        cards=[
            CardPlacement("chaos:loc-wayne-manor", (590.67, 621.83), 17.32),
            CardPlacement("chaos:yellow-5", (604.27, 628.95), 33.67, lift_mm=0.3),
            CardPlacement("chaos:red-3", (616.06, 643.49), 54.79, lift_mm=0.6),
            CardPlacement("chaos:red-5", (618.20, 646.29), 54.10, face_up=False, lift_mm=0.9),
        ],
        texture="wood",
        texture_seed=1059400941,
        camera=Camera(
            image_size=(2304, 1296), target_mm=(597.02, 496.89), px_per_mm=2.761, tilt_deg=4.0,
            tilt_dir_deg=75.07, yaw_deg=8.76, distance_mm=1095.5,
        ),
        lighting=Lighting(
            brightness=0.79, gradient=0.58, gradient_dir_deg=22.9, vignette=0.003,
            colour_gain=(0.893, 0.923, 1.024),
        ),
        blur_px=0.32,
        noise=3.09,
        jpeg_quality=92,
    )  # fmt: skip
    rendered = render_scene(scene, np.random.default_rng(seed))
    h = rendered.table_to_image
    hyp, _ = corners.find_hypotheses(rendered.image, h, deck.templates.sizes)
    five = corners.transform(np.linalg.inv(h), rendered.cards[1].corners_px)
    assert min(_offset_mm(q, five) for q in hyp.quads()) < 3.0


def test_outline_samples_on_a_back_pattern_do_not_run_along_the_side() -> None:
    """A white card with a back lying across its left side: where the card's outline runs
    on under the back, the back's checks give the profile across the side a step at about
    half the samples, so the outline "shows" there.  The checks run across the side, not
    along it, so those samples are not ``straight``; the sides in the open are."""
    scale = 2.0  # px per mm
    _, faces, _ = standin_deck("chaos")
    image = np.full((400, 400, 3), 100, np.uint8)
    cv2.rectangle(image, (137, 112), (263, 288), (235, 235, 235), -1)  # 63 x 88 mm at (100, 100)
    back = cv2.resize(faces("chaos:back")[..., :3], (126, 176), interpolation=cv2.INTER_AREA)
    turn = cv2.getRotationMatrix2D((63, 88), 30, 1.0)
    turn[:, 2] += (140 - 63, 200 - 88)
    on_back = cv2.warpAffine(np.full((176, 126), 255, np.uint8), turn, (400, 400))
    image[on_back > 128] = cv2.warpAffine(back, turn, (400, 400))[on_back > 128]
    card = corners.Hypotheses(
        np.array([[100.0, 100.0]]), np.zeros(1), np.array([[63.0, 88.0]]), np.zeros(1), np.ones(1)
    )
    out = corners.refine(image, np.diag([scale, scale, 1.0]), card)
    assert out.edges is not None and out.straight is not None
    px = np.round(corners.outline_points(out)[0] * scale).astype(int)
    kernel = np.ones((9, 9), np.uint8)
    under = cv2.erode(on_back, kernel)[px[:, 1], px[:, 0]] > 0
    clear = cv2.dilate(on_back, kernel)[px[:, 1], px[:, 0]] == 0
    assert under.sum() >= 10 and clear.sum() >= 30
    assert out.edges[0][under].mean() >= 0.3  # the pattern passes for the side ...
    assert out.straight[0][under].mean() <= 0.2  # ... but does not run along it
    assert out.straight[0][clear].mean() >= 0.95


def test_a_corner_whose_other_side_does_not_show_at_all_is_examined_last() -> None:
    """A benchmark fan (Almost Got 'Im, 2304x1296, blue felt): the Telepathic role card
    lies on another card and under a third.  Its top and bottom sides show against the
    felt, but its left side lies on the other card's paper with no line at all (a grey
    step of 1 or 2 levels), so no corner of it was found and it was never examined.  The
    end of a long straight edge is now a corner with one arm, either side of it: a rough
    pose, proposed after every other hypothesis (``late``)."""
    deck, rendered, truth = _card_in_scene("agi", "2304x1296", 202, 7, "agi:role-telepathic")
    h = rendered.table_to_image
    hyp, _ = corners.find_hypotheses(rendered.image, h, deck.templates.sizes)
    assert hyp.late is not None
    near = [i for i, q in enumerate(hyp.quads()) if _offset_mm(q, truth) < 3.0]
    assert near and all(hyp.late[i] for i in near)
    assert not hyp.late[: int(np.argmax(hyp.late))].any()  # the rough ones come last


def test_a_blurred_side_at_low_resolution_is_measured_over_more_pixels() -> None:
    """A benchmark scene (chaos, 1280x720, seed 7, scene 1: about 1 px/mm, a pale grey
    table, the frame blurred): the green 9 seen whole.  Its sides' steps over half a
    millimetre are a few grey levels, so a pose a millimetre off does not move and shows
    under half of its outline.  Measured over 1.5 px the sides show nearly all round and
    the pose comes within a millimetre; the share sharp (``support``) stays as it was."""
    _, rendered, truth = _card_in_scene("chaos", "1280x720", 7, 1, "chaos:green-9")
    h = rendered.table_to_image
    top = truth[1] - truth[0]
    off = corners.Hypotheses(
        truth.mean(0)[None] + [0.7, -0.5],
        np.array([np.arctan2(top[1], top[0]) + 0.01]),
        np.array([[63.0, 88.0]]),
        np.zeros(1),
        np.ones(1),
    )
    sharp = corners.refine(rendered.image, h, off)
    assert sharp.support[0] < 0.42
    out = corners.refine_blurred(rendered.image, h, sharp, 0.42)
    assert out.blurred is not None and out.blurred[0] >= 0.8
    assert out.support[0] == sharp.support[0]
    assert _offset_mm(out.quad(0), truth) < 1.0
    # A frame of 2 px/mm or more is left as it is.
    fine = corners.refine_blurred(rendered.image, h @ np.diag([3.0, 3.0, 1.0]), sharp, 0.42)
    assert fine.blurred is not None and fine.blurred[0] == sharp.support[0]


def test_a_half_sharp_outline_at_low_resolution_adds_its_blurred_edges_in_place() -> None:
    """A dev scene (agi, 1280x720, seed 202, scene 18: about 1.4 px/mm, a pale table, the
    frame blurred): the diamonds 6 seen whole shows 0.42 of its outline sharp, neither
    index corner's sides.  Its sides measured over 1.5 px at the same pose show nearly
    all round and count where its corners show (one now does); its pose, its edges and
    the share sharp stay as they were."""
    deck, rendered, truth = _card_in_scene("agi", "1280x720", 202, 18, "agi:diamonds-6")
    h = rendered.table_to_image
    hyp, _ = corners.find_hypotheses(rendered.image, h, deck.templates.sizes)
    near = np.flatnonzero(np.hypot(*(hyp.centre - truth.mean(0)).T) < 3.0)
    sharp = corners.refine(rendered.image, h, corners.take(hyp, near[:1]))
    assert 0.42 <= sharp.support[0] < corners.BLUR_SURE
    assert corners.corner_shown(sharp, 0) == (False, False)
    out = corners.refine_blurred(rendered.image, h, sharp, 0.42)
    assert out.corner_edges is not None and out.corner_edges[0].mean() >= corners.BLUR_WHOLE
    assert any(corners.corner_shown(out, 0))
    assert out.edges is not None and np.array_equal(out.edges, sharp.edges)
    assert np.array_equal(out.centre, sharp.centre) and np.array_equal(out.angle, sharp.angle)
    assert out.support[0] == sharp.support[0]
