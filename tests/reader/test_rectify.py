"""A tablet's slanted frame is warped to a top-down square before detection, and the
boxes come back in the frame's pixels (the pipeline's side: test_pipeline_play_area.py)."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.vision.camera.calibration import PLAY_AREA_MARGIN as MARGIN
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.camera.rectify import MAX_SIDE, TableView

TABLET = Calibration.default("tablet", (1280, 720))


def test_only_a_slanted_view_is_warped() -> None:
    assert TableView.for_calibration(Calibration.default("overhead", (960, 960))) is None
    view = TableView.for_calibration(TABLET)
    assert view is not None
    side = view.size[0]
    assert view.size == (side, side) and 64 <= side <= MAX_SIDE


def test_the_square_is_the_play_area_seen_from_above() -> None:
    """Table points land where a top-down picture of the play area has them, and the
    warp carries a frame's pixels there."""
    view = TableView.for_calibration(TABLET)
    assert view is not None
    lo = 0.5 - (TABLET.zones.outer + MARGIN)
    k = view.pixels_per_unit
    table_points = np.array([(0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5)])
    frame_points = TABLET.to_image(table_points)
    square_points = (table_points - lo) * k
    homogeneous = np.hstack([frame_points, np.ones((4, 1))]) @ view.matrix.T
    assert homogeneous[:, :2] / homogeneous[:, 2:] == pytest.approx(square_points, abs=1e-6)
    # a white dot at North's place in the frame is white at North's place in the square
    frame = np.zeros((720, 1280, 3), np.uint8)
    x, y = (int(round(v)) for v in frame_points[0])
    frame[y - 3 : y + 4, x - 3 : x + 4] = 255
    square = view.warp(frame)
    sx, sy = (int(round(v)) for v in square_points[0])
    assert square[sy, sx].min() > 200
    assert square[:, : sx - 60].max() == 0  # nothing else was carried over


def test_a_box_goes_back_to_the_frame_centred_where_the_card_is() -> None:
    view = TableView.for_calibration(TABLET)
    assert view is not None
    for table_point in ((0.5, 0.2), (0.5, 0.8), (0.25, 0.5)):
        frame_point = TABLET.to_image([table_point])[0]
        centre = (
            np.asarray(table_point) - (0.5 - TABLET.zones.outer - MARGIN)
        ) * view.pixels_per_unit
        box = view.box_to_frame((*(centre - 10), *(centre + 10)))
        assert ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) == pytest.approx(
            tuple(frame_point), abs=1e-6
        )
    # far away (North) a square's box is smaller in the frame than near (South)
    north = view.box_to_frame((100, 100, 120, 120))
    south = view.box_to_frame((100, view.size[1] - 120, 120, view.size[1] - 100))
    assert north[2] - north[0] < south[2] - south[0]
