"""The card around an index: a second opinion on the whole name, for indices too small to read.

Half the indices the detector misses on the synthetic scenes are 12-25 pixels, blurred
or half under a finger: the index classifier's 32-pixel patch (1.3 x the box) holds a
smear where a K and a Q, or a 9 and a 5, look alike. Yet the card itself is several
times the index's size, and often shows what the index no longer does: a court's
picture, a row of pips, the pips' colour and shape.

The context reader is the suit reader's network (a 48-pixel patch, 6 x the box, pooled
to a 3 x 3 layout so the card whose corner is in the middle is the one it names)
answering the index classifier's own 54 classes. It is asked only about boxes the index
classifier names less surely than :data:`CONTEXT_BELOW`, and only where its likeliest
name is a card the kiosk plays with (a euchre card or a 5), and joins it as a product of
experts (:func:`with_context`): each class's probability times the context reader's to
the power :data:`CONTEXT_WEIGHT`, renormalised. A weight under 1 keeps the index in
charge where the card around it is a pile of other cards.

Why only the kiosk's cards: asked about every unsure box, it also turned three boxes the
index classifier had left unnamed on the real test photos into wrong names of cards the
kiosk never uses (a 6D read 8D, an 8D read 3D twice), and the false detections there rose
over the target (0.094 to 0.111 an image); asked only where the index leans to a euchre
card or a 5, those stay unnamed and every gain the kiosk feels is kept (models/README.md).

>>> import numpy as np
>>> index = np.array([[0.5, 0.4, 0.1], [0.95, 0.04, 0.01], [0.1, 0.2, 0.7]])  # KD, QD, 8D
>>> around = np.array([[0.1, 0.8, 0.1], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
>>> unsure_rows(index, np.array([True, True, False])).tolist()
[0]
>>> with_context(index[:1], around[:1], weight=1.0).round(2).tolist()
[[0.13, 0.84, 0.03]]
"""

from __future__ import annotations

import numpy as np

from kiosk.shipped import shipped_model

#: the exported context reader committed with the repository (optional: without it the
#: index classifier and the suit reader name the card alone)
DEFAULT_CONTEXT_READER = shipped_model("context_reader.onnx")

#: the exponent on the context reader's opinion (1: a plain product of experts), under 1
#: so the index's own reading weighs more than the card around it; chosen on the
#: validation scenes
CONTEXT_WEIGHT = 0.3
#: a box whose index reading names nothing at least this surely is shown to the context
#: reader; a sure index needs no second opinion, and leaving it out saves most of the cost
CONTEXT_BELOW = 0.9
#: quarter turns the context reader reads of each patch (like the suit reader: one)
CONTEXT_TURNS = 1
#: the floor under a context probability, so that no class the index reader holds
#: possible is ruled out by the context reader alone
CONTEXT_FLOOR = 1e-4


def unsure_rows(
    probabilities: np.ndarray, wanted: np.ndarray, below: float = CONTEXT_BELOW
) -> np.ndarray:
    """The rows (boxes) to ask about: their likeliest class is one of the ``wanted``
    classes (a boolean per column: the kiosk's cards) and has less than ``below``."""
    likeliest = probabilities.argmax(axis=1)
    unsure = (probabilities.max(axis=1) < below) & wanted[likeliest]
    return np.flatnonzero(unsure).astype(np.int64)


def with_context(
    probabilities: np.ndarray, context_probabilities: np.ndarray, weight: float = CONTEXT_WEIGHT
) -> np.ndarray:
    """Each row's classes scaled by ``max(context, CONTEXT_FLOOR) ** weight`` and
    renormalised; the two readers' rows must name the same classes in the same order."""
    if probabilities.shape != context_probabilities.shape:
        raise ValueError(
            f"the context reader's rows {context_probabilities.shape} do not match the "
            f"index classifier's {probabilities.shape}"
        )
    scaled = probabilities * np.clip(context_probabilities, CONTEXT_FLOOR, None) ** weight
    return np.asarray(scaled / np.clip(scaled.sum(axis=1, keepdims=True), 1e-12, None))
