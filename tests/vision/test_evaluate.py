"""The evaluation's arithmetic: a perfect detector scores 1, a wrong name is a false detection."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from kiosk.vision.detector import Detection
from models.evaluate import evaluate, iou_matrix


class _Echo:
    """A fake two-stage detector: it proposes the given boxes (in pixels) for every image
    and names each as given."""

    namer = "a classifier"  # there is a second stage
    proposal_confidence = 0.0

    def __init__(self, detections: list[Detection]) -> None:
        self.detections = detections

    def propose(self, image: np.ndarray, confidence: float | None = None) -> list[Detection]:
        """The first stage: the same boxes, whatever they were named."""
        return self.detections

    def name(
        self, image: np.ndarray, proposals: list[Detection], confidence: float = 0.0
    ) -> list[Detection]:
        return [d for d in proposals if d.confidence >= confidence]


def _image(tmp_path: Path) -> Path:
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), np.zeros((100, 200, 3), np.uint8))
    return path


def test_iou() -> None:
    a = np.array([[0, 0, 10, 10]], float)
    b = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]], float)
    assert np.allclose(iou_matrix(a, b), [[1.0, 1 / 3, 0.0]])


def test_perfect_detector(tmp_path: Path) -> None:
    truth = [("JH", (0.25, 0.5, 0.1, 0.2)), ("6D", (0.75, 0.5, 0.1, 0.2))]
    dets = [Detection("JH", 0.9, (40, 40, 60, 60)), Detection("6D", 0.8, (140, 40, 160, 60))]
    report = evaluate(_Echo(dets), [(_image(tmp_path), truth)], operating=0.4)
    assert report["mAP50"] == 1.0 and report["mAP50-95"] == 1.0
    assert report["recall_euchre_and_5s_boxes"] == 1.0
    assert report["proposal_recall_euchre_and_5s_boxes"] == 1.0
    assert report["false_detections_per_image"] == 0.0


def test_wrong_name_is_missed_and_false(tmp_path: Path) -> None:
    truth = [("JH", (0.25, 0.5, 0.1, 0.2)), (None, (0.75, 0.5, 0.1, 0.2))]  # None: a joker
    dets = [Detection("JD", 0.9, (40, 40, 60, 60)), Detection("AS", 0.9, (140, 40, 160, 60))]
    report = evaluate(_Echo(dets), [(_image(tmp_path), truth)], operating=0.4)
    assert report["recall_euchre_and_5s_cards"] == 0.0
    assert report["false_detections_per_image"] == 1.0  # the JD; the AS lies on the joker
    assert report["missed_cards"] == {"JH": 1}
    # the box was proposed: it is the naming that failed
    assert report["proposal_recall_euchre_and_5s_boxes"] == 1.0


def test_pictures_in_memory_are_scored_one_by_one() -> None:
    """Frames of rendered hands come as pictures from a generator (a video's frames are
    too many to hold): each counts as an image, and a face-down card's box (None) is
    ignored."""
    picture = np.zeros((100, 200, 3), np.uint8)
    truth = [("JH", (0.25, 0.5, 0.1, 0.2)), (None, (0.75, 0.5, 0.1, 0.2))]
    dets = [Detection("JH", 0.9, (40, 40, 60, 60)), Detection("back", 0.9, (140, 40, 160, 60))]
    frames = ((picture, truth) for _ in range(3))
    report = evaluate(_Echo(dets), frames, operating=0.4)
    assert report["images"] == 3 and report["false_detections_per_image"] == 0.0
    assert report["recall_euchre_and_5s_cards"] == 1.0


def test_hands_set_without_rendered_hands_is_one_clear_line(tmp_path: Path, capsys) -> None:
    from models.evaluate import main

    assert main(["--sets", "hands", "--hands", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no rendered hands" in err
