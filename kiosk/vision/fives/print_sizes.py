"""How large a deck's 5s print their marks, and which mark a blob of a given size is.

Sizes are areas in card widths squared (a card's width is 1), so a pip measures the same
in a near or a far still once the still is cut to the pair's top-down patch. Marks are
compared by their radii (:func:`radius_ratio`): a pip, the corner's rank and the
corner's suit differ in size in every deck measured, which tells them apart where the
detector did not box a corner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

#: a mark found in a still: its area (pixels) and its centre (x, y, pixels)
Blob = tuple[int, float, float]

#: a pip's area, in card widths squared: the decks measured print theirs between 0.008
#: and 0.032 (datasets/marker_stills.py finds them in the art)
PIP_AREA = (0.004, 0.06)
#: the two 5s' pips (one colour, two suits) differ in area by less than this ratio in
#: every deck measured (1.86 at most, hearts against diamonds); a jumbo corner's marks
#: are 2.3 to 3.3 times a pip
MATE_SIZE = 2.0
#: a blob is a pip of a known size when its radius is within these shares of the pip's
#: (a corner's suit is at most 0.77 or at least 1.6 of it in every deck measured)
KNOWN_SIZE = (0.82, 1.3)
#: two suits' pips whose radii differ by less than this share are told apart by shape,
#: not size (clubs and spades in most decks): 12 %
ALIKE = 1.12

# A 5's face as drawn (:meth:`FiveSizes.of_face`): RGB levels 0-255, shares of its size.
#: a pixel is red ink when its red exceeds its green and blue by this much
RED_INK_EXCESS = 60
#: a pixel is black ink when none of its channels reaches this level
BLACK_INK_LEVEL = 100
#: a pixel of an RGBA picture is on the card when its alpha exceeds this
OPAQUE = 128
#: the pips printed in a 5's middle: within these shares of its width, across...
INNER_ACROSS = (0.2, 0.8)
#: ... and of its height, down (the corners' marks lie outside the first)
INNER_DOWN = (0.1, 0.9)
#: pips on a 5
FIVE_PIPS = 5


@dataclass(frozen=True)
class FiveSizes:
    """How large a deck's 5 prints its marks, in card widths squared: a pip, and each
    mark in a corner (the rank and the suit).

    Why: pips and the corners' marks differ in size in every deck measured (a corner's
    suit is a third of a pip, or in jumbo-index decks three times one), so known sizes
    tell them apart where the detector missed a corner or blur ran a corner's rank and
    suit together.
    """

    pip: float
    corner: tuple[float, ...]

    @classmethod
    def of_face(cls, face: np.ndarray) -> FiveSizes:
        """From a picture of the 5's face (RGB or RGBA, upright and trimmed to the card:
        a deck profile's photo or the art): the median of its five largest inner blobs,
        and the blobs within a fifth of the card's width of its sides."""
        h, w = face.shape[:2]
        rgb = face[:, :, :3].astype(np.int16)
        alpha = face[:, :, 3] > OPAQUE if face.shape[2] == 4 else np.ones((h, w), bool)
        red = rgb[:, :, 0] - np.maximum(rgb[:, :, 1], rgb[:, :, 2]) > RED_INK_EXCESS
        dark = rgb.max(axis=2) < BLACK_INK_LEVEL
        ink = ((red | dark) & alpha).astype(np.uint8)
        n, _labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > PIP_AREA[0] * w * w]
        across, down = INNER_ACROSS, INNER_DOWN
        inner = sorted((int(stats[i, cv2.CC_STAT_AREA]) for i in big
                        if across[0] * w < centres[i][0] < across[1] * w
                        and down[0] * h < centres[i][1] < down[1] * h),
                       reverse=True)[:FIVE_PIPS]
        if len(inner) < FIVE_PIPS:
            raise ValueError(f"found {len(inner)} pips on the 5, not 5")
        corner = sorted({round(float(stats[i, cv2.CC_STAT_AREA]) / (w * w), 4) for i in big
                         if not across[0] * w < centres[i][0] < across[1] * w})
        return cls(pip=float(np.median(inner)) / (w * w), corner=tuple(corner))


def is_pip(area: float, sizes: Sequence[FiveSizes]) -> bool:
    """Whether a blob of ``area`` (card widths squared) is nearer in size to a pip than to
    any corner mark of the pair's 5s, and near enough to a pip's size."""
    return pip_of(area, list(enumerate(sizes))) is not None


def alike(a: FiveSizes, b: FiveSizes) -> bool:
    """Whether two 5s print pips too near in size to tell apart (radii within 12 %)."""
    return radius_ratio(a.pip, b.pip) < ALIKE


def radius_ratio(a: float, b: float) -> float:
    """How many times wider the larger of two marks of areas ``a`` and ``b`` is: marks
    are compared by their radii (1.0: alike).

    >>> radius_ratio(0.04, 0.01), radius_ratio(0.01, 0.04)
    (2.0, 2.0)
    """
    return math.exp(abs(math.log(a / b)) / 2)


def pip_of(area: float, sizes: Sequence[tuple[Any, FiveSizes]]) -> Any:
    """Whose pip a blob of ``area`` is (the key beside its sizes), or None when it is
    nearer in size to a corner's mark, or to no pip's size near enough."""
    r = math.sqrt(area)
    marks = [(math.sqrt(s.pip), key) for key, s in sizes]
    marks += [(math.sqrt(a), None) for _key, s in sizes for a in s.corner]
    ref, key = min(marks, key=lambda m: abs(math.log(r / m[0])))
    return key if KNOWN_SIZE[0] <= r / ref <= KNOWN_SIZE[1] else None


def median_area(blobs: Sequence[Blob]) -> float:
    """The median area of ``blobs`` (pixels)."""
    return float(np.median([b[0] for b in blobs]))
