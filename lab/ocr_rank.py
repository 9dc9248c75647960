"""Tesseract as a second opinion on an index's rank: measured on the real photos' held-out
indices, beside the naming network that never saw the deck (issue 57, deliverable 2).

    python lab/ocr_rank.py                                   # both real decks, test split
    python lab/ocr_rank.py --classifier var/lodo/without-white.onnx --deck white

Why: a printed rank is a character, and Debian's Tesseract (``tesseract-ocr``, its English
model inside the package, nothing fetched) reads characters of typefaces it never saw. If
it read an unseen deck's ranks better than the naming network, it could settle the rank
where the network is unsure. Each labelled face index is cut on its box, read at every
quarter turn (a card lies at any angle), the rank taken from the upper half of the upright
index (rank above suit), enlarged, binarised (Otsu) and read as one word from the ranks'
letters; the turn Tesseract is surest of gives its answer. The network's rank is read on
the same boxes as the kiosk reads it (:class:`IndexClassifier`). Experiment only: nothing
in the kiosk calls it.
"""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_enrolment import REAL_DECKS  # noqa: E402

from datasets.boxes import yolo_to_pixels  # noqa: E402
from datasets.reading_score import wilson  # noqa: E402
from datasets.real_photos import REAL_DIR, read_labels, split_list  # noqa: E402
from kiosk.vision.cards.index_classifier import DEFAULT_CLASSIFIER, IndexClassifier  # noqa: E402

RANKS = "AKQJ1098765432"


def rank_word(text: str) -> str | None:
    """Tesseract's word as a rank in the project's notation (``T`` for ten), or None.

    >>> rank_word("10"), rank_word("Q"), rank_word("1"), rank_word("QQ"), rank_word("")
    ('T', 'Q', 'T', None, None)
    """
    text = text.strip().upper()
    if text in ("10", "1", "0", "IO", "1O"):
        return "T"
    return text if len(text) == 1 and text in RANKS else None


def read_rank(patch: np.ndarray) -> tuple[str | None, float]:
    """The rank Tesseract reads in an upright index patch (BGR) and its confidence."""
    h = patch.shape[0]
    top = cv2.cvtColor(patch[: max(4, int(h * 0.55))], cv2.COLOR_BGR2GRAY)
    scale = 64.0 / top.shape[0]
    big = cv2.resize(top, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    _, ink = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if (ink < 128).mean() > 0.5:  # light print on a dark card: dark on light for Tesseract
        ink = 255 - ink
    ink = cv2.copyMakeBorder(ink, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
    ok, png = cv2.imencode(".png", ink)
    done = subprocess.run(["tesseract", "stdin", "stdout", "--psm", "8", "-c",
                           f"tessedit_char_whitelist={RANKS}", "tsv"],
                          input=png.tobytes(), capture_output=True, check=False)
    best: tuple[str | None, float] = (None, -1.0)
    for row in csv.DictReader(io.StringIO(done.stdout.decode()), delimiter="\t"):
        word, conf = row.get("text") or "", float(row.get("conf") or -1)
        if word.strip() and conf > best[1]:
            best = (rank_word(word), conf)
    return best


def ocr_rank(image: np.ndarray, box: Sequence[float]) -> str | None:
    """The rank read at the quarter turn Tesseract is surest of."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    patch = image[max(0, y1): y2, max(0, x1): x2]
    if patch.size == 0:
        return None
    answers = [read_rank(np.ascontiguousarray(np.rot90(patch, k))) for k in range(4)]
    rank, conf = max(answers, key=lambda a: a[1])
    return rank if conf >= 0 else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classifier", type=Path, default=DEFAULT_CLASSIFIER)
    parser.add_argument("--deck", choices=list(REAL_DECKS), action="append")
    args = parser.parse_args(argv)
    namer = IndexClassifier(args.classifier, threads=1)
    for deck in args.deck or list(REAL_DECKS):
        n = ocr_right = net_right = either = ocr_said = 0
        for name in split_list("test"):
            if not name.startswith(REAL_DECKS[deck]):
                continue
            image = cv2.imread(str(REAL_DIR / "images" / name))
            h, w = image.shape[:2]
            faces = [(c, b) for c, b in yolo_to_pixels(read_labels(Path(name).stem), w, h)
                     if c is not None and c != "back"]
            if not faces:
                continue
            rows = namer.probabilities(image, [b for _, b in faces])
            for (card, box), row in zip(faces, rows, strict=True):
                read = namer.classes[int(row.argmax())]
                ocr = ocr_rank(image, box)
                n += 1
                ocr_said += ocr is not None
                ocr_right += ocr == card[0]
                net_right += read[0] == card[0] and read not in ("none", "back")
                either += ocr == card[0] or (read[0] == card[0] and read != "none")
        low, high = wilson(ocr_right, n)
        print(f"{deck}: {n} face indices; ranks right: Tesseract {ocr_right / n:.3f} "
              f"({low:.3f}-{high:.3f}, an answer for {ocr_said / n:.3f}), "
              f"the network ({args.classifier.name}) {net_right / n:.3f}, "
              f"either {either / n:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
