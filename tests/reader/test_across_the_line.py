"""A card laid across the diagonal between two seats' zones goes to the seat whose turn it is.

On a rendered tablet view North's 9H showed, for its first half second, only the corner
that lay on East's side of the line: it was read as East's card, played out of turn, and
East's own card, coming next, found East's place taken (a wrong trick).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration, SeatZones
from kiosk.vision.events import CardPlayed, ReaderWarning, VisionEvent
from kiosk.vision.reader import CARD_REPLACED, OUT_OF_TURN, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import play_script  # noqa: E402

FPS = 12
NEAR_CORNER = [60, 38, 64, 42]  # centre (0.62, 0.40): East's side, 0.02 from the line
FAR_CORNER = [54, 30, 58, 34]  # centre (0.56, 0.32): plainly North's


def _box(card: str, box: list[int]) -> dict[str, Any]:
    return {"card": card, "confidence": 0.95, "box": box}


def _read(
    leader: str, script: list[tuple[float, float, dict[str, Any]]], end: float = 9.0
) -> tuple[TrickReader, list[VisionEvent]]:
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader=leader, trump="S")
    return reader, play_script(reader, script, end)


def _north_across_the_line() -> list[tuple[float, float, dict[str, Any]]]:
    """South leads and West follows; North's 9H lies across the
    line, its far corner seen only after 1.5 s; then East plays the JH."""
    return [
        (0.2, 9.0, _box("KH", [45, 75, 50, 80])),
        (0.8, 9.0, _box("TH", [20, 45, 25, 50])),
        (2.0, 9.0, _box("9H", NEAR_CORNER)),
        (3.5, 9.0, _box("9H", FAR_CORNER)),
        (5.0, 9.0, _box("JH", [75, 45, 80, 50])),
    ]


def test_the_zone_line_is_where_the_test_card_lies() -> None:
    zones = SeatZones()
    assert zones.seat_at((0.62, 0.40)) == "E"
    assert zones.seat_across((0.62, 0.40), 0.04) == "N"


def test_a_card_across_the_line_is_the_seat_whose_turn_it_is() -> None:
    reader, events = _read("S", _north_across_the_line())
    assert reader.all_tricks() == [[("S", "KH"), ("W", "TH"), ("N", "9H"), ("E", "JH")]]
    assert not [e for e in events if isinstance(e, ReaderWarning) and e.kind == OUT_OF_TURN]


def test_across_the_line_the_zone_still_decides_when_it_is_that_seats_turn() -> None:
    """East leads: the card by East's side of the line is East's, as its zone says."""
    script = [(0.2, 9.0, _box("9H", NEAR_CORNER))]
    reader, events = _read("E", script)
    assert [(str(e.seat), str(e.card)) for e in events
            if isinstance(e, CardPlayed)] == [("E", "9H")]


def test_a_card_put_across_the_line_where_a_card_was_taken_back_replaces_it() -> None:
    """East takes back the AD and puts the TD down across the line to South's zone, on
    South's turn: it is East's card put in place of the AD, not South's (a rendered hand
    gave it to South, and the rest of the hand shifted by one)."""
    script = [
        (0.2, 12.0, _box("QC", [45, 20, 50, 25])),  # North leads
        (1.0, 4.0, _box("AD", [75, 45, 80, 50])),  # East's, taken back at 4 s
        (5.0, 12.0, _box("TD", [60, 59, 64, 63])),  # centre (0.62, 0.61): East's side
        (7.0, 12.0, _box("TS", [45, 75, 50, 80])),
        (8.5, 12.0, _box("9S", [20, 45, 25, 50])),
    ]
    reader, events = _read("N", script, end=12.0)
    assert SeatZones().seat_across((0.62, 0.61), 0.04) == "S"
    assert reader.all_tricks() == [[("N", "QC"), ("E", "TD"), ("S", "TS"), ("W", "9S")]]
    assert [str(e.seat) for e in events
            if isinstance(e, ReaderWarning) and e.kind == CARD_REPLACED] == [
        "E"
    ]
