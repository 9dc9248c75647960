"""Reading a photo of any size: at the resolution its cards' corners need.

The detector fits a whole picture into its 384 x 640 input, so a 1280 x 720 webcam frame
is halved and a phone's 4000 x 3000 photo shrunk six times: corner indices that are 30
pixels tall in the photo reach the network at 15 or at 5, under the size it finds them
reliably (recall falls with the index's size in pixels). The kiosk's own
frames are cut to the play area in tiles by its calibration (``kiosk.vision.pipeline``);
a photo has no calibration, so :func:`read_photo` measures the indices it finds in one
whole pass and, when they reached the network too small, or none was found in a picture
the network shrank, reads the photo again in overlapping tiles fine enough for them
(``Detector.detect(min_scale=...)``). A photo whose indices were large enough costs one
pass, as before.

On rendered 1280 x 720 table photos of two decks no network saw (30 each), cards found
went from 0.859 and 0.716 to 0.915 and 0.909, false detections an image from 0.77 and
1.27 to 0.70 and 0.60; of the held-out real phone photos (640 x 640, large indices) one
in 171 is read twice, and the figures are unchanged (``scripts/bench_enrolment.py
--photo``).
"""

from __future__ import annotations

import numpy as np

from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import Detector
from kiosk.vision.cards.letterbox import letterbox_geometry

#: an index reaching the network shorter than this (its box's longer side, in the
#: network's input pixels) is read again in tiles
SMALL_AT_NETWORK = 16.0
#: the tiles are cut so that the indices reach the network about this size
WANTED_AT_NETWORK = 24.0
#: a picture in which one pass found nothing is read again only when the network saw at
#: most this share of its side: a picture only a little larger than the input has little
#: more to give, and its second pass found a false card on the real photos (a 640 x 640
#: ace's large pip read as a face-down card) and no true one
NOTHING_FOUND_BELOW = 0.55


def fine_scale(detector: Detector, image: np.ndarray, found: list[Detection]) -> float | None:
    """The ``min_scale`` to read ``image`` again at, or None when one pass was enough."""
    scale = letterbox_geometry(image.shape[:2], detector.input_hw).scale  # the whole picture
    if scale >= 1.0:
        return None  # the network already sees every pixel
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in found
             if d.card != FACE_DOWN]
    if not sides:  # nothing found: in a much shrunk picture, look at every pixel
        return 1.0 if scale <= NOTHING_FOUND_BELOW else None
    median = float(np.median(sides))
    if median * scale >= SMALL_AT_NETWORK:
        return None
    return min(1.0, WANTED_AT_NETWORK / median)


def read_photo(detector: Detector, image: np.ndarray) -> list[Detection]:
    """The cards in a photo of any size, read as finely as its indices need."""
    found = detector.detect(image)
    finer = fine_scale(detector, image, found)
    return found if finer is None else detector.detect(image, min_scale=finer)
