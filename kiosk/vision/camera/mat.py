"""The printable play mat: four small ArUco markers, the seat labels and the seat zones.

Why a mat: a camera placed by a tournament volunteer is never square to the
table. Four markers at known places give the exact homography from the
picture to the table (``Calibration.from_image``), for an overhead camera and
for a tablet standing at South's edge alike, and show later whether the camera
has moved. The zones are printed faintly so players put their cards where the
reader looks, and the seat letters face their players.

The mat is the unit square of table coordinates; markers sit in its corners
(``calibration.MAT_MARKERS``), outside every seat's zone, so cards never cover
them.

>>> img = render_mat(400)
>>> img.shape
(400, 400, 3)
>>> sorted(find_markers(img))
[0, 1, 2, 3]
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from kiosk.rules.cards import Seat
from kiosk.vision.camera.calibration import (
    MAT_DICTIONARY,
    MAT_MARKER_SIZE,
    MAT_MARKERS,
    SeatZones,
    find_markers,
)

__all__ = ["render_mat", "write_mat", "find_markers"]

_LABEL = {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}
#: label rotation (quarter turns, counter-clockwise) so each word reads from its seat
_TURNS = {"S": 0, "E": 1, "N": 2, "W": 3}


def render_mat(side: int, zones: SeatZones | None = None) -> np.ndarray:
    """The mat as a square BGR image ``side`` pixels wide."""
    zones = zones or SeatZones()
    img = np.full((side, side, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MAT_DICTIONARY))
    m = max(12, int(round(MAT_MARKER_SIZE * side)))
    quiet = max(2, m // 6)  # white border the detector needs around a marker
    for marker_id, (cx, cy) in MAT_MARKERS.items():
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, m)
        x0, y0 = int(round(cx * side - m / 2)), int(round(cy * side - m / 2))
        marker = cv2.resize(marker, (m, m), interpolation=cv2.INTER_NEAREST)
        img[y0 - quiet:y0 + m + quiet, x0 - quiet:x0 + m + quiet] = 255
        img[y0:y0 + m, x0:x0 + m] = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)
    for seat in Seat:
        poly = (zones.polygon(seat) * side).astype(np.int32)
        cv2.polylines(img, [poly], True, (200, 200, 200), max(1, side // 400), cv2.LINE_AA)
        _seat_label(img, str(seat), zones)
    c = side // 2
    arm = max(3, side // 60)
    cv2.line(img, (c - arm, c), (c + arm, c), (170, 170, 170), max(1, side // 500))
    cv2.line(img, (c, c - arm), (c, c + arm), (170, 170, 170), max(1, side // 500))
    return img


def _seat_label(img: np.ndarray, seat: str, zones: SeatZones) -> None:
    """The seat's name in the edge band, turned to read from that seat."""
    side = img.shape[0]
    text = _LABEL[seat]
    scale = side / 900
    thick = max(1, side // 450)
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    tile = np.full((th + base + 4, tw + 4, 3), 255, np.uint8)
    cv2.putText(tile, text, (2, th + 2), cv2.FONT_HERSHEY_SIMPLEX, scale, (90, 90, 90), thick,
                cv2.LINE_AA)
    tile = np.rot90(tile, _TURNS[seat]).copy()
    band = (zones.outer + 0.5) / 2  # middle of the edge band, from the centre
    offset = {"N": (0.5, 0.5 - band), "S": (0.5, 0.5 + band),
              "E": (0.5 + band, 0.5), "W": (0.5 - band, 0.5)}[seat]
    cx, cy = offset[0] * side, offset[1] * side
    h, w = tile.shape[:2]
    x0, y0 = int(cx - w / 2), int(cy - h / 2)
    x0, y0 = min(max(x0, 0), side - w), min(max(y0, 0), side - h)
    img[y0:y0 + h, x0:x0 + w] = np.minimum(img[y0:y0 + h, x0:x0 + w], tile)


def write_mat(path: str | Path, size_cm: float = 75.0, dpi: int = 150) -> Path:
    """Write the mat as PNG, or as a one-page PDF of ``size_cm`` when ``path`` ends in .pdf."""
    path = Path(path)
    side = int(round(size_cm / 2.54 * dpi))
    img = render_mat(side)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(_pdf_page(img, size_cm))
    else:
        if not cv2.imwrite(str(path), img):
            raise OSError(f"cannot write {path}")
    return path


def _pdf_page(img: np.ndarray, size_cm: float) -> bytes:
    """A minimal PDF 1.4 with one page showing the image at its real size.

    Written by hand (no PDF library at the kiosk): the picture goes in as a
    Flate-compressed RGB stream, which keeps the markers' edges sharp.
    """
    h, w = img.shape[:2]
    points = size_cm / 2.54 * 72
    data = zlib.compress(np.ascontiguousarray(img[:, :, ::-1]).tobytes(), 9)
    content = f"q {points:.2f} 0 0 {points:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {points:.2f} {points:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode()
        + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)
