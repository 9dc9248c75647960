"""How many synthetic labels could any reader name? A bound from the generator's own noise.

    python lab/naming_bound.py --split test --out runs/bound-test.json [--limit N]

The synthetic target (mAP50 0.98) asks the detector to name nearly every labelled index,
however small and blurred. Whether that is possible at all is a question about the
pictures, not about any network, and the generator can answer it: it draws each scene
from a seed, so the same scene can be drawn again with one card's face swapped for a
rival's (every random draw the same: pose, deck, light, blur, the fingers over it), and
the camera's sensor noise is Gaussian with a known strength.

For a labelled card X and a rival Y, let ``t_X`` and ``t_Y`` be the two scenes just before
the noise is added and ``d`` the distance between them in units of the noise
(``sum((t_X - t_Y)^2 / sigma^2)`` over every pixel and channel, then the square root).
A reader who knew everything about the scene but the noise would still take Y for X with
probability ``Phi(-d / 2)`` when both are equally likely (the generator deals every face
alike), and any reader of the saved picture knows less: clipping, rounding and the JPEG
that follow the noise only lose information. So for each label

    P(no reader names it) >= max over rivals Y of Phi(-d_Y / 2)

whatever the reader (near enough: the camera's noise grows a little with brightness, and
``d`` takes its strength at the two drawings' mean), and one minus the mean of that bound
over a class's labels bounds the recall (so the AP) any detector can reach on it. Rivals
are the names a printed index can be taken for (the same rank in the other suits, the
look-alike ranks of its suit): leaving a name out only loosens the bound, never breaks
it. A scene drawn without noise (a fifth of them) gives no bound: its labels count as
nameable.

The whole picture counts, not only the index box: a reader may use the card's pips and
court picture, and a swapped face changes them too.

The noise turns out to hide next to nothing (on the 300 test scenes the nearest rival of
an index under 30 px lies 16 noise units away or more: a floor of 2e-16), so the
clipping, rounding and JPEG that follow it are measured too, by an observer who knows the
scene (all but the noise and which face lies there): it names each index by the drawing,
its own face or a rival's, without noise, that lies nearest the saved picture over the
pixels where the drawings differ (``nearest``). What it names right, the saved picture
still holds; what it misses, JPEG and clipping took, or nearly. ``--detector`` sets these
beside what the kiosk's detector made of each euchre card and 5
(:func:`lab.blind_sheet.outcomes`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets import photometric, scenes  # noqa: E402
from datasets.boxes import long_side  # noqa: E402
from datasets.classes import BACK, SUITS, is_euchre_or_five  # noqa: E402
from kiosk.vision.cards.detector import Detector, ModelError  # noqa: E402

SCENES = REPO / "datasets" / "generated" / "scenes"

#: ranks a printed rank can be taken for at a few pixels (a court for a court or the ace;
#: a numeral for the numerals that share its strokes; the ten for the nine and the jack)
LOOK_ALIKE: dict[str, str] = {
    "A": "KQJ4", "K": "QJA", "Q": "KJA9", "J": "QKT", "T": "9J",
    "9": "6853", "8": "9653", "6": "9853", "5": "6983", "3": "8592",
    "2": "37", "4": "A7", "7": "21",
}  # fmt: skip


def rivals(card: str) -> list[str]:
    """The names ``card``'s index can be taken for: its rank in the other three suits and
    the look-alike ranks in its own suit.

    >>> rivals("KD")
    ['KC', 'KH', 'KS', 'QD', 'JD', 'AD']
    """
    rank, suit = card[0], card[1]
    same_rank = [rank + other for other in SUITS if other != suit]
    look_alike = [r + suit for r in LOOK_ALIKE.get(rank, "")]
    return same_rank + look_alike


@dataclass
class Drawn:
    """A scene just before the sensor noise, and that noise's strength (None: no noise)."""

    signal: np.ndarray  # float32 RGB, before the noise (and before clipping)
    sigma: float | None


@contextmanager
def _recording() -> Iterator[list[Drawn]]:
    """While open, every call of the camera's sensor noise records what it was given and
    its strength, read from a copy of the generator so that every draw stays as it was."""
    seen: list[Drawn] = []
    original = photometric.sensor_noise

    def recorded(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        peek = np.random.Generator(type(rng.bit_generator)())
        peek.bit_generator.state = rng.bit_generator.state
        sigma = float(peek.uniform(*photometric.NOISE_SIGMA))  # the noise's first draw
        seen.append(Drawn(img.astype(np.float32).copy(), sigma))
        return original(img, rng)

    photometric.sensor_noise = recorded  # type: ignore[assignment]
    try:
        yield seen
    finally:
        photometric.sensor_noise = original  # type: ignore[assignment]


@contextmanager
def _swapped(card: str, rival: str) -> Iterator[None]:
    """While open, scenes are laid out as drawn, with ``card``'s face replaced by
    ``rival``'s (same deck, place, size and angle; no random draw changes)."""
    original: Callable = scenes._layout

    def layout(*args, **kwargs):  # type: ignore[no-untyped-def]
        placements = original(*args, **kwargs)
        return [
            scenes.Placement(rival, p.deck, p.center, p.width, p.angle) if p.card == card else p
            for p in placements
        ]

    scenes._layout = layout  # type: ignore[assignment]
    try:
        yield
    finally:
        scenes._layout = original  # type: ignore[assignment]


def draw(seed: int, size: int, swap: tuple[str, str] | None = None) -> tuple[scenes.Scene, Drawn]:
    """Scene ``seed`` as generated (or with a face swapped) and what its noise was given.

    With no noise drawn, the signal is the finished picture and ``sigma`` None."""
    with _recording() as seen:
        if swap is None:
            scene = scenes.render_scene(seed, size)
        else:
            with _swapped(*swap):
                scene = scenes.render_scene(seed, size)
    if seen:
        return scene, seen[-1]
    return scene, Drawn(scene.image.astype(np.float32), None)


def distance(truth: Drawn, rival: Drawn) -> float:
    """How far apart two scenes are in units of the noise that both would receive
    (its strength at each pixel: the camera's ``sigma * (0.5 + signal / 510)``)."""
    if truth.sigma is None:
        return math.inf
    mean = (truth.signal + rival.signal) / 2
    spread = truth.sigma * (0.5 + mean / 510.0)
    return float(np.sqrt((((truth.signal - rival.signal) / spread) ** 2).sum()))


def confusion_floor(d: float) -> float:
    """The least chance of taking one of two equally likely signals, ``d`` noise units
    apart, for the other: ``Phi(-d / 2)``."""
    return 0.5 * math.erfc(d / 2 / math.sqrt(2))


@dataclass
class Bound:
    """One labelled index: the least chance any reader misnames it, and its nearest rival."""

    scene: int
    card: str
    box: tuple[float, float, float, float]
    long_side: float
    sigma: float | None
    rival: str | None
    d: float | None
    floor: float
    nearest: str | None = None  # the scene-knowing observer's name for it (None: not measured)
    found: bool | None = None  # the detector named it at the operating point (None: not run)


def nearest_drawing(picture: np.ndarray, drawings: dict[str, np.ndarray], card: str) -> str:
    """The name whose drawing lies nearest ``picture`` (RGB), over the pixels where any
    drawing differs from ``card``'s by more than 2 levels (elsewhere they all agree)."""
    own = drawings[card]
    differs = np.zeros(picture.shape[:2], bool)
    for drawing in drawings.values():
        differs |= np.abs(drawing - own).max(axis=2) > 2
    seen = picture.astype(np.float32)[differs]
    return min(drawings, key=lambda name: float(((seen - drawings[name][differs]) ** 2).sum()))


def scene_bounds(
    seed: int, size: int = 384, measure_under: float = math.inf, picture: Path | None = None
) -> list[Bound]:
    """The bound for every labelled face of scene ``seed`` (backs are left out).

    A card whose labelled indices are all ``measure_under`` pixels or more on their long
    side is not measured (its floor is 0): that only loosens the bound, and saves the
    seven drawings of its rivals where the index is large enough to read. With the saved
    ``picture`` (the generated file), the scene-knowing observer names each measured card
    from it."""
    scene, truth = draw(seed, size)
    seen = None
    if picture is not None:
        bgr = cv2.imread(str(picture))
        if bgr is None:
            raise ValueError(f"cannot read {picture}")
        seen = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    by_card: dict[str, list[scenes.Label]] = defaultdict(list)
    for label in scene.labels:
        if label.card != BACK:
            by_card[label.card].append(label)
    rows: list[Bound] = []
    for card, labels in by_card.items():
        nearest: tuple[float, str | None] = (math.inf, None)
        named = None
        if min(long_side(label.box) for label in labels) < measure_under:
            drawings = {card: np.clip(truth.signal, 0, 255)}
            for rival in rivals(card):
                drawn = draw(seed, size, (card, rival))[1]
                drawings[rival] = np.clip(drawn.signal, 0, 255)
                d = distance(truth, drawn)
                if d < nearest[0]:  # (no noise: every rival infinitely far, none nearest)
                    nearest = (d, rival)
            if seen is not None:
                named = nearest_drawing(seen, drawings, card)
        d, rival = nearest
        for label in labels:
            rows.append(Bound(
                seed, card, label.box, long_side(label.box), truth.sigma, rival,
                None if math.isinf(d) else round(d, 3),
                0.0 if math.isinf(d) else confusion_floor(d), named,
            ))  # fmt: skip
    return rows


def summary(rows: list[Bound], euchre_only: bool = False) -> dict[str, float | int]:
    """The bounds over a set of labels: how many labels no reader can be expected to name
    (the sum of the floors), and the highest mean recall over the classes (each class's
    one minus its mean floor), which caps the mAP50 of any detector on these labels; then
    what the scene-knowing observer named of the measured ones, and (with the detector's
    outcomes) what it named of those the detector missed."""
    chosen = [r for r in rows if is_euchre_or_five(r.card) or not euchre_only]
    by_class: dict[str, list[float]] = defaultdict(list)
    for row in chosen:
        by_class[row.card].append(row.floor)
    measured = [r for r in chosen if r.nearest is not None]
    judged = [r for r in measured if r.found is not None]
    missed = [r for r in judged if not r.found]
    return {
        "labels": len(chosen),
        "classes": len(by_class),
        "unnameable_expected": round(sum(r.floor for r in chosen), 2),
        "nearest_rival_d_min": min((r.d for r in chosen if r.d is not None), default=math.inf),
        "recall_ceiling_mean_over_classes": round(
            float(np.mean([1 - np.mean(f) for f in by_class.values()])) if by_class else 1.0, 4
        ),
        "measured": len(measured),
        "measured_under_20px": sum(r.long_side < 20 for r in measured),
        "observer_named_right": sum(r.nearest == r.card for r in measured),
        "detector_found_of_measured": sum(bool(r.found) for r in judged),
        "detector_missed_of_measured": len(missed),
        "observer_named_right_of_those_missed": sum(r.nearest == r.card for r in missed),
    }


def detector_outcomes(
    detector: Detector, split: str, limit: int | None
) -> dict[tuple[int, str, tuple], bool]:
    """Whether ``detector`` (the kiosk's: all four shipped networks) named each labelled
    euchre card and 5 of a split at the operating point, by (seed, card, box)."""
    from lab.blind_sheet import outcomes

    return {
        (int(Path(o.scene).stem), o.card, tuple(round(v) for v in o.box)): o.found
        for o in outcomes(detector, split, limit, with_detail=False)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="test", help="generated split (file names: seeds)")
    parser.add_argument("--limit", type=int, help="the first N scenes only")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--measure-under",
        type=float,
        default=math.inf,
        metavar="PX",
        help="measure only cards with an index under PX pixels (the rest: 0)",
    )
    parser.add_argument(
        "--detector",
        action="store_true",
        help="set what the shipped detector made of each label beside it",
    )
    parser.add_argument("--out", type=Path, required=True, help="JSON: summary and every label")
    args = parser.parse_args(argv)
    images = sorted((SCENES / args.split / "images").glob("*.jpg"))[: args.limit]
    if not images:
        print(f"naming_bound: no scenes in {SCENES / args.split / 'images'}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("naming_bound: --workers must be at least 1", file=sys.stderr)
        return 2
    first = cv2.imread(str(images[0]))
    if first is None:
        print(f"naming_bound: cannot read {images[0]}", file=sys.stderr)
        return 2
    detector = None
    if args.detector:  # loaded first: a missing network is said before the long part
        try:
            detector = Detector()
        except ModelError as problem:
            print(f"naming_bound: {problem}", file=sys.stderr)
            return 2
    jobs = [(int(p.stem), first.shape[1], args.measure_under, p) for p in images]
    try:
        with Pool(args.workers) as pool:
            rows = [r for part in pool.starmap(scene_bounds, jobs) for r in part]
    except ValueError as problem:  # a saved scene that cannot be read
        print(f"naming_bound: {problem}", file=sys.stderr)
        return 2
    if detector is not None:
        found = detector_outcomes(detector, args.split, args.limit)
        for row in rows:
            row.found = found.get((row.scene, row.card, tuple(round(v) for v in row.box)))
    report = {
        "split": args.split,
        "scenes": len(images),
        "all_faces": summary(rows),
        "euchre_and_5s": summary(rows, euchre_only=True),
        "labels": [asdict(r) for r in rows],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: v for k, v in report.items() if k != "labels"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
