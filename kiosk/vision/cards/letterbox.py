"""Fitting a picture into the detector's input: the letterbox (scale and grey padding,
aspect kept) and the tiles a large picture is cut into so small indices keep pixels.

>>> box = letterbox_geometry((720, 1280), (384, 640))
>>> box.scale, box.pad_x, box.pad_y
(0.5, 0.0, 12.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the model input: ``input = image * scale + pad``."""

    scale: float
    pad_x: float
    pad_y: float


def letterbox_geometry(image_hw: tuple[int, int], input_hw: tuple[int, int]) -> Letterbox:
    """Scale and padding that fit an image into the input, aspect kept, centred."""
    h, w = image_hw
    ih, iw = input_hw
    scale = min(ih / h, iw / w)
    return Letterbox(scale, (iw - round(w * scale)) / 2, (ih - round(h * scale)) / 2)


#: grey pixels kept beside a picture on a model of any input size (within ``input_hw``):
#: with none, indices at the picture's edge lost proposals (whole frames of the 8
#: validation hands: 0.832 of the labelled indices proposed against 0.857 with the full
#: 384 x 640 input, false detections 1.24 against 1.03 a frame); with 32, 0.858 and 1.03
PAD_MARGIN = 32


def letterbox(
    image: np.ndarray, input_hw: tuple[int, int], stride: int | None = None
) -> tuple[np.ndarray, Letterbox]:
    """The image resized into the model input with grey (114) padding.

    With ``stride`` (a model that takes any input size), the image is scaled exactly as
    into ``input_hw`` but padded only to :data:`PAD_MARGIN` on each side (where
    ``input_hw`` has room), rounded up to a multiple of ``stride``: a square play area
    then costs the network 384 x 448 rather than 384 x 640, the same pixels of cards.
    """
    geometry = letterbox_geometry(image.shape[:2], input_hw)
    h, w = image.shape[:2]
    nw, nh = round(w * geometry.scale), round(h * geometry.scale)
    canvas_h, canvas_w = input_hw
    if stride:
        canvas_h = min(canvas_h, -(-(nh + 2 * PAD_MARGIN) // stride) * stride)
        canvas_w = min(canvas_w, -(-(nw + 2 * PAD_MARGIN) // stride) * stride)
    out = np.full((canvas_h, canvas_w, 3), 114, np.uint8)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, left = (canvas_h - nh) // 2, (canvas_w - nw) // 2
    out[top : top + nh, left : left + nw] = resized
    return out, Letterbox(geometry.scale, float(left), float(top))


def tile_grid(
    image_hw: tuple[int, int],
    input_hw: tuple[int, int],
    min_scale: float | None,
    overlap: float = 0.12,
    max_tiles: int = 6,
) -> list[tuple[int, int, int, int]]:
    """Tiles (x1, y1, x2, y2) covering the image, as few as keep the fitting scale at
    ``min_scale`` or more (at most ``max_tiles``); neighbours overlap by ``overlap`` of a
    tile so an index cut by one tile's edge is whole in the next.

    >>> tile_grid((720, 1280), (384, 640), None)
    [(0, 0, 1280, 720)]
    >>> len(tile_grid((720, 1280), (384, 640), 0.9))
    4
    """
    h, w = image_hw
    ih, iw = input_hw
    whole = [(0, 0, w, h)]
    if min_scale is None or min(ih / h, iw / w) >= min_scale:
        return whole
    best: tuple[float, int, int] | None = None
    for count in range(2, max_tiles + 1):
        for rows in range(1, count + 1):
            if count % rows:
                continue
            cols = count // rows
            th, tw = _tile_side(h, rows, overlap), _tile_side(w, cols, overlap)
            scale = min(ih / th, iw / tw)
            if best is None or scale > best[0] + 1e-9:
                best = (scale, rows, cols)
        if best is not None and best[0] >= min_scale:
            break
    assert best is not None
    _, rows, cols = best
    th, tw = _tile_side(h, rows, overlap), _tile_side(w, cols, overlap)
    ys = [round(i * (h - th) / max(rows - 1, 1)) for i in range(rows)]
    xs = [round(i * (w - tw) / max(cols - 1, 1)) for i in range(cols)]
    return [(x, y, min(w, x + tw), min(h, y + th)) for y in ys for x in xs]


def _tile_side(length: int, parts: int, overlap: float) -> int:
    """Side of one of ``parts`` tiles over ``length`` pixels, neighbours sharing ``overlap``."""
    if parts == 1:
        return length
    return int(np.ceil(length / (parts - (parts - 1) * overlap)))


def scaled_box(
    box: tuple[float, float, float, float], factor: float
) -> tuple[float, float, float, float]:
    if factor == 1.0:
        return box
    x1, y1, x2, y2 = box
    return (x1 * factor, y1 * factor, x2 * factor, y2 * factor)


def shifted_box(
    box: tuple[float, float, float, float], dx: float, dy: float
) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
