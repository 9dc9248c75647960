"""One side's 5s as read from a still, and which side a place at the table's edge is.

The pair's side is the side of the edge it lies along (``NS`` keep theirs along North's
or South's edge, ``EW`` along East's or West's; docs/markers.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.rules.cards import Seat, Team
from kiosk.vision.fives.print_sizes import FiveSizes

SIDES: tuple[Team, ...] = tuple(Team)
FIVES = frozenset({"5C", "5D", "5H", "5S"})
#: the suits printed red, and black
RED = frozenset({"H", "D"})
BLACK = frozenset({"C", "S"})
#: the table's centre, in table units (the play area is the unit square)
CENTRE = 0.5
#: a place at the table (table units)
Point = tuple[float, float]


@dataclass(frozen=True)
class MarkerReading:
    """One side's 5s as read: the count (None: cannot read) and what it rests on."""

    side: Team
    count: int | None
    #: where the pair lies (table units), to look there first next time
    place: Point | None = None
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
    dx, dy = float(point[0]) - CENTRE, float(point[1]) - CENTRE
    return Seat.N.team if abs(dy) >= abs(dx) else Seat.E.team
