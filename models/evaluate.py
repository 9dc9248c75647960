"""Measure the exported model as the kiosk runs it: synthetic held-out scenes and real photos.

    python models/evaluate.py                        # models/cards.onnx, both sets
    python models/evaluate.py --model M.onnx --real-split test --out models/metrics.json
    python models/evaluate.py --classifier none      # the detector alone, no second stage
    python models/evaluate.py --sets hands --hands runs/val-hands   # frames of rendered hands

Reported per set: mAP50 and mAP50-95 (COCO-style, 101-point, over the classes present,
detections down to confidence 0.001), mAP50 over the classes the kiosk scores with (the
euchre cards, the 5s and ``back``: the other ranks are classes so that they are not read
as these), and at the kiosk's operating confidence: recall per
class, recall of the euchre cards and 5s (per labelled index box, and per card: a card
in a photo counts as found when any of its indices is), and false detections per image
(a detection that matches no labelled box of its class at IoU 0.5; detections on a
joker, which has no class here, are not counted either way), and why each labelled box
missed at the operating point was missed (``miss_causes``: not proposed, or named
wrongly, unsurely or not at all, or read right on a box drawn otherwise), which says
which of the two networks to train, and the recall of the labels by kind
(``recall_by_group``: by size, cut by the picture's edge, on a dark ground), which says
which pictures to train on. ``naming_on_true_boxes`` gives the second stage each face
label's own box instead of the proposals: the share it names right (and right at the
operating point), by the same kinds, is what the naming alone allows whatever the first
stage finds.

``--camera off`` scores a split's scenes drawn again from their seeds without the
camera's effects (light, shadow, glare, blur, noise, JPEG): the same cards and labels, so
the difference from the scenes as generated is what the camera's effects cost, and what
is left is what the networks miss on a clean picture. ``--without blur`` (or any of
``datasets.photometric.EFFECTS``, comma-separated) draws them again leaving out only the
effects named, every other one as generated: what each effect costs.

A synthetic scene's indices that show in part (the generator's ``ignore/`` files) are
ignore regions: a detection there is neither right nor false.

Real photos are read from ../shared/datasets/real-cards-phone/ (never copied); the
``test`` split is the held-out photo sessions listed in datasets/real_split/test.txt.
Their labels leave out the second corner of many cards; the corners added by this project
(datasets/real_split/added_corners.txt, each checked by eye) count as labels, and the
report repeats the real figures against the source labels alone (``..._original_labels``).

Frames of rendered hands (``--sets hands``) are what the trick reader meets: render them
with seeds the reader's benchmark does not use (``scripts/bench_reader.py --seed 6000
--out DIR``); face-down cards are ignore regions there (the renderer boxes each card of
a taken trick's pile, the detector the pile).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Collection, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.boxes import iou_matrix, yolo_to_pixels  # noqa: E402
from datasets.photometric import EFFECTS, check_effects  # noqa: E402
from datasets.real_photos import REAL_DIR, read_labels, split_list  # noqa: E402
from kiosk.vision.cards.classes import CLASSES, FACE_DOWN, is_euchre_or_five  # noqa: E402
from kiosk.vision.cards.detection import Detection  # noqa: E402
from kiosk.vision.cards.detector import (  # noqa: E402
    CONFIDENCE,
    PROPOSAL_CONFIDENCE,
    Detector,
    ModelError,
    confidence_problem,
)
from models.metrics import (  # noqa: E402
    BOX_OFF_IOU,
    GROUPS,
    SetTally,
)

SCENES = REPO / "datasets" / "generated" / "scenes"

# (card or None = ignore region, box x1 y1 x2 y2 pixels)
Truth = list[tuple[str | None, tuple[float, float, float, float]]]


def synthetic_items(limit: int | None, split: str = "test") -> list[tuple[Path, Truth]]:
    """The generated scenes of a split with their labels, the indices that show in part
    as ignore regions (read as the classifier's patch cutter reads them)."""
    from datasets.index_crops import UNNAMED, folder_truth

    return [
        (image, [(None if cls == UNNAMED else CLASSES[cls], box) for cls, box in rows])
        for image, rows in islice(folder_truth(SCENES / split), limit)
    ]


def clean_scene_items(
    split: str, limit: int | None, without: Collection[str] | None = None
) -> Iterator[tuple[np.ndarray, Truth]]:
    """The scenes of a split drawn again from their seeds (the file name) without the
    camera's effects (``without`` None), or without only the effects it names
    (:data:`datasets.photometric.EFFECTS`, the others drawn as generated), with the
    split's labels (the camera comes last, so the labels are the same). Lazily: each is
    rendered when it is scored."""
    from datasets.scenes import render_scene

    for path, truth in synthetic_items(limit, split):
        generated = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)  # for its size
        if generated is None:
            raise UnreadablePicture(f"cannot read {path}")
        scene = render_scene(
            int(path.stem), generated.shape[1], camera=without is not None, without=without or ()
        )
        yield cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR), truth


def real_items(split: str, limit: int | None, added: bool = True) -> list[tuple[Path, Truth]]:
    """The real photos of a split with their labels; ``added``: with the corners the
    source labels leave out (datasets/real_split/added_corners.txt)."""
    files = split_list(split) if split != "all" else split_list("train") + split_list("test")
    return [(REAL_DIR / "images" / f, read_labels(Path(f).stem, added)) for f in files[:limit]]


def hand_items(folder: Path, limit: int | None) -> Iterator[tuple[np.ndarray, Truth]]:
    """Every 8th frame of the rendered hands in ``folder`` (``scripts/bench_reader.py
    --out``) with the renderer's boxes, as the kiosk's detector reads it (a tablet's
    frame warped top-down); a face-down card is an ignore region (see the module's
    notes). Lazily: a video's frames are large."""
    from datasets.index_crops import UNNAMED, hand_truth

    for frame, rows in islice(hand_truth(folder), limit):  # (limit None: every frame)
        yield frame, [(None if cls == UNNAMED else CLASSES[cls], box) for cls, box in rows]



def evaluate(detector: Detector, items: Iterable[tuple[Path | np.ndarray, Truth]],
             operating: float) -> dict[str, Any]:
    """Score the detector on a set's pictures (``metrics.json``'s figures for the set)."""
    tally = SetTally(operating)
    for path, truth_rows in items:
        tally.images += 1
        image = path if isinstance(path, np.ndarray) else cv2.imread(str(path))
        if image is None:
            raise UnreadablePicture(f"cannot read {path}")
        h, w = image.shape[:2]
        truth = yolo_to_pixels(truth_rows, w, h)
        start = time.perf_counter()
        # one network pass scores both stages: the proposals, then the names given them
        proposals = detector.propose(image, 0.001 if detector.namer is None else None)
        dets = detector.name(image, proposals, confidence=0.001)
        tally.seconds += time.perf_counter() - start
        labelled = [(c, b) for c, b in truth if c is not None]
        ignore = np.array([b for c, b in truth if c is None]).reshape(-1, 4)
        gt_boxes = np.array([b for _, b in labelled]).reshape(-1, 4)
        gt_cls = [c for c, _ in labelled]
        kiosk = np.array([is_euchre_or_five(c) for c in gt_cls], bool)
        tally.count_proposals(proposals, detector.proposal_confidence, gt_boxes, kiosk)
        for c in gt_cls:
            tally.n_truth[c] += 1
        det_boxes = np.array([d.box for d in dets]).reshape(-1, 4)
        ious = iou_matrix(det_boxes, gt_boxes)
        ign = iou_matrix(det_boxes, ignore).max(axis=1) if len(ignore) else np.zeros(len(dets))
        tally.count_precision(dets, ious, ign, gt_cls)
        matched = tally.count_operating(dets, ious, ign, gt_cls)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        kinds = [label_groups(grey, box) for box in gt_boxes]
        for j in range(len(labelled)):
            for group in kinds[j]:
                tally.group_labels[group] += 1
                tally.group_found[group] += int(matched[j])
        _count_miss_causes(tally.causes, proposals, dets, ious, gt_boxes, gt_cls, matched,
                           operating)
        if detector.namer is not None:
            faces = [j for j, c in enumerate(gt_cls) if c != FACE_DOWN]
            answers = name_true_boxes(
                detector, image, [gt_boxes[j] for j in faces], [gt_cls[j] for j in faces]
            )
            for j, (right, sure) in zip(faces, answers, strict=True):
                for group in ("all", *kinds[j]):
                    count = tally.on_true_boxes[group]
                    count[0] += 1
                    count[1] += right
                    count[2] += right and sure >= operating
        tally.count_cards(gt_cls, matched)
    return tally.report()


def name_true_boxes(
    detector: Detector, image: np.ndarray, boxes: list[np.ndarray], cards: list[str]
) -> list[tuple[bool, float]]:
    """For each labelled box, whether the second stage (the classifier with its context
    and suit readers) names it its own card when given the label's box itself, and how
    surely. The gap between this and the recall is the first stage's (and the boxes'),
    the gap between this and 1 the naming's, whatever the proposals. Faces only: a
    ``back`` is called by both networks, and a label's box carries no first-stage call."""
    if not boxes or detector.namer is None:
        return []
    rows = detector.naming(image, [[float(v) for v in box] for box in boxes])
    classes = detector.namer.classes
    return [
        (classes[int(row.argmax())] == card, float(row.max()))
        for row, card in zip(rows, cards, strict=True)
    ]


#: a label's box whose middle brightness is under this (of 255) lies on a dark ground:
#: a dark-faced card with light print, or a light card in deep shadow
DARK_GROUND = 110


def label_groups(grey: np.ndarray, box: np.ndarray) -> list[str]:
    """The kinds of a labelled box in a grey picture, from what the picture shows (the
    size of its longer side, whether it touches the picture's edge, and the median
    brightness inside it), so the same grouping serves any set of pictures."""
    h, w = grey.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1)
    groups = [GROUPS[0] if side < 20 else GROUPS[1] if side < 35 else GROUPS[2]]
    if x1 < 1 or y1 < 1 or x2 > w - 1 or y2 > h - 1:
        groups.append(GROUPS[3])
    inside = grey[max(int(round(y1)), 0):max(int(round(y2)), 0),
                  max(int(round(x1)), 0):max(int(round(x2)), 0)]
    if inside.size and float(np.median(inside)) < DARK_GROUND:
        groups.append(GROUPS[4])
    return groups


#: why a labelled box was missed at the operating point, first cause that applies



def _count_miss_causes(causes: dict[str, int], proposals: list[Detection],
                       dets: list[Detection], ious: np.ndarray, gt_boxes: np.ndarray,
                       gt_cls: list[str], matched: np.ndarray, operating: float) -> None:
    """Tell apart the misses a better first stage would fix (no proposal covers the box
    at IoU 0.5) from those of the naming: another name given at the operating point,
    the right name or another given less surely, or no name at all (the classifier
    called the patch not an index). First, though, a card read right whose box was
    drawn otherwise (``right_name_box_off``: the right name at the operating point on a
    box overlapping the label under IoU 0.5, such as two boxes of one index merged into
    their union): no network misread it, only the box is off the label."""
    boxes = np.array([p.box for p in proposals]).reshape(-1, 4)
    cover = iou_matrix(gt_boxes, boxes)
    for j in np.nonzero(~matched)[0]:
        near = [i for i in range(len(dets)) if ious[i, j] >= 0.5]
        if any(d.card == gt_cls[j] and d.confidence >= operating and ious[i, j] >= BOX_OFF_IOU
               for i, d in enumerate(dets)):
            causes["right_name_box_off"] += 1
        elif not cover.size or cover[j].max() < 0.5:
            causes["no_proposal"] += 1
        elif any(dets[i].confidence >= operating and dets[i].card != gt_cls[j] for i in near):
            causes["named_wrongly"] += 1
        elif any(dets[i].card == gt_cls[j] for i in near):
            causes["right_name_under_operating"] += 1
        elif near:
            causes["wrong_name_under_operating"] += 1
        else:
            causes["not_an_index"] += 1


class UnreadablePicture(RuntimeError):
    """A picture of a set cannot be read (a corrupt or vanished file)."""


def missing_pictures(sets: list[str], synthetic_split: str, hands: Path | None) -> str | None:
    """What a requested set lacks, in one line (None: every set has pictures), so a
    checkout told to score scenes it never generated says so instead of reporting zeros."""
    unknown = sorted(set(sets) - {"synthetic", "real", "hands"})
    if unknown:
        return f"unknown set {unknown[0]!r} (synthetic, real, hands)"
    scenes = SCENES / synthetic_split / "images"
    if "synthetic" in sets and not any(scenes.glob("*.jpg")):
        return f"no generated scenes in {scenes} (python -m datasets.generate)"
    if "real" in sets and not (REAL_DIR / "images").is_dir():
        return f"no real photos in {REAL_DIR / 'images'} (set REAL_CARDS_DIR)"
    if "hands" in sets and (hands is None or not any(hands.glob("hand-*.truth.json"))):
        return f"no rendered hands in {hands} (--hands DIR)"
    return None


def measure(detector: Detector, sets: list[str], args: argparse.Namespace
            ) -> dict[str, dict[str, Any]]:
    """The report of each requested set (:func:`missing_pictures` found them there)."""
    report: dict[str, dict[str, Any]] = {}
    if "synthetic" in sets:
        if args.camera == "off":
            report[f"synthetic_{args.synthetic_split}_camera_off"] = evaluate(
                detector, clean_scene_items(args.synthetic_split, args.limit), args.confidence
            )
        elif args.without:
            report[f"synthetic_{args.synthetic_split}_without_{'_'.join(args.without)}"] = evaluate(
                detector,
                clean_scene_items(args.synthetic_split, args.limit, args.without),
                args.confidence,
            )
        else:
            report[f"synthetic_{args.synthetic_split}"] = evaluate(
                detector, synthetic_items(args.limit, args.synthetic_split), args.confidence
            )
    if "real" in sets:
        report[f"real_{args.real_split}"] = evaluate(
            detector, real_items(args.real_split, args.limit), args.confidence
        )
        # the same photos scored against the source labels alone, for comparison
        report[f"real_{args.real_split}_original_labels"] = evaluate(
            detector, real_items(args.real_split, args.limit, added=False), args.confidence
        )
    if "hands" in sets:
        report["hands"] = evaluate(detector, hand_items(args.hands, args.limit), args.confidence)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "cards.onnx")
    parser.add_argument(
        "--confidence", type=float, default=CONFIDENCE, help="operating confidence"
    )
    parser.add_argument("--real-split", default="test", choices=("test", "train", "all"))
    parser.add_argument(
        "--synthetic-split", default="test", choices=("test", "val", "train"),
        help="val: the scenes for choosing settings (the test scenes only measure); train: "
        "the scenes the networks learnt from (with --limit), against the held-out ones how "
        "much of what they learnt was those scenes themselves",
    )  # fmt: skip
    parser.add_argument(
        "--proposal-confidence", type=float, default=PROPOSAL_CONFIDENCE,
        help="the detector's threshold for proposing boxes to the classifier",
    )  # fmt: skip
    parser.add_argument(
        "--camera", default="on", choices=("on", "off"),
        help="off: the synthetic scenes drawn again from their seeds without the camera's "
        "effects (what those cost the networks)",
    )  # fmt: skip
    parser.add_argument(
        "--without", type=lambda text: tuple(text.split(",")), default=(),
        metavar="EFFECT[,EFFECT]",
        help="the synthetic scenes drawn again from their seeds without these camera effects "
        f"({', '.join(EFFECTS)}), every other effect as generated: what those cost",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, help="at most this many images per set")
    parser.add_argument("--sets", default="synthetic,real")
    parser.add_argument("--out", type=Path, help="write the report as JSON")
    parser.add_argument(
        "--hands", type=Path,
        help="with --sets hands: a folder of rendered hands (scripts/bench_reader.py --out; "
        "not the benchmark's own), every 8th frame scored",
    )  # fmt: skip
    parser.add_argument(
        "--classifier", default="auto",
        help="index classifier ONNX (second stage); 'none' for the detector alone",
    )  # fmt: skip
    parser.add_argument(
        "--suit-reader", default="auto",
        help="suit reader ONNX (a second opinion on suits); 'none' to name without it",
    )  # fmt: skip
    parser.add_argument(
        "--context-reader", default="auto",
        help="context reader ONNX (a second opinion from the card around an unsure index); "
        "'none' to name without it",
    )  # fmt: skip
    parser.add_argument(
        "--scales", type=float, nargs="+", default=[1.0],
        help="picture scales the proposal network runs at (pooled)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    # what the command line asks is checked before the four networks load (seconds)
    sets = args.sets.split(",")
    for option, value in (("--confidence", args.confidence),
                          ("--proposal-confidence", args.proposal_confidence)):  # fmt: skip
        problem = confidence_problem(option, value)
        if problem:
            print(f"evaluate: {problem}", file=sys.stderr)
            return 2
    if min(args.scales) <= 0:
        print(f"evaluate: --scales must all be over 0, not {min(args.scales)}", file=sys.stderr)
        return 2
    try:
        check_effects(args.without)
    except ValueError as wrong:
        print(f"evaluate: --without: {wrong}", file=sys.stderr)
        return 2
    if args.without and args.camera == "off":
        print("evaluate: --camera off leaves out every effect: no --without with it",
              file=sys.stderr)  # fmt: skip
        return 2
    missing = missing_pictures(sets, args.synthetic_split, args.hands)
    if missing:
        print(f"evaluate: {missing}", file=sys.stderr)
        return 2
    namer = None if args.classifier == "none" else args.classifier
    try:
        detector = Detector(
            args.model,
            index_classifier=namer,
            suit_reader=None if args.suit_reader == "none" else args.suit_reader,
            context_reader=None if args.context_reader == "none" else args.context_reader,
            proposal_confidence=args.proposal_confidence,
            scales=args.scales,
        )
    except ModelError as unloadable:
        print(f"evaluate: {unloadable}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {
        "model": str(args.model),
        "index_classifier": str(detector.namer.path) if detector.namer else None,
        "suit_reader": str(detector.suit_reader.path) if detector.suit_reader else None,
        "context_reader": (
            str(detector.context_reader.path) if detector.context_reader else None
        ),
        "input_hw": list(detector.input_hw),
        "scales": list(detector.scales),
        "proposal_confidence": detector.proposal_confidence,
    }
    try:
        report |= measure(detector, sets, args)
    except UnreadablePicture as unreadable:
        print(f"evaluate: {unreadable}", file=sys.stderr)
        return 2
    for name, result in report.items():
        if isinstance(result, dict):
            # the headline figures and why boxes were missed; per class in --out only
            summary = {k: v for k, v in result.items()
                       if not isinstance(v, dict) or k in ("miss_causes", "recall_by_group",
                                                          "naming_on_true_boxes")}
            print(name, json.dumps(summary))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
