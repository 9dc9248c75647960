"""Blind reading sheets: could an eye have named the indices the detector missed?

    python lab/blind_sheet.py make --split val --out runs/blind    # sheets and their key
    python lab/blind_sheet.py score runs/blind answers.json        # how the reader did

``make`` runs the detector as the kiosk does over a split's generated scenes, takes
every labelled euchre card or 5 it missed at the operating point and as many it found
(drawn at random), shuffles them, and draws each as a numbered tile: the scene around
the index, enlarged, with the index marked and nothing said of its name or of whether
the detector found it. A reader (a person, or a helper told only how to answer) names
each tile ("KS", "?H" for a heart of unknown rank, "??") with a certainty ("sure",
"guess", "cannot") in a JSON list of ``{"n", "card", "certainty"}``.

``score`` sets the answers against the key: of the misses, how many the reader named
right (those the networks could have read), and of the detector's hits, how many (how
good a ruler the reader is). The key also holds each index's ``detail``: the
correlation of its pixels with the same index drawn without the camera's effects
(``render_scene(camera=False)``: 1 is untouched, lower is blurred, noisy or smeared),
which tells a miss on a clean picture from one the camera spoilt.

Why: a synthetic label no one can read caps the mAP below 1 whatever the networks
learn, and labels that can be read but are missed say what to train. Which of the two
the misses are is a question for an eye, not for the networks' own scores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.boxes import iou_matrix, yolo_to_pixels  # noqa: E402
from datasets.label_sheet import sheet  # noqa: E402
from kiosk.vision.cards.classes import is_euchre_or_five  # noqa: E402
from kiosk.vision.cards.detector import CONFIDENCE, Detector, ModelError  # noqa: E402
from models.evaluate import SCENES, UnreadablePicture, synthetic_items  # noqa: E402

#: side of a tile in pixels, and how far around the index it reaches (times the index's
#: longer side, each way): enough of the card for its colour and pips to help, as at a table
TILE = 200
REACH = 1.6
#: tiles per sheet (columns, rows)
GRID = (4, 3)
CERTAINTIES = ("sure", "guess", "cannot")
#: an index whose ``detail`` is at least this came through the camera about untouched
#: (chosen by eye: on the 2026-11-26 validation sheet, the tiles above it look as drawn)
CLEAN = 0.95


@dataclass
class Label:
    """One labelled index and what the detector made of it."""

    scene: str
    card: str
    box: tuple[float, float, float, float]
    found: bool
    said: str | None  # the surest name given a box on it (IoU 0.5), if any
    confidence: float | None
    detail: float | None = None  # correlation with the index drawn without the camera
    n: int = 0  # its tile's number


def outcomes(
    detector: Detector,
    split: str,
    limit: int | None,
    operating: float = CONFIDENCE,
    with_detail: bool = True,
) -> list[Label]:
    """Every labelled euchre card or 5 of a split's scenes, found or not at ``operating``
    (a box on it at IoU 0.5 given its name that surely), with the detail the camera kept
    (``with_detail``: each scene drawn again without the camera, a tenth of the time; a
    caller that wants the outcomes alone leaves it out)."""
    from datasets.scenes import render_scene

    rows = []
    for path, truth_rows in synthetic_items(limit, split):
        image = cv2.imread(str(path))
        if image is None:
            raise UnreadablePicture(f"cannot read {path}")
        h, w = image.shape[:2]
        labelled = [(c, b) for c, b in yolo_to_pixels(truth_rows, w, h)
                    if c is not None and is_euchre_or_five(c)]  # fmt: skip
        if not labelled:
            continue
        dets = detector.name(image, detector.propose(image, None), confidence=0.001)
        boxes = np.array([d.box for d in dets]).reshape(-1, 4)
        ious = iou_matrix(np.array([b for _, b in labelled]), boxes)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        clean = None
        if with_detail:
            clean = cv2.cvtColor(render_scene(int(path.stem), w, camera=False).image,
                                 cv2.COLOR_RGB2GRAY)  # fmt: skip
        for j, (card, box) in enumerate(labelled):
            near = [i for i in range(len(dets)) if ious[j, i] >= 0.5]
            best = max(near, key=lambda i: dets[i].confidence) if near else None
            rows.append(Label(
                str(path), card, tuple(float(v) for v in box),
                found=any(dets[i].card == card and dets[i].confidence >= operating
                          for i in near),
                said=dets[best].card if best is not None else None,
                confidence=round(dets[best].confidence, 3) if best is not None else None,
                detail=None if clean is None else detail(clean, grey, box),
            ))  # fmt: skip
    return rows


def detail(clean: np.ndarray, seen: np.ndarray, box: tuple[float, ...]) -> float:
    """The correlation of an index's grey pixels in two pictures of it: unchanged by a
    uniform change of light (gain and offset), lowered by blur, noise and JPEG."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    x1, y1 = max(x1, 0), max(y1, 0)
    a = clean[y1:y2, x1:x2].astype(np.float64).ravel()
    b = seen[y1:y2, x1:x2].astype(np.float64).ravel()
    if a.size < 2:
        return 0.0
    a, b = a - a.mean(), b - b.mean()
    return round(float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum() + 1e-9)), 3)


def tile(image: np.ndarray, box: tuple[float, ...], number: int) -> np.ndarray:
    """The picture around ``box`` enlarged to a ``TILE`` square, the index outlined and
    the tile's number in its corner."""
    x1, y1, x2, y2 = box
    reach = max(x2 - x1, y2 - y1) * REACH
    left, top = (x1 + x2) / 2 - reach, (y1 + y2) / 2 - reach
    scale = TILE / (2 * reach)
    matrix = np.float32([[scale, 0, -left * scale], [0, scale, -top * scale]])
    out = cv2.warpAffine(image, matrix, (TILE, TILE), flags=cv2.INTER_CUBIC,
                         borderValue=(60, 60, 60))  # fmt: skip
    corner = (int((x1 - left) * scale) - 3, int((y1 - top) * scale) - 3)
    far = (int((x2 - left) * scale) + 3, int((y2 - top) * scale) + 3)
    cv2.rectangle(out, corner, far, (255, 255, 0), 1)
    cv2.rectangle(out, (0, 0), (38, 20), (0, 0, 0), -1)
    cv2.putText(out, str(number), (2, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    return out


def make(labels: list[Label], out: Path, seed: int = 7) -> list[Label]:
    """Sheets of the misses and as many hits, shuffled and numbered, and ``key.json``."""
    rng = random.Random(seed)
    missed = [label for label in labels if not label.found]
    found = [label for label in labels if label.found]
    chosen = missed + rng.sample(found, min(len(missed), len(found)))
    rng.shuffle(chosen)
    out.mkdir(parents=True, exist_ok=True)
    tiles = []
    for number, label in enumerate(chosen, 1):
        label.n = number
        image = cv2.imread(label.scene)
        if image is None:
            raise UnreadablePicture(f"cannot read {label.scene}")
        tiles.append(tile(image, label.box, number))
    columns, rows = GRID
    per_sheet = columns * rows
    for first in range(0, len(tiles), per_sheet):
        page = tiles[first : first + per_sheet]
        page += [np.zeros((TILE, TILE, 3), np.uint8)] * (per_sheet - len(page))
        cv2.imwrite(str(out / f"sheet{first // per_sheet + 1:02d}.png"), sheet(page, columns))
    (out / "key.json").write_text(json.dumps([asdict(label) for label in chosen], indent=1))
    return chosen


def score(key: list[dict], answers: list[dict]) -> dict[str, dict[str, list[int]]]:
    """For the misses and the hits: per certainty, [tiles, named right]."""
    by_number = {int(a["n"]): a for a in answers}
    table: dict[str, dict[str, list[int]]] = {"missed": {}, "found": {}}
    for label in key:
        answer = by_number.get(int(label["n"]), {"card": "??", "certainty": "cannot"})
        certainty = answer.get("certainty", "cannot")
        if certainty not in CERTAINTIES:
            raise ValueError(f"tile {label['n']}: certainty {certainty!r} is not one of "
                             f"{', '.join(CERTAINTIES)}")  # fmt: skip
        cell = table["found" if label["found"] else "missed"].setdefault(certainty, [0, 0])
        cell[0] += 1
        cell[1] += int(str(answer.get("card", "")).upper() == label["card"])
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    making = steps.add_parser("make", help="draw the sheets and their key")
    making.add_argument("--split", default="val", choices=("val", "test"))
    making.add_argument("--out", type=Path, required=True)
    making.add_argument("--limit", type=int, help="at most this many scenes")
    making.add_argument("--model", type=Path, default=REPO / "models" / "cards.onnx")
    making.add_argument("--seed", type=int, default=7)
    scoring = steps.add_parser("score", help="set a reader's answers against the key")
    scoring.add_argument("sheets", type=Path, help="the folder `make` wrote")
    scoring.add_argument("answers", type=Path)
    args = parser.parse_args(argv)
    if args.step == "make":
        try:
            detector = Detector(args.model)  # all four networks, as the kiosk runs them
        except ModelError as problem:
            print(f"blind_sheet: {problem}", file=sys.stderr)
            return 2
        try:  # a scene unreadable when scored, or gone by the time its tile is cut
            labels = outcomes(detector, args.split, args.limit)
            if not labels:
                scenes = SCENES / args.split
                print(f"blind_sheet: no labelled scenes in {scenes}: run "
                      "`python -m datasets.generate`", file=sys.stderr)  # fmt: skip
                return 2
            chosen = make(labels, args.out, args.seed)
        except UnreadablePicture as problem:
            print(f"blind_sheet: {problem}", file=sys.stderr)
            return 2
        missed = sum(not label.found for label in chosen)
        print(f"{len(chosen)} tiles ({missed} missed, {len(chosen) - missed} found) in {args.out}")
        return 0
    try:
        key = json.loads((args.sheets / "key.json").read_text())
        answers = json.loads(args.answers.read_text())
        table = score(key, answers)
    except (OSError, ValueError, KeyError, TypeError) as problem:
        print(f"blind_sheet: cannot score: {problem}", file=sys.stderr)
        return 2
    clean = Counter(
        "found" if label["found"] else "missed"
        for label in key
        if (label.get("detail") or 0) >= CLEAN
    )
    for kind, cells in table.items():
        tiles = sum(c[0] for c in cells.values())
        right = sum(c[1] for c in cells.values())
        parts = ", ".join(f"{k} {v[1]} of {v[0]}" for k, v in sorted(cells.items()))
        print(
            f"{kind}: named right {right} of {tiles} ({parts}); detail >= {CLEAN}: "
            f"{clean[kind]} of {tiles}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
