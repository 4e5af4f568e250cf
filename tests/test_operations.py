"""The operations files agree with the code: systemd unit, udev rule, example config."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

from tablehub.config import Config, load_config
from tablehub.devices.usb_ids import DICE_TOWER_UDEV_NAME, DICE_TOWER_USB_IDS

ROOT = Path(__file__).resolve().parents[1]


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "systemd" / "tablehub.service")
    return parser


def test_service_is_unprivileged_and_hardened() -> None:
    service = unit()["Service"]
    assert service["User"] == "tablehub"
    assert set(service["SupplementaryGroups"].split()) == {"video", "gpio", "dialout", "audio"}
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["Restart"] == "on-failure"
    assert service["CapabilityBoundingSet"] == ""
    data_dir = service["ReadWritePaths"]
    assert f"TABLEHUB_DATA_DIR={data_dir}" in (ROOT / "systemd" / "tablehub.service").read_text()
    assert service["ExecStart"].endswith("--config /etc/tablehub/config.toml run")


def test_unit_file_is_valid_for_systemd() -> None:
    if shutil.which("systemd-analyze") is None:
        return  # the text checks above still ran
    result = subprocess.run(
        ["systemd-analyze", "verify", str(ROOT / "systemd" / "tablehub.service")],
        capture_output=True,
        text=True,
        check=False,
    )
    problems = [
        line
        for line in result.stderr.splitlines()
        if line.strip() and "is not executable" not in line and "No such file" not in line
    ]
    assert not problems, problems


def test_udev_rule_matches_the_usb_ids() -> None:
    from tablehub.devices.dice_tower import TOWER_USB_IDS

    assert set(TOWER_USB_IDS) == set(DICE_TOWER_USB_IDS)  # the tower code looks for the same
    rule = (ROOT / "systemd" / "99-tablehub-dice.rules").read_text()
    active = [line for line in rule.splitlines() if line and not line.startswith("#")]
    assert len(active) == len(DICE_TOWER_USB_IDS)
    for line, (vid, pid) in zip(active, DICE_TOWER_USB_IDS, strict=True):
        assert f'ATTRS{{idVendor}}=="{vid:04x}"' in line
        assert f'ATTRS{{idProduct}}=="{pid:04x}"' in line
        assert f'SYMLINK+="{Path(DICE_TOWER_UDEV_NAME).name}"' in line
        assert 'GROUP="dialout"' in line


def test_example_config_is_valid_and_lists_every_default() -> None:
    path = ROOT / "systemd" / "config.example.toml"
    config = load_config(path, env={"HOME": "/home/x"})
    defaults = Config()
    for section in ("seats", "camera", "dice_tower", "panel", "voice", "web", "blackout"):
        assert getattr(config, section) == getattr(defaults, section), section
    text = path.read_text()
    for section in ("seats", "camera", "dice_tower", "panel", "voice", "web", "table", "blackout"):
        assert f"[{section}]" in text


def test_readme_documents_every_config_key() -> None:
    from dataclasses import fields

    readme = (ROOT / "README.md").read_text()
    defaults = Config()
    for section in ("camera", "dice_tower", "panel", "voice", "web", "blackout"):
        for f in fields(getattr(defaults, section)):
            assert f"`{section}.{f.name}`" in readme, f"README lacks {section}.{f.name}"
    for key in ("seats.count", "seats.names", "table.width_mm", "table.depth_mm", "table.zones"):
        assert f"`{key}`" in readme
    for key in ("data_dir", "journal_path"):
        assert f"`{key}`" in readme
