"""The top-down patch around a pair of 5s, and the card paper and ink in it.

The pair's neighbourhood is warped from the frame to a square patch seen from above
(:func:`patch`, by the calibration), so every card has the same size in it wherever it
lies: :data:`PATCH_SCALE` pixels a table unit. Lab colours are OpenCV's 8-bit ones
(lightness 0-255, a and b centred on :data:`NEUTRAL`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.detection import Detection

#: a card's width in table units (63 mm on a 75 cm play area), to size pips by
CARD_UNITS = 0.085
#: a card's length over its width (88 mm by 63 mm)
CARD_ASPECT = 1.4
#: the patch around a pair: half its side (table units) and its pixels per table unit
PATCH_HALF = 0.2
PATCH_SCALE = 1200.0
#: Lab's a and b of a grey (OpenCV's 8-bit Lab)
NEUTRAL = 128
#: the card paper in a shadow is this share of the lightness of the paper at its corner
#: at least (a lamp may light the corner and leave the far pips in a shadow's edge)
IN_SHADE = 0.55
#: how far (Lab a, b) a pixel's hue may be from the 5s' paper's to be that paper
PAPER_HUE = 16.0
#: where ink begins, between the paper (0) and the strongest ink on the cards (1): half
#: way keeps a blurred pip its printed size
INK_CUT = 0.5

# The paper joined to a printed corner (:func:`paper`).
#: pixels of the corner needed to know its paper's colour
CORNER_SAMPLES = 20
#: the paper's colour is the median of the corner's pixels this light (percentile) or more
PAPER_PERCENTILE = 60
#: a pixel whiter than the paper may be this much (Lab a, b) more coloured than it
WHITER_CHROMA = 4
#: a region of paper this share of a card's area at least is the card's
PAPER_REGION = 0.05

# A lamp's glare (:func:`glare`).
#: a pixel this light (Lab lightness) and ...
BLOWN_LIGHTNESS = 247
#: ... this near grey (Lab a) is blown out
BLOWN_CHROMA = 12
#: a blown-out region running onto the table over this share of a card's area is a glare
GLARE_OFF_CARD = 0.15

# The ink in the 5s' colour (:func:`ink`).
#: the paper around a mark is measured over this share of a card's width
AROUND = 0.35
#: the weakest red ink (red over the other channels, a share of the paper's lightness)
RED_FLOOR = 0.15
#: the weakest black ink (darkness, a share of the paper's lightness)
BLACK_FLOOR = 0.3
#: black ink is no more coloured than this (Lab a, b from grey)
BLACK_CHROMA = 30
#: the strongest ink on the cards: this percentile of their pixels' strength
INK_PEAK = 99


def patch(image: np.ndarray, calibration: Calibration, centre: Sequence[float]
          ) -> tuple[np.ndarray, np.ndarray]:
    """The top-down patch around ``centre`` and the 3x3 map from frame pixels to it."""
    side = int(2 * PATCH_HALF * PATCH_SCALE)
    x0, y0 = centre[0] - PATCH_HALF, centre[1] - PATCH_HALF
    to_patch = np.array([[PATCH_SCALE, 0, -x0 * PATCH_SCALE],
                         [0, PATCH_SCALE, -y0 * PATCH_SCALE], [0, 0, 1.0]]) @ calibration.homography
    warped = cv2.warpPerspective(image, to_patch, (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    return warped, to_patch


def boxes_in_patch(dets: Sequence[Detection], to_patch: np.ndarray) -> list[np.ndarray]:
    """Each detection's box as a polygon in the patch."""
    out = []
    for d in dets:
        x1, y1, x2, y2 = d.box
        quad = np.array([[(x1, y1), (x2, y1), (x2, y2), (x1, y2)]], np.float64)
        out.append(cv2.perspectiveTransform(quad, to_patch)[0])
    return out


def chroma(lab: np.ndarray) -> np.ndarray:
    """Each pixel's distance from grey (Lab a, b)."""
    away: np.ndarray = np.hypot(lab[:, :, 1] - NEUTRAL, lab[:, :, 2] - NEUTRAL)
    return away


def paper(lab: np.ndarray, corner: np.ndarray, card_area: float) -> np.ndarray:
    """The card paper joined to one printed corner: of the paper's hue (light and shade
    change its lightness far more), or whiter than it; nothing when the corner is off
    the picture or shows no paper."""
    samples = lab[corner]
    if len(samples) < CORNER_SAMPLES:
        return np.zeros(corner.shape, bool)
    light = samples[samples[:, 0] >= np.percentile(samples[:, 0], PAPER_PERCENTILE)]
    colour = np.median(light, axis=0)
    hue = np.hypot(lab[:, :, 1] - colour[1], lab[:, :, 2] - colour[2]) < PAPER_HUE
    whiter = (lab[:, :, 0] >= colour[0]) & (chroma(lab) <= np.hypot(
        colour[1] - NEUTRAL, colour[2] - NEUTRAL) + WHITER_CHROMA)
    is_paper = ((hue | whiter) & (lab[:, :, 0] > IN_SHADE * colour[0])).astype(np.uint8)
    _n, labels, stats, _c = cv2.connectedComponentsWithStats(is_paper, connectivity=4)
    near = set(np.unique(labels[corner & (is_paper > 0)]).tolist()) - {0}
    keep = [i for i in near if stats[i, cv2.CC_STAT_AREA] > PAPER_REGION * card_area]
    found: np.ndarray = np.isin(labels, keep)
    return found


def card_pixels(calibration: Calibration, place: Sequence[float]) -> float:
    """A card's width in the picture's pixels at ``place``, the narrower way."""
    x, y = float(place[0]), float(place[1])
    pts = calibration.to_image([(x, y), (x + CARD_UNITS, y), (x, y + CARD_UNITS)])
    return float(min(np.hypot(*(pts[1] - pts[0])), np.hypot(*(pts[2] - pts[0]))))


def glare(lab: np.ndarray, cards: np.ndarray, card_area: float) -> bool:
    """Whether a light's reflection lies on the cards: a blown-out patch that runs from
    the cards onto the table (white paper alone may blow out, but stops at its edge)."""
    blown = ((lab[:, :, 0] > BLOWN_LIGHTNESS)
             & (np.abs(lab[:, :, 1] - NEUTRAL) < BLOWN_CHROMA)).astype(np.uint8)
    n, labels, _stats, _c = cv2.connectedComponentsWithStats(blown, connectivity=8)
    for i in range(1, n):
        region = labels == i
        if (region & (cards > 0)).any() and \
                (region & (cards == 0)).sum() > GLARE_OFF_CARD * card_area:
            return True
    return False


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """``mask`` with every enclosed hole filled: the cards, pips and all."""
    h, w = mask.shape
    outside = np.zeros((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = mask
    cv2.floodFill(outside, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 2)
    filled: np.ndarray = (outside[1:-1, 1:-1] != 2).astype(np.uint8)
    return filled


def grow(quad: np.ndarray, factor: float) -> np.ndarray:
    """A polygon grown (or shrunk) ``factor`` times about its centre."""
    centre = quad.mean(axis=0)
    grown: np.ndarray = centre + (quad - centre) * factor
    return grown


def ink(image: np.ndarray, lab: np.ndarray, red: bool, on_card: np.ndarray,
        card_w: float) -> np.ndarray:
    """The pixels printed in the 5s' suit colour: red (hearts, diamonds) or black.

    Measured against the paper around each mark (one card of a pair may lie in a lamp's
    light, the other in shade) and cut at :data:`INK_CUT` between the paper and the
    strongest ink on the cards, so a blurred pip keeps about its printed size (a fixed
    cut shrinks small pips more than large ones).
    """
    size = int(AROUND * card_w) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    lightness = lab[:, :, 0]
    around = np.maximum(cv2.morphologyEx(lightness, cv2.MORPH_CLOSE, kernel), 1.0)
    bgr = image.astype(np.float32)
    if red:
        strength = (bgr[:, :, 2] - np.maximum(bgr[:, :, 0], bgr[:, :, 1])) / around
        floor = RED_FLOOR
    else:
        strength = np.where(chroma(lab) < BLACK_CHROMA, (around - lightness) / around, 0.0)
        floor = BLACK_FLOOR
    inked = strength[on_card > 0]
    peak = float(np.percentile(inked, INK_PEAK)) if inked.size else 0.0
    paper_level = float(np.median(inked)) if inked.size else 0.0
    cut = max(floor, paper_level + INK_CUT * (peak - paper_level))
    return np.asarray(strength > cut)
