"""Cards seen in part: the index corner must not contradict a reading made from little.

A scene the benchmark found (agi, 2.95 px/mm, cloth), rebuilt card by card."""

from __future__ import annotations

import numpy as np

from bench.cards import standin_deck
from tablehub.vision.identify import read_cards
from tablehub.vision.scene import Camera, CardPlacement, Lighting, Scene, render_scene


def test_a_strip_under_a_queen_is_not_read_as_a_queen() -> None:
    """The hearts 5 shows a strip beside the diamonds queen lying on it.  Its cells fitted
    the hearts queen a little better (the queen's print at the edge), though another
    card's index fitted its index corner better: now, where the index disagrees, the
    print must show a clear gap over every rival, or the card is not read."""
    deck, faces, _ = standin_deck("agi")
    scene = Scene(
        faces=faces,
        cards=[
            CardPlacement("agi:hearts-5", (252.72, 540.91), -146.26),
            CardPlacement("agi:diamonds-q", (237.02, 533.33), -147.59, lift_mm=0.3),
        ],
        texture="cloth",
        texture_seed=355306788,
        camera=Camera(
            image_size=(2304, 1296), target_mm=(564.69, 460.26), px_per_mm=2.952,
            tilt_deg=4.55, tilt_dir_deg=137.32, yaw_deg=-17.18, distance_mm=1291.8,
        ),
        lighting=Lighting(brightness=1.04, gradient=0.31, gradient_dir_deg=83.9,
                          vignette=0.175, colour_gain=(1.03, 0.916, 0.85)),
        blur_px=0.17,
        noise=2.46,
        jpeg_quality=62,
    )  # fmt: skip
    rendered = render_scene(scene, np.random.default_rng(6))
    readings = read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)
    ids = {r.card_id for r in readings if r.card_id}
    assert "agi:diamonds-q" in ids
    assert ids <= {"agi:hearts-5", "agi:diamonds-q"}, ids
