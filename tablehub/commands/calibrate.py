"""``tablehub calibrate``: print the table markers, calibrate, check the camera.

tablehub calibrate --print-markers markers.pdf   # or .png: one A4 page, true size
tablehub calibrate                               # a live frame from the camera
tablehub calibrate --image FRAME.png             # from a saved frame
tablehub calibrate --check                       # has the camera moved since?
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import cv2

from tablehub.commands import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="map camera pixels to table millimetres with printed ArUco markers",
        description="Calibrate the overhead camera against four markers at the table corners.",
    )
    parser.add_argument("--print-markers", type=Path, metavar="OUT.pdf|OUT.png",
                        help="write the printable marker sheet and stop")  # fmt: skip
    parser.add_argument("--image", type=Path, help="calibrate from this frame, not the camera")
    parser.add_argument("--check", action="store_true", help="only check the camera has not moved")
    parser.add_argument("--simulated", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(func=_run)


def _error(message: str, code: int = 2) -> int:
    print(f"tablehub calibrate: {message}", file=sys.stderr)
    return code


def _config(args: argparse.Namespace) -> Any:
    from tablehub.config import ConfigError, load_config

    try:
        return load_config(getattr(args, "config", None))
    except ConfigError as err:
        raise SystemExit(_error(str(err))) from None


def _geometry(config: Any) -> Any:
    from tablehub.vision.calibration import TableGeometry

    return TableGeometry(width_mm=config.table.width_mm, depth_mm=config.table.depth_mm)


def _frame(args: argparse.Namespace, config: Any) -> Any:
    if args.image is not None:
        image = cv2.imread(str(args.image), cv2.IMREAD_COLOR) if args.image.is_file() else None
        if image is None:
            raise SystemExit(_error(f"{args.image}: not a readable image"))
        return image
    from tablehub.devices.camera import CameraError, make_camera

    try:
        with make_camera(config.camera, simulated=args.simulated) as camera:
            return camera.read()
    except CameraError as err:
        raise SystemExit(_error(f"camera: {err}")) from None


def _run(args: argparse.Namespace) -> int:
    from tablehub.paths import data_dir
    from tablehub.vision import storage
    from tablehub.vision.calibration import (
        CalibrationError,
        calibrate,
        check_moved,
        marker_sheet,
        pdf_bytes,
    )

    config = _config(args)
    geometry = _geometry(config)
    if args.print_markers is not None:
        out: Path = args.print_markers
        page = marker_sheet(geometry)
        if out.suffix.lower() == ".pdf":
            out.write_bytes(pdf_bytes(page))
        elif out.suffix.lower() == ".png":
            cv2.imwrite(str(out), page)
        else:
            return _error(f"{out}: the marker sheet is written as .pdf or .png")
        print(f"wrote {out}: print it at 100% and lay marker 0-3 at the table corners")
        return 0
    root = data_dir(config.data_dir)
    frame = _frame(args, config)
    if args.check:
        try:
            saved = storage.load_calibration(root)
        except storage.StorageError as err:
            return _error(str(err))
        if saved is None:
            return _error("not calibrated yet: run `tablehub calibrate`", 1)
        check = check_moved(saved, frame)
        print(check.message)
        return 1 if check.moved else 0
    try:
        result = calibrate(frame, geometry)
    except CalibrationError as err:
        return _error(str(err), 1)
    path = storage.save_calibration(result, root)
    missing = sorted({0, 1, 2, 3} - set(result.markers_px))
    note = f" (markers {missing} not seen: fewer points, less accurate)" if missing else ""
    print(
        f"calibrated: {len(result.markers_px)} markers, error {result.error_mm:.2f} mm, "
        f"{result.px_per_mm():.2f} px/mm at the table centre{note}; saved to {path}"
    )
    return 0
