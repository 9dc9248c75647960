"""Table calibration: seats from the picture's edges, the printed mat, saving, a moved camera."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kiosk.vision.camera.calibration import Calibration, CalibrationError, SeatZones
from kiosk.vision.camera.mat import render_mat, write_mat


def _photo_of_mat(corners: np.ndarray, size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """The mat seen by a camera whose picture shows the mat's corners at ``corners``."""
    mat = render_mat(600)
    src = np.array([(0, 0), (600, 0), (600, 600), (0, 600)], np.float32)
    h = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    return cv2.warpPerspective(mat, h, size, borderValue=(60, 110, 40))


TABLET = np.array([(150, 30), (490, 30), (620, 350), (20, 350)], np.float64)


def test_overhead_default_puts_each_seat_at_its_edge() -> None:
    cal = Calibration.default("overhead", (640, 360))
    for seat, point in {"N": (320, 80), "E": (540, 180), "S": (320, 290), "W": (100, 180)}.items():
        assert cal.seat_at_pixel(*point) == seat


def test_tablet_default_north_is_far_and_small() -> None:
    cal = Calibration.default("tablet", (640, 360))
    assert cal.seat_at_pixel(320, 90) == "N"
    assert cal.seat_at_pixel(320, 220) == "S"
    assert cal.seat_at_pixel(460, 142) == "E" and cal.seat_at_pixel(180, 142) == "W"
    near = cal.to_image([(0.5, 0.9)])[0]
    far = cal.to_image([(0.5, 0.1)])[0]
    assert near[1] > far[1]


def test_unknown_view_is_refused() -> None:
    with pytest.raises(CalibrationError):
        Calibration.default("sideways", (640, 360))


def test_centre_and_edges_belong_to_no_seat() -> None:
    zones = SeatZones()
    assert zones.seat_at((0.5, 0.5)) is None
    assert zones.seat_at((0.5, 0.98)) is None       # the player's own edge: trick piles
    assert zones.seat_at((0.03, 0.72)) is None      # the side: the 5s score markers


def test_four_taps_give_the_same_table_as_the_mat() -> None:
    image = _photo_of_mat(TABLET)
    by_mat = Calibration.from_image(image, view="tablet")
    by_taps = Calibration.from_corners(TABLET, (640, 360), view="tablet")
    probes = np.array([(0.5, 0.25), (0.75, 0.5), (0.5, 0.75), (0.25, 0.5)])
    assert np.allclose(by_mat.to_image(probes), by_taps.to_image(probes), atol=3.0)
    assert by_mat.source == "mat" and sorted(by_mat.markers) == [0, 1, 2, 3]


def test_mat_not_in_view_is_a_clear_error() -> None:
    with pytest.raises(CalibrationError, match="markers"):
        Calibration.from_image(np.zeros((360, 640, 3), np.uint8))


def test_saved_calibration_round_trips(tmp_path) -> None:
    cal = Calibration.from_image(_photo_of_mat(TABLET), view="tablet")
    cal.save(tmp_path / "table.json")
    again = Calibration.load(tmp_path / "table.json")
    assert again.to_json() == cal.to_json()
    with pytest.raises(CalibrationError):
        (tmp_path / "bad.json").write_text("{}")
        Calibration.load(tmp_path / "bad.json")


def test_a_moved_camera_is_noticed() -> None:
    cal = Calibration.from_image(_photo_of_mat(TABLET), view="tablet")
    assert cal.check(_photo_of_mat(TABLET)).moved is False
    moved = _photo_of_mat(TABLET + (25, 10))
    check = cal.check(moved)
    assert check.moved is True and "moved" in check.message
    assert cal.check(np.zeros((360, 640, 3), np.uint8)).moved is True
    assert Calibration.default("overhead", (640, 360)).check(moved).moved is None


def test_calibration_follows_a_change_of_resolution() -> None:
    cal = Calibration.from_image(_photo_of_mat(TABLET), view="tablet")
    half = cal.scaled((320, 180))
    assert np.allclose(half.to_table([(160, 90)]), cal.to_table([(320, 180)]), atol=1e-6)


def test_mat_writes_png_and_pdf(tmp_path) -> None:
    png = write_mat(tmp_path / "mat.png", size_cm=20, dpi=60)
    image = cv2.imread(str(png))
    assert image is not None and image.shape[0] == image.shape[1]
    assert len(Calibration.from_image(image).markers) == 4
    pdf = write_mat(tmp_path / "mat.pdf", size_cm=20, dpi=60).read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/Subtype /Image" in pdf


def test_play_area_box_holds_every_seat_zone_and_stays_in_the_picture() -> None:
    for view, size in (("overhead", (960, 960)), ("tablet", (1280, 720))):
        calibration = Calibration.default(view, size)
        x1, y1, x2, y2 = calibration.play_area_box()
        assert 0 <= x1 < x2 <= size[0] and 0 <= y1 < y2 <= size[1]
        for outline in calibration.zone_outlines().values():
            assert (outline[:, 0] >= x1 - 1).all() and (outline[:, 0] <= x2 + 1).all()
            assert (outline[:, 1] >= y1 - 1).all() and (outline[:, 1] <= y2 + 1).all()
    # a tablet sees the far side of the table small: the box is narrower than the picture
    x1, _, x2, _ = Calibration.default("tablet", (1280, 720)).play_area_box()
    assert x2 - x1 < 1280


def test_index_pixels_grow_with_the_resolution() -> None:
    small = Calibration.default("overhead", (480, 480)).index_pixels()
    large = Calibration.default("overhead", (960, 960)).index_pixels()
    assert large == pytest.approx(2 * small, rel=0.01)
    assert 5 < small < 30
