"""A contact sheet of this project's fixes to the real photos' labels, to check them by eye.

    python -m datasets.label_sheet --out runs/label_sheet.jpg

One tile per fix: the photo around the box (wide enough to show the card's pips, which
settle a suit a small grey index leaves in doubt), the box drawn, and beneath it what
the source said and what the fix says. Corrected names (datasets/real_split/
corrected_labels.txt) first, then the added corners (added_corners.txt).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.real_photos import (
    PHOTO_SIDE,
    REAL_DIR,
    added_corners,
    corrected_labels,
)

TILE = 240


def tile(photo: Path, box: tuple[float, float, float, float], caption: str) -> np.ndarray:
    """The photo around a normalised centre box, the box drawn, a caption beneath."""
    image = cv2.imread(str(photo))
    if image is None:
        raise SystemExit(f"cannot read {photo}")
    cx, cy, w, h = (v * PHOTO_SIDE for v in box)
    x1, y1, x2, y2 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    cv2.rectangle(image, (int(x1), int(y1)), (int(x2), int(y2)), (0, 255, 0), 1)
    reach = max(w, h) * 2.5  # a card is about 3-4 index heights tall
    left, top = int(max(cx - reach, 0)), int(max(cy - reach, 0))
    crop = image[top : int(min(cy + reach, PHOTO_SIDE)), left : int(min(cx + reach, PHOTO_SIDE))]
    out = np.full((TILE + 22, TILE, 3), 255, np.uint8)
    scale = TILE / max(crop.shape[:2])
    fitted = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    out[: fitted.shape[0], : fitted.shape[1]] = fitted
    cv2.putText(out, caption, (3, TILE + 16), 0, 0.42, (0, 0, 0), 1)
    return out


def tiles() -> list[np.ndarray]:
    """Every fix as a tile: corrections first, then added corners."""
    found = []
    for stem, fixes in sorted(corrected_labels().items()):
        for labelled, corrected, box in fixes:
            found.append(
                tile(
                    REAL_DIR / "images" / f"{stem}.jpg",
                    box,
                    f"{stem.split('_')[-1]} {labelled} -> {corrected}",
                )
            )
    for stem, corners in sorted(added_corners().items()):
        for card, box in corners:
            found.append(
                tile(
                    REAL_DIR / "images" / f"{stem}.jpg", box, f"{stem.split('_')[-1]} added {card}"
                )
            )
    return found


def sheet(images: list[np.ndarray], columns: int = 8) -> np.ndarray:
    blank = np.full_like(images[0], 255)
    images = images + [blank] * (-len(images) % columns)
    return np.vstack([np.hstack(images[i : i + columns]) for i in range(0, len(images), columns)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/label_sheet.jpg"))
    args = parser.parse_args(argv)
    images = tiles()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet(images), [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"{args.out}: {len(images)} fixes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
