"""A card whose name stays in doubt for a while keeps its place in the order of play."""

from __future__ import annotations

from kiosk.vision.calibration import Calibration
from kiosk.vision.events import CardPlayed
from kiosk.vision.reader import TrickReader

NORTH_BOX = [45, 20, 50, 25]
EAST_BOX = [75, 45, 80, 50]
SOUTH_BOX = [45, 75, 50, 80]
WEST_BOX = [20, 45, 25, 50]
FPS = 10


def _sighting(card: str, box: list[int], confidence: float = 0.9) -> dict[str, object]:
    return {"card": card, "confidence": confidence, "box": box}


def test_a_card_read_late_goes_before_cards_that_came_down_after_it() -> None:
    """North's queen lies there from 0.5 s but reads half QH, half QD until 3.5 s (no
    name dominates, so nothing is reported); East's QC comes down at 2.0 s and is read at
    once. The record still has North first: that is the order the cards came down."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="S")
    played: list[tuple[str, str]] = []
    for frame in range(int(7.0 * FPS)):
        t = frame / FPS
        seen = []
        if t >= 0.5:
            doubt = t < 3.5 and frame % 2 == 0
            seen.append(_sighting("QD" if doubt else "QH", NORTH_BOX))
        if t >= 2.0:
            seen.append(_sighting("QC", EAST_BOX))
        if t >= 4.5:
            seen.append(_sighting("KH", SOUTH_BOX))
        if t >= 5.5:
            seen.append(_sighting("AH", WEST_BOX))
        played += [(e.seat, e.card) for e in reader.feed(t, seen) if isinstance(e, CardPlayed)]
    # the events come in the order the names were settled ...
    assert played[:2] == [("E", "QC"), ("N", "QH")]
    # ... the trick is recorded in the order the cards came down
    assert reader.all_tricks() == [[("N", "QH"), ("E", "QC"), ("S", "KH"), ("W", "AH")]]


def test_cards_read_in_the_order_they_came_keep_that_order() -> None:
    """East plays before North's lead is read, a genuine lead out of turn: not reordered."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="S")
    for frame in range(int(5.0 * FPS)):
        t = frame / FPS
        seen = []
        if t >= 0.5:
            seen.append(_sighting("QC", EAST_BOX))
        if t >= 2.0:
            seen.append(_sighting("QH", NORTH_BOX))
        reader.feed(t, seen)
    assert reader.all_tricks() == [[("E", "QC"), ("N", "QH")]]


def test_a_card_nudged_while_its_name_is_in_doubt_keeps_its_place() -> None:
    """As above, but North's queen is nudged at 3.0 s, after East and South came down:
    it was still played when it first came down (a rendered hand did this: N:QH came
    last in the record after a nudge)."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="S")
    nudged = [48, 22, 53, 27]  # 3 px: a nudge, not a card taken away
    for frame in range(int(8.0 * FPS)):
        t = frame / FPS
        seen = []
        if t >= 0.5:
            doubt = t < 4.5 and frame % 2 == 0
            seen.append(_sighting("QD" if doubt else "QH", NORTH_BOX if t < 3.0 else nudged))
        if t >= 2.0:
            seen.append(_sighting("QC", EAST_BOX))
        if t >= 2.8:
            seen.append(_sighting("KH", SOUTH_BOX))
        if t >= 6.0:
            seen.append(_sighting("AH", WEST_BOX))
        reader.feed(t, seen)
    assert reader.all_tricks() == [[("N", "QH"), ("E", "QC"), ("S", "KH"), ("W", "AH")]]
