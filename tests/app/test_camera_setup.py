"""The calibration screen's logic: the mat found in the picture or four corners tapped,
the zones to check, saved per table, and a moved camera noticed when it opens again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kiosk.app.presenter import TablePresenter
from kiosk.table.calibration import calibration_path
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup

VIDEO = Path(__file__).resolve().parents[2] / "kiosk" / "assets" / "demo-hand.mp4"


@pytest.fixture
def frame() -> np.ndarray:
    if not VIDEO.is_file():
        pytest.skip("the demo video is not built")
    import cv2

    capture = cv2.VideoCapture(str(VIDEO))
    ok, image = capture.read()
    capture.release()
    assert ok
    return image


@pytest.fixture
def presenter(tmp_path: Path) -> TablePresenter:
    session = TableSession.open(tmp_path / "j.sqlite3")
    session.configure(TableSetup(tournament="T", table=3, team_ns="A", team_ew="B",
                                 profile="tournament", points_to_win=10, minutes=30))
    return TablePresenter(session, camera=True)


def test_the_mat_is_found_zones_shown_then_saved_for_this_table(
        presenter: TablePresenter, frame: np.ndarray) -> None:
    setup = presenter.camera_setup
    setup.camera_view = "tablet"
    setup.frame = frame
    presenter.open("calibration")
    assert presenter.screen == "calibration"
    v = setup.view()
    assert "Tap the North-West corner" in v.status and not v.can_save and not v.zones
    setup.find_mat()
    v = setup.view()
    assert v.can_save and set(v.zones) == {"N", "E", "S", "W"}
    # tablet view: North's zone is the far one, higher in the picture than South's
    north_y = np.mean([p[1] for p in v.zones["N"]])
    south_y = np.mean([p[1] for p in v.zones["S"]])
    assert north_y < south_y
    saved: list[object] = []
    setup.on_saved = saved.append
    path = setup.save()
    assert path.endswith("calibration/table-3.json") and Path(path).is_file()
    assert len(saved) == 1 and "Saved for table 3" in setup.view().status


def test_four_taps_make_a_calibration_and_a_moved_camera_is_noticed(
        presenter: TablePresenter, frame: np.ndarray) -> None:
    setup = presenter.camera_setup
    setup.frame = frame
    presenter.open("calibration")
    h, w = frame.shape[:2]
    for x, y in [(0.25 * w, 0.1 * h), (0.75 * w, 0.1 * h), (0.98 * w, 0.95 * h)]:
        setup.tap(x, y)
    assert "South-West corner of the play area (4 of 4)" in setup.view().status
    setup.tap(0.02 * w, 0.95 * h)
    assert setup.view().can_save and setup.pending.source == "taps"
    setup.find_mat()  # taps do not keep markers; the mat does, so it can check the camera
    setup.save()
    presenter.open(None)
    setup.frame = np.roll(frame, 60, axis=1)  # somebody knocked the camera aside
    presenter.open("calibration")
    assert "moved" in setup.view().warning or "not in view" in setup.view().warning


def test_the_mat_not_in_the_picture_says_what_to_do(presenter: TablePresenter) -> None:
    setup = presenter.camera_setup
    setup.frame = np.full((360, 640, 3), 90, dtype=np.uint8)
    setup.find_mat()
    assert "mat was not found" in setup.view().status
    assert "Tap the four corners" in setup.view().status
    assert calibration_path(presenter.session) is not None
    assert not setup.view().can_save


class _FindsSmallCards:
    """A detector that finds three indices 12 pixels tall (a camera far from the table)."""

    def detect(self, _image: np.ndarray) -> list[object]:
        from kiosk.vision.cards.detector import Detection

        return [Detection("9H", 0.9, (100 + 40 * i, 100, 108 + 40 * i, 112)) for i in range(3)]


def test_the_picture_is_checked_and_what_to_change_is_said(
        presenter: TablePresenter, frame: np.ndarray) -> None:
    setup = presenter.camera_setup
    setup.frame = frame
    presenter.open("calibration")
    assert setup.view().advice == ()  # no detector (the demo): nothing claimed
    setup.detector = _FindsSmallCards()
    presenter.open("calibration")
    advice = setup.view().advice
    assert advice and advice[0].startswith("Bring the camera closer")
