"""Is this camera's picture good enough to read cards? Measured, then said in plain words.

A misread card makes every verdict after it wrong, and most misreads at a real table come
from the picture, not the deck: corner indices too few pixels tall, a lens out of focus,
a lamp shining back off glossy cards, a dim hall. The set-up screens and ``kiosk enrol``
measure the picture with the cards the detector found in it (:func:`check_picture`) and
say what to change, one plain sentence each (:attr:`PictureCheck.advice`).

The limits are the detector's own: the smallest index it reads reliably is in the model
card ("Deck profiles", recall by index size), and the sharpness and glare limits were
chosen on rendered pictures with and without those faults (``tests/vision/
test_camera_check.py`` shows each).

>>> good = PictureCheck(index_pixels=28.0, sharpness=0.9, glare=0.0, brightness=140.0)
>>> good.advice, good.readable
((), True)
>>> PictureCheck(index_pixels=12.0, sharpness=0.9, glare=0.0, brightness=140.0).advice[0][:60]
'Bring the camera closer: the corners of the cards are too sm'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]

#: a corner index this many pixels tall (its box's longer side) or more reads well; under
#: it, misses climb (recall measured by index size on the real photos)
INDEX_PIXELS_GOOD = 20.0
#: sharpness (:func:`sharpness`) under this is a blurred picture
SHARP_ENOUGH = 0.45
#: the print of an index is washed out when even its darkest pixels (the 5th percentile
#: of each pixel's darkest channel, so red ink counts as ink) are this light; glare is
#: more than :data:`GLARE_SHARE` of the found indices washed out. (Blown-out paper is no
#: glare: under auto exposure a white card face often reads 255, its print still dark.)
WASHED_OUT = 140
GLARE_SHARE = 0.1
#: a mean grey level under this is a dark table
DARK = 60.0


@dataclass(frozen=True)
class PictureCheck:
    """What a picture gives the detector: the cards' index height, sharpness, glare, light."""

    index_pixels: float | None  #: median longer side of the index boxes (None: no card)
    sharpness: float | None  #: :func:`sharpness` over the index boxes (None: no card)
    glare: float  #: share of the found indices whose print is washed out (0: no card)
    brightness: float  #: mean grey level, 0-255

    @property
    def advice(self) -> tuple[str, ...]:
        """What to change, most important first; empty when the picture reads well."""
        out = []
        if self.index_pixels is None:
            out.append("No card found in the picture: lay a few cards face up on the table.")
        elif self.index_pixels < INDEX_PIXELS_GOOD:
            out.append(f"Bring the camera closer: the corners of the cards are too small to "
                       f"read ({self.index_pixels:.0f} dots tall; {INDEX_PIXELS_GOOD:.0f} or "
                       "more reads well).")
        if self.brightness < DARK:
            out.append("The table is too dark: more light, please.")
        if self.sharpness is not None and self.sharpness < SHARP_ENOUGH:
            out.append("The picture is blurred: wipe the lens, or focus the camera on the "
                       "table.")
        if self.glare > GLARE_SHARE:
            out.append("The print on the cards looks washed out: a lamp shines back off "
                       "them, or the picture is too bright. Tilt the camera or move the lamp.")
        return tuple(out)

    @property
    def readable(self) -> bool:
        return not self.advice


def sharpness(grey: np.ndarray, boxes: Sequence[Box]) -> float | None:
    """How crisp the cards' print is: the median over index boxes of the strongest edge
    (Sobel) divided by the box's contrast (the 95th minus the 5th percentile of grey).

    Dimensionless, so a dim or a bright picture of the same print scores alike: a crisp
    black-on-white stroke steps from paper to ink within a pixel or two (about 1 and
    more), a blurred one over several (0.2-0.3).
    """
    scores = []
    for box in boxes:
        patch = _inside(grey, box)
        if patch.shape[0] < 4 or patch.shape[1] < 4:
            continue
        patch = patch.astype(np.float32)
        low, high = np.percentile(patch, (5, 95))
        if high - low < 20:  # no print in the box
            continue
        gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
        edge = float(np.percentile(np.hypot(gx, gy), 99)) / 4.0  # Sobel's gain on a step
        scores.append(edge / (high - low))
    return float(np.median(scores)) if scores else None


def check_picture(image_bgr: np.ndarray, boxes: Sequence[Box]) -> PictureCheck:
    """Measure a picture with the index boxes the detector found in it."""
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    index_pixels = (float(np.median([max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in boxes]))
                    if boxes else None)
    glare = washed_out(image_bgr.min(axis=2), boxes)
    return PictureCheck(index_pixels, sharpness(grey, boxes), glare, float(grey.mean()))


def washed_out(darkest: np.ndarray, boxes: Sequence[Box]) -> float:
    """The share of ``boxes`` whose print is washed out (:data:`WASHED_OUT`), given each
    pixel's darkest channel."""
    washed = []
    for box in boxes:
        patch = _inside(darkest, box)
        if patch.size:
            washed.append(float(np.percentile(patch, 5)) >= WASHED_OUT)
    return float(np.mean(washed)) if washed else 0.0


def _inside(picture: np.ndarray, box: Box) -> np.ndarray:
    """The pixels of ``picture`` that a box (x1, y1, x2, y2, any edge past the picture's)
    covers, partly covered pixels included."""
    x1, y1, x2, y2 = box
    return picture[max(int(y1), 0) : int(np.ceil(y2)), max(int(x1), 0) : int(np.ceil(x2))]
