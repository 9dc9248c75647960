"""A contact sheet of generated scenes with their boxes drawn, to look at before training.

    python -m datasets.contact_sheet --seeds 0-15 --out datasets/contact_sheet.jpg
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.scenes import Scene, render_scene


def draw(scene: Scene) -> np.ndarray:
    """The scene as BGR with each label's box and card name drawn, and the indices that
    show in part (ignored when measuring) in grey, unnamed."""
    image = cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR)
    for label in scene.partial:
        x1, y1, x2, y2 = (int(round(v)) for v in label.box)
        cv2.rectangle(image, (x1, y1), (x2, y2), (160, 160, 160), 1)
    for label in scene.labels:
        x1, y1, x2, y2 = (int(round(v)) for v in label.box)
        colour = (255, 0, 255) if label.card == "back" else (0, 255, 0)
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, 1)
        cv2.putText(image, label.card, (x1, max(8, y1 - 2)), 0, 0.35, colour, 1)
    return image


def sheet(scenes: list[Scene], columns: int = 4) -> np.ndarray:
    tiles = [draw(s) for s in scenes]
    while len(tiles) % columns:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-15", help="first-last seed")
    parser.add_argument("--size", type=int, default=384)
    parser.add_argument("--out", type=Path, default=Path("datasets/contact_sheet.jpg"))
    args = parser.parse_args(argv)
    first, last = (int(v) for v in args.seeds.split("-"))
    scenes = [render_scene(seed, args.size) for seed in range(first, last + 1)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet(scenes), [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(args.out, sum(len(s.labels) for s in scenes), "labels")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
