"""Enrolment curves: how well the kiosk reads a deck with a profile learnt from k photos.

    python scripts/bench_enrolment.py                       # the real phone photos' decks
    python scripts/bench_enrolment.py --shots 1 2 3 5 10 --draws 3 --out runs/enrol.json
    python scripts/bench_enrolment.py --rendered kde-standard kde-nicu-white   # held-out art

For each deck: the figures without a profile, then for each k the mean over ``--draws``
random choices of k enrolment photos, each profile judged on photos of the same deck it
never saw. The real photos (``../shared/datasets/real-cards-phone/``) hold two decks, a
white standard deck (the ``IMG_2022...`` photos) and a black-and-gold one (``IMG_7...``);
enrolment photos come from a deck's training split and the judging from its held-out
split (``datasets/real_split/``), so no photo session sits on both sides. Both decks were
in the shipped networks' training, so their gain is a floor. ``--rendered`` uses decks the
networks never saw (``datasets/cards_art.held_out_decks``): enrolment from labelled
rendered table shots (``--photos``) and from rendered layouts (``--layout``), judged on
other rendered shots of the deck. The targets (issue 45) are printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.boxes import yolo_to_pixels  # noqa: E402
from datasets.reading_score import ReadingScore, wilson  # noqa: E402
from datasets.real_photos import REAL_DECKS, REAL_DIR, read_labels, split_list  # noqa: E402,F401
from kiosk.vision.cards.detection import Detection  # noqa: E402
from kiosk.vision.cards.detector import Detector  # noqa: E402
from kiosk.vision.decks.deck_profile import FitSettings  # noqa: E402
from kiosk.vision.decks.enrolment import LabelledPhoto, learn_deck, read_layout  # noqa: E402

#: the real photos' decks: a name and the file-name prefixes of its photos
#: the targets with a profile from at most 10 photos (issue 45)
TARGET_FOUND, TARGET_FALSE, TARGET_SWAPS = 0.97, 0.1, 0.005

Labels = list[tuple[str | None, tuple[float, float, float, float]]]


def real_photo(name: str) -> tuple[np.ndarray, Labels]:
    image = cv2.imread(str(REAL_DIR / "images" / name))
    if image is None:
        raise SystemExit(f"cannot read {REAL_DIR / 'images' / name}")
    h, w = image.shape[:2]
    return image, yolo_to_pixels(read_labels(Path(name).stem), w, h)


def as_labelled(image: np.ndarray, labels: Labels, name: str) -> LabelledPhoto:
    return LabelledPhoto(image, tuple((c, b) for c, b in labels if c is not None), name,
                         tuple(b for c, b in labels if c is None))


#: how the judged photos are read: a picture in, its detections out
Read = Callable[[np.ndarray], list[Detection]]


def reading(detector: Detector, min_scale: float | None, as_photos: bool) -> Read:
    """Each photo whole (one network pass: ``min_scale`` None), in tiles at ``min_scale``
    (1.0: full resolution, as the kiosk reads a calibrated table's play area), or as
    ``kiosk detect`` reads a photo (``as_photos``: whole, then in tiles where its indices
    are small, :func:`kiosk.vision.cards.photo_reading.read_photo`)."""
    if as_photos:
        from kiosk.vision.cards.photo_reading import read_photo

        return lambda image: read_photo(detector, image)
    return lambda image: detector.detect(image, min_scale=min_scale)


def judge(read: Read, photos: Sequence[tuple[np.ndarray, Labels]]) -> ReadingScore:
    score = ReadingScore()
    for image, labels in photos:
        score.add(labels, [(d.card, d.box) for d in read(image)])
    return score


def with_profile(
    detector: Detector, read: Read, photos: Sequence[LabelledPhoto],
    held: Sequence[tuple[np.ndarray, Labels]], settings: FitSettings, seed: int = 0,
    deep: bool = False,
) -> dict[str, float | int]:
    """The figures on ``held`` with a profile learnt from ``photos`` (``deep``: the whole
    naming network, ``kiosk enrol --deep``), and the seconds the learning took; the
    detector reads without a profile again afterwards."""
    start = time.perf_counter()
    if deep:
        from kiosk.vision.decks.deep_enrolment import DeepSettings, learn_deck_deeply

        profile = learn_deck_deeply(detector, photos, settings=DeepSettings(seed=seed))
    else:
        profile = learn_deck(detector, photos, seed=seed, settings=settings)
    detector.use_deck(profile)
    seconds = time.perf_counter() - start
    try:
        score = judge(read, held)
        summary = score.summary()
    finally:
        detector.use_deck(None)
    low, high = wilson(score.cards_found, score.cards)
    summary.update(found_low=round(low, 3), found_high=round(high, 3),
                   enrol_seconds=round(seconds, 2))
    return summary


def curve(
    detector: Detector, read: Read, pool: Sequence[LabelledPhoto],
    held: Sequence[tuple[np.ndarray, Labels]], args: argparse.Namespace, settings: FitSettings,
) -> dict[str, object]:
    """The deck's figures without a profile and with one from k of ``pool`` per k (the
    mean of ``args.draws`` choices)."""
    detector.use_deck(None)
    alone = judge(read, held)
    low, high = wilson(alone.cards_found, alone.cards)
    rows: dict[str, object] = {"none": {**alone.summary(), "found_low": round(low, 3),
                                        "found_high": round(high, 3),
                                        "by_size": alone.found_by_size()}}
    rng = np.random.default_rng(args.seed)
    for k in args.shots:
        if k > len(pool):
            continue
        runs: dict[str, list[dict[str, float | int]]] = {kind: [] for kind in args.kinds}
        for _ in range(args.draws):
            chosen = [pool[int(i)] for i in rng.choice(len(pool), k, replace=False)]
            seed = int(rng.integers(1 << 30))
            for kind in args.kinds:  # each kind of profile from the same shots
                runs[kind].append(with_profile(detector, read, chosen, held, settings, seed,
                                               deep=kind == "deep"))
        for kind, done in runs.items():
            label = str(k) if kind == "quick" else f"{k} deep"
            rows[label] = {key: round(float(np.mean([r[key] for r in done])), 4)
                           for key in done[0]}
    return rows


def real_decks(
    detector: Detector, read: Read, args: argparse.Namespace, settings: FitSettings
) -> dict[str, object]:
    out: dict[str, object] = {}
    for deck in args.decks:
        prefixes = REAL_DECKS[deck]
        train = [n for n in split_list("train") if n.startswith(prefixes)]
        test = [n for n in split_list("test") if n.startswith(prefixes)]
        pool = [as_labelled(*real_photo(n), n) for n in train]
        pool = [p for p in pool if p.labels]
        held = [real_photo(n) for n in test]
        rows = curve(detector, read, pool, held, args, settings)
        out[deck] = rows
        show(f"real photos, {deck} deck ({len(held)} held-out photos)", rows)
    return out


def rendered_decks(
    detector: Detector, read: Read, args: argparse.Namespace, settings: FitSettings
) -> dict[str, object]:
    from datasets.layouts import render_layout, render_table_shots

    out: dict[str, object] = {}
    for deck in args.rendered:
        shots = render_table_shots(deck, args.seed, args.judge_shots)
        held = [(s.image, s.truth()) for s in shots]
        pool_shots = render_table_shots(deck, args.seed + 1, max(args.shots))
        pool = [LabelledPhoto(s.image, tuple(s.labels), f"shot {i}", s.ignore)
                for i, s in enumerate(pool_shots)]
        rows = curve(detector, read, pool, held, args, settings)
        layouts = []
        for k in args.layouts:
            photos = [render_layout(deck, args.seed + 100 + i) for i in range(k)]
            readings = [read_layout(detector, p.image, f"layout {i}")
                        for i, p in enumerate(photos)]
            for kind in args.kinds:
                summary = with_profile(detector, read, [r.photo for r in readings], held,
                                       settings, deep=kind == "deep")
                summary["places_read"] = round(float(np.mean(
                    [sum(1 for p in r.places if p.boxes and p.other is None)
                     for r in readings])), 1)
                layouts.append((k if kind == "quick" else f"{k} deep", summary))
        rows.update({f"layout x{k}": s for k, s in layouts})
        out[deck] = rows
        show(f"rendered, held-out deck {deck} ({len(held)} judging shots)", rows)
    return out


def show(title: str, rows: dict[str, object]) -> None:
    print(f"\n{title}")
    print(f"{'profile from':>14} | {'cards found':>11} | {'false/image':>11} | {'swaps':>7} | "
          f"{'enrol s':>7}")
    for key, row in rows.items():
        assert isinstance(row, dict)
        row = {k: v for k, v in row.items() if k != "by_size"}
        label = "no profile" if key == "none" else (key if "layout" in key else f"{key} photos")
        interval = (f" ({row['found_low']:.2f}-{row['found_high']:.2f})"
                    if "found_low" in row else "")
        print(f"{label:>14} | {row['found']:>11.3f}{interval} | "
              f"{row['false_per_image']:>11.3f} | {row['swaps']:>7.3f} | "
              f"{row.get('enrol_seconds', ''):>7}")
    print(f"{'target':>14} | {TARGET_FOUND:>11} | {TARGET_FALSE:>11} | {TARGET_SWAPS:>7} |")
    sizes = rows["none"].get("by_size") if isinstance(rows["none"], dict) else None
    if sizes:
        print("  without a profile, cards found by index size: " + ", ".join(
            f"{band} {share:.2f} ({n})" for band, (n, share) in sizes.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, nargs="+", default=[1, 2, 3, 5, 10])
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--real", action=argparse.BooleanOptionalAction, default=True,
                        help="the real phone photos' two decks (default on)")
    parser.add_argument("--rendered", nargs="*", default=[], metavar="DECK",
                        help="held-out card art to render (datasets.cards_art.held_out_decks)")
    parser.add_argument("--judge-shots", type=int, default=40)
    parser.add_argument("--layouts", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--decks", nargs="*", default=list(REAL_DECKS), choices=list(REAL_DECKS))
    for setting in ("pull", "steps", "rate"):
        parser.add_argument(f"--{setting}", type=float, help="a setting of the profile's fit")
    parser.add_argument("--min-scale", type=float, default=None,
                        help="judge in tiles at this scale (1.0: as the kiosk reads a "
                             "calibrated table); default: each photo whole")
    parser.add_argument("--photo", action="store_true",
                        help="judge as kiosk detect reads a photo: whole, then in tiles "
                             "where its indices are small")
    parser.add_argument("--classifier", type=Path, default=None,
                        help="a candidate index classifier ONNX (with the features outputs: "
                             "models/add_feature_output.py) instead of the shipped one")
    parser.add_argument("--kinds", nargs="+", default=["quick"], choices=["quick", "deep"],
                        help="the profiles to learn from each draw of shots: quick (the last "
                        "layers, no torch) and deep (the whole naming network, "
                        "kiosk enrol --deep)")
    parser.add_argument("--bare", action="store_true",
                        help="no suit or context reader (with a --classifier that never saw "
                        "a deck: both readers trained on the real photos' decks)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.classifier is not None and not args.classifier.is_file():
        print(f"bench_enrolment: no classifier file at {args.classifier}", file=sys.stderr)
        return 2
    if any(k < 1 for k in args.shots):
        print("bench_enrolment: --shots counts enrolment photos and must be 1 or more "
              "(the figures without a profile are printed beside each curve)", file=sys.stderr)
        return 2
    default = FitSettings()
    settings = FitSettings(
        pull=default.pull if args.pull is None else args.pull,
        steps=default.steps if args.steps is None else int(args.steps),
        rate=default.rate if args.rate is None else args.rate,
    )
    second = None if args.bare else "auto"
    detector = Detector(threads=args.threads,
                        index_classifier="auto" if args.classifier is None else args.classifier,
                        suit_reader=second, context_reader=second)
    read = reading(detector, args.min_scale, args.photo)
    report: dict[str, object] = {}
    if args.real:
        report["real"] = real_decks(detector, read, args, settings)
    if args.rendered:
        report["rendered"] = rendered_decks(detector, read, args, settings)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
