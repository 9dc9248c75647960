"""The detector's second stage: each proposed box named by the index classifier, joined
by the context reader where it is unsure and by the suit reader (see
:mod:`kiosk.vision.cards.detector` for why there are two stages).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.cards.boxes import merge_same_card
from kiosk.vision.cards.classes import FACE_DOWN, is_euchre_or_five
from kiosk.vision.cards.context_reader import unsure_rows, with_context
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.index_classifier import NONE, RUNNER_UP_FLOOR, IndexClassifier
from kiosk.vision.cards.suit_reader import card_rows, with_suits


def name_probabilities(
    namer: IndexClassifier,
    image_bgr: np.ndarray,
    boxes: Sequence[Sequence[float]],
    suits: IndexClassifier | None = None,
    context: IndexClassifier | None = None,
) -> np.ndarray:
    """The second stage's opinion of each box, a row of ``namer.classes`` probabilities:
    the classifier's, joined by the context reader's where it is unsure and then by the
    suit reader's. Apart from :func:`name_proposals` so that an evaluation can ask what
    the second stage makes of boxes it is given (the labels' own, say) without the
    first stage's say on ``back`` or the threshold."""
    probabilities = namer.probabilities(image_bgr, boxes)
    if context is not None and len(boxes):
        kiosk_cards = np.array([is_euchre_or_five(c) for c in namer.classes])
        unsure = unsure_rows(probabilities, kiosk_cards)
        if len(unsure):
            probabilities = probabilities.copy()  # the classifier's own array stays as it was
            probabilities[unsure] = with_context(
                probabilities[unsure], context.probabilities(image_bgr, [boxes[i] for i in unsure])
            )
    if suits is not None and len(boxes):
        rows = card_rows(probabilities, namer.classes)
        if len(rows):
            probabilities = probabilities.copy()  # the classifier's own array stays as it was
            probabilities[rows] = with_suits(
                probabilities[rows], namer.classes,
                suits.probabilities(image_bgr, [boxes[i] for i in rows]), suits.classes,
            )  # fmt: skip
    return probabilities


def name_proposals(
    namer: IndexClassifier,
    image_bgr: np.ndarray,
    proposals: list[Detection],
    threshold: float,
    suits: IndexClassifier | None = None,
    context: IndexClassifier | None = None,
) -> list[Detection]:
    """The proposals the classifier names with at least ``threshold``, best first; with
    ``context`` (the context reader), its opinion of the card around each unsure index
    that leans to a euchre card or a 5 joins the classifier's
    (:func:`kiosk.vision.cards.context_reader.with_context`), and then with ``suits`` (the suit
    reader) its opinion of each card's suit (:func:`kiosk.vision.cards.suit_reader.with_suits`).

    A face-down card is the exception: its box is a whole card, which the 32-pixel patch
    shrinks to a texture that a patterned table or a court card's robe also has, so a
    ``back`` also needs the YOLO model (which saw the card's outline) to call it ``back``,
    and takes the lower of the two confidences.
    """
    probabilities = name_probabilities(namer, image_bgr, [p.box for p in proposals], suits,
                                       context)
    euchre = np.array([c in EUCHRE_NAMES for c in namer.classes])
    out = []
    for proposal, row in zip(proposals, probabilities, strict=True):
        best = int(row.argmax())
        card = namer.classes[best]
        confidence = float(row[best])
        if card == FACE_DOWN:
            confidence = min(confidence, proposal.confidence if proposal.card == card else 0.0)
        if card == NONE or confidence < threshold:
            continue
        others = np.where(euchre, row, -1.0)
        others[best] = -1.0
        second = int(others.argmax())
        if others[second] >= RUNNER_UP_FLOOR and card != FACE_DOWN:
            out.append(Detection(card, confidence, proposal.box, namer.classes[second],
                                 float(others[second])))
        else:
            out.append(Detection(card, confidence, proposal.box))
    return merge_same_card(sorted(out, key=lambda d: -d.confidence))
