"""YOLO training pictures cut from rendered hand videos as the kiosk's detector reads them.

    python -m datasets.hand_frames runs/train-hands runs/train-hands2
        # -> datasets/generated/hand_frames/{images,labels}, generated/cards-hands.yaml

The proposal network misses cards the trick reader needs most where the kiosk looks
hardest: a tablet's far seat, read in the warped top-down square at the smallest scale
that keeps an index about ``INDEX_PIXELS`` pixels tall (lab/NOTEBOOK.md, "What
remains"). The scenes it was trained on show indices at 14-57 pixels; a tablet's square
at the kiosk's scale shows them at 8-13. So each picture here is what one network pass
of :class:`kiosk.vision.pipeline.AreaDetector` gets:

- the camera calibrated from the first frame as the kiosk does it
  (:func:`kiosk.vision.pipeline.choose_calibration`);
- a tablet's frame warped to the square, an overhead frame cut to the play area;
- the tile the detector would pass (:func:`kiosk.vision.cards.letterbox.tile_grid`), resized by
  the same fitting scale, so the indices have the pixels they have at run time;
- then a ``window`` x ``window`` piece of it, the training image size, so that
  ultralytics does not shrink it again (it fits an image's longer side to ``imgsz``).

Labels: the renderer's boxes of that frame (each a printed index, or a face-down card
whole), mapped like the picture; an index cut by the window's edge to less than
:data:`KEPT_INSIDE` of its area is left out, as is a picture with no face index in it.
Render these hands with other seeds than the ones the benchmark reads (1000-1049).
Deterministic: the frames and windows come from each hand's seed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import yaml

from datasets.boxes import yolo_label_text, yolo_to_pixels
from datasets.classes import CLASS_ID, CLASSES
from datasets.index_crops import (
    UNNAMED,
    Truth,
    kiosk_picture,
    read_truth,
    rendered_hands,
    video_frames,
)
from kiosk.vision.camera.rectify import TableView
from kiosk.vision.cards.letterbox import letterbox_geometry, tile_grid
from kiosk.vision.pipeline import choose_calibration, reading_plan

GENERATED = Path(__file__).resolve().parent / "generated"
OUT = GENERATED / "hand_frames"
#: the data set these pictures join: the scenes and the real photos weighted six times
#: (YOLO run 5's mix, lab/NOTEBOOK.md)
BASE_DATA = GENERATED / "cards-real6.yaml"
#: the run-time network input (height, width), as exported
INPUT_HW = (384, 640)
#: the training image size (``models/train.py --imgsz``)
WINDOW = 320
#: a label cut by the window keeps at least this share of its area, or is left out
KEPT_INSIDE = 0.6
#: every how many frames one is taken (each hand starts at its own offset)
FRAME_STEP = 24
BACK = CLASS_ID["back"]

#: (x1, y1, x2, y2, class id) in a picture's pixels
PixelBox = tuple[float, float, float, float, int]


@dataclass(frozen=True)
class Window:
    """One training picture and its YOLO labels."""

    name: str
    image: np.ndarray
    labels: Truth


def network_picture(
    frame: np.ndarray,
    boxes: list[dict],
    table_view: TableView | None,
    roi: tuple[int, int, int, int] | None,
    min_scale: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[PixelBox]]:
    """One tile of a frame at the scale the detector's network sees it, with its boxes
    in that picture's pixels (a face-down card as ``back``)."""
    picture, truth = kiosk_picture(frame, boxes, table_view)
    h, w = picture.shape[:2]
    pixel: list[PixelBox] = [
        (*box, BACK if cls == UNNAMED else cls) for cls, box in yolo_to_pixels(truth, w, h)
    ]
    if roi is not None:
        rx1, ry1, rx2, ry2 = roi
        picture = picture[ry1:ry2, rx1:rx2]
        pixel = [(x1 - rx1, y1 - ry1, x2 - rx1, y2 - ry1, c) for x1, y1, x2, y2, c in pixel]
    tiles = tile_grid(picture.shape[:2], INPUT_HW, min_scale)
    tx1, ty1, tx2, ty2 = tiles[int(rng.integers(len(tiles)))]
    tile = picture[ty1:ty2, tx1:tx2]
    scale = letterbox_geometry(tile.shape[:2], INPUT_HW).scale
    size = (max(1, round(tile.shape[1] * scale)), max(1, round(tile.shape[0] * scale)))
    fitted = cv2.resize(tile, size, interpolation=cv2.INTER_LINEAR)
    moved = [
        ((x1 - tx1) * scale, (y1 - ty1) * scale, (x2 - tx1) * scale, (y2 - ty1) * scale, c)
        for x1, y1, x2, y2, c in pixel
    ]
    return fitted, moved


def cut_window(
    picture: np.ndarray, boxes: list[PixelBox], rng: np.random.Generator, side: int = WINDOW
) -> tuple[np.ndarray, Truth]:
    """A ``side`` x ``side`` piece of the picture (the whole when smaller), placed on a
    face index when there is one, and its labels normalised to it."""
    h, w = picture.shape[:2]
    faces = [b for b in boxes if b[4] != BACK]
    if faces:  # a window around a random face index: the pictures teach indices
        x1, y1, x2, y2, _ = faces[int(rng.integers(len(faces)))]
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        left = int(np.clip(cx - rng.uniform(0.15, 0.85) * side, 0, max(0, w - side)))
        top = int(np.clip(cy - rng.uniform(0.15, 0.85) * side, 0, max(0, h - side)))
    else:
        left = int(rng.integers(max(1, w - side + 1)))
        top = int(rng.integers(max(1, h - side + 1)))
    piece = picture[top : top + side, left : left + side]
    ph, pw = piece.shape[:2]
    labels: Truth = []
    for x1, y1, x2, y2, cls in boxes:
        area = max(x2 - x1, 1e-6) * max(y2 - y1, 1e-6)
        cx1, cy1 = max(x1 - left, 0.0), max(y1 - top, 0.0)
        cx2, cy2 = min(x2 - left, float(pw)), min(y2 - top, float(ph))
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < KEPT_INSIDE * area:
            continue
        labels.append(
            (cls, ((cx1 + cx2) / 2 / pw, (cy1 + cy2) / 2 / ph, (cx2 - cx1) / pw, (cy2 - cy1) / ph))
        )
    return piece, labels


def hand_windows(
    video: Path, step: int = FRAME_STEP, window: int = WINDOW
) -> Iterator[Window]:
    """The training pictures of one rendered hand (``.truth.json`` beside the video),
    each ``window`` pixels square: the training image size, so none is resized again."""
    record = read_truth(video)
    rng = np.random.default_rng(int(record.get("seed", 0)))
    offset = int(rng.integers(step))
    table_view: TableView | None = None
    roi: tuple[int, int, int, int] | None = None
    min_scale = 1.0
    for index, frame, boxes in video_frames(video, record):
        if index == 0:
            table_view, options = reading_plan(choose_calibration(frame, record["view"]))
            roi, min_scale = options.get("roi"), options["min_scale"]
        if index % step != offset:
            continue
        picture, pixel = network_picture(frame, boxes, table_view, roi, min_scale, rng)
        image, labels = cut_window(picture, pixel, rng, window)
        if any(cls != BACK for cls, _ in labels):
            yield Window(f"{video.stem}-f{index:04d}", image, labels)


def write(windows: Iterator[Window], out: Path) -> int:
    """Save the pictures (JPEG) and YOLO label files; returns how many."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    count = 0
    for window in windows:
        cv2.imwrite(
            str(out / "images" / f"{window.name}.jpg"), window.image, [cv2.IMWRITE_JPEG_QUALITY, 92]
        )
        (out / "labels" / f"{window.name}.txt").write_text(yolo_label_text(window.labels))
        count += 1
    return count


def write_data_yaml(out: Path, base: Path = BASE_DATA) -> Path:
    """``cards-hands.yaml`` beside ``base``: its training images plus these pictures."""
    data = yaml.safe_load(base.read_text(encoding="utf-8"))
    train = data["train"] if isinstance(data["train"], list) else [data["train"]]
    root, images = Path(data["path"]), out.resolve() / "images"
    entry = str(images.relative_to(root)) if images.is_relative_to(root) else str(images)
    data["train"] = [*[t for t in train if t != entry], entry]
    data["names"] = dict(enumerate(CLASSES))
    target = base.with_name("cards-hands.yaml")
    target.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folders",
        nargs="+",
        type=Path,
        help="folders of rendered hands (scripts/bench_reader.py --out)",
    )
    parser.add_argument("--step", type=int, default=FRAME_STEP)
    parser.add_argument(
        "--window", type=int, default=WINDOW, help="picture side: the training --imgsz"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--base", type=Path, default=BASE_DATA, help="data YAML whose training images these join"
    )
    args = parser.parse_args(argv)
    if args.step < 1 or args.window < 32:
        print(
            f"error: --step must be 1 or more and --window 32 or more "
            f"(got {args.step} and {args.window})",
            file=sys.stderr,
        )
        return 2
    videos = [video for folder in args.folders for video in rendered_hands(folder)]
    if not videos:
        print(
            f"error: no rendered hands (hand-*.mp4 with .truth.json) in "
            f"{', '.join(map(str, args.folders))}",
            file=sys.stderr,
        )
        return 2
    if not args.base.exists():
        print(
            f"error: {args.base} not found: run python -m datasets.generate first", file=sys.stderr
        )
        return 2
    total = 0
    for video in videos:
        total += write(hand_windows(video, args.step, args.window), args.out)
    target = write_data_yaml(args.out, args.base)
    print(f"{total} pictures from {len(videos)} hands in {args.out}; data: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
