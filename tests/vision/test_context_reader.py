"""The context reader: a second opinion on an unsure index from the card around it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from kiosk.vision.cards.context_reader import CONTEXT_BELOW, unsure_rows, with_context
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import ModelError, name_proposals
from kiosk.vision.cards.index_classifier import NONE

REPO = Path(__file__).resolve().parents[2]


class _Reader:
    """Stands in for a classifier: fixed rows, and how many boxes it was shown."""

    classes: tuple[str, ...] = ("KD", "QD", "8D", NONE)

    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = np.asarray(rows, np.float32)
        self.shown: list[int] = []

    def probabilities(self, image: np.ndarray, boxes: list) -> np.ndarray:
        self.shown.append(len(boxes))
        return self.rows[: len(boxes)]


def _proposals(count: int) -> list[Detection]:
    return [Detection("index", 0.5, (20.0 * i, 0, 20.0 * i + 10, 20)) for i in range(count)]


def test_the_card_around_settles_a_rank_the_index_leaves_in_doubt() -> None:
    """A blurred index read KD 0.5 / QD 0.45: the card around it is plainly a queen, so
    the queen it is, and surer than the index alone made either."""
    namer = _Reader([[0.5, 0.45, 0.0, 0.05]])
    image = np.zeros((30, 30, 3), np.uint8)
    alone = name_proposals(namer, image, _proposals(1), 0.5)  # type: ignore[arg-type]
    assert [d.card for d in alone] == ["KD"]
    context = _Reader([[0.05, 0.9, 0.0, 0.05]])
    found = name_proposals(namer, image, _proposals(1), 0.5, context=context)  # type: ignore[arg-type]
    assert [d.card for d in found] == ["QD"] and found[0].confidence > 0.6
    assert found[0].alternative == "KD"


def test_only_unsure_indices_of_the_kiosks_cards_are_shown_to_the_context_reader() -> None:
    """A sure index (0.97) keeps its name whatever the card around it seems, and the
    context reader is not even asked about it; nor about an index leaning to a card the
    kiosk never plays (an 8), which it would only name wrongly on the real photos."""
    namer = _Reader([[0.97, 0.01, 0.01, 0.01], [0.5, 0.45, 0.0, 0.05], [0.0, 0.0, 0.02, 0.98],
                     [0.0, 0.4, 0.55, 0.05]])
    context = _Reader([[0.0, 1.0, 0.0, 0.0]])
    image = np.zeros((30, 80, 3), np.uint8)
    found = name_proposals(namer, image, _proposals(4), 0.5, context=context)  # type: ignore[arg-type]
    assert sorted(d.card for d in found) == ["8D", "KD", "QD"]
    assert context.shown == [1]
    kiosk_cards = np.array([True, True, False, False])
    assert unsure_rows(namer.rows, kiosk_cards).tolist() == [1]
    assert unsure_rows(namer.rows, np.ones(4, bool)).tolist() == [1, 3]
    assert 0.5 < CONTEXT_BELOW <= 0.97


def test_an_even_opinion_changes_nothing_and_no_class_is_ruled_out() -> None:
    index = np.array([[0.5, 0.3, 0.15, 0.05]])
    even = np.full((1, 4), 0.25)
    assert with_context(index, even, 0.7) == pytest.approx(index)
    # the card around says "certainly not a king": the index still keeps the king possible
    fused = with_context(index, np.array([[0.0, 0.5, 0.5, 0.0]]), 0.5)
    assert fused.sum() == pytest.approx(1.0) and 0 < fused[0, 0] < index[0, 0]
    with pytest.raises(ValueError, match="do not match"):
        with_context(index, np.full((1, 3), 1 / 3))


def test_a_missing_context_reader_is_one_clear_error(tmp_path: Path) -> None:
    from kiosk.vision.cards.detector import Detector

    model = REPO / "models" / "cards.onnx"
    if not model.exists():
        pytest.skip("no exported model")
    with pytest.raises(ModelError, match="context reader not found"):
        Detector(model, context_reader=tmp_path / "none.onnx")
    assert Detector(model, context_reader=None).context_reader is None


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_a_context_reader_naming_other_classes_is_refused(tmp_path: Path) -> None:
    """Its opinion multiplies the index classifier's class by class, so a network with
    other names (the suit reader's four suits, say) cannot be taken for one."""
    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    from datasets.index_crops import LABELS
    from kiosk.vision.cards.detector import Detector

    model = REPO / "models" / "cards.onnx"
    if not model.exists():
        pytest.skip("no exported model")
    suits = tmp_path / "suits.onnx"
    trainer.export(trainer.build_network(4, grid=3), ["C", "D", "H", "S"], suits, 48, 6.0)
    with pytest.raises(ModelError, match="names other classes"):
        Detector(model, context_reader=suits)
    same = tmp_path / "context.onnx"
    trainer.export(trainer.build_network(len(LABELS), grid=3), list(LABELS), same, 48, 6.0)
    detector = Detector(model, context_reader=same)
    assert detector.context_reader is not None and detector.context_reader.patch == 48
