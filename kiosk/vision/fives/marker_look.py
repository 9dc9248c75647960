"""The players' 5s read from a whole frame, with a closer look where each side's 5s lie.

Why a closer look: the 5s lie at the side of the table, and from a tablet standing at
South's edge the far side's pair is a few dozen pixels across in the whole frame. The
detector, fitting the whole frame to its input, then misses the pair or one of its
printed corners, and a corner it did not box is a mark the reader cannot explain. The
same detector on the frame's region around the pair alone (``roi``: the crop fitted to
its input, so the cards are seen two to four times larger) boxes them. It costs one
network pass a side, once a hand, at a time when no card is being played.

Where to look: where the side's 5s were read this frame or last seen
(``places``). A side whose 5s were never seen gets no closer look: the table is too
large to look at closely everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from kiosk.rules.cards import Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.boxes import suppress
from kiosk.vision.cards.detection import Detection
from kiosk.vision.fives.markers import read_markers
from kiosk.vision.fives.patch import PATCH_HALF
from kiosk.vision.fives.print_sizes import FiveSizes
from kiosk.vision.fives.reading import MarkerReading

#: a closer look's region smaller than this (pixels a side) is not worth a network pass
SMALLEST_LOOK = 24


class Detects(Protocol):
    """What the closer look needs of :class:`kiosk.vision.cards.detector.Detector`."""

    iou: float

    def detect(self, image_bgr: np.ndarray, roi: Sequence[int] | None = None
               ) -> list[Detection]: ...


def look_at_markers(image: np.ndarray, detector: Detects, calibration: Calibration,
                    places: Mapping[Team, tuple[float, float]] | None = None,
                    sizes: Mapping[str, FiveSizes] | None = None) -> dict[Team, MarkerReading]:
    """Each side's count from one frame: the whole frame's boxes read first, then each
    side read again with the boxes of a closer look at where its 5s lie added."""
    found = detector.detect(image)
    readings = read_markers(image, found, calibration, places, sizes)
    for side, reading in readings.items():
        place = reading.place or (places or {}).get(side)
        if place is None:
            continue
        roi = region_around(calibration, place, image.shape[:2])
        if roi is None:
            continue
        closer = suppress(list(found) + detector.detect(image, roi=roi), detector.iou)
        readings[side] = read_markers(image, closer, calibration, places, sizes,
                                      sides=(side,))[side]
    return readings


def region_around(calibration: Calibration, place: Sequence[float],
                  shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The frame's pixels (x1, y1, x2, y2) that show the table around ``place`` as far as
    the reader's patch reaches; None when too little of it is in the picture."""
    x, y = float(place[0]), float(place[1])
    square = [(x - PATCH_HALF, y - PATCH_HALF), (x + PATCH_HALF, y - PATCH_HALF),
              (x + PATCH_HALF, y + PATCH_HALF), (x - PATCH_HALF, y + PATCH_HALF)]
    corners = calibration.to_image(square)
    h, w = shape[:2]
    x1, y1 = np.clip(corners.min(axis=0), 0, (w, h))
    x2, y2 = np.clip(corners.max(axis=0), 0, (w, h))
    if min(x2 - x1, y2 - y1) < SMALLEST_LOOK:
        return None
    return int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2))


def agreed(frames: Sequence[Mapping[Team, MarkerReading]]) -> dict[Team, MarkerReading]:
    """Each side's reading over a few frames of the same table: a count stands when most
    frames read it and none read another; otherwise "cannot read", with the reason.

    Why: a wrong count makes the kiosk tell two teams their 5s are wrong when they are
    not. A misread from the camera's noise, a corner boxed in one frame and not the
    next, does not repeat from frame to frame; a hand passing over the 5s in one frame
    leaves the others to agree.

    >>> one = lambda n: {Team.NS: MarkerReading(Team.NS, n)}
    >>> agreed([one(6), one(6), one(None)])[Team.NS].count
    6
    >>> agreed([one(6), one(5), one(6)])[Team.NS].why
    'the frames read 5 and 6'
    >>> agreed([one(6), one(None), one(None)])[Team.NS].count is None
    True
    """
    out = {}
    for side in frames[0]:
        readings = [frame[side] for frame in frames]
        counts = sorted({r.count for r in readings if r.count is not None})
        if len(counts) > 1:
            out[side] = MarkerReading(side, None, place=readings[0].place,
                                      why="the frames read " + " and ".join(map(str, counts)))
            continue
        alike = [r for r in readings if r.read]
        if 2 * len(alike) > len(readings):
            out[side] = alike[0]
        else:
            unread = next(r for r in readings if not r.read)
            out[side] = MarkerReading(side, None, place=unread.place,
                                      why=unread.why or "most frames could not be read")
    return out
