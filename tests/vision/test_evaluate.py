"""The evaluation's arithmetic: a perfect detector scores 1, a wrong name is a false detection."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.vision.cards.detection import Detection
from models.evaluate import evaluate, iou_matrix


class _Namer:
    """The fake second stage's classes: the cards the tests use, and ``none``."""

    classes = ("JH", "JD", "6D", "5D", "AS", "9C", "9S", "KH", "QD", "none")


class _Echo:
    """A fake two-stage detector: it proposes the given boxes (in pixels) for every image
    and names each as given; given a box of its own, its second stage names it the card
    of the detection lying on it at IoU 0.5 or more (else ``none``), as surely."""

    namer = _Namer()  # there is a second stage
    proposal_confidence = 0.0

    def __init__(self, detections: list[Detection]) -> None:
        self.detections = detections

    def naming(self, image: np.ndarray, boxes: list) -> np.ndarray:
        rows = np.zeros((len(boxes), len(_Namer.classes)))
        for row, box in zip(rows, boxes, strict=True):
            near = [d for d in self.detections
                    if iou_matrix(np.array([d.box]), np.array([box]))[0, 0] >= 0.5]
            card = near[0].card if near else "none"
            row[_Namer.classes.index(card)] = near[0].confidence if near else 1.0
        return rows

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
    assert report["naming_on_true_boxes"]["all"] == {
        "labels": 2, "named_right": 1.0, "named_right_at_operating": 1.0}


def test_the_kiosks_classes_have_their_own_map(tmp_path: Path) -> None:
    """A 6 the kiosk never scores with lowers the mAP over every class, not the one over
    the euchre cards, the 5s and the backs."""
    truth = [("JH", (0.25, 0.5, 0.1, 0.2)), ("6D", (0.75, 0.5, 0.1, 0.2)),
             ("back", (0.5, 0.2, 0.1, 0.2))]  # fmt: skip
    dets = [Detection("JH", 0.9, (40, 40, 60, 60)), Detection("back", 0.8, (90, 10, 110, 30)),
            Detection("6D", 0.8, (0, 80, 10, 90))]  # the 6D's box is elsewhere
    report = evaluate(_Echo(dets), [(_image(tmp_path), truth)], operating=0.4)
    assert report["mAP50"] == pytest.approx(2 / 3, abs=1e-4)
    assert report["mAP50_euchre_5s_back"] == 1.0


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
        "right_name_box_off": 0, "no_proposal": 1, "named_wrongly": 1,
        "right_name_under_operating": 1, "wrong_name_under_operating": 1, "not_an_index": 1,
    }  # fmt: skip
    assert report["recall_all_boxes"] == round(1 / 6, 4)


class _Merger(_Echo):
    """Proposes the index's box and a taller one, and reports them merged into their
    union (as the detector merges two boxes it names the same card)."""

    def name(
        self, image: np.ndarray, proposals: list[Detection], confidence: float = 0.0
    ) -> list[Detection]:
        return [Detection("JH", 0.9, (15, 25, 25, 75))]


def test_a_card_read_right_on_a_box_drawn_otherwise_is_not_called_not_an_index(
    tmp_path: Path,
) -> None:
    """The index was proposed (IoU 1) and named right; the box reported is the union
    with a taller box (IoU 0.4): a miss at IoU 0.5, but of the box, not of the naming."""
    truth = [("JH", (0.1, 0.5, 0.05, 0.2))]  # pixels (15, 40, 25, 60)
    proposals = [Detection("JH", 0.9, (15, 40, 25, 60)), Detection("JH", 0.8, (15, 25, 25, 75))]
    report = evaluate(_Merger(proposals), [(_image(tmp_path), truth)], operating=0.4)
    assert report["recall_all_boxes"] == 0.0
    assert report["miss_causes"]["right_name_box_off"] == 1
    assert report["miss_causes"]["not_an_index"] == 0


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


def test_the_command_line_is_checked_before_the_networks_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A set with no pictures is said at once, not after the four networks have loaded (a
    model that is not there shows the order: the pictures are named, not the model)."""
    from models.evaluate import main

    argv = ["--sets", "hands", "--hands", str(tmp_path), "--model", str(tmp_path / "no.onnx")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no rendered hands" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--sets", "synthetic", "--synthetic-split", "val"], "no generated scenes in"),
        (["--sets", "synthetic", "--synthetic-split", "train", "--limit", "5"],
         "train/images (python -m datasets.generate)"),
        (["--sets", "real,scenes"], "unknown set 'scenes'"),
    ],
)
def test_a_set_without_pictures_is_one_clear_line_not_zeros(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    argv: list[str], said: str,
) -> None:  # fmt: skip
    """A checkout that never generated its scenes used to get a report of zeros."""
    import models.evaluate as evaluate_module

    monkeypatch.setattr(evaluate_module, "SCENES", tmp_path)
    assert evaluate_module.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and said in err


@pytest.mark.parametrize("camera", ["on", "off"])
def test_an_unreadable_scene_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    camera: str,
) -> None:  # fmt: skip
    """A scene that cannot be read stops the measurement with one line naming it, read as
    generated or drawn again without the camera."""
    import models.evaluate as evaluate_module

    for folder in ("images", "labels"):
        (tmp_path / "val" / folder).mkdir(parents=True)
    (tmp_path / "val" / "images" / "1000000.jpg").write_bytes(b"not a picture")
    (tmp_path / "val" / "labels" / "1000000.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    monkeypatch.setattr(evaluate_module, "SCENES", tmp_path)
    argv = ["--sets", "synthetic", "--synthetic-split", "val", "--camera", camera]
    assert evaluate_module.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot read" in err and "1000000.jpg" in err


def test_label_groups_come_from_what_the_picture_shows() -> None:
    """A label's kind is read off the picture (its size, the picture's edge, the
    brightness inside its box), so any set of pictures can be grouped the same way."""
    from models.evaluate import GROUPS, label_groups

    grey = np.full((100, 200), 230, np.uint8)
    grey[10:40, 100:130] = 40  # a dark-faced card's corner
    assert label_groups(grey, np.array([50, 50, 60, 65])) == ["long side under 20 px"]
    assert label_groups(grey, np.array([100, 10, 130, 40])) == [
        "long side 20-35 px", "on a dark ground",
    ]  # fmt: skip
    assert label_groups(grey, np.array([0, 20, 40, 40])) == [
        "long side 35 px and over", "cut by the picture's edge",
    ]  # fmt: skip
    assert label_groups(grey, np.array([170, 80, 200, 100]))[1] == GROUPS[3]  # right and bottom


def test_recall_by_group_counts_each_kind_of_label(tmp_path: Path) -> None:
    """The JH on a dark ground is missed, the 6D on white paper found: the dark group's
    recall is 0, the light label's size group's 1."""
    path = tmp_path / "a.png"
    picture = np.full((100, 200, 3), 230, np.uint8)
    picture[40:60, 40:60] = 30
    cv2.imwrite(str(path), picture)
    truth = [("JH", (0.25, 0.5, 0.1, 0.2)), ("6D", (0.75, 0.5, 0.2, 0.4))]
    dets = [Detection("6D", 0.9, (130, 30, 170, 70))]
    groups = evaluate(_Echo(dets), [(path, truth)], operating=0.4)["recall_by_group"]
    assert groups == {
        "long side 20-35 px": {"labels": 1, "recall": 0.0},
        "long side 35 px and over": {"labels": 1, "recall": 1.0},
        "on a dark ground": {"labels": 1, "recall": 0.0},
    }  # fmt: skip


def test_scenes_without_the_camera_keep_their_cards_and_labels(tmp_path: Path, monkeypatch,
                                                               have_card_art: None) -> None:
    """``--camera off`` scores the same seeds drawn without the camera's effects: the
    pictures are the clean renders, the labels the split's own."""
    import models.evaluate as evaluation
    from datasets.generate import write_split
    from datasets.scenes import render_scene

    write_split("val", 2, 96, workers=1, root=tmp_path)
    monkeypatch.setattr(evaluation, "SCENES", tmp_path / "scenes")
    as_generated = evaluation.synthetic_items(None, "val")
    clean = list(evaluation.clean_scene_items("val", None))
    assert len(clean) == 2
    for (path, truth), (picture, clean_truth) in zip(as_generated, clean, strict=True):
        drawn = render_scene(int(path.stem), 96, camera=False)
        assert np.array_equal(picture, cv2.cvtColor(drawn.image, cv2.COLOR_RGB2BGR))
        assert clean_truth == truth
        assert not np.array_equal(picture, cv2.imread(str(path)))  # the camera's effects gone
    # --without: the same seeds with only the effects named left out
    sharp = list(evaluation.clean_scene_items("val", None, ("blur",)))
    for (path, truth), (picture, sharp_truth) in zip(as_generated, sharp, strict=True):
        drawn = render_scene(int(path.stem), 96, without=("blur",))
        assert np.array_equal(picture, cv2.cvtColor(drawn.image, cv2.COLOR_RGB2BGR))
        assert sharp_truth == truth


def test_an_unknown_camera_effect_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    from models.evaluate import main

    assert main(["--sets", "synthetic", "--without", "blur,fog"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown camera effect 'fog'" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--proposal-confidence", "0"], "--proposal-confidence must be over 0 and at most 1"),
        (["--proposal-confidence", "1.5"], "--proposal-confidence must be over 0"),
        (["--confidence", "-0.1"], "--confidence must be over 0 and at most 1, not -0.1"),
        (["--scales", "1", "0"], "--scales must all be over 0, not 0.0"),
    ],
)
def test_a_threshold_or_scale_out_of_range_is_one_clear_line(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Said before the networks load: with a model that is not there, the number is named."""
    from models.evaluate import main

    assert main([*argv, "--sets", "synthetic", "--model", str(tmp_path / "no.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and said in err


def test_naming_on_the_labels_own_boxes_tells_the_naming_from_the_first_stage(
    tmp_path: Path,
) -> None:
    """Given each face label's own box, the second stage names the JH right, the AS right
    but unsurely and the 6D wrongly; the back is left out (a label's box carries no first
    stage's call). None of the three was proposed, so the recall is 0 and the naming's
    figures say what a perfect first stage would leave."""
    truth = [("JH", (0.1, 0.5, 0.1, 0.2)), ("AS", (0.4, 0.5, 0.1, 0.2)),
             ("6D", (0.7, 0.5, 0.1, 0.2)), ("back", (0.9, 0.5, 0.1, 0.2))]  # fmt: skip

    class Unproposing(_Echo):
        def propose(self, image: np.ndarray, confidence: float | None = None) -> list:
            return []

    named = [Detection("JH", 0.9, (10, 40, 30, 60)), Detection("AS", 0.3, (70, 40, 90, 60)),
             Detection("5D", 0.9, (130, 40, 150, 60)), Detection("back", 0.9, (170, 40, 190, 60))]
    report = evaluate(Unproposing(named), [(_image(tmp_path), truth)], operating=0.4)
    assert report["recall_all_boxes"] == 0.0
    assert report["naming_on_true_boxes"]["all"] == {
        "labels": 3, "named_right": round(2 / 3, 4), "named_right_at_operating": round(1 / 3, 4)}
    assert report["naming_on_true_boxes"]["long side 20-35 px"]["labels"] == 3


def test_no_classifier_no_naming_figures(tmp_path: Path) -> None:
    """The first stage alone (``--classifier none``) has no second stage to ask."""

    class FirstStageOnly(_Echo):
        namer = None

    truth = [("JH", (0.25, 0.5, 0.1, 0.2))]
    report = evaluate(FirstStageOnly([Detection("JH", 0.9, (40, 40, 60, 60))]),
                      [(_image(tmp_path), truth)], operating=0.4)
    assert report["recall_all_boxes"] == 1.0
    assert report["naming_on_true_boxes"] == {}
