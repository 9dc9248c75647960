"""The detector's second stage: the crop, the patches it learns from, naming proposals,
and a tiny training run from scenes to an ONNX classifier the detector loads."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from datasets.boxes import iou_matrix
from datasets.index_crops import LABELS, NONE_ID, jitter, patches_for
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import ModelError, name_proposals
from kiosk.vision.cards.index_classifier import MARGIN, NONE, PATCH, RUNNER_UP_FLOOR, crop, to_blob

REPO = Path(__file__).resolve().parents[2]


def test_crop_is_centred_square_with_margin() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[50:90, 100:120] = (0, 0, 255)  # a red 20 x 40 "index"
    patch = crop(image, (100, 50, 120, 90))
    assert patch.shape == (PATCH, PATCH, 3)
    red = patch[..., 2] > 128
    ys, xs = np.nonzero(red)
    # the longer side (40 px) fills PATCH / MARGIN of the patch, centred
    assert ys.max() - ys.min() + 1 == pytest.approx(PATCH / MARGIN, abs=1.5)
    assert xs.max() - xs.min() + 1 == pytest.approx(PATCH / MARGIN / 2, abs=1.5)
    assert (ys.min() + ys.max()) / 2 == pytest.approx((PATCH - 1) / 2, abs=1)
    assert (xs.min() + xs.max()) / 2 == pytest.approx((PATCH - 1) / 2, abs=1)


def test_crop_beyond_the_edge_repeats_the_border() -> None:
    image = np.full((50, 50, 3), 77, np.uint8)
    patch = crop(image, (-10, -10, 10, 10))
    assert (patch == 77).all()


def test_blob_is_rgb_planes_in_unit_range() -> None:
    bgr = np.zeros((PATCH, PATCH, 3), np.uint8)
    bgr[..., 0] = 255  # blue
    blob = to_blob([bgr, bgr])
    assert blob.shape == (2, 3, PATCH, PATCH) and blob.dtype == np.float32
    assert blob[:, 2].min() == 1.0 and blob[:, 0].max() == 0.0


def test_jitter_stays_near_the_box() -> None:
    rng = np.random.default_rng(0)
    box = (100.0, 100.0, 120.0, 140.0)
    for _ in range(200):
        moved = jitter(box, rng)
        assert iou_matrix(np.array([moved]), np.array([box]))[0, 0] > 0.5


def test_patches_label_boxes_proposals_and_background() -> None:
    rng = np.random.default_rng(0)
    image = np.random.default_rng(1).integers(0, 255, (300, 300, 3), dtype=np.uint8)
    truth = [(LABELS.index("JH"), (40.0, 40.0, 60.0, 80.0))]
    proposals = [(41.0, 41.0, 61.0, 79.0), (200.0, 200.0, 220.0, 240.0), (50.0, 40.0, 70.0, 80.0)]
    out = list(patches_for(image, truth, rng, copies=3, proposals=proposals, randoms=5))
    labels = [cls for _, cls in out]
    # 3 copies of the label, the matching proposal named JH, the far one "none", the
    # half-overlapping one left out (neither clearly an index nor clearly not)
    assert labels[:4] == [LABELS.index("JH")] * 4
    assert labels[4] == NONE_ID
    assert all(cls == NONE_ID for cls in labels[5:])
    assert len(labels) >= 6 and all(p.shape == (PATCH, PATCH, 3) for p, _ in out)


def test_an_index_over_half_a_close_views_picture_is_cut_with_no_negative_beside_it() -> None:
    """A tablet close to the cards draws an index wider than half the picture (scene
    4024534's 6C: 0.54 of it); a random negative of its size has no room beside it, so
    none is cut (the cutting stopped on such a scene: no place to draw its centre from)."""
    image = np.random.default_rng(1).integers(0, 255, (120, 120, 3), dtype=np.uint8)
    truth = [(LABELS.index("9C"), (30.0, 40.0, 95.0, 70.0))]
    out = list(patches_for(image, truth, np.random.default_rng(0), copies=2, proposals=[],
                           randoms=5))  # fmt: skip
    assert [cls for _, cls in out] == [LABELS.index("9C")] * 2


def test_unnamed_small_indices_are_neither_patches_nor_negatives() -> None:
    image = np.full((60, 60, 3), 128, np.uint8)
    tiny = (10.0, 10.0, 14.0, 16.0)
    near = (10.5, 10.0, 14.5, 16.0)  # a proposal on the tiny index
    far = (40.0, 40.0, 44.0, 46.0)
    # random negatives are the size of a labelled face: none here, so none come
    plain = list(patches_for(image, [], np.random.default_rng(0), 2, [near, far], randoms=0))
    assert [cls for _, cls in plain] == [NONE_ID, NONE_ID]
    kept = list(patches_for(image, [], np.random.default_rng(0), 2, [near, far], randoms=0,
                            unnamed=[tiny]))  # fmt: skip
    # the proposal on the too-small index is neither a patch of it nor background
    assert [cls for _, cls in kept] == [NONE_ID]
    assert np.array_equal(kept[0][0], plain[1][0])


def test_a_scenes_half_shown_index_is_neither_a_patch_nor_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generator's ``ignore/`` boxes (an index whose rank or suit is hidden) are left
    out of the classifier's lessons: a proposal on one is not taught as ``none``."""
    import cv2

    import kiosk.vision.cards.detector as detector_module
    from datasets.index_crops import UNNAMED, build, scene_truth

    folder = tmp_path / "scenes" / "train"
    for sub in ("images", "labels", "ignore"):
        (folder / sub).mkdir(parents=True)
    picture = np.random.default_rng(2).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "images" / "0000001.jpg"), picture)
    jh = LABELS.index("JH")
    (folder / "labels" / "0000001.txt").write_text(f"{jh} 0.25 0.25 0.1 0.2\n")
    (folder / "ignore" / "0000001.txt").write_text(f"{jh} 0.75 0.75 0.1 0.2\n")
    [(_, truth)] = list(scene_truth("train", tmp_path))
    assert truth == [(jh, (0.25, 0.25, 0.1, 0.2)), (UNNAMED, (0.75, 0.75, 0.1, 0.2))]

    class _Proposer:  # proposes the label, the half-shown index and a bare spot
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def detect(self, image: np.ndarray) -> list[Detection]:
            boxes = [(40.0, 30.0, 60.0, 70.0), (140.0, 130.0, 160.0, 170.0),
                     (140.0, 20.0, 160.0, 60.0)]  # fmt: skip
            return [Detection("index", 0.5, box) for box in boxes]

    monkeypatch.setattr(detector_module, "Detector", _Proposer)
    model = tmp_path / "proposals.onnx"
    model.write_bytes(b"")
    patches, labels, _ = build([("train", scene_truth("train", tmp_path), 1, False)], model,
                               randoms=0)  # fmt: skip
    # the label, its proposal, and the bare spot as "none"; nothing from the half-shown one
    assert list(labels) == [jh, jh, NONE_ID]
    assert np.array_equal(patches[2], crop(_picture_as_read(folder), (140, 20, 160, 60)))


def _picture_as_read(folder: Path) -> np.ndarray:
    """The scene as ``build`` reads it (through its JPEG)."""
    import cv2

    image = cv2.imread(str(folder / "images" / "0000001.jpg"))
    assert image is not None
    return image


class _Namer:
    """Stands in for the ONNX classifier: fixed probabilities per box."""

    classes = ("JH", "9S", NONE)

    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = np.asarray(rows, np.float32)

    def probabilities(self, image: np.ndarray, boxes: list) -> np.ndarray:
        assert len(boxes) == len(self.rows)
        return self.rows


def test_name_proposals_keeps_confident_names_and_drops_none() -> None:
    proposals = [
        Detection("AS", 0.1, (0, 0, 10, 10)),  # the detector's own guess is overridden
        Detection("AS", 0.9, (20, 0, 30, 10)),
        Detection("AS", 0.5, (40, 0, 50, 10)),
    ]
    namer = _Namer([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.35, 0.3, 0.35]])
    image = np.zeros((20, 60, 3), np.uint8)
    found = name_proposals(namer, image, proposals, 0.4)  # type: ignore[arg-type]
    assert found == [Detection("JH", pytest.approx(0.7), (0, 0, 10, 10), "9S", pytest.approx(0.2))]


class _FiveNamer(_Namer):
    classes = ("JH", "5H", "QH", NONE)


def test_a_named_index_keeps_its_surest_other_euchre_card_as_its_alternative() -> None:
    """The runner-up a misread card may really be: a 5 (a score marker, never played) is
    passed over, and a runner-up under the floor is not kept."""
    proposals = [Detection("index", 0.9, (0, 0, 10, 10)), Detection("index", 0.9, (20, 0, 30, 10))]
    namer = _FiveNamer([[0.6, 0.3, 0.06, 0.04], [0.9, 0.09, 0.005, 0.005]])
    found = name_proposals(namer, np.zeros((20, 40, 3), np.uint8), proposals, 0.4)  # type: ignore[arg-type]
    assert [(d.card, d.alternative) for d in found] == [("JH", None), ("JH", "QH")]
    assert found[1].alternative_confidence == pytest.approx(0.06)
    assert RUNNER_UP_FLOOR > 0.005


def test_named_classifier_file_must_exist(tmp_path: Path) -> None:
    from kiosk.vision.cards.detector import Detector

    model = REPO / "models" / "cards.onnx"
    if not model.exists():
        pytest.skip("no exported model")
    with pytest.raises(ModelError, match="index classifier not found"):
        Detector(model, index_classifier=tmp_path / "none.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"junk")
    with pytest.raises(ModelError, match="cannot load index classifier"):
        Detector(model, index_classifier=bad)


@pytest.mark.slow
@pytest.mark.usefixtures("have_card_art")
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_tiny_classifier_training_run(tmp_path: Path) -> None:
    """Scenes -> patches -> a few seconds of training -> ONNX -> the detector's second stage."""
    from datasets.generate import write_split
    from datasets.index_crops import build, save, scene_truth
    from kiosk.vision.cards.index_classifier import IndexClassifier

    root = tmp_path / "data"
    for name, count in (("train", 4), ("val", 1)):
        write_split(name, count, 128, workers=1, root=root)
    train = build(
        [("train", scene_truth("train", root), 2, False),
         ("shrunk", scene_truth("train", root), 1, True)],
        None,
    )  # fmt: skip
    val = build([("val", scene_truth("val", root), 1, False)], None, seed=1)
    assert set(train[2]) == {0, 1}  # both sources gave patches
    assert len(train[1]) > 10 and set(train[1]) - {NONE_ID}
    crops = tmp_path / "crops.npz"
    save(crops, train, val)
    out = tmp_path / "namer.onnx"
    weights = tmp_path / "namer.pt"
    run = [sys.executable, str(REPO / "models" / "train_classifier.py"), "--minutes", "0.02"]
    run += ["--crops", str(crops), "--batch", "8", "--checkpoint", str(weights)]
    subprocess.run([*run, "--out", str(out)], check=True, cwd=REPO, timeout=600)
    assert weights.exists()
    # a later run continues from the export (batch norms rebuilt) or from the weights,
    # the latter on two patch files learnt as one
    again = tmp_path / "again.onnx"
    for start, augmenting in ((out, []), (weights, ["--harder", "--crops", str(crops)])):
        subprocess.run(
            [*run, "--init", str(start), "--out", str(again), *augmenting],
            check=True, cwd=REPO, timeout=600,
        )  # fmt: skip
        assert again.exists()
    namer = IndexClassifier(out)
    assert namer.classes == LABELS
    image = np.zeros((100, 100, 3), np.uint8)
    probabilities = namer.probabilities(image, [(10, 10, 30, 40), (50, 50, 60, 70)])
    assert probabilities.shape == (2, len(LABELS))
    assert probabilities.sum(axis=1) == pytest.approx([1.0, 1.0], abs=1e-4)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_warm_start_from_an_export_computes_what_the_export_computes(tmp_path: Path) -> None:
    """The export folds batch norms away; continuing from it must rebuild them so the
    network starts where the export left off (in evaluation and in training mode)."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    from kiosk.vision.cards.index_classifier import IndexClassifier

    torch.manual_seed(3)
    original = trainer.build_network(len(LABELS))
    patches = np.random.default_rng(0).integers(0, 255, (300, PATCH, PATCH, 3), dtype=np.uint8)
    with torch.no_grad():  # give the batch norms statistics that are not the defaults
        original.train()
        for _ in range(3):
            original(trainer.to_tensor(patches).float() / 255)
    out = tmp_path / "exported.onnx"
    trainer.export(original, list(LABELS), out)
    exported = IndexClassifier(out)
    want = exported._session.run(None, {exported._input: to_blob(list(patches[:50]))})[0]

    rebuilt = trainer.build_network(len(LABELS))
    trainer.warm_start(rebuilt, out, patches)
    rebuilt.eval()
    with torch.no_grad():
        got = rebuilt(trainer.to_tensor(patches[:50]).float() / 255).numpy()
    assert np.allclose(got, want, atol=1e-3)
    rebuilt.train()
    for layer in rebuilt:
        if isinstance(layer, torch.nn.Dropout):
            layer.eval()  # dropout is noise on purpose; the batch norms are what is checked
    with torch.no_grad():  # batch statistics of the same sample: the same function
        got_training = rebuilt(trainer.to_tensor(patches).float() / 255).numpy()[:50]
    assert np.allclose(got_training, want, atol=1e-2)


@pytest.mark.skipif(
    not (REPO / "models" / "index_classifier.onnx").exists(), reason="no exported classifier"
)
def test_a_quarter_turned_card_gets_the_same_name() -> None:
    """Four quarter turns are read and averaged, so turning the picture (and the box with
    it) by a quarter turn changes nothing: the name does not depend on where a player sits."""
    import cv2

    from kiosk.vision.cards.index_classifier import IndexClassifier

    image = cv2.imread(str(Path(__file__).resolve().parent / "fixtures" / "trick_felt.jpg"))
    h, w = image.shape[:2]
    boxes = [(277.5, 415.5, 296.1, 460.1), (416.5, 190.9, 460.9, 212.8)]
    turned = np.ascontiguousarray(np.rot90(image))  # counter-clockwise: (x, y) -> (y, w - x)
    turned_boxes = [(y1, w - x2, y2, w - x1) for x1, y1, x2, y2 in boxes]
    namer = IndexClassifier(recheck_below=None)  # every patch read at all four turns
    assert np.allclose(
        namer.probabilities(image, boxes), namer.probabilities(turned, turned_boxes), atol=2e-3
    )
    assert h > 0
    # read once where the first reading is sure: the names still do not depend on the turn
    quick = IndexClassifier()
    names = [quick.classes[i] for i in quick.probabilities(image, boxes).argmax(axis=1)]
    turned_names = quick.probabilities(turned, turned_boxes).argmax(axis=1)
    assert names == [quick.classes[i] for i in turned_names]
    assert set(names) <= {c for c in quick.classes if len(c) == 2}


class _CountingSession:
    """Wraps an ONNX Runtime session and records how many patches each run was given."""

    def __init__(self, session: object) -> None:
        self.session = session
        self.batches: list[int] = []

    def run(self, outputs: object, feeds: dict[str, np.ndarray]) -> object:
        self.batches.append(len(next(iter(feeds.values()))))
        return self.session.run(outputs, feeds)  # type: ignore[attr-defined]


@pytest.mark.skipif(
    not (REPO / "models" / "index_classifier.onnx").exists(), reason="no exported classifier"
)
def test_only_unsure_patches_are_read_again_at_the_other_turns() -> None:
    """Why: four turns of every proposal cost as much as the YOLO pass on a busy frame.
    A patch read surely at its first turn is answered by it; one read less surely than
    ``recheck_below`` is answered by all four turns averaged, exactly as before."""
    import cv2

    from kiosk.vision.cards.index_classifier import IndexClassifier

    image = cv2.imread(str(Path(__file__).resolve().parent / "fixtures" / "trick_felt.jpg"))
    sure_index = (277.5, 415.5, 296.1, 460.1)
    felt = (20.0, 20.0, 40.0, 44.0)  # bare table: `none`, read less surely than the ace
    boxes = [sure_index, felt]
    always = IndexClassifier(recheck_below=None)
    full = always.probabilities(image, boxes)
    namer = IndexClassifier(recheck_below=0.95)
    first = namer._read([crop(image, b, namer.patch, namer.margin) for b in boxes], 1)
    unsure = [i for i, row in enumerate(first) if row.max() < 0.95]
    assert unsure == [1]  # the ace of diamonds is read at 0.98, the felt just under 0.95
    counting = _CountingSession(namer._session)
    namer._session = counting  # type: ignore[assignment]
    got = namer.probabilities(image, boxes)
    assert counting.batches == [2, 3]  # both patches once, then the felt's three turns
    for i in range(len(boxes)):
        assert np.allclose(got[i], full[i] if i in unsure else first[i], atol=1e-5)
    # a threshold no reading reaches rereads everything: the four-turn answer
    namer.recheck_below = 1.01
    assert np.allclose(namer.probabilities(image, boxes), full, atol=1e-5)


def test_the_small_networks_threads_do_not_wait_busily_between_runs() -> None:
    """Why: the detector runs its four networks one after another in one process. With
    ONNX Runtime's default, the classifier's threads busy-wait after each short run and
    take the cores from the YOLO pass that follows (a whole frame took 68-72 ms instead
    of 38-40 on two threads). The classifier, suit and context readers' sessions are
    made without it; their answers are the same."""
    from kiosk.vision.cards.detector import Detector
    from kiosk.vision.cards.index_classifier import SPINNING_OFF

    key, off = SPINNING_OFF
    detector = Detector(threads=2)
    for network in (detector.namer, detector.suit_reader, detector.context_reader):
        assert network is not None
        options = network._session.get_session_options()
        assert options.get_session_config_entry(key) == off
        assert options.intra_op_num_threads == 2


def test_a_face_down_card_needs_both_networks() -> None:
    """A whole-card box shrunk to 32 pixels is a texture; ``back`` is reported only when
    the YOLO model (which saw the card's outline) says ``back`` too, at the lower score."""

    class Namer(_Namer):
        classes = ("back", "JH", NONE)

    proposals = [
        Detection("back", 0.9, (0, 0, 40, 60)),  # both agree: the lower confidence
        Detection("JH", 0.9, (50, 0, 90, 60)),  # the classifier alone says back: dropped
        Detection("back", 0.3, (100, 0, 140, 60)),  # YOLO unsure: under the threshold
    ]
    namer = Namer([[0.8, 0.1, 0.1], [0.9, 0.05, 0.05], [0.95, 0.0, 0.05]])
    found = name_proposals(namer, np.zeros((60, 150, 3), np.uint8), proposals, 0.5)  # type: ignore[arg-type]
    assert found == [Detection("back", pytest.approx(0.8), (0, 0, 40, 60))]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_a_network_trained_on_larger_patches_is_read_at_its_own_size(tmp_path: Path) -> None:
    """The export records its patch side; the run-time classifier cuts patches that size
    (a 48-pixel network fed 32-pixel patches would read nonsense)."""
    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    from kiosk.vision.cards.index_classifier import IndexClassifier

    out = tmp_path / "wide.onnx"
    trainer.export(trainer.build_network(len(LABELS)), list(LABELS), out, 48)
    namer = IndexClassifier(out)
    assert namer.patch == 48
    image = np.zeros((100, 100, 3), np.uint8)
    assert namer.probabilities(image, [(10, 10, 30, 40)]).shape == (1, len(LABELS))
    assert IndexClassifier().patch == PATCH  # the shipped one: 32


class _Suits(_Namer):
    """Stands in for the suit reader; remembers how many boxes it was shown."""

    classes = ("C", "D", "H", "S")
    shown = 0

    def probabilities(self, image: np.ndarray, boxes: list) -> np.ndarray:
        self.shown += len(boxes)
        return self.rows[: len(boxes)]


def test_the_suit_reader_settles_a_suit_the_index_leaves_in_doubt() -> None:
    """Ace of clubs, its index read 0.55 spades: the card's pips say clubs, so clubs it is;
    a box the index classifier calls ``none`` is never shown to the suit reader."""

    class Namer(_Namer):
        classes = ("AS", "AC", NONE)

    proposals = [Detection("index", 0.5, (0, 0, 10, 20)), Detection("index", 0.5, (40, 0, 50, 20))]
    namer = Namer([[0.55, 0.45, 0.0], [0.0, 0.05, 0.95]])
    image = np.zeros((30, 60, 3), np.uint8)
    alone = name_proposals(namer, image, proposals, 0.5)  # type: ignore[arg-type]
    assert [d.card for d in alone] == ["AS"]
    suits = _Suits([[0.97, 0.0, 0.0, 0.03]])
    found = name_proposals(namer, image, proposals, 0.5, suits)  # type: ignore[arg-type]
    assert [d.card for d in found] == ["AC"] and found[0].confidence > 0.8
    assert suits.shown == 1
    # an even opinion changes nothing, and neither does one under SUIT_SURE
    for unsure in (_Suits([[0.25, 0.25, 0.25, 0.25]]), _Suits([[0.85, 0.0, 0.0, 0.15]])):
        same = name_proposals(namer, image, proposals, 0.5, unsure)  # type: ignore[arg-type]
        assert [(d.card, d.box) for d in same] == [(d.card, d.box) for d in alone]
        assert same[0].confidence == pytest.approx(alone[0].confidence)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_the_suit_readers_wide_patches_reach_run_time_as_trained(tmp_path: Path) -> None:
    """Suit patches keep card faces only, labelled by suit; a 3 x 3 network's export
    records its 48-pixel patch and 6 x margin, and the run-time reader cuts them so."""
    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    from datasets.index_crops import LABELS as INDEX_LABELS
    from datasets.index_crops import SUITS, as_suits
    from kiosk.vision.cards.index_classifier import IndexClassifier, crop

    names = ["AC", "back", NONE, "9H", "5S"]
    ids = np.asarray([INDEX_LABELS.index(n) for n in names], np.int16)
    x = np.arange(5)[:, None, None, None] * np.ones((5, 4, 4, 3), np.uint8)
    kept_x, suits, origin = as_suits((x, ids, np.zeros(5, np.int8)))
    assert [SUITS[s] for s in suits] == ["C", "H", "S"]
    assert [int(p[0, 0, 0]) for p in kept_x] == [0, 3, 4] and len(origin) == 3

    out = tmp_path / "suits.onnx"
    trainer.export(trainer.build_network(len(SUITS), grid=3), list(SUITS), out, 48, 6.0)
    reader = IndexClassifier(out)
    assert (reader.classes, reader.patch, reader.margin) == (SUITS, 48, 6.0)
    image = np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    box = (90, 90, 100, 110)
    wide = crop(image, box, 48, 6.0)
    blob = to_blob([np.rot90(wide, k) for k in range(4)])
    logits = reader._session.run(None, {reader._input: blob})[0]
    want = np.exp(logits - logits.max(axis=1, keepdims=True))
    want = (want / want.sum(axis=1, keepdims=True)).mean(axis=0)
    assert reader.probabilities(image, [box])[0] == pytest.approx(want, abs=1e-5)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_warm_start_from_another_head_keeps_the_convolutions(tmp_path: Path) -> None:
    """The suit reader starts from the index classifier's weights: every convolution
    carries over, the differently shaped last layer starts afresh."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    torch.manual_seed(5)
    index_classifier = trainer.build_network(len(LABELS))
    weights = tmp_path / "index.pt"
    torch.save(index_classifier.state_dict(), weights)
    torch.manual_seed(6)
    suit_reader = trainer.build_network(4, grid=3)
    head_before = suit_reader[-1].weight.detach().clone()
    trainer.warm_start(suit_reader, weights, np.zeros((4, 48, 48, 3), np.uint8))
    convolutions = [(a, b) for a, b in zip(index_classifier, suit_reader, strict=True)
                    if isinstance(a, torch.nn.Conv2d)]
    assert len(convolutions) == 6
    assert all(torch.equal(a.weight, b.weight) for a, b in convolutions)
    assert torch.equal(suit_reader[-1].weight, head_before)
    assert suit_reader[-1].weight.shape == (4, 192 * 9)
    # weights of another network altogether are refused, not taken as a fresh start
    stranger = tmp_path / "stranger.pt"
    torch.save(torch.nn.Sequential(torch.nn.Linear(3, 2)).state_dict(), stranger)
    with pytest.raises(ValueError, match="no convolution"):
        trainer.warm_start(trainer.build_network(4, grid=3), stranger, np.zeros((4, 48, 48, 3)))


@pytest.mark.parametrize("grid", [1, 3])
def test_a_widened_network_starts_computing_what_the_narrow_one_did(
    tmp_path: Path, grid: int
) -> None:
    """Continuing from narrower weights with ``--width`` widens them: the wider network
    has more channels in every convolution, yet gives the narrow one's logits, at run
    time and in training mode, so training goes on from where the narrow one stopped."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    torch.manual_seed(7)
    narrow = trainer.build_network(len(LABELS), grid=grid)
    patches = np.random.default_rng(1).integers(0, 255, (200, PATCH, PATCH, 3), dtype=np.uint8)
    batch = trainer.to_tensor(patches).float() / 255
    with torch.no_grad():  # batch norms with statistics of their own, not the defaults
        narrow.train()
        for _ in range(3):
            narrow(batch)
    weights = tmp_path / "narrow.pt"
    torch.save(narrow.state_dict(), weights)

    wide = trainer.build_network(len(LABELS), grid=grid, width=1.5)
    trainer.warm_start(wide, weights, patches)
    widths = [m.out_channels for m in wide if isinstance(m, torch.nn.Conv2d)]
    assert widths == [48, 96, 96, 192, 192, 288]
    narrow.eval()
    wide.eval()
    with torch.no_grad():
        want = narrow(batch).numpy()
        got = wide(batch).numpy()
    # the copies carry a little noise (1 % of each layer's spread) so they can learn apart
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()
    assert (got.argmax(1) == want.argmax(1)).mean() >= 0.95
    for model in (narrow, wide):
        model.train()
        for layer in model:
            if isinstance(layer, torch.nn.Dropout):
                layer.eval()
    with torch.no_grad():  # batch statistics: the copies' means and spreads are the same
        want_training = narrow(batch).numpy()
        got_training = wide(batch).numpy()
    assert np.abs(got_training - want_training).max() < 0.1 * np.abs(want_training).max()


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_a_wider_network_continued_from_an_export_is_widened(tmp_path: Path) -> None:
    """``--init X.onnx --width 2`` once loaded the narrow export's tensors over the wide
    network's own, so it trained the narrow network again under a wide name; the export
    is now rebuilt narrow, loaded, then widened: more channels, the export's answers."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    from kiosk.vision.cards.index_classifier import IndexClassifier

    torch.manual_seed(3)
    narrow = trainer.build_network(len(LABELS))
    patches = np.random.default_rng(2).integers(0, 255, (300, PATCH, PATCH, 3), dtype=np.uint8)
    with torch.no_grad():
        narrow.train()
        for _ in range(3):
            narrow(trainer.to_tensor(patches).float() / 255)
    narrow.eval()
    export = tmp_path / "narrow.onnx"
    trainer.export(narrow, list(LABELS), export)
    wide = trainer.build_network(len(LABELS), width=2.0)
    trainer.warm_start(wide, export, patches)
    assert [m.out_channels for m in wide if isinstance(m, torch.nn.Conv2d)] == [
        64, 128, 128, 256, 256, 384
    ]
    assert all(p.shape == q.shape for p, q in zip(
        wide.parameters(), trainer.build_network(len(LABELS), width=2.0).parameters(), strict=True
    ))  # fmt: skip
    wide.eval()
    with torch.no_grad():
        got = torch.softmax(wide(trainer.to_tensor(patches[:50]).float() / 255), 1).numpy()
    want = IndexClassifier(export, turns=1)._read(list(patches[:50]), 1)
    assert (got.argmax(1) == want.argmax(1)).mean() >= 0.95
    with pytest.raises(ValueError, match="wider network than --width"):
        trainer.warm_start(trainer.build_network(len(LABELS), width=0.5), export, patches)


def test_widening_without_noise_is_exact() -> None:
    """Each new channel copies an old one and the next layer shares that channel's weights
    among its copies: the same logits to rounding."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    torch.manual_seed(8)
    narrow = trainer.build_network(len(LABELS)).eval()
    wide = trainer.build_network(len(LABELS), width=2.0).eval()
    before = wide[0].weight.detach().clone()
    trainer.widen(narrow, wide)
    assert not torch.equal(wide[0].weight, before)
    batch = torch.rand(8, 3, PATCH, PATCH)
    with torch.no_grad():
        assert torch.allclose(wide(batch), narrow(batch), atol=1e-4)


def test_training_on_from_wide_weights_needs_no_width(tmp_path: Path) -> None:
    """A run continued from a widened network's weights is built that wide again (the
    committed checkpoint then reproduces without remembering ``--width``)."""
    import torch

    sys.path.insert(0, str(REPO / "models"))
    import train_classifier as trainer

    wide = tmp_path / "wide.pt"
    torch.save(trainer.build_network(len(LABELS), width=1.5).state_dict(), wide)
    assert trainer.saved_width(wide) == 1.5
    model = trainer.build_network(len(LABELS), width=trainer.saved_width(wide) or 1.0)
    trainer.warm_start(model, wide, np.zeros((4, PATCH, PATCH, 3), np.uint8))
    assert torch.equal(model[0].weight, torch.load(wide)["0.weight"])
    assert trainer.saved_width(tmp_path / "exported.onnx") is None


def test_extra_scenes_are_cut_as_the_train_splits_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--more-copies N`` cuts the extra scenes (``datasets.generate --more``) as the train
    split's, each label N times and shrunk; without those scenes it is one line, status 2."""
    import datasets.index_crops as index_crops
    from datasets.generate import write_split
    from datasets.index_crops import folder_truth

    out = tmp_path / "patches.npz"
    monkeypatch.setattr(index_crops, "GENERATED", tmp_path)
    monkeypatch.setattr(index_crops, "real_truth", lambda split: iter(()))
    monkeypatch.setattr(index_crops, "scene_truth",
                        lambda split: folder_truth(tmp_path / "scenes" / split))
    for split, count in (("train", 1), ("val", 1)):
        write_split(split, count, 96, workers=1, root=tmp_path)
    capsys.readouterr()
    args = ["--detector", str(tmp_path / "no-model.onnx"), "--out", str(out)]
    assert index_crops.main([*args, "--more-copies", "1"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "no extra scenes: run `python -m datasets.generate --more N` first"
    ]
    write_split("more", 2, 96, workers=1, root=tmp_path)
    labels = sum(len((tmp_path / "scenes" / "more" / "labels" / f"{s}.txt").read_text()
                     .splitlines()) for s in (4000000, 4000001))  # fmt: skip
    assert index_crops.main([*args, "--more-copies", "2"]) == 0
    with np.load(out) as saved:
        sources = saved["source"]
    # sources: train, real (none here), train shrunk, more, more shrunk
    assert (sources == 3).sum() >= 2 * labels
    assert index_crops.main(args) == 0
    with np.load(out) as saved:
        assert not np.isin(saved["source"], [3, 4]).any()
