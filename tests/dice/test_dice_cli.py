"""`tablehub dice count` on rendered pictures, the sim's camera mode, and the doctor check."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from tablehub.cli import main
from tablehub.config import parse_config
from tablehub.devices.dice_tower import doctor_checks
from tablehub.vision.dice_render import random_scene, render
from tablehub.vision.dice_sim_reader import camera_reader


def test_count_json_one_object_per_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = random_scene(random.Random(4), "plain")
    image, truth = render(scene)
    path = tmp_path / "throw.png"
    cv2.imwrite(str(path), image)
    cam = scene.camera
    args = ["dice", "count", str(path), "--json", "--focal", str(cam.focal_px)]
    assert main([*args, "--camera-mm", str(cam.camera_mm)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    data = json.loads(line)
    assert data["image"] == str(path)
    assert sorted((d["value"], d["colour"]) for d in data["dice"]) == sorted(
        (t.value, t.colour) for t in truth
    )
    for die in data["dice"]:
        assert set(die) >= {"value", "colour", "status", "centre"} and len(die["centre"]) == 2


def test_count_bad_image_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "not-an-image.png"
    bad.write_text("hello")
    assert main(["dice", "count", str(bad)]) == 2
    assert "not a readable image" in capsys.readouterr().err


def test_camera_mode_reports_what_the_pip_counter_reads() -> None:
    read = camera_reader(seed=3)
    shown = [(4, "green"), (6, "purple"), (1, "red")]
    dice = read(shown, random.Random(1))
    assert len(dice) == 3
    colours = ["white", "green", "purple", "red"]
    stable = sorted((d.value, colours[d.colour]) for d in dice if d.status == 0)
    assert set(stable) <= set(shown) and stable  # never a value it did not see


def test_doctor_check_on_the_virtual_tower_says_simulated() -> None:
    (check,) = doctor_checks(parse_config({}), simulated=True)
    assert check.ok, check.detail
    assert check.detail.startswith("SIMULATED dice tower connected")
    assert "round trip" in check.detail and "bytes invalid 0" in check.detail


def test_doctor_check_without_a_tower_fails_with_a_fix() -> None:
    config = parse_config({"dice_tower": {"port": "/dev/nonexistent-tower"}})
    (check,) = doctor_checks(config, simulated=False)
    assert not check.ok and "SIMULATED" not in check.detail and check.fix
