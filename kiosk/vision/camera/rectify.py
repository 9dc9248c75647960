"""A tablet's slanted picture of the table, warped to the overhead view the detector reads best.

A tablet standing at South's edge sees North's cards far away and foreshortened: their
indices are about a third the size of South's and squashed top to bottom. The detector
and its classifier read overhead pictures far better (rendered hands: 19 of 20 tricks
overhead against 7 of 20 from a tablet with the same networks), so for a slanted view the
pipeline does not detect on the frame itself: the calibration's homography warps the play
area to a square, top-down picture (every index the same size and shape, as from above),
the detector reads that, and its boxes are mapped back to the frame's pixels, so the
reader, the recorded streams and the evidence stay in the camera's coordinates.

The square is as fine as the frame at its nearest seat (no index is shrunk) but no larger
than :data:`MAX_SIDE`; a far seat's indices are enlarged, which adds no detail but gives
both networks the size and shape they were trained on.

>>> from kiosk.vision.camera.calibration import INDEX_UNITS, PLAY_AREA_MARGIN, Calibration
>>> TableView.for_calibration(Calibration.default("overhead", (960, 960))) is None
True
>>> view = TableView.for_calibration(Calibration.default("tablet", (1280, 720)))
>>> view is not None and view.size[0] == view.size[1]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from kiosk.vision.camera.calibration import INDEX_UNITS, PLAY_AREA_MARGIN, Calibration

#: the warped square's side is capped here: the detector's cost grows with its area
MAX_SIDE = 1280
#: a view whose pixels per table unit differ more than this between the nearest and the
#: farthest part of the play area is warped; an overhead camera (about 1.0) is not
SLANT = 1.25


@dataclass(frozen=True)
class TableView:
    """Frame pixels -> a top-down square picture of the play area, and back."""

    #: 3x3 homography from frame pixels to the square's pixels
    matrix: np.ndarray
    #: the square's (width, height) in pixels
    size: tuple[int, int]
    #: the square's pixels per table unit (the play area is a unit square's middle)
    pixels_per_unit: float
    #: 3x3 homography from the square's pixels back to the frame's (``matrix`` inverted)
    inverse: np.ndarray

    @classmethod
    def for_calibration(
        cls, calibration: Calibration, *, force: bool = False, max_side: int = MAX_SIDE
    ) -> TableView | None:
        """The warp for a slanted camera; None for one that already looks down on the
        table (``force`` makes one anyway)."""
        reach = calibration.zones.outer + PLAY_AREA_MARGIN
        lo, hi = 0.5 - reach, 0.5 + reach
        nearest, farthest = _scale_range(calibration, lo, hi)
        if not force and nearest < SLANT * farthest:
            return None
        side = int(round(min(max_side, nearest * (hi - lo))))
        side = max(side, 64)
        k = side / (hi - lo)
        units_to_square = np.array([[k, 0.0, -lo * k], [0.0, k, -lo * k], [0.0, 0.0, 1.0]])
        matrix = units_to_square @ calibration.homography
        return cls(
            matrix=matrix, size=(side, side), pixels_per_unit=k, inverse=np.linalg.inv(matrix)
        )

    def index_pixels(self) -> float:
        """How long a printed index (``INDEX_UNITS``, as ``Calibration.index_pixels``) is
        in the square: the same everywhere."""
        return INDEX_UNITS * self.pixels_per_unit

    def warp(self, frame: np.ndarray) -> np.ndarray:
        """The top-down square picture of the play area (outside the frame: black)."""
        return cv2.warpPerspective(
            frame, self.matrix, self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )

    def box_to_frame(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        """A box in the square -> the frame box around its four mapped corners, moved so
        that its centre is the mapped centre (the reader places a card by its centre)."""
        return self.boxes_to_frame([box])[0]

    def boxes_to_frame(
        self, boxes: Sequence[Sequence[float]]
    ) -> list[tuple[float, float, float, float]]:
        """:meth:`box_to_frame` for many boxes, in one transform."""
        if not boxes:
            return []
        b = np.asarray(boxes, np.float64).reshape(-1, 4)
        x1, y1, x2, y2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
        corners = np.stack(
            [
                np.stack([x1, y1], 1),
                np.stack([x2, y1], 1),
                np.stack([x2, y2], 1),
                np.stack([x1, y2], 1),
                np.stack([(x1 + x2) / 2, (y1 + y2) / 2], 1),
            ],
            axis=1,
        )
        mapped = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), self.inverse)
        mapped = mapped.reshape(len(b), 5, 2)
        half = (mapped[:, :4].max(axis=1) - mapped[:, :4].min(axis=1)) / 2
        centre = mapped[:, 4]
        return [
            (float(cx - hw), float(cy - hh), float(cx + hw), float(cy + hh))
            for (cx, cy), (hw, hh) in zip(centre, half, strict=True)
        ]

    def detections_to_frame(self, detections: Sequence[Any]) -> list[Any]:
        """The detector's boxes in the square, moved to the frame's pixels."""
        boxes = self.boxes_to_frame(
            [d["box"] if isinstance(d, dict) else d.box for d in detections]
        )
        return [
            {**d, "box": list(box)} if isinstance(d, dict) else replace(d, box=box)
            for d, box in zip(detections, boxes, strict=True)
        ]


def _scale_range(calibration: Calibration, lo: float, hi: float) -> tuple[float, float]:
    """Largest and smallest frame pixels per table unit over the play area (measured
    across, at the middle of each edge of it: the nearest and farthest seats)."""
    scales = [
        calibration.pixels_per_unit(at) for at in ((0.5, lo), (0.5, hi), (lo, 0.5), (hi, 0.5))
    ]
    return max(scales), min(scales)
