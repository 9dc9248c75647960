"""The table's two 5s, measured from the enrolment layout for the score-marker reader.

Why: the 5s' reader (kiosk.vision.markers) tells a pip from a corner's print by size,
and every deck prints them at its own sizes; the players already lay both 5s face up
in the layout's fifth row, so their sizes come with the deck profile at no extra step.
Each 5 is found in its place as the bright card against the table, turned upright and
trimmed to the card, then measured as the art would be (:meth:`FiveSizes.of_face`).
A 5 that cannot be measured is left out: the reader works without its sizes, less well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from kiosk.vision.markers import FiveSizes

#: the card's paper: brighter than this (0..255, the picture's grey) and than the table
PAPER = 150
#: the part of a place a card must fill to be taken for the card
LEAST_SHARE = 0.15


def fives_of_layouts(readings: Sequence[Any]) -> dict[str, tuple[float, tuple[float, ...]]]:
    """The 5s' sizes by suit from layout readings (kiosk.vision.enrolment.LayoutReading),
    as a deck profile keeps them: the first reading that measures each suit."""
    out: dict[str, tuple[float, tuple[float, ...]]] = {}
    for reading in readings:
        fives = [(r.card[1], r.place.box) for r in reading.places
                 if r.card and r.card[0] == "5" and r.card[1] not in out]
        for suit, sizes in five_sizes(reading.photo.image, fives).items():
            out[suit] = (sizes.pip, sizes.corner)
    return out


def every_suit(fives: dict[str, tuple[float, tuple[float, ...]]]
               ) -> dict[str, tuple[float, tuple[float, ...]]]:
    """The sizes for all four 5s: the layout shows the table's two, of one colour, and
    the deck prints the other two alike, so each missing suit borrows a measured one.

    >>> sorted(every_suit({"C": (0.02, (0.01,)), "S": (0.03, (0.01,))}).items())[1]
    ('D', (0.02, (0.01,)))
    """
    if not fives:
        return {}
    measured = sorted(fives)
    return {suit: fives.get(suit, fives[measured[i % len(measured)]])
            for i, suit in enumerate("CDHS")}


def five_sizes(image: np.ndarray, fives: Sequence[tuple[str, tuple[float, float, float, float]]]
               ) -> dict[str, FiveSizes]:
    """Each 5's print sizes by its suit, from a BGR layout photo; ``fives`` holds (suit,
    place box in the picture's 0..1 coordinates) for the 5s the layout read."""
    out: dict[str, FiveSizes] = {}
    for suit, box in fives:
        face = upright_card(image, box)
        if face is None:
            continue
        try:
            out[suit] = FiveSizes.of_face(cv2.cvtColor(face, cv2.COLOR_BGR2RGB))
        except ValueError:  # not five pips to be seen: a hand over it, glare
            continue
    return out


def upright_card(image: np.ndarray, box: tuple[float, float, float, float]
                 ) -> np.ndarray | None:
    """The card lying in ``box`` (0..1 of the picture), warped upright (taller than
    wide) and trimmed to its edges; None where no card-sized paper lies there."""
    h, w = image.shape[:2]
    x1, y1 = int(box[0] * w), int(box[1] * h)
    x2, y2 = int(np.ceil(box[2] * w)), int(np.ceil(box[3] * h))
    region = image[max(y1, 0) : min(y2, h), max(x1, 0) : min(x2, w)]
    if region.size == 0:
        return None
    grey = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    _, otsu = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = (np.asarray(otsu) > 0) & (grey > PAPER)
    paper = cv2.morphologyEx(bright.astype(np.uint8) * 255, cv2.MORPH_CLOSE,
                             np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    card = max(contours, key=cv2.contourArea)
    if cv2.contourArea(card) < LEAST_SHARE * grey.size:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(card)
    corners = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float32)
    width, height = (rw, rh) if rh >= rw else (rh, rw)
    # order the corners so that the warp stands the card upright: the short sides on top
    ordered = _upright_order(corners)
    target = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
    warp = cv2.getPerspectiveTransform(ordered, target)
    return cv2.warpPerspective(region, warp, (int(round(width)), int(round(height))))


def _upright_order(corners: np.ndarray) -> np.ndarray:
    """A rectangle's corners as top-left, top-right, bottom-right, bottom-left of the card
    stood upright (its longer sides vertical)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ring = corners[np.argsort(angles)]  # clockwise in the picture (y down)
    sides = [np.linalg.norm(ring[(i + 1) % 4] - ring[i]) for i in range(4)]
    start = 0 if sides[0] <= sides[1] else 1  # begin with a short side: the top
    ring = np.roll(ring, -start, axis=0)
    top = ring[:2]
    if top.mean(axis=0)[1] > centre[1]:  # that short side is the bottom: turn half round
        ring = np.roll(ring, 2, axis=0)
    return np.ascontiguousarray(ring, np.float32)
