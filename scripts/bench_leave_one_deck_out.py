"""Leave one deck out on the real phone photos: how the index classifier names a real deck
it never trained on, against the same recipe that did see that deck.

    python scripts/bench_leave_one_deck_out.py                 # patches, 4 runs, the table
    python scripts/bench_leave_one_deck_out.py --evaluate-only # the table from runs made

Why: every real-photo figure of the model card is of decks the networks trained on (the
held-out photos are other sessions of the same two decks), so it cannot say what a
table's own deck costs. The real photos (``../shared/datasets/real-cards-phone/``) hold
two decks: a white standard deck (``IMG_20220921_*``) and a black-and-gold one
(``IMG_77xx``/``IMG_78xx``; :data:`bench_enrolment.REAL_DECKS`). No classifier weights
exist that never saw a real photo, so this script trains its own, all with the shipped
trainer (``models/train_classifier.py``) and its default augmentation:

1. ``base``: from scratch on synthetic patches only (``--base-minutes``);
2. from ``base``, the same minutes each (``--minutes``), synthetic patches plus the real
   *training* photos' patches of: the black-and-gold deck only (``without-white``), the
   white deck only (``without-black-gold``), both decks (``both``, the control).

Each is judged on each deck's *held-out* photos (``datasets/real_split/test.txt``):

- **the classifier stage**: every labelled face index, cut on its label's box and read
  as the kiosk reads it (:class:`IndexClassifier`: four quarter turns where unsure),
  named right or not, and same-colour suit swaps (clubs/spades, hearts/diamonds: the
  same rank in the other suit of its colour);
- **the whole pipeline** (unless ``--no-pipeline``): the *shipped* proposal network
  (which trained on both decks' training photos) with the run's classifier, no suit or
  context reader (both trained on both decks): the issue's three figures
  (:class:`datasets.reading_score.ReadingScore`).

The shipped classifier (run 21, both decks, hours more training) is read beside them.
The figures, their commands and caveats: ``lab/MODEL_NOTES.md``, "Leave one deck out
(real phone photos)"; the runs there drew 1,200 training scenes (whatever scenes are
drawn are cut).
Every heavy step runs on ``--threads`` threads; run it under ``nice`` in the background.
Bad input: one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_enrolment import REAL_DECKS  # noqa: E402

from datasets.real_photos import REAL_DIR, deck_photos  # noqa: E402
from kiosk.rules.cards import Suit  # noqa: E402

WORK = REPO / "var" / "lodo"
SHIPPED = REPO / "models" / "index_classifier.onnx"
PROPOSALS = REPO / "models" / "cards.onnx"
TRAINER = REPO / "models" / "train_classifier.py"
SUITS = "CDHS"


@dataclass(frozen=True)
class Run:
    """One classifier: its name, the real decks whose training photos it learnt from."""

    name: str
    real_decks: tuple[str, ...]


def runs() -> list[Run]:
    """The base (no real photo), one run without each deck, and the control (both)."""
    decks = tuple(REAL_DECKS)
    return [
        Run("base", ()),
        *(Run(f"without-{deck}", tuple(d for d in decks if d != deck)) for deck in decks),
        Run("both", decks),
    ]


def deck_of(file_name: str) -> str | None:
    """The real deck a photo shows, by its file name (None: not one of the decks).

    >>> deck_of("IMG_20220921_194439.jpg"), deck_of("IMG_7785.jpg"), deck_of("x.jpg")
    ('white', 'black-gold', None)
    """
    for deck, prefixes in REAL_DECKS.items():
        if file_name.startswith(prefixes):
            return deck
    return None


def swap_pair(truth: str, read: str) -> str | None:
    """"C/S" or "H/D" when ``read`` is ``truth``'s rank in the other suit of its colour
    (the jack of clubs read as the jack of spades), else None.

    >>> swap_pair("JC", "JS"), swap_pair("9H", "9D"), swap_pair("JC", "QS"), swap_pair("JC", "none")
    ('C/S', 'H/D', None, None)
    """
    if len(truth) != 2 or len(read) != 2 or truth[1] not in SUITS:
        return None
    if read[0] == truth[0] and read[1] == Suit.parse(truth[1]).same_colour.value:
        return "C/S" if truth[1] in "CS" else "H/D"
    return None


@dataclass
class Naming:
    """How a classifier named labelled face indices: counts over the boxes added."""

    boxes: int = 0
    right: int = 0
    rank_right: int = 0
    swaps: dict[str, int] = field(default_factory=lambda: {"C/S": 0, "H/D": 0})
    #: per suit of the label: (boxes, named right)
    by_suit: dict[str, list[int]] = field(default_factory=lambda: {s: [0, 0] for s in SUITS})

    def add(self, pairs: Iterable[tuple[str, str]]) -> Naming:
        """Count (label, name read) pairs; returns itself.

        >>> n = Naming().add([("JC", "JS"), ("9H", "9H"), ("AD", "none")])
        >>> n.boxes, n.right, n.rank_right, n.swaps, n.by_suit["C"], n.by_suit["H"]
        (3, 1, 2, {'C/S': 1, 'H/D': 0}, [1, 0], [1, 1])
        """
        for truth, read in pairs:
            self.boxes += 1
            self.right += read == truth
            self.rank_right += len(read) == 2 and read[0] == truth[0]
            pair = swap_pair(truth, read)
            if pair:
                self.swaps[pair] += 1
            if truth[-1] in self.by_suit:
                self.by_suit[truth[-1]][0] += 1
                self.by_suit[truth[-1]][1] += read == truth
        return self

    def summary(self) -> dict[str, object]:
        share = (lambda k: round(k / self.boxes, 4)) if self.boxes else (lambda k: 0.0)
        return {
            "boxes": self.boxes,
            "named_right": share(self.right),
            "rank_right": share(self.rank_right),
            "swaps_CS": share(self.swaps["C/S"]),
            "swaps_HD": share(self.swaps["H/D"]),
            "by_suit": {s: [n, round(r / n, 4) if n else None]
                        for s, (n, r) in self.by_suit.items()},
        }


Labels = list[tuple[str | None, tuple[float, float, float, float]]]


def held_out(deck: str) -> list[tuple[np.ndarray, Labels]]:
    """The deck's held-out photos with their labels in pixels (jokers as None)."""
    return deck_photos(deck, "test")


def name_faces(classifier_path: Path, photos: Sequence[tuple[np.ndarray, Labels]],
               threads: int) -> Naming:
    """The classifier stage: each labelled face index named on its own box."""
    from kiosk.vision.cards.index_classifier import IndexClassifier

    classifier = IndexClassifier(classifier_path, threads=threads)
    naming = Naming()
    for image, labels in photos:
        faces = [(c, b) for c, b in labels if c is not None and c != "back"]
        if not faces:
            continue
        rows = classifier.probabilities(image, [b for _, b in faces])
        naming.add((c, classifier.classes[int(row.argmax())])
                   for (c, _), row in zip(faces, rows, strict=True))
    return naming


def read_whole(classifier_path: Path, photos: Sequence[tuple[np.ndarray, Labels]],
               threads: int) -> dict[str, float | int]:
    """The pipeline: the shipped proposals named by this classifier, no second opinions."""
    from datasets.reading_score import ReadingScore
    from kiosk.vision.cards.detector import Detector

    detector = Detector(PROPOSALS, index_classifier=classifier_path, suit_reader=None,
                        context_reader=None, threads=threads)
    score = ReadingScore()
    for image, labels in photos:
        score.add(labels, [(d.card, d.box) for d in detector.detect(image)])
    return score.summary()


def cut_patches(work: Path, threads: int, size: int) -> None:
    """The patch files, as ``datasets.index_crops`` cuts them (the same copies, the
    shipped proposals at 0.05, random negatives): ``synthetic.npz`` (training scenes,
    their shrunk copies, and the validation patches) and ``real-DECK.npz`` per deck (that
    deck's real *training* photos, 12 copies a label). Files already there are kept."""
    from datasets import index_crops as crops

    empty = (np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int16),
             np.zeros(0, np.int8))
    target = work / "synthetic.npz"
    if not target.exists():
        train = crops.build([("synthetic train", crops.scene_truth("train"), 3, False),
                             ("synthetic train, shrunk", crops.scene_truth("train"), 2, True)],
                            PROPOSALS, threads=threads, size=size)
        val = crops.build([("synthetic val", crops.scene_truth("val"), 1, False),
                           ("synthetic val, shrunk", crops.scene_truth("val"), 1, True)],
                          PROPOSALS, seed=1, threads=threads, size=size)
        crops.save(target, train, val)
    for deck in REAL_DECKS:
        target = work / f"real-{deck}.npz"
        if target.exists():
            continue
        photos = ((path, truth) for path, truth in crops.real_truth("train")
                  if deck_of(path.name) == deck)
        train = crops.build([(f"real train, {deck}", photos, 12, False)], PROPOSALS,
                            threads=threads, size=size)
        crops.save(target, train, empty)


def train(run: Run, work: Path, args: argparse.Namespace) -> float:
    """Train one run with the shipped trainer (skipped when its export exists); its log
    beside it. Returns the minutes it took (0 when skipped)."""
    out = work / f"{run.name}.onnx"
    if out.exists():
        return 0.0
    files = [work / "synthetic.npz", *(work / f"real-{deck}.npz" for deck in run.real_decks)]
    command = [sys.executable, str(TRAINER), "--threads", str(args.threads),
               "--out", str(out), "--checkpoint", str(work / f"{run.name}.pt")]
    for file in files:
        command += ["--crops", str(file)]
    if run.name == "base":
        command += ["--minutes", str(args.base_minutes), "--lr", str(args.base_lr)]
    else:
        command += ["--minutes", str(args.minutes), "--lr", str(args.lr),
                    "--init", str(work / "base.pt")]
    if args.stem:
        command.append("--stem")
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    start = time.monotonic()
    with open(work / f"{run.name}.log", "w") as log:
        subprocess.run(command, check=True, stdout=log, stderr=subprocess.STDOUT, env=env)
    return (time.monotonic() - start) / 60


def show(report: dict[str, dict[str, dict[str, object]]], pipeline: bool) -> None:
    """The table: per held-out deck, one row per classifier."""
    head = (f"{'held-out deck':<12} {'classifier':<20} {'real decks seen':<18} {'boxes':>5} "
            f"{'named':>6} {'rank':>6} {'C/S':>6} {'H/D':>6}   "
            + " ".join(f"{s:>5}" for s in SUITS))
    if pipeline:
        head += f"   {'found':>6} {'false':>6} {'swaps':>6}"
    print(head)
    for deck, rows in report.items():
        for name, row in rows.items():
            naming = row["naming"]
            assert isinstance(naming, dict)
            suits = " ".join(f"{'-' if v[1] is None else f'{v[1]:.3f}':>5}"
                             for v in naming["by_suit"].values())
            line = (f"{deck:<12} {name:<20} {row['seen']:<18} {naming['boxes']:>5} "
                    f"{naming['named_right']:>6.3f} {naming['rank_right']:>6.3f} "
                    f"{naming['swaps_CS']:>6.3f} {naming['swaps_HD']:>6.3f}   {suits}")
            whole = row.get("pipeline")
            if isinstance(whole, dict):
                line += (f"   {whole['found']:>6.3f} {whole['false_per_image']:>6.2f} "
                         f"{whole['swaps']:>6.3f}")
            print(line)


def problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line or the data it needs (None: nothing)."""
    if args.minutes <= 0 or args.base_minutes <= 0:
        return "--minutes and --base-minutes must be over 0"
    if args.threads < 1:
        return f"--threads must be 1 or more, not {args.threads}"
    if not 16 <= args.patch <= 128:
        return f"--patch must be 16 to 128 pixels, not {args.patch}"
    known = {r.name for r in runs()}
    if args.runs and (set(args.runs) - known or "base" not in args.runs):
        return f"--runs takes base and any of {', '.join(sorted(known - {'base'}))}"
    if args.work.exists() and not args.work.is_dir():
        return f"--work {args.work} is a file, not a folder"
    if not (REAL_DIR / "images").is_dir():
        return f"no real photos at {REAL_DIR}"
    if args.evaluate_only:
        missing = [r.name for r in runs() if (not args.runs or r.name in args.runs)
                   and not (args.work / f"{r.name}.onnx").exists()]
        return f"no trained runs in {args.work}: {', '.join(missing)}" if missing else None
    from datasets.index_crops import GENERATED

    if not (args.work / "synthetic.npz").exists() and not all(
            (GENERATED / "scenes" / split / "images").is_dir() for split in ("train", "val")):
        return ("no training scenes: run `python -m datasets.generate --train 1200 --val 100 "
                "--test 0` first")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=WORK,
                        help="patch files, runs, logs and the report (git-ignored)")
    parser.add_argument("--base-minutes", type=float, default=25.0,
                        help="the synthetic-only base, from scratch")
    parser.add_argument("--minutes", type=float, default=15.0, help="each run from the base")
    parser.add_argument("--base-lr", type=float, default=0.003)
    parser.add_argument("--lr", type=float, default=0.0015)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--patch", type=int, default=32,
                        help="the patch side the classifiers read (the shipped: 32)")
    parser.add_argument("--stem", action="store_true",
                        help="the classifiers read their patch through a stem block at full "
                        "resolution (for --patch 64)")
    parser.add_argument("--runs", nargs="+", metavar="RUN",
                        help="train and judge only these runs (base, without-white, "
                        "without-black-gold, both; default: all)")
    parser.add_argument("--evaluate-only", action="store_true",
                        help="judge the runs already in --work; train nothing")
    parser.add_argument("--no-pipeline", action="store_true",
                        help="the classifier stage only (no proposals)")
    args = parser.parse_args(argv)
    wrong = problem(args)
    if wrong:
        print(f"bench_leave_one_deck_out: {wrong}", file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    chosen = [r for r in runs() if not args.runs or r.name in args.runs]
    minutes: dict[str, float] = {}
    if not args.evaluate_only:
        start = time.monotonic()
        cut_patches(args.work, args.threads, args.patch)
        minutes["patches"] = round((time.monotonic() - start) / 60, 1)
        for run in chosen:
            minutes[run.name] = round(train(run, args.work, args), 1)
            print(f"{run.name}: {minutes[run.name]} min", flush=True)
    classifiers = [(r.name, args.work / f"{r.name}.onnx", " + ".join(r.real_decks) or "none")
                   for r in chosen] + [("shipped (run 21)", SHIPPED, " + ".join(REAL_DECKS))]
    start = time.monotonic()
    report: dict[str, dict[str, dict[str, object]]] = {}
    for deck in REAL_DECKS:
        photos = held_out(deck)
        report[deck] = {}
        for name, path, seen in classifiers:
            row: dict[str, object] = {
                "seen": seen, "naming": name_faces(path, photos, args.threads).summary()}
            if not args.no_pipeline:
                row["pipeline"] = read_whole(path, photos, args.threads)
            report[deck][name] = row
    minutes["evaluate"] = round((time.monotonic() - start) / 60, 1)
    show(report, not args.no_pipeline)
    print(f"minutes: {minutes}")
    out = args.work / "report.json"
    out.write_text(json.dumps({"minutes": minutes, "decks": report}, indent=1) + "\n")
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
