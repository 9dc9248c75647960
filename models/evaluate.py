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
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from itertools import islice
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.boxes import iou_matrix, yolo_to_pixels  # noqa: E402
from datasets.photometric import EFFECTS, check_effects  # noqa: E402
from datasets.real_photos import REAL_DIR, read_labels, split_list  # noqa: E402
from kiosk.vision.detector import (  # noqa: E402
    CLASSES,
    CONFIDENCE,
    FACE_DOWN,
    PROPOSAL_CONFIDENCE,
    Detection,
    Detector,
    ModelError,
    confidence_problem,
    is_euchre_or_five,
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


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO 101-point AP: mean over recall r = 0, 0.01 ... 1 of the best precision at >= r.

    >>> average_precision(np.array([0.5, 1.0]), np.array([1.0, 1.0]))
    1.0
    """
    envelope = np.flip(np.maximum.accumulate(np.flip(precision)))
    at = np.searchsorted(recall, np.linspace(0, 1, 101), side="left")
    values = np.where(at < len(recall), envelope[np.minimum(at, len(recall) - 1)], 0.0)
    return float(values.mean())


def evaluate(detector: Detector, items: Iterable[tuple[Path | np.ndarray, Truth]],
             operating: float) -> dict:
    thresholds = np.arange(0.5, 0.96, 0.05)
    # per class: list of (confidence, tp flags per IoU threshold)
    scored: dict[str, list[tuple[float, np.ndarray]]] = defaultdict(list)
    n_truth: dict[str, int] = defaultdict(int)
    hits: dict[str, int] = defaultdict(int)
    false_all = false_kiosk = 0
    cards_total = cards_found = 0
    missed_cards: dict[str, int] = defaultdict(int)
    proposed = kiosk_boxes = 0  # the first stage alone: labelled boxes it proposes
    causes: dict[str, int] = defaultdict(int)  # why a labelled box was missed
    group_labels: dict[str, int] = defaultdict(int)  # labels of each kind, and found
    group_found: dict[str, int] = defaultdict(int)
    # the second stage on the labels' own boxes: [labels, named right, right at operating]
    on_true_boxes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    seconds = 0.0
    images = 0
    for path, truth_rows in items:
        images += 1
        image = path if isinstance(path, np.ndarray) else cv2.imread(str(path))
        if image is None:
            raise UnreadablePicture(f"cannot read {path}")
        h, w = image.shape[:2]
        truth = yolo_to_pixels(truth_rows, w, h)
        start = time.perf_counter()
        # one network pass scores both stages: the proposals, then the names given them
        proposals = detector.propose(image, 0.001 if detector.namer is None else None)
        dets = detector.name(image, proposals, confidence=0.001)
        seconds += time.perf_counter() - start
        labelled = [(c, b) for c, b in truth if c is not None]
        ignore = np.array([b for c, b in truth if c is None]).reshape(-1, 4)
        gt_boxes = np.array([b for _, b in labelled]).reshape(-1, 4)
        gt_cls = [c for c, _ in labelled]
        kiosk = np.array([is_euchre_or_five(c) for c in gt_cls], bool)
        if kiosk.any():
            first = [p for p in proposals if p.confidence >= detector.proposal_confidence]
            boxes = np.array([p.box for p in first]).reshape(-1, 4)
            cover = iou_matrix(gt_boxes[kiosk], boxes)
            proposed += int((cover.max(axis=1) >= 0.5).sum()) if cover.size else 0
            kiosk_boxes += int(kiosk.sum())
        for c in gt_cls:
            n_truth[c] += 1
        det_boxes = np.array([d.box for d in dets]).reshape(-1, 4)
        ious = iou_matrix(det_boxes, gt_boxes)
        ign = iou_matrix(det_boxes, ignore).max(axis=1) if len(ignore) else np.zeros(len(dets))
        # mAP bookkeeping: greedy matching per IoU threshold, by confidence
        taken = np.zeros((len(thresholds), len(labelled)), bool)
        for i, d in enumerate(dets):  # already sorted best first by NMS
            tp = np.zeros(len(thresholds), bool)
            for t, thr in enumerate(thresholds):
                candidates = [
                    j for j in range(len(labelled))
                    if gt_cls[j] == d.card and not taken[t, j] and ious[i, j] >= thr
                ]  # fmt: skip
                if candidates:
                    j = max(candidates, key=lambda k: ious[i, k])
                    taken[t, j] = True
                    tp[t] = True
            if tp[0] or ign[i] < 0.3:
                scored[d.card].append((d.confidence, tp))
        # operating point
        matched = np.zeros(len(labelled), bool)
        for i, d in enumerate(dets):
            if d.confidence < operating:
                continue
            candidates = [
                j for j in range(len(labelled))
                if gt_cls[j] == d.card and not matched[j] and ious[i, j] >= 0.5
            ]  # fmt: skip
            if candidates:
                matched[max(candidates, key=lambda k: ious[i, k])] = True
            elif ign[i] < 0.3:
                false_all += 1
                false_kiosk += is_euchre_or_five(d.card)
        for j, c in enumerate(gt_cls):
            hits[c] += int(matched[j])
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        kinds = [label_groups(grey, box) for box in gt_boxes]
        for j in range(len(labelled)):
            for group in kinds[j]:
                group_labels[group] += 1
                group_found[group] += int(matched[j])
        _count_miss_causes(causes, proposals, dets, ious, gt_boxes, gt_cls, matched, operating)
        if detector.namer is not None:
            faces = [j for j, c in enumerate(gt_cls) if c != FACE_DOWN]
            answers = name_true_boxes(
                detector, image, [gt_boxes[j] for j in faces], [gt_cls[j] for j in faces]
            )
            for j, (right, sure) in zip(faces, answers, strict=True):
                for group in ("all", *kinds[j]):
                    tally = on_true_boxes[group]
                    tally[0] += 1
                    tally[1] += right
                    tally[2] += right and sure >= operating
        for card in set(gt_cls):
            if is_euchre_or_five(card):
                cards_total += 1
                found = any(matched[j] for j, c in enumerate(gt_cls) if c == card)
                cards_found += found
                if not found:
                    missed_cards[card] += 1
    ap50, ap = {}, {}
    for card, count in n_truth.items():
        rows = sorted(scored[card], key=lambda r: -r[0])
        if not rows:
            ap50[card] = ap[card] = 0.0
            continue
        tps = np.array([r[1] for r in rows], dtype=float)
        cum_tp = np.cumsum(tps, axis=0)
        cum_fp = np.cumsum(1 - tps, axis=0)
        aps = []
        for t in range(len(thresholds)):
            recall = cum_tp[:, t] / count
            precision = cum_tp[:, t] / np.maximum(cum_tp[:, t] + cum_fp[:, t], 1e-9)
            aps.append(average_precision(recall, precision))
        ap50[card], ap[card] = aps[0], float(np.mean(aps))
    kiosk_classes = [c for c in n_truth if is_euchre_or_five(c)]
    boxes_kiosk = sum(n_truth[c] for c in kiosk_classes)
    euchre_5s_back = [c for c in ap50 if is_euchre_or_five(c) or c == FACE_DOWN]
    return {
        "images": images,
        "boxes": int(sum(n_truth.values())),
        "mAP50": round(float(np.mean(list(ap50.values()))), 4) if ap50 else 0.0,
        "mAP50-95": round(float(np.mean(list(ap.values()))), 4) if ap else 0.0,
        # the same over the classes the kiosk scores with (the euchre cards, the 5s and
        # ``back``); the others (2-4, 6-8) are there so that they are not read as those
        "mAP50_euchre_5s_back": (
            round(float(np.mean([ap50[c] for c in euchre_5s_back])), 4)
            if euchre_5s_back
            else 0.0
        ),
        "operating_confidence": operating,
        "recall_all_boxes": round(sum(hits.values()) / max(sum(n_truth.values()), 1), 4),
        "recall_euchre_and_5s_boxes": round(
            sum(hits[c] for c in kiosk_classes) / max(boxes_kiosk, 1), 4
        ),
        "recall_euchre_and_5s_cards": round(cards_found / max(cards_total, 1), 4),
        # stage 1 alone: labelled euchre/5 boxes some proposal covers (IoU >= 0.5); a box
        # not proposed can never be named, so this bounds the box recall
        "proposal_recall_euchre_and_5s_boxes": round(proposed / max(kiosk_boxes, 1), 4),
        "false_detections_per_image": round(false_all / max(images, 1), 4),
        "false_euchre_or_5_detections_per_image": round(false_kiosk / max(images, 1), 4),
        "ms_per_image_detect": round(1000 * seconds / max(images, 1), 1),
        "recall_per_class": {
            c: round(hits[c] / n_truth[c], 3) for c in CLASSES if n_truth.get(c)
        },
        "boxes_per_class": {c: n_truth[c] for c in CLASSES if n_truth.get(c)},
        "ap50_per_class": {c: round(ap50[c], 3) for c in CLASSES if c in ap50},
        "missed_cards": dict(sorted(missed_cards.items())),
        "miss_causes": {k: causes[k] for k in MISS_CAUSES},
        "recall_by_group": {
            g: {"labels": group_labels[g], "recall": round(group_found[g] / group_labels[g], 4)}
            for g in GROUPS if group_labels.get(g)
        },
        # the second stage given each face label's own box (no first stage): how much of
        # the recall the naming alone can reach; empty without a classifier
        "naming_on_true_boxes": {
            g: {"labels": n, "named_right": round(right / n, 4),
                "named_right_at_operating": round(sure / n, 4)}
            for g in ("all", *GROUPS) if g in on_true_boxes
            for n, right, sure in [on_true_boxes[g]]
        },
    }


def name_true_boxes(
    detector: Detector, image: np.ndarray, boxes: list[np.ndarray], cards: list[str]
) -> list[tuple[bool, float]]:
    """For each labelled box, whether the second stage (the classifier with its context
    and suit readers) names it its own card when given the label's box itself, and how
    surely. The gap between this and the recall is the first stage's (and the boxes'),
    the gap between this and 1 the naming's, whatever the proposals. Faces only: a
    ``back`` is called by both networks, and a label's box carries no first-stage call."""
    if not boxes:
        return []
    rows = detector.naming(image, boxes)
    classes = detector.namer.classes
    return [
        (classes[int(row.argmax())] == card, float(row.max()))
        for row, card in zip(rows, cards, strict=True)
    ]


#: the kinds of label ``recall_by_group`` reports (a label may be of several)
GROUPS = (
    "long side under 20 px", "long side 20-35 px", "long side 35 px and over",
    "cut by the picture's edge", "on a dark ground",
)  # fmt: skip
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
MISS_CAUSES = (
    "right_name_box_off", "no_proposal", "named_wrongly", "right_name_under_operating",
    "wrong_name_under_operating", "not_an_index",
)  # fmt: skip
#: a detection of the label's own card overlapping it at least this much (but under the
#: 0.5 that matches) found the card and drew its box otherwise
BOX_OFF_IOU = 0.1


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


def measure(detector: Detector, sets: list[str], args: argparse.Namespace) -> dict[str, dict]:
    """The report of each requested set (:func:`missing_pictures` found them there)."""
    report: dict[str, dict] = {}
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
    except ValueError as problem:
        print(f"evaluate: --without: {problem}", file=sys.stderr)
        return 2
    if args.without and args.camera == "off":
        print("evaluate: --camera off leaves out every effect: no --without with it",
              file=sys.stderr)  # fmt: skip
        return 2
    problem = missing_pictures(sets, args.synthetic_split, args.hands)
    if problem:
        print(f"evaluate: {problem}", file=sys.stderr)
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
    except ModelError as problem:
        print(f"evaluate: {problem}", file=sys.stderr)
        return 2
    report = {
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
