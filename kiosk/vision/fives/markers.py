"""The players' own score board read from a still: each side's two 5s, counted by their pips.

Why pips: alberta55.txt, "10. MARKERS" keeps score so that the count is what the eye
sees. Under five the top card lies face down and the count is the bottom 5's pips in
sight; from five the top card is a face-up 5 (five pips) and the count is its five
plus the bottom 5's pips in sight; ten is both 5s uncovered. In every case the count is
the number of a 5's pips in sight, so the reader counts pips; whether the top card shows
a back or a face (a ``back`` detection on the pair, or another face's index there: a
picture back's print) says which 5s' pips can be there.

How, for each pair of 5s the detector names at the side of the table:

1. the pair's neighbourhood is warped to a top-down patch (the calibration), so every
   card has the same size wherever it lies;
2. the 5s' paper is found around each printed corner the detector named, of that
   corner's paper's hue (one card may lie in a lamp's light, the other in shade); a
   face-down card, a trick or the table is not that paper, so their patterns never count;
3. a pip is a squat, solid mark of the 5s' colour (red for hearts and diamonds, black
   for clubs and spades) lying on that paper, of a pip's size: with the table's 5s'
   sizes known (:class:`FiveSizes`, from the deck, or learnt from earlier stills by
   :mod:`kiosk.vision.fives.marker_sizes`) nearer a pip's than any corner mark's, measured at
   the still's own scale where a face-up top card's five pips give it (blur); without
   them, the largest sets of marks printed alike (two sets at most, of sizes two 5s of
   one colour can print), a boxed corner's mark counting only where it is of a set's
   size. Under a face-down top
   card only the named bottom 5's pips count; a 5 the detector did not name counts only
   as a whole face-up top card (four or five pips alike).

A side whose 5s show no face (nought: the top card face down square on the bottom)
is read where its 5s were last seen, when a face-down card lies there and no pip is in
sight beside it. A face-down card is a ``back`` the detector names or a card's outline
of another hue than the table's two (a checked or striped cloth, a shadow across it;
a picture back, named or not, whose own pips are not counted).
Anything else that does not add up (a glare on the pair, more than ten
pips, a pair too far from the camera, a mark that is no pip) is "cannot read", with the
reason, never a guess.

The pair's side is the side of the edge it lies along (``NS`` keep theirs along North's
or South's edge, ``EW`` along East's or West's; docs/markers.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from kiosk.rules.cards import Seat, Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection

SIDES: tuple[Team, ...] = tuple(Team)
#: the card paper in a shadow is this share of the lightness of the paper at its corner
#: at least (a lamp may light the corner and leave the far pips in a shadow's edge)
IN_SHADE = 0.55
#: a 5 detection this far (table units) from another belongs to the same pair
PAIR_REACH = 0.22
#: the patch around a pair: half its side (table units) and its pixels per table unit
PATCH_HALF = 0.2
PATCH_SCALE = 1200.0
#: a pip's area, in card widths squared: the decks measured print theirs between 0.008
#: and 0.032 (datasets/marker_stills.py finds them in the art)
PIP_AREA = (0.004, 0.06)
#: pips of one 5 are printed alike: areas within this ratio of each other
SAME_SIZE = 1.5
#: the two 5s' pips (one colour, two suits) differ in area by less than this ratio in
#: every deck measured (1.86 at most, hearts against diamonds); a jumbo corner's marks
#: are 2.3 to 3.3 times a pip
MATE_SIZE = 2.0
#: a blob is a pip of a known size when its radius is within these shares of the pip's
#: (a corner's suit is at most 0.77 or at least 1.6 of it in every deck measured)
KNOWN_SIZE = (0.82, 1.3)
#: where ink begins, between the paper (0) and the strongest ink on the cards (1): half
#: way keeps a blurred pip its printed size
INK_CUT = 0.5
#: two suits' pips whose radii differ by less than this share are told apart by shape,
#: not size (clubs and spades in most decks)
ALIKE = 1.12
#: a still measures its marks within this factor of their printed area, either way
#: (blur, the ink's cut): about 1.59
SCALE_REACH = 2.0 ** (1 / 1.5)
#: a mark this many times longer than wide is no pip (:func:`_glyph`)
ELONGATED = 1.6
#: a card's width in table units (63 mm on a 75 cm play area), to size pips by
CARD_UNITS = 0.085
#: how close (table units) a side's 5s must be to where they were last seen to count
#: as the same place
SAME_PLACE = 0.12
#: how far (Lab a, b) a pixel's hue may be from the 5s' paper's to be that paper
PAPER_HUE = 16.0
#: how far (Lab a, b) from the table's hue a card's back must be to be found by its
#: outline alone
OTHER_HUE = 18.0
#: the share of the table the lesser of two hues covers at least to make a two-hued cloth
SECOND_HUE = 0.2
#: a pip narrower than this in the picture (pixels) is not counted: too far from the
#: camera to tell from a smudge
MIN_PIP_PIXELS = 4.0
#: a face-down card nearer the other side's 5s than this (table units: two card
#: widths, their top card's centre from their printed corners) is theirs
THEIRS = 2 * CARD_UNITS
#: where a side's 5s lie before they were ever seen: this far from the table's centre
#: across their edge and along it (the tricks lie nearer the middle of the edge)
CORNER_END = (0.3, 0.2)
#: detections below this confidence are not evidence
EVIDENCE = 0.5
FIVES = frozenset({"5C", "5D", "5H", "5S"})
#: a face-down card: where it lies (table units), and its corners where it was found by
#: its outline alone (None: a ``back`` the detector named)
FaceDown = tuple[tuple[float, float], np.ndarray | None]
RED = frozenset({"H", "D"})


@dataclass(frozen=True)
class MarkerReading:
    """One side's 5s as read: the count (None: cannot read) and what it rests on."""

    side: Team
    count: int | None
    #: where the pair lies (table units), to look there first next time
    place: tuple[float, float] | None = None
    pips: int = 0
    top_face_up: bool | None = None
    #: why it could not be read, in a short phrase for the log (empty when read)
    why: str = ""
    #: the sizes this still showed plainly, per suit, for the table to learn its 5s by
    #: (:class:`kiosk.vision.fives.marker_sizes.LearntFiveSizes`)
    seen: tuple[tuple[str, FiveSizes], ...] = ()

    @property
    def read(self) -> bool:
        return self.count is not None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"side": str(self.side), "count": self.count, "pips": self.pips}
        if self.place is not None:
            out["place"] = [round(self.place[0], 3), round(self.place[1], 3)]
        if self.why:
            out["why"] = self.why
        return out


def side_of(point: Sequence[float]) -> Team:
    """The side whose edge a point at the side of the table lies along.

    >>> str(side_of((0.8, 0.95))), str(side_of((0.05, 0.3)))
    ('NS', 'EW')
    """
    dx, dy = float(point[0]) - 0.5, float(point[1]) - 0.5
    return Seat.N.team if abs(dy) >= abs(dx) else Seat.E.team


def read_markers(image: np.ndarray, detections: Sequence[Detection], calibration: Calibration,
                 places: Mapping[Team, tuple[float, float]] | None = None,
                 sizes: Mapping[str, FiveSizes] | None = None,
                 sides: Sequence[Team] = SIDES) -> dict[Team, MarkerReading]:
    """Each side's count from one still and the detector's boxes on it.

    ``places``: where each side's 5s were last read (table units), to find a side's
    nought, whose 5s show no face. ``sizes``: the table's 5s' print sizes per suit
    (``"H"`` ...), as learnt from the deck (:meth:`FiveSizes.of_face`) or from earlier
    stills (:mod:`kiosk.vision.fives.marker_sizes`); without them a pair's pips are the largest
    sets of blobs printed alike. ``sides``: the sides to read (both by default).
    """
    dets = [d for d in detections if d.confidence >= EVIDENCE]
    fives = [d for d in dets if d.card in FIVES]
    centres = calibration.to_table([d.centre for d in fives]) if fives else np.zeros((0, 2))
    groups = _pairs(centres)
    by_side: dict[Team, list[list[int]]] = {side: [] for side in SIDES}
    for group in groups:
        centre = centres[group].mean(axis=0)
        by_side[side_of(centre)].append(group)
    out = {}
    face_down: list[FaceDown] | None = None  # found once a still, when a side shows no 5
    for side in sides:
        groups_here = by_side[side]
        last = (places or {}).get(side)
        if len(groups_here) > 1 and last is not None:
            groups_here = [g for g in groups_here
                           if float(np.hypot(*(centres[g].mean(axis=0) - last))) < SAME_PLACE]
        if len(groups_here) > 1:
            out[side] = MarkerReading(side, None, why="more than one pair of 5s on this side")
        elif groups_here:
            group = groups_here[0]
            out[side] = _read_pair(image, [fives[i] for i in group], dets, calibration, side,
                                   _point(centres[group].mean(axis=0)),
                                   sizes or {})
        else:
            if face_down is None:
                face_down = _face_down_cards(image, dets, calibration)
            # the other side's 5s: a face-down top card there is theirs
            theirs = [_point(centres[g].mean(axis=0)) for other in SIDES if other is not side
                      for g in by_side[other]]
            theirs += [p for other, p in (places or {}).items() if other is not side]
            out[side] = _read_nought(image, face_down, calibration, side, last, sizes or {},
                                     theirs)
    return out


def _on_pair(fives: Sequence[Detection], marks: Sequence[Detection],
             calibration: Calibration) -> bool:
    """Whether any of ``marks`` (a back, another face's index) lies on the pair: within
    1.4 card widths (about a card's length) of a 5's printed corner."""
    if not marks:
        return False
    corners = calibration.to_table([d.centre for d in fives])
    where = calibration.to_table([d.centre for d in marks])
    gaps = np.hypot(corners[:, None, 0] - where[None, :, 0],
                    corners[:, None, 1] - where[None, :, 1])
    return bool((gaps < 1.4 * CARD_UNITS).any())


def _point(p: np.ndarray) -> tuple[float, float]:
    return float(p[0]), float(p[1])


def _pairs(centres: np.ndarray) -> list[list[int]]:
    """5 detections grouped into pairs: single linkage within :data:`PAIR_REACH`."""
    n = len(centres)
    label = list(range(n))

    def root(i: int) -> int:
        while label[i] != i:
            i = label[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if float(np.hypot(*(centres[i] - centres[j]))) < PAIR_REACH:
                label[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _face_down_cards(image: np.ndarray, dets: Sequence[Detection],
                     calibration: Calibration) -> list[FaceDown]:
    """Each face-down card on the table: the cards found by their outline (with its
    corners), and the ``back`` boxes the detector named away from those. A named back
    found by its outline keeps the outline, so that its picture's pips are not a 5's."""
    backs = [d for d in dets if d.card == FACE_DOWN]
    named = calibration.to_table([d.centre for d in backs]) if backs else np.zeros((0, 2))
    cards: list[FaceDown] = [(_point(p), outline) for p, outline in
                             _backs_by_outline(image, calibration)]
    # a named back found by its outline too keeps the outline: its picture's pips are
    # its own, not a 5's
    found = np.array([c[0] for c in cards]) if cards else np.zeros((0, 2))
    cards += [(_point(p), None) for p in named
              if not len(found) or float(np.hypot(*(found - p).T).min()) > SAME_PLACE / 2]
    return cards


def _read_nought(image: np.ndarray, cards: Sequence[FaceDown], calibration: Calibration,
                 side: Team, last: tuple[float, float] | None,
                 sizes: Mapping[str, FiveSizes],
                 theirs: Sequence[tuple[float, float]] = ()) -> MarkerReading:
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
        ends = [c for c in cards if _at_corner_end(c[0], side)
                and all(math.dist(c[0], p) > THEIRS for p in theirs)]
        if len(ends) != 1:
            return MarkerReading(side, None, why="no 5 seen on this side" if not ends else
                                 "no 5 seen, and more than one face-down card where they "
                                 "may lie")
        place, outline = ends[0]
    if _pip_beside(image, calibration, place, sizes, outline):
        return MarkerReading(side, None, place=place,
                             why="a pip beside the face-down card, but no 5 named")
    return MarkerReading(side, 0, place=place, pips=0, top_face_up=False)


def _backs_by_outline(image: np.ndarray, calibration: Calibration
                      ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where a lone card lies on the table, found by its outline (a back the detector
    does not name, such as a picture back): a region of another hue than the table's, of
    one card's size and shape; its centre and corners in table units."""
    scale = 400.0
    side = int(scale)
    to_top = np.array([[scale, 0, 0], [0, scale, 0], [0, 0, 1.0]]) @ calibration.homography
    top = cv2.warpPerspective(image, to_top, (side, side), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT)
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32)
    seen = top.any(axis=2)
    if seen.sum() < 0.25 * side * side:
        return []  # the picture shows too little of the table to know its hue
    off = (_off_table_hue(lab[:, :, 1:], _table_hues(lab[seen][:, 1:])) > OTHER_HUE) & seen
    other = cv2.morphologyEx(off.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    card = CARD_UNITS * scale
    n, labels, stats, _centres = cv2.connectedComponentsWithStats(other, connectivity=8)
    out = []
    for i in range(1, n):
        if stats[i, 4] < 0.3 * card * card * 1.4:
            continue
        contour, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        # the outline's whole area: a picture back prints parts of the table's hue
        area = float(cv2.contourArea(contour[0]))
        if not 0.6 * card * card * 1.4 < area < 1.5 * card * card * 1.4:
            continue
        rect = cv2.minAreaRect(contour[0])
        (x, y), (rw, rh), _a = rect
        long, short = max(rw, rh), max(min(rw, rh), 1.0)
        if 1.2 < long / short < 1.65 and area > 0.8 * rw * rh:
            out.append((np.array([x, y]) / scale, cv2.boxPoints(rect) / scale))
    return out


def _table_hues(ab: np.ndarray) -> np.ndarray:
    """The table's two hues (Lab a, b): a checked or striped cloth's two colours, a
    shadow over part of it, or a plain cloth's spread (wood's grain, a lamp's fall-off)
    in two halves; the centres of the two where the lesser holds :data:`SECOND_HUE` of
    the table or more, else the median twice. The cards lie on a small share of the
    table and never make a second hue."""
    sample = ab[:: max(1, len(ab) // 20000)].astype(np.float32)
    median = np.median(sample, axis=0)
    far = np.linalg.norm(sample - median, axis=1)
    centres = np.stack([median, np.median(sample[far >= np.percentile(far, 70)], axis=0)])
    for _ in range(8):  # two-means, started deterministically from the median and the far
        second = (np.linalg.norm(sample - centres[1], axis=1)
                  < np.linalg.norm(sample - centres[0], axis=1))
        if not SECOND_HUE * len(sample) <= second.sum() <= (1 - SECOND_HUE) * len(sample):
            return np.stack([median, median])
        centres = np.stack([np.median(sample[~second], axis=0), np.median(sample[second], axis=0)])
    return centres


def _off_table_hue(ab: np.ndarray, hues: np.ndarray) -> np.ndarray:
    """Each pixel's hue distance (Lab a, b) from the table's: from the segment between
    its two hues, which covers the blend along their edges."""
    start, run = hues[0], hues[1] - hues[0]
    along = np.clip(((ab - start) @ run) / max(float(run @ run), 1e-6), 0.0, 1.0)
    distance: np.ndarray = np.linalg.norm(ab - (start + along[..., None] * run), axis=-1)
    return distance


def _pip_beside(image: np.ndarray, calibration: Calibration, place: Sequence[float],
                sizes: Mapping[str, FiveSizes], outline: np.ndarray | None = None) -> bool:
    """Whether a pip-sized mark of either colour lies on light card paper near
    ``place``: the evidence that a 5 shows there after all. Not within ``outline`` (the
    face-down card's corners in table units, where it was found by its outline): a
    picture back may print pips of its own."""
    patch, _to_patch = _patch(image, calibration, place)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness = lab[:, :, 0]
    chroma = np.hypot(lab[:, :, 1] - 128, lab[:, :, 2] - 128)
    paper = ((lightness > 0.8 * np.percentile(lightness, 97)) & (chroma < 20)).astype(np.uint8)
    cards = _fill_holes(paper)
    card_w = CARD_UNITS * PATCH_SCALE
    back = np.zeros(paper.shape, np.uint8)
    if outline is not None:
        corners = (outline - (np.asarray(place) - PATCH_HALF)) * PATCH_SCALE
        cv2.fillPoly(back, [np.round(_grow(corners, 1.08)).astype(np.int32)], 1)
    for red in (True, False):
        ink = _ink(patch, lab, red, cards, card_w) & (paper == 0) & (cards > 0) & (back == 0)
        n, _labels, stats, _c = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                                 connectivity=8)
        known = [s for suit, s in sizes.items() if (suit in RED) == red]
        for i in range(1, n):
            area = float(stats[i, 4]) / card_w ** 2
            if known and _is_pip(area, known) or not known and 0.01 < area < 0.05:
                return True
    return False


def _at_corner_end(point: Sequence[float], side: Team) -> bool:
    """Whether a point lies in the band along one of ``side``'s edges, towards a corner.

    >>> _at_corner_end((0.2, 0.93), Team.NS), _at_corner_end((0.5, 0.93), Team.NS)
    (True, False)
    """
    dx, dy = float(point[0]) - 0.5, float(point[1]) - 0.5
    depth, lateral = (abs(dy), abs(dx)) if side is Seat.N.team else (abs(dx), abs(dy))
    return depth > CORNER_END[0] and lateral > CORNER_END[1]


def _patch(image: np.ndarray, calibration: Calibration, centre: Sequence[float]
           ) -> tuple[np.ndarray, np.ndarray]:
    """The top-down patch around ``centre`` and the 3x3 map from frame pixels to it."""
    side = int(2 * PATCH_HALF * PATCH_SCALE)
    x0, y0 = centre[0] - PATCH_HALF, centre[1] - PATCH_HALF
    to_patch = np.array([[PATCH_SCALE, 0, -x0 * PATCH_SCALE],
                         [0, PATCH_SCALE, -y0 * PATCH_SCALE], [0, 0, 1.0]]) @ calibration.homography
    patch = cv2.warpPerspective(image, to_patch, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
    return patch, to_patch


def _boxes_in_patch(dets: Sequence[Detection], to_patch: np.ndarray) -> list[np.ndarray]:
    """Each detection's box as a polygon in the patch."""
    out = []
    for d in dets:
        x1, y1, x2, y2 = d.box
        quad = np.array([[(x1, y1), (x2, y1), (x2, y2), (x1, y2)]], np.float64)
        out.append(cv2.perspectiveTransform(quad, to_patch)[0])
    return out


def _read_pair(image: np.ndarray, fives: Sequence[Detection], dets: Sequence[Detection],
               calibration: Calibration, side: Team, place: tuple[float, float],
               sizes: Mapping[str, FiveSizes]) -> MarkerReading:
    """One pair's count from its pips (see the module's doc), under a face-down top card
    where a back lies on the pair, else under a face-up one.

    A face-up top card of the pair is a 5, so another face's index on the pair is
    printed on a picture back (a deck whose back shows a fan of aces): the pair is read
    as under a face-down top, and as under a face-up one only where the pips then add up
    to nothing (a stray card lying on the markers, or a lone pip that measures as large
    as a jumbo corner's suit by the learnt sizes)."""
    backs = [d for d in dets if d.card == FACE_DOWN]
    if _on_pair(fives, backs, calibration):
        return _count_pair(image, fives, dets, calibration, side, place, sizes, True)
    others = [d for d in dets if d.card != FACE_DOWN and d.card not in FIVES]
    if _on_pair(fives, others, calibration):
        as_face_down = _count_pair(image, fives, dets, calibration, side, place, sizes, True)
        if as_face_down.read:
            return as_face_down
    return _count_pair(image, fives, dets, calibration, side, place, sizes, False)


def _count_pair(image: np.ndarray, fives: Sequence[Detection], dets: Sequence[Detection],
                calibration: Calibration, side: Team, place: tuple[float, float],
                sizes: Mapping[str, FiveSizes], face_down_top: bool) -> MarkerReading:
    """One pair's count from its pips, its top card face down or face up as told."""
    suits = {d.card[1] for d in fives}
    red = bool(suits & RED)
    if suits & RED and suits - RED:
        return MarkerReading(side, None, place=place, why="5s of both colours in one pair")
    # the two 5s are of one colour (the rule book): a face-up top card may be either
    # suit of it, named or not; under a face-down top only the named bottom 5 shows
    colour = RED if red else frozenset({"C", "S"})
    shown = suits if face_down_top else colour
    # the sizes say which blobs are pips only when they cover every 5 that can show
    known = [sizes[suit] for suit in shown if suit in sizes] if shown <= sizes.keys() else []
    smallest = min((s.pip for s in known), default=0.01)
    if math.sqrt(4 * smallest / math.pi) * _card_pixels(calibration, place) < MIN_PIP_PIXELS:
        return MarkerReading(side, None, place=place, why="too far from the camera to count")
    patch, to_patch = _patch(image, calibration, place)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = patch.shape[:2]
    index_mask = np.zeros((h, w), np.uint8)  # the middle of every printed corner boxed
    faces = [d for d in dets if d.card != FACE_DOWN]
    boxed_whole = np.zeros((h, w), np.uint8)  # every printed corner boxed, whole
    for quad in _boxes_in_patch(faces, to_patch):
        cv2.fillPoly(index_mask, [np.round(_grow(quad, 0.7)).astype(np.int32)], 255)
        cv2.fillPoly(boxed_whole, [np.round(quad).astype(np.int32)], 255)
    corner_marks: list[float] = []  # the marks in the 5s' boxed corners (card widths²)
    boxed: list[tuple[int, float, float]] = []  # pip-like blobs in a boxed corner
    # the paper: found around each 5's printed corner with that corner's own paper as the
    # reference (one card of a pair may lie in a lamp's light, the other in shade)
    card_area = (CARD_UNITS * PATCH_SCALE) ** 2 * 1.4
    face = np.zeros((h, w), bool)
    fives_mask = np.zeros((h, w), np.uint8)  # the middle of each 5's printed corner
    for quad in _boxes_in_patch(fives, to_patch):
        cv2.fillPoly(fives_mask, [np.round(_grow(quad, 0.7)).astype(np.int32)], 255)
        around = np.zeros((h, w), np.uint8)
        cv2.fillPoly(around, [np.round(_grow(quad, 1.6)).astype(np.int32)], 255)
        face |= _paper(lab, around > 0, card_area)
    if not face.any():
        return MarkerReading(side, None, place=place, why="no paper around the 5s' corners")
    cards = _fill_holes(face.astype(np.uint8))
    if _glare(lab, cards, card_area):
        return MarkerReading(side, None, place=place, why="a glare on the 5s")
    card_w = CARD_UNITS * PATCH_SCALE
    ink = _ink(patch, lab, red, cards, card_w)
    hn, hlabels, hstats, _hc = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                                connectivity=8)
    ring_px = max(2, int(0.04 * card_w))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring_px + 1, 2 * ring_px + 1))
    blobs: list[tuple[int, float, float]] = []  # pip-like: (area, x, y)
    glyphs: list[tuple[float, float]] = []  # thin ink on the paper: a printed rank
    for i in range(1, hn):
        area = int(hstats[i, 4])
        if not PIP_AREA[0] * card_w ** 2 < area < PIP_AREA[1] * card_w ** 2:
            continue
        x, y, bw, bh = (int(v) for v in hstats[i, :4])
        x0, y0 = max(0, x - 2 * ring_px), max(0, y - 2 * ring_px)
        x1, y1 = min(w, x + bw + 2 * ring_px), min(h, y + bh + 2 * ring_px)
        blob = (hlabels[y0:y1, x0:x1] == i).astype(np.uint8)
        ring = (cv2.dilate(blob, kernel) > 0) & (cv2.dilate(blob, np.ones((3, 3), np.uint8)) == 0)
        # a pip lies on the 5s' own paper: most of the ring around it is that paper
        if float(face[y0:y1, x0:x1][ring].mean()) < 0.6:
            continue
        contour, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        centre = (x + bw / 2, y + bh / 2)
        if index_mask[int(centre[1]), int(centre[0])] and (face_down_top or not known):
            # a printed corner's suit (the box's middle); not under a face-up 5 turned on
            # its bottom one, whose corner's box reaches over the pips beside it
            if fives_mask[int(centre[1]), int(centre[0])]:
                corner_marks.append(area / card_w ** 2)
            if not face_down_top:
                boxed.append((area, *centre))
            continue
        if _glyph(contour[0], area):
            glyphs.append(centre)
        else:
            blobs.append((area, *centre))
    if known:
        whose = [(suit, sizes[suit]) for suit in shown if suit in sizes]
        by_suit = _pips_by_suit(blobs, whose, card_w)
        # a 5 the detector did not name can only be a face-up top card, whole in sight:
        # its five pips (four, one lost to glare or blur), never one or two
        # (two suits whose pips are all but the same size cannot be told apart by it)
        pips = [b for suit, found in by_suit.items()
                if len(found) >= 4 or any(_alike(sizes[suit], sizes[named])
                                          for named in suits if named in sizes)
                for b in found]
        # a blurred still's marks measured at its own scale; where both suits add up,
        # to different counts, the sizes as learnt decide
        at_scale = [] if face_down_top else _pips_at_the_top_cards_scale(blobs, whose, card_w)
        if len({len(p) for p in at_scale}) == 1:
            pips = at_scale[0]
        seen: tuple[tuple[str, FiveSizes], ...] = ()
    else:
        groups, strays = _same_size(blobs)
        # a pip of the bottom 5 a face-up top card's corner box reaches over: of a set's
        # size, where that set has room for it (a corner's own suit is of no pip's size)
        for b in boxed:
            for group in groups:
                if len(group) < 5 and _of_set_size(b, group):
                    group.append(b)
                    break
            else:
                if len(groups) == 1 and _sixth_pip(b, groups[0]):
                    groups.append([b])
        groups, strays = _bottom_pips_known(groups, strays, suits, sizes, card_w)
        pips = [b for group in groups for b in group]
        top = () if face_down_top else _mate_seen(groups, colour, card_w, sizes)
        for _stray, sx, sy in strays:
            # a blob of another size is a corner's suit the detector did not box: it sits
            # beside that corner's rank; anything else is no part of a 5 we can explain
            if boxed_whole[int(sy), int(sx)]:
                continue  # a corner's suit at the edge of the box the detector drew
            if not any(np.hypot(sx - gx, sy - gy) < 0.32 * card_w for gx, gy in glyphs):
                return MarkerReading(side, None, place=place, pips=len(pips), seen=top,
                                     why="a pip half covered, or a mark that is not a pip")
        seen = _sizes_seen(groups, suits, corner_marks, card_w) or top
    count = len(pips)
    if count > 10:
        return MarkerReading(side, None, place=place, pips=count, why="more than ten pips")
    face_up = count >= 5
    if count == 0:
        return MarkerReading(side, None, place=place, why="a 5 seen but no pip")
    return MarkerReading(side, count, place=place, pips=count, top_face_up=face_up, seen=seen)


def _pips_at_the_top_cards_scale(blobs: Sequence[tuple[int, float, float]],
                                  whose: Sequence[tuple[str, FiveSizes]], card_w: float
                                  ) -> list[list[tuple[int, float, float]]]:
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
    if len(whose) != 2 or _alike(whose[0][1], whose[1][1]):
        return []
    five = [g for g in _same_size(list(blobs))[0] if len(g) == 5]
    if len(five) != 1:
        return []
    top_area = _median_area(five[0]) / card_w ** 2
    readings = []
    for top, sizes in whose:
        scale = top_area / sizes.pip
        if abs(math.log(scale)) > math.log(SCALE_REACH):
            continue
        by_suit = _pips_by_suit(blobs, whose, card_w, scale)
        if len(by_suit.get(top, [])) == 5 and all(len(f) <= 5 for f in by_suit.values()):
            readings.append([b for found in by_suit.values() for b in found])
    return readings


def _pips_by_suit(blobs: Sequence[tuple[int, float, float]],
                  whose: Sequence[tuple[str, FiveSizes]], card_w: float, scale: float = 1.0
                  ) -> dict[str, list[tuple[int, float, float]]]:
    """Each suit's pips among the blobs, by size (:func:`_pip_of`), the blobs' areas
    taken at ``scale`` times the printed ones; a blob of a corner mark's size, or of no
    pip's, is none."""
    by_suit: dict[str, list[tuple[int, float, float]]] = {}
    for b in blobs:
        suit = _pip_of(b[0] / card_w ** 2 / scale, whose)
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
    return area / max(cv2.contourArea(cv2.convexHull(contour)), 1.0) < 0.55


def _bottom_pips_known(groups: list[list[tuple[int, float, float]]],
                       strays: list[tuple[int, float, float]], suits: set[str],
                       sizes: Mapping[str, FiveSizes], card_w: float
                       ) -> tuple[list[list[tuple[int, float, float]]],
                                  list[tuple[int, float, float]]]:
    """Under a face-up top card whose print the table does not know yet, the lone pips of
    the bottom 5 the detector named, where the table knows that 5's print: strays of its
    pip's size (:func:`_pip_of`, nearer a pip than its corner's marks), when the top
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
    if len(groups) != 1 or len(groups[0]) != 5 or not strays:
        return groups, strays
    top = _median_area(groups[0]) / card_w ** 2
    bottom = [(suit, sizes[suit]) for suit in suits
              if suit in sizes and radius_ratio(sizes[suit].pip, top) >= ALIKE]
    if len(bottom) != 1:
        return groups, strays
    peeking = [b for b in strays if _pip_of(b[0] / card_w ** 2, bottom) is not None]
    if not 1 <= len(peeking) <= 4:
        return groups, strays
    return [*groups, peeking], [b for b in strays if b not in peeking]


def _sizes_seen(groups: Sequence[Sequence[tuple[int, float, float]]], suits: set[str],
                corner_marks: Sequence[float], card_w: float
                ) -> tuple[tuple[str, FiveSizes], ...]:
    """The 5s' sizes a still read without them shows plainly: one set of two to four
    pips and one 5 named are the named 5's pips (a face-up top card shows five, so these
    are the bottom 5's under a face-down top), with the marks of its boxed corners. Five
    alone is not learnt from: the 5 named may be the bottom one peeking out while the
    top card's pips show.
    """
    if len(groups) == 1 and len(suits) == 1 and 2 <= len(groups[0]) <= 4:
        corner = tuple(sorted({round(a, 4) for a in corner_marks}))
        return ((next(iter(suits)), FiveSizes(_median_area(groups[0]) / card_w ** 2, corner)),)
    return ()


def _mate_seen(groups: Sequence[Sequence[tuple[int, float, float]]], colour: frozenset[str],
               card_w: float, sizes: Mapping[str, FiveSizes]
               ) -> tuple[tuple[str, FiveSizes], ...]:
    """The other 5's pip size, where the table knows one 5's of the colour: the one set
    of three or more blobs printed alike that is not of the known 5's pip size (radii
    apart by :data:`ALIKE` or more) but of a size its mate may print is the other 5's,
    face-up top card or bottom one beside it; and where more than five blobs are of the
    known size, both 5s print pips alike. Offered even when the rest of the still
    cannot be read (a corner the detector did not box beside it): that is what the
    sizes are wanted for.
    """
    known = [suit for suit in colour if suit in sizes]
    if len(known) != 1:
        return ()
    mine = sizes[known[0]].pip
    (mate,) = colour - {known[0]}
    like_mine = [b[0] / card_w ** 2 for g in groups for b in g
                 if radius_ratio(b[0] / card_w ** 2, mine) < ALIKE]
    if len(like_mine) > 5:
        # more pips of the known size than one 5 prints: both 5s print alike
        return ((mate, FiveSizes(float(np.median(like_mine)), ())),)
    areas = [area for area in (_median_area(g) / card_w ** 2 for g in groups if len(g) >= 3)
             if radius_ratio(area, mine) >= ALIKE
             and abs(math.log(area / mine)) < math.log(MATE_SIZE)]
    return ((mate, FiveSizes(areas[0], ())),) if len(areas) == 1 else ()


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
        alpha = face[:, :, 3] > 128 if face.shape[2] == 4 else np.ones((h, w), bool)
        red = rgb[:, :, 0] - np.maximum(rgb[:, :, 1], rgb[:, :, 2]) > 60
        dark = rgb.max(axis=2) < 100
        ink = ((red | dark) & alpha).astype(np.uint8)
        n, _labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
        big = [i for i in range(1, n) if stats[i, 4] > PIP_AREA[0] * w * w]
        inner = sorted((int(stats[i, 4]) for i in big
                        if 0.2 * w < centres[i][0] < 0.8 * w and 0.1 * h < centres[i][1] < 0.9 * h),
                       reverse=True)[:5]
        if len(inner) < 5:
            raise ValueError(f"found {len(inner)} pips on the 5, not 5")
        corner = sorted({round(float(stats[i, 4]) / (w * w), 4) for i in big
                         if not 0.2 * w < centres[i][0] < 0.8 * w})
        return cls(pip=float(np.median(inner)) / (w * w), corner=tuple(corner))


def _is_pip(area: float, sizes: Sequence[FiveSizes]) -> bool:
    """Whether a blob of ``area`` (card widths squared) is nearer in size to a pip than to
    any corner mark of the pair's 5s, and near enough to a pip's size."""
    return _pip_of(area, list(enumerate(sizes))) is not None


def _alike(a: FiveSizes, b: FiveSizes) -> bool:
    """Whether two 5s print pips too near in size to tell apart (radii within 12 %)."""
    return radius_ratio(a.pip, b.pip) < ALIKE


def radius_ratio(a: float, b: float) -> float:
    """How many times wider the larger of two marks of areas ``a`` and ``b`` is: marks
    are compared by their radii (1.0: alike).

    >>> radius_ratio(0.04, 0.01), radius_ratio(0.01, 0.04)
    (2.0, 2.0)
    """
    return math.exp(abs(math.log(a / b)) / 2)


def _pip_of(area: float, sizes: Sequence[tuple[Any, FiveSizes]]) -> Any:
    """Whose pip a blob of ``area`` is (the key beside its sizes), or None when it is
    nearer in size to a corner's mark, or to no pip's size near enough."""
    r = math.sqrt(area)
    marks = [(math.sqrt(s.pip), key) for key, s in sizes]
    marks += [(math.sqrt(a), None) for _key, s in sizes for a in s.corner]
    ref, key = min(marks, key=lambda m: abs(math.log(r / m[0])))
    return key if KNOWN_SIZE[0] <= r / ref <= KNOWN_SIZE[1] else None


def _same_size(blobs: list[tuple[int, float, float]]
               ) -> tuple[list[list[tuple[int, float, float]]], list[tuple[int, float, float]]]:
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
    groups: list[list[tuple[int, float, float]]] = []
    for _card in range(2):
        best: list[tuple[int, float, float]] = []
        for anchor in left:
            group = [b for b in left if anchor[0] <= b[0] <= SAME_SIZE * anchor[0]][:5]
            if groups and abs(math.log(_median_area(group) / _median_area(groups[0]))) > \
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


def _sixth_pip(blob: tuple[int, float, float], five: Sequence[tuple[int, float, float]]
               ) -> bool:
    """Whether a lone blob beside a whole set of five pips is a pip of the other 5, printed
    alike (clubs and spades in most decks): of the set's size, which no corner's mark is.
    """
    return len(five) == 5 and _of_set_size(blob, five)


def _of_set_size(blob: tuple[int, float, float], group: Sequence[tuple[int, float, float]]
                 ) -> bool:
    """Whether a blob is printed alike with a set of pips: its area within the square
    root of :data:`SAME_SIZE` of the set's median, either way."""
    return abs(math.log(blob[0] / _median_area(group))) < math.log(SAME_SIZE) / 2


def _median_area(blobs: Sequence[tuple[int, float, float]]) -> float:
    return float(np.median([b[0] for b in blobs]))


def _paper(lab: np.ndarray, corner: np.ndarray, card_area: float) -> np.ndarray:
    """The card paper joined to one printed corner: of the paper's hue (light and shade
    change its lightness far more), or whiter than it; nothing when the corner is off
    the picture or shows no paper."""
    samples = lab[corner]
    if len(samples) < 20:
        return np.zeros(corner.shape, bool)
    light = samples[samples[:, 0] >= np.percentile(samples[:, 0], 60)]
    paper = np.median(light, axis=0)
    chroma = np.hypot(lab[:, :, 1] - 128, lab[:, :, 2] - 128)
    hue = np.hypot(lab[:, :, 1] - paper[1], lab[:, :, 2] - paper[2]) < PAPER_HUE
    whiter = (lab[:, :, 0] >= paper[0]) & (chroma <= np.hypot(paper[1] - 128,
                                                              paper[2] - 128) + 4)
    is_paper = ((hue | whiter) & (lab[:, :, 0] > IN_SHADE * paper[0])).astype(np.uint8)
    _n, labels, stats, _c = cv2.connectedComponentsWithStats(is_paper, connectivity=4)
    near = set(np.unique(labels[corner & (is_paper > 0)]).tolist()) - {0}
    keep = [i for i in near if stats[i, 4] > 0.05 * card_area]
    found: np.ndarray = np.isin(labels, keep)
    return found


def _card_pixels(calibration: Calibration, place: Sequence[float]) -> float:
    """A card's width in the picture's pixels at ``place``, the narrower way."""
    x, y = float(place[0]), float(place[1])
    pts = calibration.to_image([(x, y), (x + CARD_UNITS, y), (x, y + CARD_UNITS)])
    return float(min(np.hypot(*(pts[1] - pts[0])), np.hypot(*(pts[2] - pts[0]))))


def _glare(lab: np.ndarray, cards: np.ndarray, card_area: float) -> bool:
    """Whether a light's reflection lies on the cards: a blown-out patch that runs from
    the cards onto the table (white paper alone may blow out, but stops at its edge)."""
    blown = ((lab[:, :, 0] > 247) & (np.abs(lab[:, :, 1] - 128) < 12)).astype(np.uint8)
    n, labels, stats, _c = cv2.connectedComponentsWithStats(blown, connectivity=8)
    for i in range(1, n):
        region = labels == i
        if (region & (cards > 0)).any() and (region & (cards == 0)).sum() > 0.15 * card_area:
            return True
    return False


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """``mask`` with every enclosed hole filled: the cards, pips and all."""
    h, w = mask.shape
    outside = np.zeros((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = mask
    cv2.floodFill(outside, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 2)
    filled: np.ndarray = (outside[1:-1, 1:-1] != 2).astype(np.uint8)
    return filled


def _grow(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    grown: np.ndarray = centre + (quad - centre) * factor
    return grown


def _ink(patch: np.ndarray, lab: np.ndarray, red: bool, on_card: np.ndarray,
         card_w: float) -> np.ndarray:
    """The pixels printed in the 5s' suit colour: red (hearts, diamonds) or black.

    Measured against the paper around each mark (one card of a pair may lie in a lamp's
    light, the other in shade) and cut at :data:`INK_CUT` between the paper and the
    strongest ink on the cards, so a blurred pip keeps about its printed size (a fixed
    cut shrinks small pips more than large ones).
    """
    size = int(0.35 * card_w) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    lightness = lab[:, :, 0]
    around = np.maximum(cv2.morphologyEx(lightness, cv2.MORPH_CLOSE, kernel), 1.0)
    bgr = patch.astype(np.float32)
    if red:
        strength = (bgr[:, :, 2] - np.maximum(bgr[:, :, 0], bgr[:, :, 1])) / around
        floor = 0.15
    else:
        chroma = np.hypot(lab[:, :, 1] - 128, lab[:, :, 2] - 128)
        strength = np.where(chroma < 30, (around - lightness) / around, 0.0)
        floor = 0.3
    inked = strength[on_card > 0]
    peak = float(np.percentile(inked, 99)) if inked.size else 0.0
    paper_level = float(np.median(inked)) if inked.size else 0.0
    cut = max(floor, paper_level + INK_CUT * (peak - paper_level))
    return np.asarray(strength > cut)
