"""What learning the deck in play has to report, as facts (kiosk.table.deck_learning
learns; kiosk.app.words.learning_words says it). Kept apart from the learning itself so
that the words load without the vision stack."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.vision.decks.play_learning import Refit


@dataclass(frozen=True)
class HandLearnt:
    """What one hand taught: its patches, the cards learnt so far, and the refit it led to
    (None: none tried; kiosk.app.words.learning_words says it)."""

    hand: int
    patches: int
    cards: int  #: cards learnt so far
    refit: Refit | None = None
    too_few: bool = False  #: too few cards learnt yet to try a refit


class LearningFault(StrEnum):
    NOT_USED = "not_used"  #: the detector refused a profile learnt in play
    NOT_KEPT = "not_kept"  #: it could not be written beside the set-up profile


@dataclass(frozen=True)
class LearningFailed:
    """A profile learnt in play that was not used, or not kept: why (the error's words)."""

    fault: LearningFault
    problem: str


#: the last thing learning in play has to report
LearningNote = HandLearnt | LearningFailed


__all__ = ["HandLearnt", "LearningFailed", "LearningFault", "LearningNote"]
