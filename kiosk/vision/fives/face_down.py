"""Face-down cards found by the table's colour, and a side's nought read from one.

A side whose 5s show no face (nought: the top card face down square on the bottom) is
read where its 5s were last seen, when a face-down card lies there and no pip is in
sight beside it. A face-down card is a ``back`` the detector names or a card's outline
of another hue than the table's two (a checked or striped cloth, a shadow across it; a
picture back, named or not, whose own pips are not counted).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from kiosk.rules.cards import Seat, Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.fives.patch import (
    CARD_ASPECT,
    CARD_UNITS,
    PATCH_HALF,
    PATCH_SCALE,
    chroma,
    fill_holes,
    grow,
    ink,
    patch,
)
from kiosk.vision.fives.print_sizes import FiveSizes, is_pip
from kiosk.vision.fives.reading import CENTRE, RED, MarkerReading, Point

#: how close (table units) a side's 5s must be to where they were last seen to count
#: as the same place
SAME_PLACE = 0.12
#: a face-down card nearer the other side's 5s than this (table units: two card
#: widths, their top card's centre from their printed corners) is theirs
THEIRS = 2 * CARD_UNITS
#: where a side's 5s lie before they were ever seen: this far from the table's centre
#: across their edge and along it (the tricks lie nearer the middle of the edge)
CORNER_END = (0.3, 0.2)
#: how far (Lab a, b) from the table's hue a card's back must be to be found by its
#: outline alone
OTHER_HUE = 18.0
#: the share of the table the lesser of two hues covers at least to make a two-hued cloth
SECOND_HUE = 0.2

# A card found by its outline (:func:`backs_by_outline`), in a top-down picture of the
# whole play area.
#: that picture's pixels a table unit
TABLE_SCALE = 400.0
#: the picture must show this share of the table to know its hue
TABLE_SHOWN = 0.25
#: gaps in a region of another hue closed over this many pixels
CLOSING = 5
#: a region this share of a card's area at least is looked at ...
REGION_LEAST = 0.3
#: ... and its outline encloses between these shares of a card's area
OUTLINE_AREA = (0.6, 1.5)
#: its length over its width (a card's is 1.4)
OUTLINE_ASPECT = (1.2, 1.65)
#: the share of its bounding rectangle it fills at least
OUTLINE_FILL = 0.8
#: pixels sampled from the table to find its hues, at most
HUE_SAMPLES = 20000
#: the second hue starts from the pixels farther from the median than this percentile
FAR_PERCENTILE = 70
#: rounds of two-means
HUE_ROUNDS = 8

# A pip beside a face-down card (:func:`pip_beside`).
#: paper is this share of the light pixels' lightness at least ...
PAPER_LIGHTNESS = 0.8
#: ... the light pixels being at this percentile
LIGHT_PERCENTILE = 97
#: ... and no more coloured than this (Lab a, b from grey)
PAPER_CHROMA = 20
#: a back found by its outline is grown this many times, so its own print is left out
BACK_MARGIN = 1.08
#: without sizes, a pip's area lies between these (card widths squared)
ANY_PIP = (0.01, 0.05)

#: a face-down card: where it lies (table units), and its corners where it was found by
#: its outline alone (None: a ``back`` the detector named)
FaceDown = tuple[Point, np.ndarray | None]


def face_down_cards(image: np.ndarray, dets: Sequence[Detection],
                    calibration: Calibration) -> list[FaceDown]:
    """Each face-down card on the table: the cards found by their outline (with its
    corners), and the ``back`` boxes the detector named away from those. A named back
    found by its outline keeps the outline, so that its picture's pips are not a 5's."""
    backs = [d for d in dets if d.card == FACE_DOWN]
    named = calibration.to_table([d.centre for d in backs]) if backs else np.zeros((0, 2))
    cards: list[FaceDown] = [((float(p[0]), float(p[1])), outline) for p, outline in
                             backs_by_outline(image, calibration)]
    # a named back found by its outline too keeps the outline: its picture's pips are
    # its own, not a 5's
    found = np.array([c[0] for c in cards]) if cards else np.zeros((0, 2))
    cards += [((float(p[0]), float(p[1])), None) for p in named
              if not len(found) or float(np.hypot(*(found - p).T).min()) > SAME_PLACE / 2]
    return cards


def read_nought(image: np.ndarray, cards: Sequence[FaceDown], calibration: Calibration,
                side: Team, last: Point | None, sizes: Mapping[str, FiveSizes],
                theirs: Sequence[Point] = ()) -> MarkerReading:
    """No 5 face on this side: nought if a face-down card lies where its 5s were last
    seen, or, before they were ever seen, if exactly one face-down card lies at a corner
    end of this side's edges (the tricks are laid in the middle of an edge), not by the
    other side's 5s (``theirs``: a table's corner ends two edges, and a face-down top
    card on their 5s is theirs); and in either case no pip in sight beside it (a 5
    whose corners the detector missed)."""
    if last is not None:
        near = [c for c in cards if math.dist(c[0], last) < SAME_PLACE]
        if not near:
            return MarkerReading(side, None, place=last,
                                 why="no 5 and no face-down card where this side's 5s were")
        place, outline = last, near[0][1]
    else:
        ends = [c for c in cards if at_corner_end(c[0], side)
                and all(math.dist(c[0], p) > THEIRS for p in theirs)]
        if len(ends) != 1:
            return MarkerReading(side, None, why="no 5 seen on this side" if not ends else
                                 "no 5 seen, and more than one face-down card where they "
                                 "may lie")
        place, outline = ends[0]
    if pip_beside(image, calibration, place, sizes, outline):
        return MarkerReading(side, None, place=place,
                             why="a pip beside the face-down card, but no 5 named")
    return MarkerReading(side, 0, place=place, pips=0, top_face_up=False)


def backs_by_outline(image: np.ndarray, calibration: Calibration
                     ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where a lone card lies on the table, found by its outline (a back the detector
    does not name, such as a picture back): a region of another hue than the table's, of
    one card's size and shape; its centre and corners in table units."""
    side = int(TABLE_SCALE)
    to_top = np.array([[TABLE_SCALE, 0, 0], [0, TABLE_SCALE, 0], [0, 0, 1.0]]) \
        @ calibration.homography
    top = cv2.warpPerspective(image, to_top, (side, side), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT)
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32)
    seen = top.any(axis=2)
    if seen.sum() < TABLE_SHOWN * side * side:
        return []  # the picture shows too little of the table to know its hue
    off = (off_table_hue(lab[:, :, 1:], table_hues(lab[seen][:, 1:])) > OTHER_HUE) & seen
    other = cv2.morphologyEx(off.astype(np.uint8), cv2.MORPH_CLOSE,
                             np.ones((CLOSING, CLOSING), np.uint8))
    card = CARD_UNITS * TABLE_SCALE
    card_area = card * card * CARD_ASPECT
    n, labels, stats, _centres = cv2.connectedComponentsWithStats(other, connectivity=8)
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < REGION_LEAST * card_area:
            continue
        contour, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        # the outline's whole area: a picture back prints parts of the table's hue
        area = float(cv2.contourArea(contour[0]))
        if not OUTLINE_AREA[0] * card_area < area < OUTLINE_AREA[1] * card_area:
            continue
        rect = cv2.minAreaRect(contour[0])
        (x, y), (rw, rh), _a = rect
        long, short = max(rw, rh), max(min(rw, rh), 1.0)
        if OUTLINE_ASPECT[0] < long / short < OUTLINE_ASPECT[1] and \
                area > OUTLINE_FILL * rw * rh:
            out.append((np.array([x, y]) / TABLE_SCALE, cv2.boxPoints(rect) / TABLE_SCALE))
    return out


def table_hues(ab: np.ndarray) -> np.ndarray:
    """The table's two hues (Lab a, b): a checked or striped cloth's two colours, a
    shadow over part of it, or a plain cloth's spread (wood's grain, a lamp's fall-off)
    in two halves; the centres of the two where the lesser holds :data:`SECOND_HUE` of
    the table or more, else the median twice. The cards lie on a small share of the
    table and never make a second hue."""
    sample = ab[:: max(1, len(ab) // HUE_SAMPLES)].astype(np.float32)
    median = np.median(sample, axis=0)
    far = np.linalg.norm(sample - median, axis=1)
    centres = np.stack([median, np.median(sample[far >= np.percentile(far, FAR_PERCENTILE)],
                                          axis=0)])
    for _ in range(HUE_ROUNDS):  # two-means, started deterministically: median and far
        second = (np.linalg.norm(sample - centres[1], axis=1)
                  < np.linalg.norm(sample - centres[0], axis=1))
        if not SECOND_HUE * len(sample) <= second.sum() <= (1 - SECOND_HUE) * len(sample):
            return np.stack([median, median])
        centres = np.stack([np.median(sample[~second], axis=0), np.median(sample[second], axis=0)])
    return centres


def off_table_hue(ab: np.ndarray, hues: np.ndarray) -> np.ndarray:
    """Each pixel's hue distance (Lab a, b) from the table's: from the segment between
    its two hues, which covers the blend along their edges."""
    start, run = hues[0], hues[1] - hues[0]
    along = np.clip(((ab - start) @ run) / max(float(run @ run), 1e-6), 0.0, 1.0)
    distance: np.ndarray = np.linalg.norm(ab - (start + along[..., None] * run), axis=-1)
    return distance


def pip_beside(image: np.ndarray, calibration: Calibration, place: Sequence[float],
               sizes: Mapping[str, FiveSizes], outline: np.ndarray | None = None) -> bool:
    """Whether a pip-sized mark of either colour lies on light card paper near
    ``place``: the evidence that a 5 shows there after all. Not within ``outline`` (the
    face-down card's corners in table units, where it was found by its outline): a
    picture back may print pips of its own."""
    picture, _to_patch = patch(image, calibration, place)
    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness = lab[:, :, 0]
    light = lightness > PAPER_LIGHTNESS * np.percentile(lightness, LIGHT_PERCENTILE)
    paper = (light & (chroma(lab) < PAPER_CHROMA)).astype(np.uint8)
    cards = fill_holes(paper)
    card_w = CARD_UNITS * PATCH_SCALE
    back = np.zeros(paper.shape, np.uint8)
    if outline is not None:
        corners = (outline - (np.asarray(place) - PATCH_HALF)) * PATCH_SCALE
        cv2.fillPoly(back, [np.round(grow(corners, BACK_MARGIN)).astype(np.int32)], 1)
    for red in (True, False):
        inked = ink(picture, lab, red, cards, card_w) & (paper == 0) & (cards > 0) & (back == 0)
        n, _labels, stats, _c = cv2.connectedComponentsWithStats(inked.astype(np.uint8),
                                                                 connectivity=8)
        known = [s for suit, s in sizes.items() if (suit in RED) == red]
        for i in range(1, n):
            area = float(stats[i, cv2.CC_STAT_AREA]) / card_w ** 2
            if known and is_pip(area, known) or not known and ANY_PIP[0] < area < ANY_PIP[1]:
                return True
    return False


def at_corner_end(point: Sequence[float], side: Team) -> bool:
    """Whether a point lies in the band along one of ``side``'s edges, towards a corner.

    >>> at_corner_end((0.2, 0.93), Team.NS), at_corner_end((0.5, 0.93), Team.NS)
    (True, False)
    """
    dx, dy = float(point[0]) - CENTRE, float(point[1]) - CENTRE
    depth, lateral = (abs(dy), abs(dx)) if side is Seat.N.team else (abs(dx), abs(dy))
    return depth > CORNER_END[0] and lateral > CORNER_END[1]
