"""Table calibration from printed ArUco markers (pure: images in, numbers out).

Four markers (ids 0-3, dictionary 4x4_50) lie at the table's corners, printed at a known
size.  Their detected corners give a homography between image pixels and table
millimetres (see ``tablehub.vision.zones`` for the table coordinates: origin at the corner
to the hub's left, x along the hub's edge, y away from the hub).

* ``marker_sheet()`` draws the printable sheet (one A4 page, markers at true size, each
  labelled with where it goes); ``pdf_bytes()`` wraps a page image in a one-page PDF.
* ``calibrate(image, table)`` finds the markers and fits the homography; at least two of
  the four markers must show (four is better).  ``CalibrationError`` says what is wrong.
* ``check_moved(calibration, image)`` compares where the markers are now with where they
  were at calibration: a bumped camera arm shows as a shift of more than a few pixels.

Each marker lies flat, printed side up, with its label's arrow pointing towards the hub.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_NAMES = {
    0: "the hub's left corner",
    1: "the hub's right corner",
    2: "the far right corner",
    3: "the far left corner",
}


class CalibrationError(ValueError):
    """Calibration is impossible from this frame (the message says why and what to do)."""


@dataclass(frozen=True)
class TableGeometry:
    width_mm: float = 1200.0
    depth_mm: float = 900.0
    marker_mm: float = 60.0  # printed side length of each marker
    inset_mm: float = 20.0  # from the table edges to the marker's outer corner

    def marker_corners_mm(self, marker_id: int) -> Array:
        """The marker's TL, TR, BR, BL (as printed) in table millimetres."""
        s, i = self.marker_mm, self.inset_mm
        x0 = i if marker_id in (0, 3) else self.width_mm - i - s
        y0 = i if marker_id in (0, 1) else self.depth_mm - i - s
        out: Array = np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]], float)
        return out


@dataclass(frozen=True)
class Calibration:
    image_to_table: Array  # 3x3
    table_to_image: Array  # 3x3
    image_size: tuple[int, int]  # width, height
    markers_px: dict[int, Array]  # marker id -> 4x2 pixel corners at calibration time
    error_mm: float  # RMS reprojection error of the marker corners
    table: TableGeometry

    def to_table(self, points_px: Array) -> Array:
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        out: Array = cv2.perspectiveTransform(pts, self.image_to_table).reshape(-1, 2)
        return out

    def to_image(self, points_mm: Array) -> Array:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        out: Array = cv2.perspectiveTransform(pts, self.table_to_image).reshape(-1, 2)
        return out

    def px_per_mm(self, point_mm: tuple[float, float] | None = None) -> float:
        """Image scale at a table point (default: the table's centre)."""
        if point_mm is None:
            point_mm = (self.table.width_mm / 2, self.table.depth_mm / 2)
        x, y = point_mm
        p = self.to_image(np.array([[x, y], [x + 10, y], [x, y + 10]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20)

    def to_json(self) -> dict[str, Any]:
        return {
            "image_to_table": self.image_to_table.tolist(),
            "image_size": list(self.image_size),
            "markers_px": {str(k): v.tolist() for k, v in self.markers_px.items()},
            "error_mm": self.error_mm,
            "table": {
                "width_mm": self.table.width_mm,
                "depth_mm": self.table.depth_mm,
                "marker_mm": self.table.marker_mm,
                "inset_mm": self.table.inset_mm,
            },
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Calibration:
        """Rebuild from ``to_json``; ``ValueError`` naming the problem if it is broken."""
        try:
            h = np.array(data["image_to_table"], np.float64)
            if h.shape != (3, 3) or abs(np.linalg.det(h)) < 1e-12:
                raise ValueError("image_to_table is not an invertible 3x3 matrix")
            w, hh = (int(v) for v in data["image_size"])
            markers = {
                int(k): np.array(v, np.float64).reshape(4, 2) for k, v in data["markers_px"].items()
            }
            table = TableGeometry(**{k: float(v) for k, v in data["table"].items()})
            return Calibration(
                h, np.linalg.inv(h), (w, hh), markers, float(data["error_mm"]), table
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"calibration data is incomplete or malformed ({err})") from err


def _detector() -> Any:
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect_markers(image: Array) -> dict[int, Array]:
    """Table markers (ids 0-3) seen in a BGR or grey frame: id -> 4x2 pixel corners."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, Array] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        if 0 <= int(i) <= 3:
            found[int(i)] = np.asarray(c, np.float64).reshape(4, 2)
    return found


def calibrate(image: Array, table: TableGeometry, max_error_mm: float = 3.0) -> Calibration:
    """Fit the pixel <-> table-mm homography from the markers in ``image``."""
    markers = detect_markers(image)
    if len(markers) < 2:
        seen = ", ".join(str(k) for k in sorted(markers)) or "none"
        raise CalibrationError(
            f"found table markers: {seen}; need at least 2 of the 4 (ids 0-3) in view, "
            "flat and unobstructed (print them with `tablehub calibrate --print-markers`)"
        )
    src = np.concatenate([markers[k] for k in sorted(markers)])
    dst = np.concatenate([table.marker_corners_mm(k) for k in sorted(markers)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("the markers' positions do not give a usable homography")
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    error = float(np.sqrt(((proj - dst) ** 2).sum(1).mean()))
    if error > max_error_mm:
        worst = sorted(markers)[int(np.argmax(((proj - dst) ** 2).sum(1))) // 4]
        raise CalibrationError(
            f"markers do not fit the table layout (error {error:.1f} mm; worst: marker "
            f"{worst}, which belongs at {CORNER_NAMES[worst]}, arrow towards the hub); "
            f"check their places and the table size {table.width_mm:g} x {table.depth_mm:g} mm"
        )
    hgt, wid = image.shape[:2]
    return Calibration(h, np.linalg.inv(h), (wid, hgt), markers, error, table)


@dataclass(frozen=True)
class MoveCheck:
    moved: bool | None  # None: no marker visible, cannot tell
    shift_px: float  # largest marker-corner shift since calibration
    markers_seen: int

    @property
    def message(self) -> str:
        if self.moved is None:
            return "cannot check the camera: no table marker is visible"
        if self.moved:
            return (
                f"the camera has moved since calibration (markers shifted {self.shift_px:.1f}"
                " px): run `tablehub calibrate` again"
            )
        return f"camera in place (markers within {self.shift_px:.1f} px)"


def check_moved(calibration: Calibration, image: Array, tolerance_px: float = 4.0) -> MoveCheck:
    """Has the camera moved since ``calibration``?  Compares the markers still in view."""
    hgt, wid = image.shape[:2]
    if (wid, hgt) != tuple(calibration.image_size):
        return MoveCheck(True, float("inf"), 0)
    now = detect_markers(image)
    common = [k for k in now if k in calibration.markers_px]
    if not common:
        return MoveCheck(None, 0.0, 0)
    shift = max(
        float(np.linalg.norm(now[k] - calibration.markers_px[k], axis=1).max()) for k in common
    )
    return MoveCheck(shift > tolerance_px, shift, len(common))


# --- the printable sheet --------------------------------------------------------------------


def marker_decals(table: TableGeometry, px: int = 120) -> list[tuple[Array, Array]]:
    """The four markers as (image, corners in table mm), for the scene renderer."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    out = []
    for marker_id in range(4):
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, px)
        quiet = cv2.copyMakeBorder(marker, px // 6, px // 6, px // 6, px // 6,
                                   cv2.BORDER_CONSTANT, value=255)  # fmt: skip
        corners = table.marker_corners_mm(marker_id)
        grow = (corners - corners.mean(0)) * (1 + 2 / 6)
        out.append((cv2.cvtColor(quiet, cv2.COLOR_GRAY2BGR), corners.mean(0) + grow))
    return out


A4_MM = (210.0, 297.0)


def marker_sheet(table: TableGeometry, dpi: int = 300) -> Array:
    """One A4 page (grey image at ``dpi``) with the four markers at true size, labelled."""
    px_per_mm = dpi / 25.4
    w, h = (round(v * px_per_mm) for v in A4_MM)
    page = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side = round(table.marker_mm * px_per_mm)
    cells = [(0.25, 0.27), (0.75, 0.27), (0.75, 0.72), (0.25, 0.72)]
    for marker_id, (fx, fy) in enumerate(cells):
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        x0, y0 = round(fx * w - side / 2), round(fy * h - side / 2)
        page[y0 : y0 + side, x0 : x0 + side] = marker
        scale = px_per_mm * 0.12
        for k, text in enumerate(
            (f"tablehub marker {marker_id}", CORNER_NAMES[marker_id], "arrow towards the hub")
        ):
            cv2.putText(
                page,
                text,
                (x0, y0 + side + round((7 + 6 * k) * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                0,
                max(1, round(scale * 2)),
                cv2.LINE_AA,
            )
        ax = x0 + side + round(6 * px_per_mm)
        cv2.arrowedLine(
            page, (ax, y0 + side), (ax, y0), 0, max(2, round(px_per_mm * 0.6)), tipLength=0.15
        )
    cv2.putText(
        page,
        f"Print at 100% (no scaling): each marker is {table.marker_mm:g} mm wide.",
        (round(15 * px_per_mm), round(15 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        px_per_mm * 0.13,
        0,
        max(1, round(px_per_mm * 0.25)),
        cv2.LINE_AA,
    )
    return page


def pdf_bytes(page: Array, page_mm: tuple[float, float] = A4_MM) -> bytes:
    """A one-page PDF showing a grey image over the whole page (so it prints at true size)."""
    h, w = page.shape[:2]
    pw, ph = (v / 25.4 * 72 for v in page_mm)
    image = zlib.compress(np.ascontiguousarray(page, np.uint8).tobytes())
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
            "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>"
        ).encode(),
        (
            f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(image)} >>\nstream\n"
        ).encode()
        + image
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)
