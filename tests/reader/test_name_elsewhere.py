"""A name read in two places at once: the card is where it is read surely, not where a
misreading of another card put the name first (a rendered hand lost a trick that way)."""

from __future__ import annotations

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed
from kiosk.vision.reader import TrickReader

BOXES = {
    "S": [45, 75, 50, 80],
    "W": [20, 45, 25, 50],
    "N": [45, 20, 50, 25],
    "N far corner": [51, 26, 56, 31],  # the other corner of North's card
    "E": [75, 45, 80, 50],
}
FPS = 12


def _read(true_score: float) -> tuple[TrickReader, list[CardPlayed]]:
    """South leads the AC, West plays the KS, North the TC, whose far corner reads TS
    at 0.7 from the moment it lands; then East plays the TS, read at ``true_score``."""
    script = [
        (0.5, "S", "AC", 0.95),
        (1.5, "W", "KS", 0.95),
        (2.5, "N", "TC", 0.95),
        (2.6, "N far corner", "TS", 0.7),
        (4.0, "E", "TS", true_score),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="H")
    played: list[CardPlayed] = []
    for frame in range(int(8.0 * FPS)):
        t = frame / FPS
        seen = [
            {"card": card, "confidence": conf, "box": BOXES[place]}
            for start, place, card, conf in script
            if t >= start
        ]
        played += [e for e in reader.feed(t, seen) if isinstance(e, CardPlayed)]
    return reader, played


def test_a_card_read_surely_in_its_seat_is_not_held_by_a_misread_elsewhere() -> None:
    reader, played = _read(true_score=0.95)
    assert [(str(e.seat), str(e.card)) for e in played] == [
        ("S", "AC"),
        ("W", "KS"),
        ("N", "TC"),
        ("E", "TS"),
    ]
    assert reader.all_tricks() == [[("S", "AC"), ("W", "KS"), ("N", "TC"), ("E", "TS")]]


def test_a_read_no_surer_than_the_misread_does_not_move_the_name() -> None:
    """Read no better than the misreading, the name stays where it lay: the kiosk does
    not guess, and East's card is left to the players (no TS reported anywhere)."""
    _reader, played = _read(true_score=0.75)
    assert ("E", "TS") not in [(str(e.seat), str(e.card)) for e in played]
    assert ("N", "TS") not in [(str(e.seat), str(e.card)) for e in played]
