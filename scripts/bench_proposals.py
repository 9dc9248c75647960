"""How much of a real camera's indices the first stage proposes, per real photo set and
per index size: what no naming network can make up for.

    python scripts/bench_proposals.py                     # the held-out real photos
    python scripts/bench_proposals.py --split train --model models/cards.onnx

Why: the detector proposes boxes with its YOLO network and names them with a second one;
a labelled index no proposal covers (IoU 0.5, at the kiosk's proposal threshold) is lost
whatever the naming does. Each real deck (``bench_enrolment.REAL_DECKS``) is its own set:
an index's size and a deck's look are what decide whether it is proposed. Each share
comes with its 95 % Wilson interval (one index of a hundred is noise). ``back`` boxes
(whole face-down cards) are left out: they are not indices. Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_leave_one_deck_out import deck_of  # noqa: E402

from datasets.boxes import yolo_to_pixels  # noqa: E402
from datasets.reading_score import MATCH, overlap, size_band, wilson  # noqa: E402
from datasets.real_photos import REAL_DIR, read_labels, split_list  # noqa: E402
from kiosk.vision.cards.detector import DEFAULT_MODEL, Detector  # noqa: E402


def measure(detector: Detector, split: str) -> dict[str, dict[str, list[int]]]:
    """Per deck, per size band (and "all"): [labelled indices, proposed]."""
    counts: dict[str, dict[str, list[int]]] = {}
    for name in split_list(split):
        deck = deck_of(name)
        if deck is None:
            continue
        image = cv2.imread(str(REAL_DIR / "images" / name))
        if image is None:
            raise SystemExit(f"bench_proposals: cannot read {REAL_DIR / 'images' / name}")
        h, w = image.shape[:2]
        labels = [(c, b) for c, b in yolo_to_pixels(read_labels(Path(name).stem), w, h)
                  if c is not None and c != "back"]
        proposals = [p.box for p in detector.propose(image)]
        for _, box in labels:
            hit = any(overlap(p, box) >= MATCH for p in proposals)
            for band in ("all", size_band([box])):
                cell = counts.setdefault(deck, {}).setdefault(band, [0, 0])
                cell[0] += 1
                cell[1] += hit
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=["test", "train"])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if not args.model.is_file():
        print(f"bench_proposals: no model at {args.model}", file=sys.stderr)
        return 2
    if not (REAL_DIR / "images").is_dir():
        print(f"bench_proposals: no real photos at {REAL_DIR}", file=sys.stderr)
        return 2
    detector = Detector(args.model, index_classifier=None, threads=args.threads)
    counts = measure(detector, args.split)
    report = {}
    for deck, bands in counts.items():
        print(f"\n{deck} deck, {args.split} photos: labelled indices proposed (IoU {MATCH})")
        rows = {}
        for band in sorted(bands, key=lambda b: (b != "all", int(b.split("-")[0].rstrip("+ px"))
                                                   if b != "all" else 0)):
            n, hit = bands[band]
            low, high = wilson(hit, n)
            rows[band] = {"indices": n, "proposed": round(hit / n, 4), "low": round(low, 3),
                          "high": round(high, 3)}
            print(f"  {band:>9}: {hit:>4} of {n:>4} = {hit / n:.3f} ({low:.3f}-{high:.3f})")
        report[deck] = rows
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
