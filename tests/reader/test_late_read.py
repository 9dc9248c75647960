"""A card whose name stays in doubt for a while keeps its place in the order of play."""

from __future__ import annotations

import math

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning
from kiosk.vision.reader import TrickReader

NORTH_BOX = [45, 20, 50, 25]
EAST_BOX = [75, 45, 80, 50]
SOUTH_BOX = [45, 75, 50, 80]
WEST_BOX = [20, 45, 25, 50]
NUDGED_NORTH_BOX = [48, 22, 53, 27]
FPS = 10


def _sighting(card: str, box: list[int], confidence: float = 0.9) -> dict[str, object]:
    return {"card": card, "confidence": confidence, "box": box}


def _doubtful_north(doubt_until: float, south_at: float, west_at: float, seconds: float,
                    nudge_at: float = math.inf) -> tuple[TrickReader, list[tuple[str, str]]]:
    """North's queen lies there from 0.5 s but reads half QH, half QD until
    ``doubt_until`` (no name dominates, so nothing is reported), nudged 3 px at
    ``nudge_at`` (a nudge, not a card taken away); East's QC comes down at 2.0 s and is
    read at once, then South's KH and West's AH. Returns the reader and the plays in the
    order they were reported."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="S")
    played: list[tuple[str, str]] = []
    for frame in range(int(seconds * FPS)):
        t = frame / FPS
        seen = []
        if t >= 0.5:
            name = "QD" if t < doubt_until and frame % 2 == 0 else "QH"
            seen.append(_sighting(name, NORTH_BOX if t < nudge_at else NUDGED_NORTH_BOX))
        for at, card, box in ((2.0, "QC", EAST_BOX), (south_at, "KH", SOUTH_BOX),
                              (west_at, "AH", WEST_BOX)):
            if t >= at:
                seen.append(_sighting(card, box))
        played += [(str(e.seat), str(e.card)) for e in reader.feed(t, seen)
                   if isinstance(e, CardPlayed)]
    return reader, played


def test_a_card_read_late_goes_before_cards_that_came_down_after_it() -> None:
    """North's queen is in doubt until 3.5 s, after East's card was read. The record still
    has North first: that is the order the cards came down."""
    reader, played = _doubtful_north(doubt_until=3.5, south_at=4.5, west_at=5.5, seconds=7.0)
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
    reader, _played = _doubtful_north(doubt_until=4.5, south_at=2.8, west_at=6.0, seconds=8.0,
                                      nudge_at=3.0)
    assert reader.all_tricks() == [[("N", "QH"), ("E", "QC"), ("S", "KH"), ("W", "AH")]]


def test_a_card_first_misread_as_a_card_already_played_keeps_its_place() -> None:
    """West leads trick 2 with the QC, but it reads QS (played by South in trick 1) for
    four seconds. The reader asks about it instead of guessing, so North, East and South
    are reported first; once it reads QC it still goes first in the record, because the
    QS read on the same corners says when it came down. North, East and South did not
    play out of turn: West's card was being asked about (a rendered hand did both)."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="H")
    first_trick = (("9S", NORTH_BOX), ("TS", EAST_BOX), ("QS", SOUTH_BOX), ("AS", WEST_BOX))
    second_trick = ((10.5, "QC", WEST_BOX), (12.0, "9C", NORTH_BOX), (13.0, "TC", EAST_BOX),
                    (14.0, "AC", SOUTH_BOX))
    events = []
    for frame in range(int(20.0 * FPS)):
        t = frame / FPS
        seen = []
        if t < 7.0:  # trick 1 comes down a card a second, then is taken in
            seen += [_sighting(card, box) for k, (card, box) in enumerate(first_trick)
                     if t >= 0.5 + k]
        for at, card, box in second_trick:
            if t >= at:
                misread = card == "QC" and t < 14.5
                seen.append(_sighting("QS" if misread else card, box))
        events += [(t, e) for e in reader.feed(t, seen)]
    kinds = [e.kind for _t, e in events if isinstance(e, ReaderWarning)]
    assert "seen_twice" in kinds
    assert "out_of_turn" not in kinds
    reported = [(str(e.seat), str(e.card)) for _t, e in events if isinstance(e, CardPlayed)]
    assert reported[4:] == [("N", "9C"), ("E", "TC"), ("S", "AC"), ("W", "QC")]
    assert reader.all_tricks()[1] == [("W", "QC"), ("N", "9C"), ("E", "TC"), ("S", "AC")]
