"""The table's 5s' print sizes, learnt from the stills the kiosk reads them in.

Why: a pip and a corner's marks differ in size in every deck (a corner's suit is a
third of a pip in a standard deck, three times one in jumbo-index decks), and without
those sizes a corner the detector did not box cannot be told from a pip, so the pair is
"cannot read". A deck's art is not at hand at a club's table, and sizes measured from a
photo of the card face come out unlike a still's blobs (the photo's blur thins the ink
its own threshold keeps). So the sizes are measured as the reader measures them: from
reads that needed no sizes and were plain about whose pips they counted
(:attr:`kiosk.vision.fives.reading.MarkerReading.seen`): :func:`sizes_seen` and
:func:`mate_seen` say what a still shows plainly.

A suit's sizes are used once most of its last :data:`KEPT` stills (and at least
:data:`SAMPLES`) measured one pip, within :data:`SAME_PIP`; a still that disagrees (a 5
the detector once named by the wrong suit) is outvoted, not averaged in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from kiosk.vision.fives.print_sizes import (
    ALIKE,
    FIVE_PIPS,
    MATE_SIZE,
    Blob,
    FiveSizes,
    median_area,
    radius_ratio,
)
from kiosk.vision.fives.reading import MarkerReading

#: stills that must show a suit's pips plainly before its sizes are used
SAMPLES = 2
#: the newest stills kept per suit
KEPT = 8
#: two stills measured the same pip when their radii are within this ratio (a deck's
#: hearts' and diamonds' pips differ by 1.2 to 1.36 in four of the five decks measured,
#: and are alike in the fifth, where either's sizes serve the other)
SAME_PIP = 1.08
#: a corner mark whose radius is within this ratio of the pip's is not told from a pip
CORNER_APART = 1.1
#: a still shows a 5's pips plainly in one set of this many of them (a face-up top card
#: shows five, so these are the bottom 5's under a face-down top)
PLAIN_PIPS = (2, 4)
#: a set of this many blobs printed alike at least may be the other 5's pips
MATE_PIPS = 3


class LearntFiveSizes:
    """Per suit, the sizes the table's stills showed; :meth:`sizes` for the next read."""

    def __init__(self) -> None:
        self._seen: dict[str, list[FiveSizes]] = {}

    def add(self, readings: Iterable[MarkerReading]) -> None:
        """Keep what each side's reading showed plainly."""
        for reading in readings:
            for suit, sizes in reading.seen:
                kept = self._seen.setdefault(suit, [])
                kept.append(sizes)
                del kept[:-KEPT]

    def sizes(self) -> dict[str, FiveSizes]:
        """Each suit's sizes where enough stills agree: the median pip among those that
        measured one pip, and every corner mark they showed."""
        out = {}
        for suit, kept in self._seen.items():
            # the largest set of stills that measured one pip, each within a pip's
            # tolerance of one of them, and more than half of what was kept
            agree = max(([s for s in kept if _near(s.pip, one.pip)] for one in kept), key=len)
            if len(agree) < max(SAMPLES, len(kept) // 2 + 1):
                continue
            pip = float(np.median([s.pip for s in agree]))
            # a mark all but a pip's size would take the pips nearest it for corners
            corner = tuple(sorted({a for s in agree for a in s.corner
                                   if radius_ratio(a, pip) > CORNER_APART}))
            out[suit] = FiveSizes(pip, corner)
        return out


def _near(area: float, reference: float) -> bool:
    """Whether two stills measured the same pip: radii within :data:`SAME_PIP`.

    >>> _near(0.02, 0.021), _near(0.0184, 0.0268)
    (True, False)
    """
    return radius_ratio(area, reference) <= SAME_PIP


def sizes_seen(groups: Sequence[Sequence[Blob]], suits: set[str],
               corner_marks: Sequence[float], card_w: float
               ) -> tuple[tuple[str, FiveSizes], ...]:
    """The 5s' sizes a still read without them shows plainly: one set of two to four
    pips and one 5 named are the named 5's pips (a face-up top card shows five, so these
    are the bottom 5's under a face-down top), with the marks of its boxed corners. Five
    alone is not learnt from: the 5 named may be the bottom one peeking out while the
    top card's pips show.
    """
    if len(groups) == 1 and len(suits) == 1 and \
            PLAIN_PIPS[0] <= len(groups[0]) <= PLAIN_PIPS[1]:
        corner = tuple(sorted({round(a, 4) for a in corner_marks}))
        return ((next(iter(suits)), FiveSizes(median_area(groups[0]) / card_w ** 2, corner)),)
    return ()


def mate_seen(groups: Sequence[Sequence[Blob]], colour: frozenset[str],
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
    if len(like_mine) > FIVE_PIPS:
        # more pips of the known size than one 5 prints: both 5s print alike
        return ((mate, FiveSizes(float(np.median(like_mine)), ())),)
    areas = [area for area in (median_area(g) / card_w ** 2 for g in groups
                               if len(g) >= MATE_PIPS)
             if radius_ratio(area, mine) >= ALIKE
             and abs(math.log(area / mine)) < math.log(MATE_SIZE)]
    return ((mate, FiveSizes(areas[0], ())),) if len(areas) == 1 else ()
