"""Calibration from rendered ArUco markers: table millimetres within a few mm."""

from __future__ import annotations

import numpy as np
import pytest

from tablehub.vision.calibration import (
    Calibration,
    CalibrationError,
    TableGeometry,
    calibrate,
    check_moved,
    marker_decals,
    marker_sheet,
    pdf_bytes,
)
from tablehub.vision.cardart import standin_faces
from tablehub.vision.scene import Camera, CardPlacement, Decal, Scene, render_scene

TABLE = TableGeometry(width_mm=1000, depth_mm=800)


def _frame(camera: Camera, markers: bool = True, cards: tuple[CardPlacement, ...] = ()):  # type: ignore[no-untyped-def]
    decals = [Decal(img, c) for img, c in marker_decals(TABLE)] if markers else []
    scene = Scene(
        faces=standin_faces(),
        cards=cards,
        table_mm=(1000, 800),
        texture="felt-green",
        decals=decals,
        camera=camera,
        jpeg_quality=90,
    )
    return render_scene(scene, np.random.default_rng(3))


CAMERA = Camera(image_size=(1600, 1000), target_mm=(500, 400), px_per_mm=1.05, tilt_deg=14,
                tilt_dir_deg=80, yaw_deg=4, distance_mm=1100)  # fmt: skip


def test_calibration_maps_pixels_to_table_mm() -> None:
    card = CardPlacement("agi:bats-7", (430.0, 520.0), 30)
    rendered = _frame(CAMERA, cards=(card,))
    cal = calibrate(rendered.image, TABLE)
    assert len(cal.markers_px) == 4
    assert cal.error_mm < 1.5
    centre_px = rendered.cards[0].corners_px.mean(0)
    centre_mm = cal.to_table(centre_px[None])[0]
    assert np.linalg.norm(centre_mm - np.array([430.0, 520.0])) < 3.0
    assert abs(cal.px_per_mm() - 1.05) < 0.15
    again = Calibration.from_json(cal.to_json())
    assert np.allclose(again.image_to_table, cal.image_to_table)


def test_moved_camera_is_noticed() -> None:
    cal = calibrate(_frame(CAMERA).image, TABLE)
    assert check_moved(cal, _frame(CAMERA).image).moved is False
    bumped = Camera(**{**CAMERA.__dict__, "yaw_deg": 5.5})
    check = check_moved(cal, _frame(bumped).image)
    assert check.moved is True and "moved" in check.message
    assert check_moved(cal, _frame(CAMERA, markers=False).image).moved is None


def test_no_markers_is_a_clear_error() -> None:
    with pytest.raises(CalibrationError, match="need at least 2"):
        calibrate(_frame(CAMERA, markers=False).image, TABLE)


def test_wrong_table_size_is_a_clear_error() -> None:
    with pytest.raises(CalibrationError, match="do not fit"):
        calibrate(_frame(CAMERA).image, TableGeometry(width_mm=1400, depth_mm=800))


def test_broken_calibration_json_is_refused() -> None:
    with pytest.raises(ValueError, match="malformed"):
        Calibration.from_json({"image_to_table": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]})


def test_marker_sheet_prints_at_true_size() -> None:
    page = marker_sheet(TABLE, dpi=100)
    assert page.shape == (round(297 / 25.4 * 100), round(210 / 25.4 * 100))
    pdf = pdf_bytes(page)
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.28 841.89]" in pdf
