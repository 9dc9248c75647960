"""The enrolment layout: where the players lay each card of their pack for the kiosk to learn it.

The set-up screen shows the camera's picture with this grid over it, and a printed layout
sheet can carry the same grid. Each place names the card that belongs there, so a photo
of the laid-out pack is a labelled photo without anyone typing a label: an index found
inside a place is that place's card. Rows are the suits (clubs, diamonds, hearts,
spades), columns the ranks 9 to ace; the two 5s the table keeps score with (two of one
colour, ``../shared/rules/alberta55.txt``, "Markers") lie in the fifth row, in its middle
two places, and their suits are read, not assumed.

Places are in the picture's own coordinates, 0..1 across and down, so the grid fits any
camera's frame; a card may lie at any angle inside its place.

>>> len(PLACES), PLACES[0].card, PLACES[-1].card
(26, '9C', '5')
>>> place_at(0.1, 0.1).card, place_at(0.5, 0.9).card, place_at(0.01, 0.5)
('9C', '5', None)
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.cards import Card

#: the grid's rows (suits) and columns (ranks), and its edges in the picture (0..1)
SUIT_ROWS = ("C", "D", "H", "S")
RANK_COLUMNS = ("9", "T", "J", "Q", "K", "A")
ROWS = len(SUIT_ROWS) + 1
COLUMNS = len(RANK_COLUMNS)
LEFT, RIGHT, TOP, BOTTOM = 0.04, 0.96, 0.04, 0.96
#: a place holding a 5 of either suit of the colour the table's markers are
FIVE = "5"
#: the columns of the two 5s in the last row
FIVE_COLUMNS = (2, 3)


@dataclass(frozen=True)
class Place:
    """One place of the grid: the card that belongs in it, and its edges (0..1)."""

    card: str  #: ``9C`` ... ``AS``, or :data:`FIVE` (a 5 whose suit is read)
    row: int
    column: int

    @property
    def box(self) -> tuple[float, float, float, float]:
        """x1, y1, x2, y2 in the picture's coordinates (0..1)."""
        width, height = (RIGHT - LEFT) / COLUMNS, (BOTTOM - TOP) / ROWS
        x1, y1 = LEFT + self.column * width, TOP + self.row * height
        return x1, y1, x1 + width, y1 + height

    @property
    def words(self) -> str:
        """The card in plain words, for the players: "the nine of clubs", "a five"."""
        if self.card == FIVE:
            return "a five"
        return "the " + Card.parse(self.card).words


PLACES: tuple[Place, ...] = tuple(
    Place(rank + suit, row, column)
    for row, suit in enumerate(SUIT_ROWS)
    for column, rank in enumerate(RANK_COLUMNS)
) + tuple(Place(FIVE, len(SUIT_ROWS), column) for column in FIVE_COLUMNS)


def place_at(x: float, y: float) -> Place | None:
    """The place whose box holds the point (x, y) (0..1 in the picture), or None."""
    if not (LEFT <= x < RIGHT and TOP <= y < BOTTOM):
        return None
    column = int((x - LEFT) / (RIGHT - LEFT) * COLUMNS)
    row = int((y - TOP) / (BOTTOM - TOP) * ROWS)
    for place in PLACES:
        if place.row == row and place.column == column:
            return place
    return None
