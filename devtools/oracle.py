"""A stand-in detector with known failure rates: ground-truth boxes plus injected noise.

Why: the trick reader must be judged on its own, apart from the detector. A rendered
hand (``python -m devtools render-hand``) writes beside the video the corner boxes a
perfect detector would report per frame (hidden and glared corners left out); this
oracle reports them with the failures a real one has: boxes and whole frames missed,
jitter, false boxes of random names, a suit misread for its look-alike. Benchmarks
report oracle and real detector figures separately. A test and development tool: no
kiosk carries it (``python -m devtools run --detector oracle`` and ``read-video``
offer it beside the model).

>>> import numpy as np
>>> frames = [[{"card": "JH", "box": [10, 10, 20, 26]}]] * 3
>>> quiet = OracleNoise(miss_box=0, miss_frame=0, false_box=0, mislabel=0)
>>> noisy = noisify(frames, np.random.default_rng(0), (100, 100), quiet)
>>> [d["card"] for f in noisy for d in f]
['JH', 'JH', 'JH']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: every face the detector can name (its 52 classes less the back)
FACES = tuple(r + s for s in "CDHS" for r in "23456789TJQKA")
_LOOK_ALIKE = {"C": "S", "S": "C", "H": "D", "D": "H"}


@dataclass(frozen=True)
class OracleNoise:
    """Failure rates: per box, per frame, or pixels."""

    miss_box: float = 0.15
    miss_frame: float = 0.03
    jitter_px: float = 1.5
    false_box: float = 0.08
    mislabel: float = 0.02
    confidence: tuple[float, float] = (0.45, 0.95)

    @classmethod
    def level(cls, name: str) -> OracleNoise:
        """Named conditions for benchmarks: ``clean``, ``typical``, ``harsh``."""
        levels = {
            "clean": cls(miss_box=0.02, miss_frame=0.0, jitter_px=0.5, false_box=0.0,
                         mislabel=0.0, confidence=(0.8, 0.99)),
            "typical": cls(),
            "harsh": cls(miss_box=0.35, miss_frame=0.08, jitter_px=3.0, false_box=0.25,
                         mislabel=0.06, confidence=(0.3, 0.9)),
        }
        if name not in levels:
            raise ValueError(f"unknown noise level {name!r} ({', '.join(levels)})")
        return levels[name]


def noisify(frames: Sequence[Sequence[dict[str, Any]]], rng: np.random.Generator,
            size: tuple[int, int], noise: OracleNoise = OracleNoise()
            ) -> list[list[dict[str, Any]]]:
    """Per-frame perfect boxes -> per-frame detections (CONTRACTS shape) with noise."""
    return [_noisy_frame(boxes, rng, size, noise) for boxes in frames]


def _noisy_frame(boxes: Sequence[dict[str, Any]], rng: np.random.Generator,
                 size: tuple[int, int], noise: OracleNoise) -> list[dict[str, Any]]:
    w, h = size
    dets: list[dict[str, Any]] = []
    if rng.random() < noise.miss_frame:
        return dets
    for b in boxes:
        if rng.random() < noise.miss_box:
            continue
        card = str(b["card"])
        if card != "back" and rng.random() < noise.mislabel:
            card = card[0] + _LOOK_ALIKE[card[1]]
        box = [float(v) + float(rng.normal(0, noise.jitter_px)) for v in b["box"]]
        dets.append({"card": card, "confidence": round(float(rng.uniform(*noise.confidence)), 3),
                     "box": [round(v, 1) for v in box]})
    if rng.random() < noise.false_box:
        x, y = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        bw = rng.uniform(0.015, 0.03) * w
        dets.append({"card": FACES[int(rng.integers(len(FACES)))],
                     "confidence": round(float(rng.uniform(0.2, 0.6)), 3),
                     "box": [round(x, 1), round(y, 1), round(x + bw, 1), round(y + 1.6 * bw, 1)]})
    return dets


class OracleDetector:
    """``detect(image)`` that returns the next frame's noisy ground-truth boxes.

    Frames must be fed in order, one call per frame of the video the truth
    belongs to; the image itself is not looked at.
    """

    def __init__(self, frames: Sequence[Sequence[dict[str, Any]]], size: tuple[int, int],
                 seed: int = 0, noise: OracleNoise = OracleNoise()) -> None:
        self._frames = noisify(frames, np.random.default_rng(seed), size, noise)
        self._next = 0

    @classmethod
    def beside(cls, video: str | Path, seed: int = 0,
               noise: OracleNoise = OracleNoise()) -> OracleDetector:
        """The oracle for a rendered video, from ``VIDEO.truth.json`` beside it."""
        video = Path(video)
        truth = json.loads(video.with_name(video.stem + ".truth.json").read_text("utf-8"))
        return cls(truth["frames"], (int(truth["size"][0]), int(truth["size"][1])), seed, noise)

    def detect(self, image: Any = None) -> list[dict[str, Any]]:
        if self._next >= len(self._frames):
            return []
        out = self._frames[self._next]
        self._next += 1
        return out

