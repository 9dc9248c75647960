"""One box the detector found: the value every stage of vision passes along.

The detector makes them, the pipeline records them in detection streams, the trick
reader reads them; CONTRACTS ``kiosk detect`` is their JSON form. ``card`` is the
detector's class name (``JH``, ``5S``, ``6D``, or ``back`` for a face-down card: see
:mod:`kiosk.vision.cards.classes`), parsed into a rules ``Card`` only where a card is meant.

>>> d = Detection("JH", 0.9, (10.0, 20.0, 30.0, 40.0))
>>> d.centre
(20.0, 30.0)
>>> Detection.coerce(["jh", 0.9, 10, 20, 30, 40]) == d
True
>>> Detection.coerce(d.to_json()) == d
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.vision.cards.classes import FACE_DOWN


@dataclass(frozen=True)
class Detection:
    """One detected corner index (or face-down card), in picture pixels."""

    card: str  #: project notation: ``JH``, ``5S``, ``6D``, or ``back``
    confidence: float
    box: tuple[float, float, float, float]  #: x1, y1, x2, y2 in input-image pixels
    #: the classifier's surest *other* euchre card for this index, and how sure: what a
    #: misread card may be instead (the trick reader keeps it with the play, and turns to
    #: it when the name is read far more surely on a later card). Not in ``kiosk detect``.
    alternative: str | None = field(default=None, repr=False)
    alternative_confidence: float = field(default=0.0, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2.0, (y1 + y2) / 2.0

    def to_json(self) -> dict[str, object]:
        """CONTRACTS ``kiosk detect``: card, confidence and box, rounded."""
        return {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "box": [round(v, 1) for v in self.box],
        }

    @classmethod
    def coerce(cls, item: Any) -> Detection:
        """Accept a Detection, a CONTRACTS dict, a compact ``[card, confidence, x1, y1, x2,
        y2]`` list (recorded streams; ``alternative, confidence`` may follow), or any
        object with card/confidence/box (and perhaps alternative/alternative_confidence)."""
        if isinstance(item, Detection):
            return item
        alternative, other = None, 0.0
        if isinstance(item, list | tuple):
            card, conf, box = item[0], item[1], item[2:6]
            if len(item) >= 8:
                alternative, other = item[6], item[7]
        elif isinstance(item, dict):
            card, conf, box = item["card"], item["confidence"], item["box"]
            alternative, other = item.get("alternative"), item.get("alternative_confidence", 0.0)
        else:
            card, conf, box = item.card, item.confidence, item.box
            alternative = getattr(item, "alternative", None)
            other = getattr(item, "alternative_confidence", 0.0)
        x1, y1, x2, y2 = (float(v) for v in box)
        return cls(card=str(card).upper() if card != FACE_DOWN else FACE_DOWN,
                   confidence=float(conf), box=(x1, y1, x2, y2),
                   alternative=None if alternative is None else str(alternative).upper(),
                   alternative_confidence=float(other))
