"""Where the table really lies, learnt from where the cards of complete tricks came to rest.

Why: without a calibration the seat zones come from the view's default corners
(``Calibration.default``), and a tablet on its stand a little off (shifted, turned a
few degrees, the table not centred in the picture) moves every zone's line: a card
lying plainly in front of North may then fall in East's zone. A saved calibration or
the play mat is the truth and is never second-guessed; the default is only a guess,
and the cards themselves say where the table is.

Each complete trick, one card per seat, is four points around the table's centre
(three in a lone hand), North's card on the far side of it from South's and East's
from West's. Over the tricks so far, the middle of each pair of partners' cards is the
centre, and the mean North-to-South and West-to-East steps are the table's two axes. A point
is then read in those axes (``place``): the centre moved to ``(0.5, 0.5)``, North's
axis straight up and East's straight right, each still as long as a table unit, so
the zones' inner and outer edges keep their meaning. A card still belongs to the seat
whose zone it rests in; only the zones are put where the table is.

Guards: nothing changes before ``MIN_TRICKS`` such tricks; a trick whose cards do not
lie around a centre (a card on the wrong side of it: misplaced, or read in a seat it
does not lie in) teaches nothing, and neither does one that would move the centre
further than ``MAX_SHIFT`` or turn an axis more than ``MAX_TURN`` degrees (something
other than the camera is off).

>>> fit = TableFit()
>>> moved = {Seat.N: (0.58, 0.3), Seat.E: (0.78, 0.5), Seat.S: (0.58, 0.7),
...          Seat.W: (0.38, 0.5)}          # the table 0.08 to the right of the default
>>> for _ in range(MIN_TRICKS):
...     assert fit.learn(moved)
>>> [round(v, 2) for v in fit.place((0.78, 0.5))], fit.shift
([0.7, 0.5], (0.08, 0.0))
>>> TableFit(active=False).place((0.78, 0.5))   # a calibrated table: its zones stand
(0.78, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from kiosk.rules.cards import Seat
from kiosk.vision.reader.config import ACROSS_LINE

#: complete tricks it takes before the zones follow the cards: one trick's cards lie a
#: few degrees off its axes, yet on rendered tablet views off by up to 8 % of the frame
#: and 6 degrees the zones fitted to one trick misplace 0.8 % of cards, the default's 4.8 %
MIN_TRICKS = 1
#: the most one trick may move the centre (table units) or turn an axis (degrees)
MAX_SHIFT = 0.2
MAX_TURN = 20.0
#: the line between two zones (``ACROSS_LINE``) while the table is only guessed: on tablet
#: views turned or shifted within 6 degrees and 8 % of the frame, 99 % of the cards the
#: default zones give a neighbour lie this near the line
UNSURE_LINE = 0.10
#: a card lies on its own side of the trick's centre when its step from it points within
#: this many degrees of its seat's direction (the zones' own diagonals are 45)
ON_ITS_SIDE = 60.0

#: each seat's direction from the centre, in table units (North's edge at y = 0)
_DIRECTION = {Seat.N: (0.0, -1.0), Seat.E: (1.0, 0.0), Seat.S: (0.0, 1.0),
              Seat.W: (-1.0, 0.0)}


class TableFit:
    """The table's centre and axes as the complete tricks show them (see the module's
    docstring); ``active`` is False for a calibrated table, whose zones stand."""

    def __init__(self, active: bool = True) -> None:
        self.active = active
        self.tricks = 0
        self._centres = np.zeros(2)
        self._down = np.zeros(2)  # summed North-to-South steps
        self._across = np.zeros(2)  # summed West-to-East steps
        #: table point -> the point in the fitted table's axes (identity until fitted)
        self._matrix = np.eye(2)
        self._centre = np.array([0.5, 0.5])

    @property
    def fitted(self) -> bool:
        """Whether the zones follow the cards now."""
        return self.active and self.tricks >= MIN_TRICKS

    @property
    def across_line(self) -> float:
        """How near the line between two zones a card lies for the turn of play to decide
        whose it is: wider while the table is only guessed (a card played in its turn
        keeps its seat however wide; only a play out of turn near the line is given to
        the seat whose turn it was)."""
        return UNSURE_LINE if self.active and not self.fitted else ACROSS_LINE

    @property
    def shift(self) -> tuple[float, float]:
        """How far the fitted centre lies from the default's (table units)."""
        return (round(float(self._centre[0] - 0.5), 3), round(float(self._centre[1] - 0.5), 3))

    def learn(self, where: Mapping[Seat, Sequence[float] | np.ndarray]) -> bool:
        """A complete trick: each seat's card and where it lies. Learns from it (True)
        when it holds both cards of one pair of partners and at least one of the other
        pair (a lone hand's trick is three), each on its own side of their centre.

        The centre is the middle of each pair laid in full; a pair with one card laid
        gives its axis from the centre to that card, as long as a pair's step."""
        if not self.active:
            return False
        points = {seat: np.asarray(where[seat], dtype=np.float64)[:2] for seat in where}
        pairs = [(Seat.N, Seat.S), (Seat.W, Seat.E)]
        full = [(a, b) for a, b in pairs if a in points and b in points]
        if not full or len(points) < 3:
            return False
        centre = np.mean([(points[a] + points[b]) / 2 for a, b in full], axis=0)
        for seat, point in points.items():
            step = point - centre
            length = float(np.hypot(*step))
            cosine = float(step @ np.asarray(_DIRECTION[seat])) / max(length, 1e-9)
            if length < 1e-6 or cosine < math.cos(math.radians(ON_ITS_SIDE)):
                return False
        down, across = (self._step(points, centre, a, b) for a, b in pairs)
        if not _plausible(centre, down, across):
            return False
        self.tricks += 1
        self._centres += centre
        self._down += down
        self._across += across
        self._refit()
        return True

    @staticmethod
    def _step(points: Mapping[Seat, np.ndarray], centre: np.ndarray, first: Seat,
              second: Seat) -> np.ndarray:
        """The step from ``first``'s card to ``second``'s, or twice the step from the
        centre to the one laid."""
        if first in points and second in points:
            step: np.ndarray = points[second] - points[first]
        elif second in points:
            step = 2 * (points[second] - centre)
        else:
            step = 2 * (centre - points[first])
        return step

    def _refit(self) -> None:
        """The centre and axes from the sums (each trick learnt was plausible, and so is
        their mean)."""
        if self.tricks < MIN_TRICKS:
            return
        across = self._across / float(np.hypot(*self._across))
        down = self._down / float(np.hypot(*self._down))
        # a point's coordinates in the basis of the fitted axes
        self._matrix = np.linalg.inv(np.column_stack([across, down]))
        self._centre = self._centres / self.tricks

    def place(self, point: Sequence[float] | np.ndarray) -> tuple[float, float]:
        """``point`` (table units, the calibration's) in the fitted table's axes."""
        if not self.fitted:
            return (float(point[0]), float(point[1]))
        x, y = self._matrix @ (np.asarray(point[:2], dtype=np.float64) - self._centre) + 0.5
        return (float(x), float(y))


def _plausible(centre: np.ndarray, down: np.ndarray, across: np.ndarray) -> bool:
    """Whether one trick's centre and axes are a camera a little off, not cards laid far
    to one side or read in the wrong seats."""
    turns = (math.degrees(math.atan2(across[1], across[0])),
             math.degrees(math.atan2(-down[0], down[1])))
    return (float(np.hypot(*(centre - 0.5))) <= MAX_SHIFT
            and max(abs(a) for a in turns) <= MAX_TURN)
