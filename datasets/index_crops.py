"""Training patches for the index classifier (the detector's second stage).

    python -m datasets.index_crops            # -> datasets/generated/index_crops.npz
    python -m datasets.index_crops --only-extra --extra-scenes datasets/generated/scenes_extra \
        --out datasets/generated/index_crops_extra.npz   # the extra decks' scenes alone

Every patch is cut by :func:`kiosk.vision.cards.index_classifier.crop`, the run-time crop.
Three kinds, from the training scenes and the real training photos only (never the
held-out test images):

- the labelled boxes, several times each with the box shifted and resized a little, as the
  detector's boxes are never exact (real photos more often: they are few and they are
  what the kiosk meets);
- the boxes the current detector proposes at a low threshold: those on a labelled index
  take its card (the exact geometry of run-time boxes), those on nothing are ``none``;
- random boxes of index size away from every label: ``none``.

A tablet's picture shows the far seat's indices 8-12 pixels tall, smaller than any in the
training scenes (17-68 px), so the scenes are also cut a second time from a copy shrunk to
0.3-0.6 of its size (labels and random negatives; an index left under
:data:`SMALLEST_INDEX` pixels is too small to name and is left out either way).

Deterministic for a given detector model (seeded jitter).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.boxes import Box, YoloBox, iou_matrix, long_side, read_yolo_labels, yolo_to_pixels
from datasets.classes import CLASS_ID, CLASSES
from datasets.real_photos import REAL_DIR, read_labels, split_list
from kiosk.vision.camera.rectify import TableView
from kiosk.vision.cards.index_classifier import MARGIN, NONE, PATCH, crop
from kiosk.vision.pipeline import choose_calibration

GENERATED = Path(__file__).resolve().parent / "generated"
OUT = GENERATED / "index_crops.npz"
#: the classifier's classes: the detector's 53 and ``none``
LABELS: tuple[str, ...] = (*CLASSES, NONE)
NONE_ID = len(CLASSES)

#: how far the scenes are shrunk for the small-index patches (the range of the factor)
SHRINK = (0.3, 0.6)
#: an index shorter than this (pixels, long side) is not labelled in a shrunk scene
SMALLEST_INDEX = 7.0

#: (class id, YOLO box: centre x, centre y, width, height, all 0..1)
Truth = list[tuple[int, YoloBox]]
#: patches (N, side, side, 3) BGR (side PATCH unless asked), class ids (N,), source number (N,)
Patches = tuple[np.ndarray, np.ndarray, np.ndarray]


#: a class id for a box that is neither patch nor negative: a face-down card in a rendered
#: hand (boxed whole, but the taken tricks lie in criss-crossed piles the renderer boxes
#: card by card, unlike the scenes' labels), or a scene's index that shows in part only
UNNAMED = -1


def scene_truth(split: str, root: Path = GENERATED) -> Iterator[tuple[Path, Truth]]:
    """(image, [(class id, normalised box)]) for each generated scene of a split
    (:func:`folder_truth` of ``root/scenes/split``)."""
    return folder_truth(root / "scenes" / split)


def folder_truth(folder: Path) -> Iterator[tuple[Path, Truth]]:
    """(image, [(class id, normalised box)]) for each scene in a split's folder
    (``images/``, ``labels/``, ``ignore/`` as ``datasets.generate`` writes them).

    The indices that show in part only (the generator's ``ignore/`` files) come as
    :data:`UNNAMED`: neither a patch nor a negative. Taught as ``none``, a half-covered
    index would teach the classifier to call the hard half-shown ones not an index, where
    a measurement ignores whatever it says of them (``models/evaluate.py`` reads them
    here too, as ignore regions)."""
    for image in sorted((folder / "images").glob("*.jpg")):
        truth = read_yolo_labels(folder / "labels" / f"{image.stem}.txt")
        partial = folder / "ignore" / f"{image.stem}.txt"
        if partial.exists():
            truth += [(UNNAMED, box) for _, box in read_yolo_labels(partial)]
        yield image, truth


def real_truth(split: str) -> Iterator[tuple[Path, Truth]]:
    """(photo, [(class id, normalised box)]) for the real photos of a split; no jokers."""
    for file in split_list(split):
        labels = read_labels(Path(file).stem)
        yield REAL_DIR / "images" / file, [(CLASS_ID[c], b) for c, b in labels if c is not None]


#: every how many frames of a rendered hand's video patches are cut (consecutive frames
#: are nearly the same picture)
HAND_FRAME_STEP = 8


def hand_truth(folder: Path, step: int = HAND_FRAME_STEP
               ) -> Iterator[tuple[np.ndarray, Truth]]:
    """(picture, [(class id, normalised box)]) for every ``step``-th frame of each
    rendered hand video in ``folder`` (``scripts/bench_reader.py --out folder``, its
    ``.truth.json`` beside each video). The classifier then learns the pictures the trick
    reader meets: cards sliding, through the video's compression, and a tablet's frame
    as the kiosk's detector reads it, warped top-down (:func:`kiosk_picture`). Render
    these with other seeds than the hands the benchmark reads."""
    for video in rendered_hands(folder):
        record = read_truth(video)
        table_view: TableView | None = None
        for index, frame, boxes in video_frames(video, record):
            if index == 0:
                table_view = kiosk_table_view(frame, record["view"])
            if index % step == 0:
                yield kiosk_picture(frame, boxes, table_view)


def rendered_hands(folder: Path) -> list[Path]:
    """The rendered hand videos in ``folder`` that have their ``.truth.json`` beside them."""
    return [video for video in sorted(folder.glob("hand-*.mp4"))
            if video.with_suffix(".truth.json").exists()]


def read_truth(video: Path) -> dict[str, Any]:
    """The renderer's record of a hand video (its ``.truth.json``)."""
    record: dict[str, Any] = json.loads(video.with_suffix(".truth.json").read_text("utf-8"))
    return record


def video_frames(video: Path, record: dict[str, Any]
                 ) -> Iterator[tuple[int, np.ndarray, list[dict[str, Any]]]]:
    """(frame number, frame, the renderer's boxes in it) for each frame of a hand video."""
    capture = cv2.VideoCapture(str(video))
    try:
        for index, boxes in enumerate(record["frames"]):
            ok, frame = capture.read()
            if not ok:
                break
            yield index, frame, boxes
    finally:
        capture.release()


def kiosk_table_view(frame: np.ndarray, view: str) -> TableView | None:
    """The warp the kiosk's frame pipeline would use for this camera (calibrated on the
    mat when the frame shows it, else the view's default): None for an overhead camera."""
    return TableView.for_calibration(choose_calibration(frame, view))


def kiosk_picture(frame: np.ndarray, boxes: list[dict[str, Any]],
                  table_view: TableView | None) -> tuple[np.ndarray, Truth]:
    """A rendered frame and its pixel boxes (``{"card", "box"}``) as the detector sees
    them: a slanted view warped top-down, each box the bounds of its warped corners
    (one whose centre leaves the square is dropped); a face-down card is ``UNNAMED``."""
    picture = frame if table_view is None else table_view.warp(frame)
    h, w = picture.shape[:2]
    truth: Truth = []
    for item in boxes:
        x1, y1, x2, y2 = (float(v) for v in item["box"])
        if table_view is not None:
            corners = np.array([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float64)
            warped = cv2.perspectiveTransform(corners, table_view.matrix)[0]
            (x1, y1), (x2, y2) = warped.min(axis=0), warped.max(axis=0)
        if not (0 <= (x1 + x2) / 2 < w and 0 <= (y1 + y2) / 2 < h):
            continue
        cls = UNNAMED if item["card"] == "back" else CLASS_ID[item["card"]]
        truth.append((cls, ((x1 + x2) / 2 / w, (y1 + y2) / 2 / h, (x2 - x1) / w, (y2 - y1) / h)))
    return picture, truth


def jitter(box: Box, rng: np.random.Generator, amount: float = 0.12) -> Box:
    """The box moved by up to ``amount`` of its size and resized by 0.85-1.2 per side."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-amount, amount) * w
    cy = (y1 + y2) / 2 + rng.uniform(-amount, amount) * h
    w *= rng.uniform(0.85, 1.2)
    h *= rng.uniform(0.85, 1.2)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def patches_for(
    image: np.ndarray,
    truth: list[tuple[int, Box]],
    rng: np.random.Generator,
    copies: int,
    proposals: list[Box],
    randoms: int = 3,
    unnamed: list[Box] | None = None,
    size: int = PATCH,
    margin: float = MARGIN,
) -> Iterator[tuple[np.ndarray, int]]:
    """All patches of one image: jittered labels, detector proposals, random negatives.

    ``unnamed`` boxes are indices too small to name: never patches, never negatives.
    """
    boxes = np.asarray([box for _, box in truth] + list(unnamed or []), np.float64).reshape(-1, 4)
    for cls, box in truth:
        yield crop(image, box, size, margin), cls
        for _ in range(copies - 1):
            yield crop(image, jitter(box, rng), size, margin), cls
    for proposal in proposals:
        overlaps = iou_matrix(np.asarray([proposal], np.float64), boxes)[0]
        best = int(overlaps.argmax()) if len(overlaps) else -1
        if best >= len(truth) and overlaps[best] >= 0.2:
            continue  # on an index too small to name
        if best >= 0 and overlaps[best] >= 0.5:
            yield crop(image, proposal, size, margin), truth[best][0]
        elif (best < 0 or overlaps[best] < 0.2) and not _covers_unnamed(proposal, unnamed):
            yield crop(image, proposal, size, margin), NONE_ID
    h, w = image.shape[:2]
    faces = [box for cls, box in truth if CLASSES[cls] != "back"] or [(0, 0, 0.06 * w, 0.1 * h)]
    for _ in range(randoms):
        x1, y1, x2, y2 = faces[int(rng.integers(len(faces)))]
        bw, bh = x2 - x1, y2 - y1
        if 2 * bw > w or 2 * bh > h:
            continue  # a close view's index over half the picture leaves no room beside it
        cx, cy = rng.uniform(bw, w - bw), rng.uniform(bh, h - bh)
        box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
        overlaps = iou_matrix(np.asarray([box], np.float64), boxes)[0]
        if not len(overlaps) or overlaps.max() < 0.1:
            yield crop(image, box, size, margin), NONE_ID


#: (name, images (files or pictures) with their labels, copies of each label, shrink or not)
Source = tuple[str, Iterator[tuple[Path | np.ndarray, Truth]], int, bool]


def build(sources: list[Source], detector_model: Path | None, seed: int = 0,
          size: int = PATCH, margin: float = MARGIN, randoms: int = 3,
          threads: int | None = None) -> Patches:
    """Patches, labels and source index (position in ``sources``) for all images.

    A shrunk source is cut from a copy scaled by a factor drawn from :data:`SHRINK`,
    without detector proposals (the detector runs on whole frames, not shrunk copies).
    ``threads``: the detector's (None: ONNX Runtime's default, every core).
    """
    detector = None
    if detector_model is not None and detector_model.exists():
        from kiosk.vision.cards.detector import Detector

        detector = Detector(detector_model, confidence=0.05, index_classifier=None,
                            threads=threads)
    rng = np.random.default_rng(seed)
    patches: list[np.ndarray] = []
    labels: list[int] = []
    origin: list[int] = []
    for number, (name, items, copies, shrink) in enumerate(sources):
        count = 0
        for path, truth in items:
            image = path if isinstance(path, np.ndarray) else cv2.imread(str(path))
            if image is None:
                continue
            unnamed: list[Box] = []
            if shrink:
                factor = float(rng.uniform(*SHRINK))
                image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
            boxes = yolo_to_pixels(truth, image.shape[1], image.shape[0])
            unnamed += [b for c, b in boxes if c == UNNAMED]
            boxes = [(c, b) for c, b in boxes if c != UNNAMED]
            if shrink:
                unnamed += [b for _, b in boxes if long_side(b) < SMALLEST_INDEX]
                boxes = [(c, b) for c, b in boxes if long_side(b) >= SMALLEST_INDEX]
            proposals = [d.box for d in detector.detect(image)] if detector and not shrink else []
            for patch, cls in patches_for(image, boxes, rng, copies, proposals, randoms,
                                          unnamed=unnamed, size=size, margin=margin):
                patches.append(patch)
                labels.append(cls)
                origin.append(number)
                count += 1
        print(f"{name}: {count} patches", flush=True)
    return np.stack(patches), np.asarray(labels, np.int16), np.asarray(origin, np.int8)


def _covers_unnamed(box: Box, unnamed: list[Box] | None) -> bool:
    """Whether a proposal holds the middle of one of the unnamed boxes (a face-down card
    in a pile): it is not taught as ``none`` either."""
    x1, y1, x2, y2 = box
    return any(x1 <= (u[0] + u[2]) / 2 <= x2 and y1 <= (u[1] + u[3]) / 2 <= y2
               for u in unnamed or [])


#: the suit reader's classes (``--suits``)
SUITS: tuple[str, ...] = ("C", "D", "H", "S")


def as_suits(patches: Patches) -> Patches:
    """Only the patches of a card's face, labelled with the card's suit (an index of
    :data:`SUITS`): what the suit reader learns from its wider patches."""
    x, y, origin = patches
    names = [LABELS[i] for i in y]
    keep = np.asarray([n not in (NONE, "back") for n in names], bool)
    kept = [n for n, k in zip(names, keep, strict=True) if k]
    suits = np.asarray([SUITS.index(n[-1]) for n in kept], np.int16)
    return x[keep], suits, origin[keep]


def share_of(text: str) -> tuple[int, int]:
    """``K/N`` as (K, N), 1 <= K <= N: which share of the extra scenes one process cuts
    (``--only-more``; argparse's type, so a wrong one is a usage error)."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not K/N (e.g. 1/2): {text!r}") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"K/N needs 1 <= K <= N: {text!r}")
    return k, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detector", type=Path, default=Path("models/cards.onnx"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--synthetic-copies", type=int, default=3)
    parser.add_argument("--real-copies", type=int, default=12)
    parser.add_argument("--small-copies", type=int, default=2, help="per label, shrunk scenes")
    parser.add_argument(
        "--dark-copies", type=int, default=0,
        help="per label, the scenes with half the faces dark (`datasets.generate --dark N`; "
        "0: not used)",
    )  # fmt: skip
    parser.add_argument(
        "--more-copies", type=int, default=0,
        help="per label, the extra training scenes (`datasets.generate --more N`), cut as the "
        "train split's (and shrunk, --small-copies); 0: not used",
    )  # fmt: skip
    parser.add_argument("--patch", type=int, default=PATCH, help="patch side in pixels")
    parser.add_argument("--margin", type=float, default=MARGIN,
                        help="patch side as a multiple of the box's longer side")
    parser.add_argument("--hands", type=Path, action="append", default=[],
                        help="a folder of rendered hands (scripts/bench_reader.py --out) whose "
                        "frames are cut too; never the benchmark's own hands")
    parser.add_argument("--hand-copies", type=int, default=2, help="per label, hand frames")
    parser.add_argument("--hand-step", type=int, default=HAND_FRAME_STEP,
                        help="cut every this many frames of a hand video")
    parser.add_argument("--suits", action="store_true",
                        help="the suit reader's patches: card faces only, labelled by suit")
    parser.add_argument("--no-scenes", action="store_true",
                        help="train on the real photos and the --hands frames only")
    parser.add_argument(
        "--only-more", type=share_of, metavar="K/N",
        help="cut only the K-th of N shares of the extra scenes (every N-th from the K-th), "
        "as --more-copies and --small-copies say, with the validation patches: N processes "
        "cut them on N cores, and the trainer takes every file (--crops A --crops B)",
    )  # fmt: skip
    parser.add_argument(
        "--extra-scenes", type=Path, action="append", default=[], metavar="FOLDER",
        help="a folder of the extra decks' scenes (`datasets.generate --decks extra`, "
        "datasets/generated/scenes_extra unless its --out said), cut as the train split's: "
        "--extra-copies per label, and shrunk, --small-copies",
    )  # fmt: skip
    parser.add_argument("--extra-copies", type=int, default=3, help="per label, --extra-scenes")
    parser.add_argument(
        "--only-extra", action="store_true",
        help="cut the --extra-scenes alone, with the validation patches: a file the trainer "
        "takes beside the others (--crops A --crops B)",
    )  # fmt: skip
    parser.add_argument("--val-hands", type=Path, action="append", default=[],
                        help="validate on these rendered hands' frames (every third "
                        "--hand-step) instead of the validation scenes (hands never trained on)")
    args = parser.parse_args(argv)
    scenes = not args.no_scenes
    if (scenes or not args.val_hands) and not (GENERATED / "scenes" / "train" / "images").is_dir():
        print("no scenes: run `python -m datasets.generate` first", file=sys.stderr)
        return 2
    if args.dark_copies and not (GENERATED / "scenes" / "dark" / "images").is_dir():
        print("no dark scenes: run `python -m datasets.generate --dark N` first", file=sys.stderr)
        return 2
    if args.more_copies and not (GENERATED / "scenes" / "more" / "images").is_dir():
        print("no extra scenes: run `python -m datasets.generate --more N` first",
              file=sys.stderr)
        return 2
    if args.only_more and not args.more_copies:
        print("--only-more needs --more-copies N (how often each label is cut)", file=sys.stderr)
        return 2
    if args.only_more and (args.hands or args.no_scenes):
        print("--only-more cuts the extra scenes alone: no --hands or --no-scenes",
              file=sys.stderr)
        return 2
    for folder in args.extra_scenes:
        if not (folder / "images").is_dir():
            print(f"no scenes in {folder}: run `python -m datasets.generate --decks extra` first",
                  file=sys.stderr)  # fmt: skip
            return 2
    if args.only_extra and not args.extra_scenes:
        print("--only-extra needs --extra-scenes FOLDER", file=sys.stderr)
        return 2
    if args.only_extra and (args.only_more or args.hands or args.no_scenes):
        print("--only-extra cuts the extra scenes alone: no --only-more, --hands or --no-scenes",
              file=sys.stderr)  # fmt: skip
        return 2
    for folder in (*args.hands, *args.val_hands):
        if not rendered_hands(folder):
            print(f"no rendered hands (hand-*.mp4 with .truth.json) in {folder}", file=sys.stderr)
            return 2
    # the suit reader only ever sees boxes the index classifier named a card: no
    # proposals on nothing, no random negatives
    detector = None if args.suits else args.detector
    randoms = 0 if args.suits else 3
    # the extra scenes, all of them or one share (--only-more K/N: every N-th from the K-th)
    k, n = args.only_more or (1, 1)
    share = f" {k}/{n}" if args.only_more else ""
    more: list[Source] = [
        (f"synthetic more{share}", islice(scene_truth("more"), k - 1, None, n),
         args.more_copies, False),
        (f"synthetic more{share}, shrunk", islice(scene_truth("more"), k - 1, None, n),
         args.small_copies, True),
    ] if scenes and args.more_copies else []  # fmt: skip
    # the extra decks' scenes (card designs the others never show), given by folder
    extra: list[Source] = [
        source
        for folder in args.extra_scenes
        for source in (
            (f"extra scenes {folder}", folder_truth(folder), args.extra_copies, False),
            (f"extra scenes {folder}, shrunk", folder_truth(folder), args.small_copies, True),
        )
    ]
    train_sources = more if args.only_more else extra if args.only_extra else [
        *([("synthetic train", scene_truth("train"), args.synthetic_copies, False)]
          if scenes else []),
        ("real train", real_truth("train"), args.real_copies, False),
        *([("synthetic train, shrunk", scene_truth("train"), args.small_copies, True)]
          if scenes else []),
        *([("synthetic dark", scene_truth("dark"), args.dark_copies, False)]
          if scenes and args.dark_copies else []),
        *more,
        *extra,
        *((f"rendered hands {folder}", hand_truth(folder, args.hand_step),
           args.hand_copies, False) for folder in args.hands),
    ]  # fmt: skip
    train = build(
        train_sources,
        detector,
        size=args.patch,
        margin=args.margin,
        randoms=randoms,
    )
    val_sources: list[Source] = [
        (f"rendered hands {folder} (validation)", hand_truth(folder, 3 * args.hand_step), 1, False)
        for folder in args.val_hands
    ] or [
        ("synthetic val", scene_truth("val"), 1, False),
        ("synthetic val, shrunk", scene_truth("val"), 1, True),
    ]
    val = build(
        val_sources,
        detector,
        seed=1,
        size=args.patch,
        margin=args.margin,
        randoms=randoms,
    )
    labels = LABELS
    if args.suits:
        train, val, labels = as_suits(train), as_suits(val), SUITS
    save(args.out, train, val, labels, args.margin)
    print(f"{args.out}: {len(train[1])} training and {len(val[1])} validation patches")
    return 0


def save(
    out: Path, train: Patches, val: Patches, labels: tuple[str, ...] = LABELS,
    margin: float = MARGIN,
) -> None:
    """One ``.npz``: ``x``/``y``/``source`` to train on, ``val_x``/``val_y``, ``labels``,
    and the crop's ``margin`` (the trainer writes it into the export)."""
    np.savez_compressed(
        out,
        x=train[0], y=train[1], source=train[2], val_x=val[0], val_y=val[1],
        labels=np.asarray(labels), margin=np.float32(margin),
    )  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
