"""Box arithmetic shared by the data tools and the evaluation: YOLO label files (read and
written), YOLO boxes to pixels, IoU.

>>> yolo_to_pixels([("JH", (0.5, 0.5, 0.2, 0.4))], 100, 50)
[('JH', (40.0, 15.0, 60.0, 35.0))]
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import numpy as np

Label = TypeVar("Label")
#: x1, y1, x2, y2 in pixels
Box = tuple[float, float, float, float]
#: centre x, centre y, width, height, all 0..1 of the image (a YOLO label line)
YoloBox = tuple[float, float, float, float]


def long_side(box: Box) -> float:
    """A box's longer side (x1, y1, x2, y2): an index's size whatever way it lies."""
    return max(box[2] - box[0], box[3] - box[1])


def read_yolo_labels(path: Path) -> list[tuple[int, YoloBox]]:
    """The (class id, box) lines of a YOLO label file."""
    rows = []
    for line in path.read_text().split("\n"):
        if line.strip():
            cls, cx, cy, w, h = line.split()
            rows.append((int(cls), (float(cx), float(cy), float(w), float(h))))
    return rows


def yolo_label_text(rows: list[tuple[int, YoloBox]]) -> str:
    """A YOLO label file's text for (class id, box) rows: one line each, as read back by
    :func:`read_yolo_labels`.

    >>> yolo_label_text([(3, (0.5, 0.25, 0.1, 0.2))])
    '3 0.500000 0.250000 0.100000 0.200000\\n'
    """
    return "".join(f"{cls} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n" for cls, (cx, cy, w, h) in rows)


def yolo_to_pixels(
    rows: list[tuple[Label, YoloBox]], width: int, height: int
) -> list[tuple[Label, Box]]:
    """YOLO centre-size boxes (0..1) to corner boxes in pixels, labels kept."""
    return [
        (label, ((cx - w / 2) * width, (cy - h / 2) * height,
                 (cx + w / 2) * width, (cy + h / 2) * height))
        for label, (cx, cy, w, h) in rows
    ]  # fmt: skip


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` (N, 4) with every box in ``b`` (M, 4)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return np.asarray(inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9))
