"""The players' own score board read from a still: each side's two 5s, counted by their pips.

Why pips: alberta55.txt, "10. MARKERS" keeps score so that the count is what the eye
sees. Under five the top card lies face down and the count is the bottom 5's pips in
sight; from five the top card is a face-up 5 (five pips) and the count is its five
plus the bottom 5's pips in sight; ten is both 5s uncovered. In every case the count is
the number of a 5's pips in sight, so the reader counts pips; whether the top card shows
a back or a face (a ``back`` detection on the pair, or another face's index there: a
picture back's print) says which 5s' pips can be there.

How, for each pair of 5s the detector names at the side of the table (this module pairs
the 5s and chooses how to read each pair; each step is a part of its own):

1. the pair's neighbourhood is warped to a top-down patch (the calibration), so every
   card has the same size wherever it lies (:mod:`~kiosk.vision.fives.patch`);
2. the 5s' paper is found around each printed corner the detector named, of that
   corner's paper's hue (one card may lie in a lamp's light, the other in shade); a
   face-down card, a trick or the table is not that paper, so their patterns never count;
3. the pips on it are counted by their size (:mod:`~kiosk.vision.fives.pips`), with the
   table's 5s' print sizes where they are known (:mod:`~kiosk.vision.fives.print_sizes`,
   learnt from earlier stills by :mod:`~kiosk.vision.fives.marker_sizes`).

A side whose 5s show no face is read by the face-down card on them, found by the table's
colour (:mod:`~kiosk.vision.fives.face_down`). Anything else that does not add up (a glare
on the pair, more than ten pips, a pair too far from the camera, a mark that is no pip)
is "cannot read", with the reason, never a guess. Which side a pair is:
:func:`~kiosk.vision.fives.reading.side_of`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from kiosk.rules.cards import Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.fives.face_down import SAME_PLACE, FaceDown, face_down_cards, read_nought
from kiosk.vision.fives.patch import CARD_ASPECT, CARD_UNITS
from kiosk.vision.fives.pips import count_pair
from kiosk.vision.fives.print_sizes import FiveSizes
from kiosk.vision.fives.reading import FIVES, SIDES, MarkerReading, Point, side_of

#: a 5 detection this far (table units) from another belongs to the same pair
PAIR_REACH = 0.22
#: a mark lies on the pair within a card's length (table units) of a 5's printed corner
ON_PAIR = CARD_ASPECT * CARD_UNITS
#: detections below this confidence are not evidence
EVIDENCE = 0.5


def read_markers(image: np.ndarray, detections: Sequence[Detection], calibration: Calibration,
                 places: Mapping[Team, Point] | None = None,
                 sizes: Mapping[str, FiveSizes] | None = None,
                 sides: Sequence[Team] = SIDES) -> dict[Team, MarkerReading]:
    """Each side's count from one still and the detector's boxes on it.

    ``places``: where each side's 5s were last read (table units), to find a side's
    nought, whose 5s show no face. ``sizes``: the table's 5s' print sizes per suit
    (``"H"`` ...), as learnt from the deck (:meth:`FiveSizes.of_face`) or from earlier
    stills (:mod:`kiosk.vision.fives.marker_sizes`); without them a pair's pips are the
    largest sets of blobs printed alike. ``sides``: the sides to read (both by default).
    """
    dets = [d for d in detections if d.confidence >= EVIDENCE]
    fives = [d for d in dets if d.card in FIVES]
    centres = calibration.to_table([d.centre for d in fives]) if fives else np.zeros((0, 2))
    by_side: dict[Team, list[list[int]]] = {side: [] for side in SIDES}
    for group in _pairs(centres):
        by_side[side_of(centres[group].mean(axis=0))].append(group)
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
                face_down = face_down_cards(image, dets, calibration)
            # the other side's 5s: a face-down top card there is theirs
            theirs = [_point(centres[g].mean(axis=0)) for other in SIDES if other is not side
                      for g in by_side[other]]
            theirs += [p for other, p in (places or {}).items() if other is not side]
            out[side] = read_nought(image, face_down, calibration, side, last, sizes or {},
                                    theirs)
    return out


def _on_pair(fives: Sequence[Detection], marks: Sequence[Detection],
             calibration: Calibration) -> bool:
    """Whether any of ``marks`` (a back, another face's index) lies on the pair: within
    :data:`ON_PAIR` of a 5's printed corner."""
    if not marks:
        return False
    corners = calibration.to_table([d.centre for d in fives])
    where = calibration.to_table([d.centre for d in marks])
    gaps = np.hypot(corners[:, None, 0] - where[None, :, 0],
                    corners[:, None, 1] - where[None, :, 1])
    return bool((gaps < ON_PAIR).any())


def _point(p: np.ndarray) -> Point:
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


def _read_pair(image: np.ndarray, fives: Sequence[Detection], dets: Sequence[Detection],
               calibration: Calibration, side: Team, place: Point,
               sizes: Mapping[str, FiveSizes]) -> MarkerReading:
    """One pair's count from its pips (:func:`~kiosk.vision.fives.pips.count_pair`), under
    a face-down top card where a back lies on the pair, else under a face-up one.

    A face-up top card of the pair is a 5, so another face's index on the pair is
    printed on a picture back (a deck whose back shows a fan of aces): the pair is read
    as under a face-down top, and as under a face-up one only where the pips then add up
    to nothing (a stray card lying on the markers, or a lone pip that measures as large
    as a jumbo corner's suit by the learnt sizes)."""
    backs = [d for d in dets if d.card == FACE_DOWN]
    if _on_pair(fives, backs, calibration):
        return count_pair(image, fives, dets, calibration, side, place, sizes, True)
    others = [d for d in dets if d.card != FACE_DOWN and d.card not in FIVES]
    if _on_pair(fives, others, calibration):
        as_face_down = count_pair(image, fives, dets, calibration, side, place, sizes, True)
        if as_face_down.read:
            return as_face_down
    return count_pair(image, fives, dets, calibration, side, place, sizes, False)
