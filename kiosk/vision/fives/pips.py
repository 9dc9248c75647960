"""A pair of 5s counted by its pips: the marks of the 5s' colour on their paper, by size.

A pip is a squat, solid mark of the 5s' colour (red for hearts and diamonds, black for
clubs and spades) lying on the 5s' own paper, of a pip's size: with the table's 5s'
sizes known (:class:`~kiosk.vision.fives.print_sizes.FiveSizes`, from the deck, or learnt
from earlier stills by :mod:`kiosk.vision.fives.marker_sizes`) nearer a pip's than any
corner mark's, measured at the still's own scale where a face-up top card's five pips
give it (blur); without them, the largest sets of marks printed alike (two sets at most,
of sizes two 5s of one colour can print), a boxed corner's mark counting only where it
is of a set's size. Under a face-down top card only the named bottom 5's pips count; a 5
the detector did not name counts only as a whole face-up top card (four or five pips
alike). Anything that does not add up is "cannot read", with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from kiosk.rules.cards import Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.fives.marker_sizes import mate_seen, sizes_seen
from kiosk.vision.fives.patch import (
    CARD_ASPECT,
    CARD_UNITS,
    PATCH_SCALE,
    boxes_in_patch,
    card_pixels,
    fill_holes,
    glare,
    grow,
    ink,
    paper,
    patch,
)
from kiosk.vision.fives.print_sizes import (
    ALIKE,
    FIVE_PIPS,
    MATE_SIZE,
    PIP_AREA,
    Blob,
    FiveSizes,
    alike,
    median_area,
    pip_of,
    radius_ratio,
)
from kiosk.vision.fives.reading import BLACK, RED, MarkerReading, Point

#: a pip narrower than this in the picture (pixels) is not counted: too far from the
#: camera to tell from a smudge
MIN_PIP_PIXELS = 4.0
#: the pip size taken for the distance check where no size is known (card widths squared)
SMALLEST_PIP = 0.01
#: pips of one 5 are printed alike: areas within this ratio of each other
SAME_SIZE = 1.5
#: a still measures its marks within this factor of their printed area, either way
#: (blur, the ink's cut): about 1.59
SCALE_REACH = 2.0 ** (1 / 1.5)
#: a mark this many times longer than wide is no pip (:func:`_glyph`)
ELONGATED = 1.6
#: a mark filling less than this share of its convex hull is printed thin (no pip)
HULL_FILL = 0.55
#: the middle of a printed corner: its box shrunk to this share about its centre
CORNER_MIDDLE = 0.7
#: a 5's paper is looked for within its corner's box grown this many times
AROUND_CORNER = 1.6
#: the ring around a mark, to see the paper it lies on: this share of a card's width,
#: and this many pixels at least
RING = 0.04
MIN_RING_PIXELS = 2
#: a pip lies on the 5s' own paper: this share of the ring around it at least is that paper
ON_PAPER = 0.6
#: a corner's suit lies beside its rank: within this share of a card's width
BESIDE_RANK = 0.32
#: two 5s show ten pips at most
MOST_PIPS = 10
#: a 5 the detector did not name counts when this many of its pips show (one may be lost
#: to glare or blur)
WHOLE_FIVE = 4


@dataclass
class _Marks:
    """The marks of the 5s' colour on their paper, sorted by what they may be."""

    #: pixels a card's width in the patch
    card_w: float
    #: every printed corner the detector boxed, whole
    boxed_whole: np.ndarray
    #: pip-like marks: (area, x, y)
    blobs: list[Blob] = field(default_factory=list)
    #: thin ink on the paper: a printed rank
    glyphs: list[tuple[float, float]] = field(default_factory=list)
    #: pip-like marks in a boxed corner
    boxed: list[Blob] = field(default_factory=list)
    #: the marks in the 5s' boxed corners (card widths squared)
    corner_marks: list[float] = field(default_factory=list)


def count_pair(image: np.ndarray, fives: Sequence[Detection], dets: Sequence[Detection],
               calibration: Calibration, side: Team, place: Point,
               sizes: Mapping[str, FiveSizes], face_down_top: bool) -> MarkerReading:
    """One pair's count from its pips, its top card face down or face up as told."""
    suits = {d.card[1] for d in fives}
    red = bool(suits & RED)
    if suits & RED and suits - RED:
        return MarkerReading(side, None, place=place, why="5s of both colours in one pair")
    # the two 5s are of one colour (the rule book): a face-up top card may be either
    # suit of it, named or not; under a face-down top only the named bottom 5 shows
    colour = RED if red else BLACK
    shown = suits if face_down_top else colour
    # the sizes say which blobs are pips only when they cover every 5 that can show
    known = [sizes[suit] for suit in shown if suit in sizes] if shown <= sizes.keys() else []
    smallest = min((s.pip for s in known), default=SMALLEST_PIP)
    if math.sqrt(4 * smallest / math.pi) * card_pixels(calibration, place) < MIN_PIP_PIXELS:
        return MarkerReading(side, None, place=place, why="too far from the camera to count")
    marks = _marks(image, calibration, place, red, fives, dets, face_down_top, bool(known))
    if isinstance(marks, str):
        return MarkerReading(side, None, place=place, why=marks)
    if known:
        whose = [(suit, sizes[suit]) for suit in shown if suit in sizes]
        pips = _pips_of_known_sizes(marks, whose, suits, sizes, face_down_top)
        seen: tuple[tuple[str, FiveSizes], ...] = ()
    else:
        pips, seen, why = _pips_printed_alike(marks, suits, colour, sizes, face_down_top)
        if why:
            return MarkerReading(side, None, place=place, pips=len(pips), seen=seen, why=why)
    return _counted(side, place, pips, seen)


def _counted(side: Team, place: Point, pips: Sequence[Blob],
             seen: tuple[tuple[str, FiveSizes], ...]) -> MarkerReading:
    """The reading of a pair whose pips are ``pips``."""
    count = len(pips)
    if count > MOST_PIPS:
        return MarkerReading(side, None, place=place, pips=count, why="more than ten pips")
    face_up = count >= FIVE_PIPS
    if count == 0:
        return MarkerReading(side, None, place=place, why="a 5 seen but no pip")
    return MarkerReading(side, count, place=place, pips=count, top_face_up=face_up, seen=seen)


def _marks(image: np.ndarray, calibration: Calibration, place: Point, red: bool,
           fives: Sequence[Detection], dets: Sequence[Detection], face_down_top: bool,
           known: bool) -> _Marks | str:
    """The marks of the 5s' colour on the 5s' paper in the pair's patch, sorted; or why
    there are none to count."""
    picture, to_patch = patch(image, calibration, place)
    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = picture.shape[:2]
    index_mask = np.zeros((h, w), np.uint8)  # the middle of every printed corner boxed
    faces = [d for d in dets if d.card != FACE_DOWN]
    boxed_whole = np.zeros((h, w), np.uint8)  # every printed corner boxed, whole
    for quad in boxes_in_patch(faces, to_patch):
        cv2.fillPoly(index_mask, [np.round(grow(quad, CORNER_MIDDLE)).astype(np.int32)], 255)
        cv2.fillPoly(boxed_whole, [np.round(quad).astype(np.int32)], 255)
    # the paper: found around each 5's printed corner with that corner's own paper as the
    # reference (one card of a pair may lie in a lamp's light, the other in shade)
    card_area = (CARD_UNITS * PATCH_SCALE) ** 2 * CARD_ASPECT
    face = np.zeros((h, w), bool)
    fives_mask = np.zeros((h, w), np.uint8)  # the middle of each 5's printed corner
    for quad in boxes_in_patch(fives, to_patch):
        cv2.fillPoly(fives_mask, [np.round(grow(quad, CORNER_MIDDLE)).astype(np.int32)], 255)
        around = np.zeros((h, w), np.uint8)
        cv2.fillPoly(around, [np.round(grow(quad, AROUND_CORNER)).astype(np.int32)], 255)
        face |= paper(lab, around > 0, card_area)
    if not face.any():
        return "no paper around the 5s' corners"
    cards = fill_holes(face.astype(np.uint8))
    if glare(lab, cards, card_area):
        return "a glare on the 5s"
    marks = _Marks(CARD_UNITS * PATCH_SCALE, boxed_whole)
    inked = ink(picture, lab, red, cards, marks.card_w)
    in_corner = face_down_top or not known
    for contour, area, centre in _pip_like_on(inked, face, marks.card_w):
        if index_mask[int(centre[1]), int(centre[0])] and in_corner:
            # a printed corner's suit (the box's middle); not under a face-up 5 turned on
            # its bottom one, whose corner's box reaches over the pips beside it
            if fives_mask[int(centre[1]), int(centre[0])]:
                marks.corner_marks.append(area / marks.card_w ** 2)
            if not face_down_top:
                marks.boxed.append((area, *centre))
        elif _glyph(contour, area):
            marks.glyphs.append(centre)
        else:
            marks.blobs.append((area, *centre))
    return marks


def _pip_like_on(inked: np.ndarray, face: np.ndarray, card_w: float
                 ) -> list[tuple[np.ndarray, int, tuple[float, float]]]:
    """The inked marks of a pip's area lying on the 5s' paper (most of the ring around
    each is that paper): each one's outline, area (pixels) and centre."""
    h, w = inked.shape
    n, labels, stats, _c = cv2.connectedComponentsWithStats(inked.astype(np.uint8),
                                                            connectivity=8)
    ring_px = max(MIN_RING_PIXELS, int(RING * card_w))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring_px + 1, 2 * ring_px + 1))
    out = []
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if not PIP_AREA[0] * card_w ** 2 < area < PIP_AREA[1] * card_w ** 2:
            continue
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        x0, y0 = max(0, x - 2 * ring_px), max(0, y - 2 * ring_px)
        x1, y1 = min(w, x + bw + 2 * ring_px), min(h, y + bh + 2 * ring_px)
        blob = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        ring = (cv2.dilate(blob, kernel) > 0) & (cv2.dilate(blob, np.ones((3, 3), np.uint8)) == 0)
        if float(face[y0:y1, x0:x1][ring].mean()) < ON_PAPER:
            continue
        contour, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out.append((contour[0], area, (x + bw / 2, y + bh / 2)))
    return out


def _pips_of_known_sizes(marks: _Marks, whose: Sequence[tuple[str, FiveSizes]],
                         suits: set[str], sizes: Mapping[str, FiveSizes],
                         face_down_top: bool) -> list[Blob]:
    """The pips among the marks by the 5s' known sizes (``whose``: the suits that can
    show, with their sizes)."""
    by_suit = _pips_by_suit(marks.blobs, whose, marks.card_w)
    # a 5 the detector did not name can only be a face-up top card, whole in sight:
    # its five pips (four, one lost to glare or blur), never one or two
    # (two suits whose pips are all but the same size cannot be told apart by it)
    pips = [b for suit, found in by_suit.items()
            if len(found) >= WHOLE_FIVE or any(alike(sizes[suit], sizes[named])
                                               for named in suits if named in sizes)
            for b in found]
    # a blurred still's marks measured at its own scale; where both suits add up,
    # to different counts, the sizes as learnt decide
    at_scale = [] if face_down_top else _pips_at_the_top_cards_scale(marks.blobs, whose,
                                                                       marks.card_w)
    if len({len(p) for p in at_scale}) == 1:
        pips = at_scale[0]
    return pips


def _pips_printed_alike(marks: _Marks, suits: set[str], colour: frozenset[str],
                        sizes: Mapping[str, FiveSizes], face_down_top: bool
                        ) -> tuple[list[Blob], tuple[tuple[str, FiveSizes], ...], str]:
    """The pips among the marks as the sets printed alike, where the sizes of the 5s
    that can show are not all known: the pips, the sizes the still shows plainly, and
    why it cannot be read (empty when it can)."""
    card_w = marks.card_w
    groups, strays = _same_size(marks.blobs)
    # a pip of the bottom 5 a face-up top card's corner box reaches over: of a set's
    # size, where that set has room for it (a corner's own suit is of no pip's size)
    for b in marks.boxed:
        for group in groups:
            if len(group) < FIVE_PIPS and _of_set_size(b, group):
                group.append(b)
                break
        else:
            if len(groups) == 1 and _sixth_pip(b, groups[0]):
                groups.append([b])
    groups, strays = _bottom_pips_known(groups, strays, suits, sizes, card_w)
    pips = [b for group in groups for b in group]
    top = () if face_down_top else mate_seen(groups, colour, card_w, sizes)
    if _unexplained(strays, marks):
        return pips, top, "a pip half covered, or a mark that is not a pip"
    return pips, sizes_seen(groups, suits, marks.corner_marks, card_w) or top, ""


def _unexplained(strays: Sequence[Blob], marks: _Marks) -> bool:
    """Whether a mark of no pip's size is no part of a 5 we can explain: a blob of
    another size is a corner's suit the detector did not box, beside that corner's rank,
    or at the edge of the box the detector drew."""
    for _stray, sx, sy in strays:
        if marks.boxed_whole[int(sy), int(sx)]:
            continue  # a corner's suit at the edge of the box the detector drew
        if not any(np.hypot(sx - gx, sy - gy) < BESIDE_RANK * marks.card_w
                   for gx, gy in marks.glyphs):
            return True
    return False


def _pips_at_the_top_cards_scale(blobs: Sequence[Blob],
                                  whose: Sequence[tuple[str, FiveSizes]], card_w: float
                                  ) -> list[list[Blob]]:
    """A face-up top card's pips and the bottom 5's in sight, with the still's own scale
    of the marks taken from the top card's five pips: one list of pips for each suit of
    the top card under which the still adds up (none, one, or two to tell apart).

    Why: a blurred still measures every mark larger than it is printed, by more than
    the gap between two suits' pips (a standard deck's diamonds then measure as its
    hearts, its corners' diamonds as its diamonds' pips). The ratios between the marks
    of one still hold: the top card shows its five pips, printed alike, so each suit in
    turn is taken for the top card's, the still's marks are measured at the scale its
    five pips give, and the suit under which the top card's suit counts exactly five
    pips and the other at most five is the reading.

    >>> sizes = [("D", FiveSizes(0.0184, ())), ("H", FiveSizes(0.0309, (0.0053, 0.0107)))]
    >>> blurred = [(258, i, i) for i in range(5)] + [(402, 5, 5), (176, 6, 6), (98, 7, 7)]
    >>> [len(pips) for pips in _pips_at_the_top_cards_scale(blurred, sizes, 100.0)]
    [6]
    """
    if len(whose) != 2 or alike(whose[0][1], whose[1][1]):
        return []
    five = [g for g in _same_size(list(blobs))[0] if len(g) == FIVE_PIPS]
    if len(five) != 1:
        return []
    top_area = median_area(five[0]) / card_w ** 2
    readings = []
    for top, sizes in whose:
        scale = top_area / sizes.pip
        if abs(math.log(scale)) > math.log(SCALE_REACH):
            continue
        by_suit = _pips_by_suit(blobs, whose, card_w, scale)
        if len(by_suit.get(top, [])) == FIVE_PIPS and \
                all(len(f) <= FIVE_PIPS for f in by_suit.values()):
            readings.append([b for found in by_suit.values() for b in found])
    return readings


def _pips_by_suit(blobs: Sequence[Blob], whose: Sequence[tuple[str, FiveSizes]],
                  card_w: float, scale: float = 1.0) -> dict[str, list[Blob]]:
    """Each suit's pips among the blobs, by size (:func:`pip_of`), the blobs' areas
    taken at ``scale`` times the printed ones; a blob of a corner mark's size, or of no
    pip's, is none."""
    by_suit: dict[str, list[Blob]] = {}
    for b in blobs:
        suit = pip_of(b[0] / card_w ** 2 / scale, whose)
        if suit is not None:
            by_suit.setdefault(suit, []).append(b)
    return by_suit


def _glyph(contour: np.ndarray, area: float) -> bool:
    """Whether a mark of pip-like size is printed thin: a corner's rank (a blurred "5"
    is 1.7-1.8 times longer than wide), a rank and suit run together, or a mark that
    fills little of its hull. A pip is squat and solid: a diamond is printed about 1.4
    times longer than wide, and blur rounds it further."""
    (_cx, _cy), (rw, rh), _angle = cv2.minAreaRect(contour)
    if max(rw, rh) > ELONGATED * max(min(rw, rh), 1.0):
        return True
    return area / max(cv2.contourArea(cv2.convexHull(contour)), 1.0) < HULL_FILL


def _bottom_pips_known(groups: list[list[Blob]], strays: list[Blob], suits: set[str],
                       sizes: Mapping[str, FiveSizes], card_w: float
                       ) -> tuple[list[list[Blob]], list[Blob]]:
    """Under a face-up top card whose print the table does not know yet, the lone pips of
    the bottom 5 the detector named, where the table knows that 5's print: strays of its
    pip's size (:func:`pip_of`, nearer a pip than its corner's marks), when the top
    card's five pips are of another size. They are that 5's pips in sight, one to four.

    Why: a pair is read by its sizes only when the table knows both 5s' (a top card of
    a suit not yet learnt sends it to the sets printed alike), and one or two pips of the
    bottom 5 peeking out are no set: without this they read as marks no 5 explains.

    >>> five = [[(92, i, i) for i in range(5)]]
    >>> groups, rest = _bottom_pips_known(five, [(60, 9, 9), (20, 8, 8)], {"D", "H"},
    ...                                   {"D": FiveSizes(0.0065, (0.019,))}, 100.0)
    >>> [len(g) for g in groups], rest
    ([5, 1], [(20, 8, 8)])
    """
    if len(groups) != 1 or len(groups[0]) != FIVE_PIPS or not strays:
        return groups, strays
    top = median_area(groups[0]) / card_w ** 2
    bottom = [(suit, sizes[suit]) for suit in suits
              if suit in sizes and radius_ratio(sizes[suit].pip, top) >= ALIKE]
    if len(bottom) != 1:
        return groups, strays
    peeking = [b for b in strays if pip_of(b[0] / card_w ** 2, bottom) is not None]
    if not 1 <= len(peeking) <= FIVE_PIPS - 1:
        return groups, strays
    return [*groups, peeking], [b for b in strays if b not in peeking]


def _same_size(blobs: list[Blob]) -> tuple[list[list[Blob]], list[Blob]]:
    """The pips (at most two sets of blobs printed alike, at most five each: the two 5s
    may be of suits whose pips differ in size, hearts and diamonds say), and the rest.

    The second set must be of a pip's size for the first's mate (:data:`MATE_SIZE`): a
    jumbo corner's rank and suit beside a 5's pips are no second 5. It has two marks at
    least, or one of a whole first set's size (:func:`_sixth_pip`).

    >>> sets, rest = _same_size([(100, 0, 0), (104, 1, 1), (160, 2, 2), (170, 3, 3), (35, 4, 4)])
    >>> [len(s) for s in sets], rest
    ([2, 2], [(35, 4, 4)])
    >>> sets, rest = _same_size([(70, 0, 0), (72, 1, 1), (75, 2, 2), (171, 3, 3), (240, 4, 4)])
    >>> [len(s) for s in sets], rest
    ([3], [(240, 4, 4), (171, 3, 3)])
    >>> sets, rest = _same_size([(100, i, i) for i in range(5)] + [(97, 5, 5), (30, 6, 6)])
    >>> [len(s) for s in sets], rest
    ([5, 1], [(30, 6, 6)])
    """
    left = sorted(blobs, reverse=True)
    groups: list[list[Blob]] = []
    for _card in range(2):  # the pair's two 5s
        best: list[Blob] = []
        for anchor in left:
            group = [b for b in left if anchor[0] <= b[0] <= SAME_SIZE * anchor[0]][:FIVE_PIPS]
            if groups and abs(math.log(median_area(group) / median_area(groups[0]))) > \
                    math.log(MATE_SIZE):
                continue
            if len(group) > len(best):
                best = group
        if len(best) < 2 and groups and not (best and _sixth_pip(best[0], groups[0])):
            break  # a lone blob beside a set of pips is not plainly a pip
        if best:
            groups.append(best)
        left = [b for b in left if b not in best]
    if sum(len(g) for g in groups) == 1 and left:
        return [], list(blobs)  # one pip and a corner's suit: which is which is not plain
    return groups, left


def _sixth_pip(blob: Blob, five: Sequence[Blob]) -> bool:
    """Whether a lone blob beside a whole set of five pips is a pip of the other 5, printed
    alike (clubs and spades in most decks): of the set's size, which no corner's mark is.
    """
    return len(five) == FIVE_PIPS and _of_set_size(blob, five)


def _of_set_size(blob: Blob, group: Sequence[Blob]) -> bool:
    """Whether a blob is printed alike with a set of pips: its area within the square
    root of :data:`SAME_SIZE` of the set's median, either way."""
    return abs(math.log(blob[0] / median_area(group))) < math.log(SAME_SIZE) / 2
