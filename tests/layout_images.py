"""Rendered enrolment layouts, drawn once and then read from a file.

A layout photo takes about three seconds to draw (datasets.layouts), and the same deck,
seed and options always draw the same picture: several test modules and each UI walk ask
for the same few. They are kept as PNG (lossless: the pixels read back are the pixels
drawn) beside the card art, under a key naming the drawing code's own text, so a change
to any of datasets/ draws them afresh.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Collection, Mapping
from pathlib import Path

import cv2
import numpy as np

DATASETS = Path(__file__).resolve().parents[1] / "datasets"


@functools.cache
def _code_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(DATASETS.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def layout_image(deck: str, seed: int, *, size: tuple[int, int] = (1280, 720),
                 missing: Collection[str] = (), swapped: Mapping[str, str] | None = None
                 ) -> np.ndarray:
    """``datasets.layouts.render_layout(...).image``, drawn once per machine."""
    from datasets import cards_art

    key = repr((deck, seed, size, sorted(missing), sorted((swapped or {}).items()),
                cards_art.SHEETS_VERSION, _code_digest()))
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    path = cards_art.CACHE_DIR / "layouts" / f"{name}.png"
    if path.is_file():
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is not None:
            return image
    from datasets.layouts import render_layout

    image = (render_layout(deck, seed, size, missing=missing, swapped=swapped) if swapped
             else render_layout(deck, seed, size, missing=missing)).image
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.png")  # another worker may race
    cv2.imwrite(str(partial), image)
    os.replace(partial, path)
    return image
