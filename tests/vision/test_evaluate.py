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


def test_each_miss_has_its_cause(tmp_path: Path) -> None:
    """A miss is put down to the first stage (nothing proposed) or to the naming (another
    name, the right one or another under the operating point, or no name at all), so
    that a figure says which network to train."""
    cards = ["JH", "6D", "AS", "9C", "KH", "QD"]
    truth = [(card, (0.1 + 0.16 * k, 0.5, 0.05, 0.2)) for k, card in enumerate(cards)]
    box = [(20 + 32 * k - 5, 40, 20 + 32 * k + 5, 60) for k in range(len(cards))]
    dets = [
        # JH: nothing near it
        Detection("5D", 0.9, box[1]),  # 6D named wrongly
        Detection("AS", 0.3, box[2]),  # the right name, under the operating point
        Detection("9S", 0.2, box[3]),  # another name, under it too
        Detection("KH", 0.0001, box[4]),  # proposed, not named (under the 0.001 floor)
        Detection("QD", 0.9, box[5]),  # found
    ]
    report = evaluate(_Echo(dets), [(_image(tmp_path), truth)], operating=0.4)
    assert report["miss_causes"] == {
        "no_proposal": 1, "named_wrongly": 1, "right_name_under_operating": 1,
        "wrong_name_under_operating": 1, "not_an_index": 1,
    }  # fmt: skip
    assert report["recall_all_boxes"] == round(1 / 6, 4)


def test_part_shown_indices_of_scenes_are_ignored(tmp_path: Path, monkeypatch) -> None:
    """A scene's ``ignore/`` file (indices that show in part, written by the generator)
    makes ignore regions: a detection there is neither right nor false."""
    import models.evaluate as evaluation

    test = tmp_path / "test"
    for folder in ("images", "labels", "ignore"):
        (test / folder).mkdir(parents=True)
    cv2.imwrite(str(test / "images" / "0000001.jpg"), np.zeros((100, 200, 3), np.uint8))
    (test / "labels" / "0000001.txt").write_text("0 0.25 0.5 0.1 0.2\n")  # 9C
    (test / "ignore" / "0000001.txt").write_text("4 0.75 0.5 0.1 0.2\n")  # a KC in part
    monkeypatch.setattr(evaluation, "SCENES", tmp_path)
    items = evaluation.synthetic_items(None)
    assert [card for card, _box in items[0][1]] == ["9C", None]
    dets = [Detection("9C", 0.9, (40, 40, 60, 60)), Detection("KC", 0.9, (140, 40, 160, 60))]
    report = evaluate(_Echo(dets), items, operating=0.4)
    assert report["false_detections_per_image"] == 0.0 and report["mAP50"] == 1.0
    (test / "ignore" / "0000001.txt").unlink()  # control: the same KC is now false
    report = evaluate(_Echo(dets), evaluation.synthetic_items(None), operating=0.4)
    assert report["false_detections_per_image"] == 1.0


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
