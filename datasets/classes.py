"""The detector's classes, for the training scripts: the kiosk's own list
(:mod:`kiosk.vision.cards.classes`), so the model trained and the kiosk that loads it agree.

>>> CLASSES[:3], CLASSES[-1], len(CLASSES)
(('9C', 'TC', 'JC'), 'back', 53)
>>> is_euchre_or_five("5H"), is_euchre_or_five("6H"), is_euchre_or_five("TS")
(True, False, True)
"""

from __future__ import annotations

from kiosk.vision.cards.classes import (
    CLASS_ID,
    CLASSES,
    EUCHRE_RANKS,
    FACE_DOWN,
    FACES,
    OTHER_RANKS,
    SUITS,
    is_euchre_or_five,
)

BACK = FACE_DOWN
ALL_RANKS: tuple[str, ...] = OTHER_RANKS + EUCHRE_RANKS

__all__ = ["ALL_RANKS", "BACK", "CLASSES", "CLASS_ID", "EUCHRE_RANKS", "FACES", "OTHER_RANKS",
           "SUITS", "is_euchre_or_five"]
