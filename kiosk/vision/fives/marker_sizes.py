"""The table's 5s' print sizes, learnt from the stills the kiosk reads them in.

Why: a pip and a corner's marks differ in size in every deck (a corner's suit is a
third of a pip in a standard deck, three times one in jumbo-index decks), and without
those sizes a corner the detector did not box cannot be told from a pip, so the pair is
"cannot read". A deck's art is not at hand at a club's table, and sizes measured from a
photo of the card face come out unlike a still's blobs (the photo's blur thins the ink
its own threshold keeps). So the sizes are measured as the reader measures them: from
reads that needed no sizes and were plain about whose pips they counted
(:attr:`kiosk.vision.fives.markers.MarkerReading.seen`).

A suit's sizes are used once most of its last :data:`KEPT` stills (and at least
:data:`SAMPLES`) measured one pip, within :data:`SAME_PIP`; a still that disagrees (a 5
the detector once named by the wrong suit) is outvoted, not averaged in.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from kiosk.vision.fives.markers import FiveSizes, MarkerReading, radius_ratio

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
