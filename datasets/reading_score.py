"""How well a detector reads labelled photos, in the three figures the real-camera targets use.

- **cards found**: of the euchre cards and 5s labelled in a photo (a card counts once,
  however many of its corners are labelled), the share with at least one index detected
  under its own name on one of its boxes (IoU 0.5);
- **false detections an image**: detections that match no labelled box of their name
  (a detection on a joker, which has no class, counts neither way);
- **same-colour suit swaps**: of those cards, the share with an index read as the same
  rank in the other suit of its colour (the jack of clubs as the jack of spades: the left
  bower read as the right).

Apart from ``models/evaluate.py`` (mAP, miss causes, per class) because these three are
what the enrolment benchmark and its tests need, on photos held in memory.

>>> score = ReadingScore()
>>> score.add([("JC", (0, 0, 10, 10))], [("JS", (0, 0, 10, 10))])
>>> score.found, score.swaps, score.false
(0.0, 1.0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from datasets.classes import is_euchre_or_five
from kiosk.rules.cards import Suit
from kiosk.vision.decks.enrolment import iou as overlap

Box = tuple[float, float, float, float]
#: a detection matches a label from this overlap up
MATCH = 0.5


#: the index-size bands of :attr:`ReadingScore.by_size`, by their lower edge in pixels
SIZES = (0, 16, 20, 25, 30, 40)


def size_band(boxes: Sequence[Box]) -> str:
    """The band of the largest of a card's index boxes (longer side), as "20-25 px".

    >>> size_band([(0, 0, 10, 22), (0, 0, 5, 5)]), size_band([(0, 0, 50, 50)])
    ('20-25 px', '40+ px')
    """
    side = max(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    low = max(edge for edge in SIZES if side >= edge)
    following = [edge for edge in SIZES if edge > low]
    return f"{low}-{following[0]} px" if following else f"{low}+ px"


@dataclass
class ReadingScore:
    """Counts over the photos added so far."""

    images: int = 0
    cards: int = 0
    cards_found: int = 0
    cards_swapped: int = 0
    false: int = 0
    #: by the card's largest labelled index (its longer side, pixels, in :data:`SIZES`
    #: bands): [cards, found], to say how small an index still reads
    by_size: dict[str, list[int]] = field(default_factory=dict)

    def add(
        self, labels: Sequence[tuple[str | None, Box]], detections: Iterable[tuple[str, Box]]
    ) -> None:
        """One photo: its labels (None for a joker or other ignore region) and detections."""
        self.images += 1
        found = list(detections)
        by_card: dict[str, list[Box]] = {}
        for card, box in labels:
            if card is not None and is_euchre_or_five(card):
                by_card.setdefault(card, []).append(box)
        for card, boxes in by_card.items():
            self.cards += 1
            band = self.by_size.setdefault(size_band(boxes), [0, 0])
            band[0] += 1
            if any(name == card and overlap(box, b) >= MATCH for name, box in found
                   for b in boxes):
                self.cards_found += 1
                band[1] += 1
            swap = card[0] + Suit.parse(card[1]).same_colour.value
            if any(name == swap and overlap(box, b) >= MATCH for name, box in found
                   for b in boxes):
                self.cards_swapped += 1
        for name, box in found:
            right = any(card == name and overlap(box, b) >= MATCH for card, b in labels)
            ignored = any(card is None and overlap(box, b) >= MATCH for card, b in labels)
            if not right and not ignored:
                self.false += 1

    @property
    def found(self) -> float:
        return self.cards_found / max(self.cards, 1)

    @property
    def swaps(self) -> float:
        return self.cards_swapped / max(self.cards, 1)

    @property
    def false_per_image(self) -> float:
        return self.false / max(self.images, 1)

    def summary(self) -> dict[str, float | int]:
        return {
            "images": self.images, "cards": self.cards, "found": round(self.found, 4),
            "false_per_image": round(self.false_per_image, 4), "swaps": round(self.swaps, 4),
        }  # fmt: skip

    def found_by_size(self) -> dict[str, tuple[int, float]]:
        """Cards and the share found, per index-size band, smallest first."""
        order = {f"{e}": i for i, e in enumerate(SIZES)}
        return {band: (n, round(found / n, 3)) for band, (n, found) in
                sorted(self.by_size.items(), key=lambda kv: order[kv[0].split("-")[0]
                                                                 .split("+")[0]])}


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``successes / trials``: how far a figure on a
    few dozen cards can move by chance (one card of 109 is noise, not a step back).

    >>> [round(v, 3) for v in wilson(106, 109)]
    [0.922, 0.991]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = z * ((share * (1 - share) / trials + z * z / (4 * trials * trials)) ** 0.5)
    return max(0.0, centre - spread / denominator), min(1.0, centre + spread / denominator)

