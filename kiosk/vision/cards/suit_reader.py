"""The suit from the card around an index: a second opinion for the index classifier.

A printed index is a rank over a suit symbol a few pixels wide. On the rendered hands
most of the cards the index classifier names wrongly have the right rank and the wrong
suit of the same colour (the ace of clubs read as the ace of spades four times in 50
hands, the queen and jack of clubs as spades), and each time the card's own pips, several
times the index's size, showed the suit plainly a little further in. The index
classifier's 32-pixel patch (1.3 x the index) never sees them.

The suit reader is the same small network reading a wider patch (6 x the index, so an
ace's centre pip is inside it) and answering only the suit. Its patch holds neighbouring
cards too, so it keeps a 3 x 3 layout instead of a global average: the card whose
corner sits in the middle is the one it names. It learns from frames of rendered hands
as the kiosk's detector reads them (a tablet's warped top-down), the pictures where the
index fails. :func:`with_suits` combines the two readers as a product of experts: each
card's probability is scaled by how much more (or less) likely than even the suit
reader finds its suit (softened by :data:`SUIT_WEIGHT`), then renormalised, so a sure
suit reader settles a suit the index leaves in doubt. A suit reader less sure than
:data:`SUIT_SURE` changes nothing: where it hesitates it was more often wrong than the
index.

>>> import numpy as np
>>> index = np.array([[0.6, 0.4, 0.0], [0.6, 0.4, 0.0]])     # AS 0.6, AC 0.4, none 0
>>> suits = np.array([[0.97, 0.0, 0.0, 0.03],                # C D H S: sure, clubs
...                   [0.8, 0.0, 0.0, 0.2]])                  # leaning clubs, not sure
>>> with_suits(index, ("AS", "AC", "none"), suits, ("C", "D", "H", "S")).round(2).tolist()
[[0.21, 0.79, 0.0], [0.6, 0.4, 0.0]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kiosk.shipped import shipped_model
from kiosk.vision.cards.index_classifier import RUNNER_UP_FLOOR
from kiosk.vision.decks.deck_profile import is_card

#: the exported suit reader committed with the repository (optional: without it the
#: index classifier names the suit alone)
DEFAULT_SUIT_READER = shipped_model("suit_reader.onnx")

#: the exponent on the suit reader's opinion (1: a plain product of experts) and the
#: least probability of its likeliest suit for it to count at all; both chosen on frames
#: of 100 rendered hands it never learnt from (models/README.md)
SUIT_WEIGHT = 0.5
SUIT_SURE = 0.9

#: how many quarter turns of each patch the suit reader reads (the index classifier reads
#: four): its 48-pixel patches cost twice the classifier's, and four turns doubled the
#: whole detector's time on a busy picture for no better figure
SUIT_TURNS = 1

#: a box is shown to the suit reader when the index classifier gives its card names at
#: least this much probability together (a box it calls ``none`` or ``back`` needs no suit)
CARD_MASS = 0.2


def card_rows(probabilities: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    """The rows (boxes) worth a second opinion on the suit: the card names hold at least
    :data:`CARD_MASS` together, the two likeliest share a rank (AS or AC?) and the second
    has at least :data:`RUNNER_UP_FLOOR` (a runner-up under it wins only against a suit
    reading all but certain the other way: with the first name at 0.9, under 0.0005 for
    its suit; the reader's settings were chosen on such rows, and leaving the others out
    saves most of its cost).

    >>> rows = np.array([[0.5, 0.3, 0.2, 0.0], [0.5, 0.0, 0.2, 0.3], [0.0, 0.0, 0.1, 0.9],
    ...                  [0.97, 0.015, 0.01, 0.005]])
    >>> card_rows(rows, ("AS", "AC", "QS", "none")).tolist()
    [0]
    """
    cards = [i for i, c in enumerate(classes) if is_card(c)]
    names = [classes[i] for i in cards]
    scores = probabilities[:, cards]
    top_two = np.argsort(-scores, axis=1)[:, :2]
    return np.asarray([
        row for row, (first, second) in enumerate(top_two)
        if scores[row].sum() >= CARD_MASS and names[first][0] == names[second][0]
        and scores[row, second] >= RUNNER_UP_FLOOR
    ], dtype=np.int64)  # fmt: skip


def with_suits(
    probabilities: np.ndarray,
    classes: Sequence[str],
    suit_probabilities: np.ndarray,
    suits: Sequence[str],
    weight: float = SUIT_WEIGHT,
    sure: float = SUIT_SURE,
) -> np.ndarray:
    """The index classifier's rows with each card's probability scaled by
    ``(len(suits) * p(its suit)) ** weight`` and renormalised; ``none`` and ``back``
    keep their factor of 1, and so does every card in a row whose suit reading is under
    ``sure``. One suit row per index row."""
    factors = np.ones_like(probabilities)
    spread = np.clip(suit_probabilities * len(suits), 1e-6, None) ** weight
    spread[suit_probabilities.max(axis=1) < sure] = 1.0
    for column, name in enumerate(classes):
        if is_card(name) and name[1] in suits:
            factors[:, column] = spread[:, list(suits).index(name[1])]
    scaled = probabilities * factors
    return np.asarray(scaled / np.clip(scaled.sum(axis=1, keepdims=True), 1e-12, None))
