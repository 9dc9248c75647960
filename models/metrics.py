"""What the evaluation counts over one set's pictures, typed, and the figures it reports
(``metrics.json``'s form): :class:`SetTally`, filled by :func:`models.evaluate.evaluate`.

>>> average_precision(np.array([0.5, 1.0]), np.array([1.0, 1.0]))
1.0
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from datasets.boxes import iou_matrix
from kiosk.vision.cards.classes import CLASSES, FACE_DOWN, is_euchre_or_five
from kiosk.vision.cards.detection import Detection

#: the kinds of label ``recall_by_group`` reports (a label may be of several)
GROUPS = (
    "long side under 20 px", "long side 20-35 px", "long side 35 px and over",
    "cut by the picture's edge", "on a dark ground",
)  # fmt: skip
#: why a labelled box was missed, in the order they are told apart
MISS_CAUSES = (
    "right_name_box_off", "no_proposal", "named_wrongly", "right_name_under_operating",
    "wrong_name_under_operating", "not_an_index",
)  # fmt: skip
#: a detection of the label's own card overlapping it at least this much (but under the
#: 0.5 that matches) found the card and drew its box otherwise
BOX_OFF_IOU = 0.1


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO 101-point AP: mean over recall r = 0, 0.01 ... 1 of the best precision at >= r.

    >>> average_precision(np.array([0.5, 1.0]), np.array([1.0, 1.0]))
    1.0
    """
    envelope = np.flip(np.maximum.accumulate(np.flip(precision)))
    at = np.searchsorted(recall, np.linspace(0, 1, 101), side="left")
    values = np.where(at < len(recall), envelope[np.minimum(at, len(recall) - 1)], 0.0)
    return float(values.mean())


@dataclass
class SetTally:
    """What :func:`evaluate` counts over one set's pictures; :meth:`report` gives the
    figures in ``metrics.json``'s form."""

    operating: float
    images: int = 0
    seconds: float = 0.0
    #: per class: (confidence, true positive at each IoU threshold) of every detection
    scored: defaultdict[str, list[tuple[float, np.ndarray]]] = field(
        default_factory=lambda: defaultdict(list))
    n_truth: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    hits: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    false_all: int = 0
    false_kiosk: int = 0
    cards_total: int = 0
    cards_found: int = 0
    missed_cards: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: the first stage alone: labelled euchre/5 boxes it proposes, of how many
    proposed: int = 0
    kiosk_boxes: int = 0
    #: why a labelled box was missed (``MISS_CAUSES``)
    causes: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: labels of each kind (``GROUPS``), and of those found
    group_labels: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    group_found: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: the second stage on the labels' own boxes: [labels, named right, right at operating]
    on_true_boxes: defaultdict[str, list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0, 0]))

    def count_proposals(self, proposals: list[Detection], floor: float,
                        gt_boxes: np.ndarray, kiosk: np.ndarray) -> None:
        """The labelled euchre and 5 boxes some proposal covers (IoU >= 0.5)."""
        if not kiosk.any():
            return
        first = [p for p in proposals if p.confidence >= floor]
        boxes = np.array([p.box for p in first]).reshape(-1, 4)
        cover = iou_matrix(gt_boxes[kiosk], boxes)
        self.proposed += int((cover.max(axis=1) >= 0.5).sum()) if cover.size else 0
        self.kiosk_boxes += int(kiosk.sum())

    def count_precision(self, dets: list[Detection], ious: np.ndarray, ign: np.ndarray,
                        gt_cls: list[str]) -> None:
        """mAP bookkeeping: greedy matching per IoU threshold, by confidence (the
        detections come best first)."""
        taken = np.zeros((len(THRESHOLDS), len(gt_cls)), bool)
        for i, d in enumerate(dets):
            tp = np.zeros(len(THRESHOLDS), bool)
            for t, thr in enumerate(THRESHOLDS):
                candidates = [
                    j for j in range(len(gt_cls))
                    if gt_cls[j] == d.card and not taken[t, j] and ious[i, j] >= thr
                ]  # fmt: skip
                if candidates:
                    j = max(candidates, key=lambda k: ious[i, k])
                    taken[t, j] = True
                    tp[t] = True
            if tp[0] or ign[i] < 0.3:
                self.scored[d.card].append((d.confidence, tp))

    def count_operating(self, dets: list[Detection], ious: np.ndarray, ign: np.ndarray,
                        gt_cls: list[str]) -> np.ndarray:
        """The labels found at the operating point (returned), and the false detections."""
        matched = np.zeros(len(gt_cls), bool)
        for i, d in enumerate(dets):
            if d.confidence < self.operating:
                continue
            candidates = [
                j for j in range(len(gt_cls))
                if gt_cls[j] == d.card and not matched[j] and ious[i, j] >= 0.5
            ]  # fmt: skip
            if candidates:
                matched[max(candidates, key=lambda k: ious[i, k])] = True
            elif ign[i] < 0.3:
                self.false_all += 1
                self.false_kiosk += is_euchre_or_five(d.card)
        for j, c in enumerate(gt_cls):
            self.hits[c] += int(matched[j])
        return matched

    def count_cards(self, gt_cls: list[str], matched: np.ndarray) -> None:
        """A card counts as found when any of its indices is."""
        for card in set(gt_cls):
            if is_euchre_or_five(card):
                self.cards_total += 1
                found = any(matched[j] for j, c in enumerate(gt_cls) if c == card)
                self.cards_found += found
                if not found:
                    self.missed_cards[card] += 1

    def average_precisions(self) -> tuple[dict[str, float], dict[str, float]]:
        """AP at IoU 0.5 and over 0.5-0.95, per class present."""
        ap50, ap = {}, {}
        for card, count in self.n_truth.items():
            rows = sorted(self.scored[card], key=lambda r: -r[0])
            if not rows:
                ap50[card] = ap[card] = 0.0
                continue
            tps = np.array([r[1] for r in rows], dtype=float)
            cum_tp = np.cumsum(tps, axis=0)
            cum_fp = np.cumsum(1 - tps, axis=0)
            aps = []
            for t in range(len(THRESHOLDS)):
                recall = cum_tp[:, t] / count
                precision = cum_tp[:, t] / np.maximum(cum_tp[:, t] + cum_fp[:, t], 1e-9)
                aps.append(average_precision(recall, precision))
            ap50[card], ap[card] = aps[0], float(np.mean(aps))
        return ap50, ap

    def report(self) -> dict[str, Any]:
        """The set's figures, as ``metrics.json`` keeps them."""
        n_truth, hits, images = self.n_truth, self.hits, self.images
        ap50, ap = self.average_precisions()
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
            "operating_confidence": self.operating,
            "recall_all_boxes": round(sum(hits.values()) / max(sum(n_truth.values()), 1), 4),
            "recall_euchre_and_5s_boxes": round(
                sum(hits[c] for c in kiosk_classes) / max(boxes_kiosk, 1), 4
            ),
            "recall_euchre_and_5s_cards": round(self.cards_found / max(self.cards_total, 1), 4),
            # stage 1 alone: labelled euchre/5 boxes some proposal covers (IoU >= 0.5); a box
            # not proposed can never be named, so this bounds the box recall
            "proposal_recall_euchre_and_5s_boxes": round(
                self.proposed / max(self.kiosk_boxes, 1), 4),
            "false_detections_per_image": round(self.false_all / max(images, 1), 4),
            "false_euchre_or_5_detections_per_image": round(
                self.false_kiosk / max(images, 1), 4),
            "ms_per_image_detect": round(1000 * self.seconds / max(images, 1), 1),
            "recall_per_class": {
                c: round(hits[c] / n_truth[c], 3) for c in CLASSES if n_truth.get(c)
            },
            "boxes_per_class": {c: n_truth[c] for c in CLASSES if n_truth.get(c)},
            "ap50_per_class": {c: round(ap50[c], 3) for c in CLASSES if c in ap50},
            "missed_cards": dict(sorted(self.missed_cards.items())),
            "miss_causes": {k: self.causes[k] for k in MISS_CAUSES},
            "recall_by_group": {
                g: {"labels": self.group_labels[g],
                    "recall": round(self.group_found[g] / self.group_labels[g], 4)}
                for g in GROUPS if self.group_labels.get(g)
            },
            # the second stage given each face label's own box (no first stage): how much
            # of the recall the naming alone can reach; empty without a classifier
            "naming_on_true_boxes": {
                g: {"labels": n, "named_right": round(right / n, 4),
                    "named_right_at_operating": round(sure / n, 4)}
                for g in ("all", *GROUPS) if g in self.on_true_boxes
                for n, right, sure in [self.on_true_boxes[g]]
            },
        }


#: the IoU thresholds of mAP50-95
THRESHOLDS = np.arange(0.5, 0.96, 0.05)
