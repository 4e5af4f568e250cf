"""Art nobody here drew: enrol a public-domain deck from Debian's openclipart-svg through
the folder path and read it back from rendered table scenes.  If the art cannot be had
this fails (it is installed by scripts/bootstrap.sh), it is never skipped."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bench import card_art
from bench.cards import Tally, score_scene
from tablehub.vision.enroll import images_from_dir
from tablehub.vision.identify import enroll_images, read_cards
from tablehub.vision.scene import random_scene, render_scene


def test_openclipart_deck_enrols_and_reads(tmp_path: Path) -> None:
    art = card_art.faces("oc-ornamental")
    assert len(art) == 55  # 52 cards, 2 jokers, the back
    folder = tmp_path / "scans"
    folder.mkdir()
    for card_id, image in art.items():
        name = "back" if card_id.endswith(":back") else card_id
        cv2.imwrite(str(folder / f"{name}.png"), image)
    deck = enroll_images("oc", images_from_dir(folder))
    ids = sorted(k for k in art if not k.endswith(":back"))
    rng = np.random.default_rng(11)
    tally = Tally()
    for _ in range(3):
        scene = random_scene(
            art.__getitem__, ids, rng, n_cards=8, image_size=(1600, 900), px_per_mm=(1.8, 2.4),
            hands=0.0, overlap=0.0,
        )  # fmt: skip
        rendered = render_scene(scene, rng)
        readings = read_cards(rendered.image, deck, table_to_image=rendered.table_to_image)
        score_scene(rendered, readings, tally)
    assert tally.cards >= 20
    assert tally.wrong == 0, tally.errors
    assert tally.correct >= 0.8 * tally.cards, tally.report("oc-ornamental")
