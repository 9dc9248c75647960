"""The frame pipeline shows the detector only the play area, finely enough to read it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.detection import Detection
from kiosk.vision.pipeline import INDEX_PIXELS, READ_CONFIDENCE, FramePipeline


class _AreaDetector:
    """Records how it is called, like the real detector's ``detect`` signature; with
    ``north``, finds one JH where North's card lies in a top-down square picture."""

    def __init__(self, north: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.north = north

    def detect(
        self, image: np.ndarray, roi: Any = None, confidence: Any = None, min_scale: Any = None
    ) -> list[Any]:
        self.calls.append({"shape": image.shape, "roi": roi, "min_scale": min_scale,
                           "confidence": confidence})
        if not self.north:
            return []
        x, y = image.shape[1] / 2, image.shape[1] * 0.2
        return [Detection("JH", 0.9, (x - 8, y - 8, x + 8, y + 8))]


def test_detector_gets_the_play_area_and_the_scale_for_readable_indices() -> None:
    detector = _AreaDetector()
    # (a slanted view is warped first: tests/reader/test_rectify.py)
    pipeline = FramePipeline(detector, view="tablet", use_mat=False, rectify=False)
    frame = np.zeros((720, 1280, 3), np.uint8)
    pipeline(frame, 0.0)
    pipeline(frame, 0.1)
    calibration = Calibration.default("tablet", (1280, 720))
    assert len(detector.calls) == 2
    call = detector.calls[-1]
    assert call["shape"] == (720, 1280, 3)  # the whole frame; the crop is the detector's
    assert call["roi"] == calibration.play_area_box()
    assert call["min_scale"] == pytest.approx(INDEX_PIXELS / calibration.index_pixels())
    # boxes from the reader's threshold, not the single-picture operating point
    assert call["confidence"] == READ_CONFIDENCE


def test_the_box_threshold_can_be_left_to_the_detector() -> None:
    detector = _AreaDetector()
    pipeline = FramePipeline(detector, view="overhead", use_mat=False, box_confidence=None)
    pipeline(np.zeros((480, 480, 3), np.uint8), 0.0)
    assert detector.calls[-1]["confidence"] is None


def test_a_plain_callable_detector_still_gets_the_whole_frame() -> None:
    seen: list[tuple[int, ...]] = []

    def detect(image: np.ndarray) -> list[Any]:
        seen.append(image.shape)
        return []

    FramePipeline(detect, view="overhead", use_mat=False)(np.zeros((480, 480, 3), np.uint8), 0.0)
    assert seen == [(480, 480, 3)]


def test_recording_a_video_keeps_the_play_area_and_every_frame(tmp_path) -> None:
    """``read_video(record=...)`` keeps each frame's boxes for a replay, and the detector
    still looks at the play area (a wrapper that hid ``roi`` used to lose it)."""
    import cv2

    from kiosk.vision.pipeline import read_video

    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (320, 180))
    for _ in range(5):
        writer.write(np.zeros((180, 320, 3), np.uint8))
    writer.release()
    detector = _AreaDetector()
    seen: list[dict[str, Any]] = []
    read_video(video, detector, view="overhead", record=seen)
    assert len(seen) == len(detector.calls) == 5
    assert all(call["roi"] is not None for call in detector.calls)
    assert [frame["t"] for frame in seen] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert all(frame["detections"] == [] for frame in seen)


def test_a_tablet_frame_is_read_from_above_and_its_boxes_come_back_in_frame_pixels() -> None:
    detector = _AreaDetector(north=True)
    pipeline = FramePipeline(detector, view="tablet", use_mat=False)
    pipeline(np.zeros((720, 1280, 3), np.uint8), 0.0)
    view = pipeline.table_view
    assert view is not None
    call = detector.calls[-1]
    assert call["shape"] == (view.size[1], view.size[0], 3)  # the warped square
    assert call["roi"] is None
    assert call["min_scale"] == pytest.approx(INDEX_PIXELS / view.index_pixels())
    (found,) = pipeline.last_detections
    x1, y1, x2, y2 = found.box
    tablet = Calibration.default("tablet", (1280, 720))
    assert tablet.seat_at_pixel((x1 + x2) / 2, (y1 + y2) / 2) == "N"
    assert y2 < 360  # far up the frame, where a tablet sees North


def test_rectify_off_keeps_the_frame_and_its_play_area() -> None:
    detector = _AreaDetector(north=True)
    pipeline = FramePipeline(detector, view="tablet", use_mat=False, rectify=False)
    pipeline(np.zeros((720, 1280, 3), np.uint8), 0.0)
    assert pipeline.table_view is None
    assert detector.calls[-1]["shape"] == (720, 1280, 3)
    assert detector.calls[-1]["roi"] == Calibration.default("tablet", (1280, 720)).play_area_box()
