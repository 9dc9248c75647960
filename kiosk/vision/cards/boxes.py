"""The detector's boxes: the YOLO model's output rows decoded into detections, boxes
from overlapping tiles suppressed, and one printed index boxed twice merged.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.letterbox import Letterbox


def suppress(found: list[Detection], iou: float) -> list[Detection]:
    """Class-agnostic non-maximum suppression of detections from overlapping tiles."""
    if not found:
        return found
    boxes = [[x1, y1, x2 - x1, y2 - y1] for x1, y1, x2, y2 in (d.box for d in found)]
    scores = [d.confidence for d in found]
    kept = np.asarray(cv2.dnn.NMSBoxes(boxes, scores, 0.0, iou, top_k=300)).reshape(-1)
    return sorted((found[int(i)] for i in kept), key=lambda d: -d.confidence)


def decode(
    rows: np.ndarray,
    classes: Sequence[str],
    geometry: Letterbox,
    threshold: float,
    iou: float,
    image_hw: tuple[int, int],
    offset: tuple[int, int] = (0, 0),
) -> list[Detection]:
    """YOLOv8 output rows ``(anchors, 4 + classes)`` to detections in image pixels.

    Each row is a box centre and size in model-input pixels and one score per class; the
    best class names the box. Boxes under ``threshold`` are dropped, then overlapping
    boxes (IoU above ``iou``) are suppressed whatever their class, best first.
    """
    scores = rows[:, 4:]
    best = scores.argmax(axis=1)
    conf = scores[np.arange(len(rows)), best]
    keep = conf >= threshold
    if not keep.any():
        return []
    rows, best, conf = rows[keep], best[keep], conf[keep]
    cx, cy, w, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    boxes = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
    chosen = cv2.dnn.NMSBoxes(boxes.tolist(), conf.tolist(), threshold, iou, top_k=300)
    out = []
    ih, iw = image_hw
    for i in np.asarray(chosen).reshape(-1):
        x, y, bw, bh = boxes[i]
        x1 = float(np.clip((x - geometry.pad_x) / geometry.scale, 0, iw)) + offset[0]
        y1 = float(np.clip((y - geometry.pad_y) / geometry.scale, 0, ih)) + offset[1]
        x2 = float(np.clip((x + bw - geometry.pad_x) / geometry.scale, 0, iw)) + offset[0]
        y2 = float(np.clip((y + bh - geometry.pad_y) / geometry.scale, 0, ih)) + offset[1]
        out.append(Detection(classes[int(best[i])], float(conf[i]), (x1, y1, x2, y2)))
    return out


#: a box that lies this much (of its own area) inside a better box of the same name is
#: the same printed index boxed twice; two corners of one card never overlap at all
SAME_INDEX_OVERLAP = 0.6


def merge_same_card(found: list[Detection], overlap: float = SAME_INDEX_OVERLAP) -> list[Detection]:
    """Drop a detection lying mostly inside (or around) a better one with the same name
    (best first in, best first out).

    The proposal network sometimes boxes one index twice, the rank alone and rank with
    suit, or the index with a pip beside it, too differently for its class-agnostic
    suppression (IoU 0.4-0.5); once the classifier has named both the same card, they
    are one index, and the surer box stands for it. (Their union would draw an index and
    its neighbouring pip as one box twice the index's size: on the
    frames of rendered hands, a fifth of the cards the classifier named right came out
    on a box that no longer matched their index; on the real photos and the scenes the
    two rules score the same.)

    >>> a = Detection("JD", 0.9, (0, 0, 10, 11))
    >>> merge_same_card([a, Detection("JD", 0.8, (0, 0, 10, 20))])
    [Detection(card='JD', confidence=0.9, box=(0, 0, 10, 11))]
    >>> len(merge_same_card([a, Detection("QD", 0.8, (0, 0, 10, 20))]))
    2
    """
    kept: list[Detection] = []
    for d in found:
        x1, y1, x2, y2 = d.box
        area = max((x2 - x1) * (y2 - y1), 1e-9)
        for k in kept:
            kx1, ky1, kx2, ky2 = k.box
            w = min(x2, kx2) - max(x1, kx1)
            h = min(y2, ky2) - max(y1, ky1)
            smaller = min(area, (kx2 - kx1) * (ky2 - ky1))
            if k.card == d.card and w > 0 and h > 0 and w * h / smaller >= overlap:
                break
        else:
            kept.append(d)
    return kept
