"""A corrected revoke while another card of the trick is misread as the card taken back.

In a rendered hand West played the AS, the trick filled, and West took the AS back and
played the 9C. East's AC, read at 0.56-0.6, had one corner read "AS" from then on, so
the AS name followed that corner to East's place and the AS counted as still lying on
the table: the 9C was taken for the next lead, and every later trick shifted by one. A
trick card's name read on another trick card's corners is that card misread.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning, TrickCleared, VisionEvent
from kiosk.vision.reader import CARD_REPLACED, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import play_script  # noqa: E402

FPS = 12
EAST_CORNERS = ([75, 45, 80, 50], [82, 54, 87, 59])


def _box(card: str, confidence: float, box: list[int]) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": box}


def _read(east_second_corner_after_takeback: str) -> tuple[TrickReader, list[VisionEvent]]:
    """Clubs are trump. Trick 1: North TC, East AC, South QC, West AS; at 6 s West takes
    the AS back and at 7.5 s plays the 9C; the trick is raked in at 10 s; East (the AC
    wins) leads the 9S at 11 s."""
    taken_back, raked = 6.0, 10.0
    script = [
        (0.5, raked, _box("TC", 0.95, [45, 20, 50, 25])),
        (1.5, raked, _box("AC", 0.58, EAST_CORNERS[0])),
        (1.5, taken_back, _box("AC", 0.9, EAST_CORNERS[1])),
        (taken_back, raked, _box(east_second_corner_after_takeback, 0.56, EAST_CORNERS[1])),
        (2.5, raked, _box("QC", 0.95, [45, 75, 50, 80])),
        (3.5, taken_back, _box("AS", 0.95, [20, 45, 25, 50])),
        (7.5, raked, _box("9C", 0.93, [21, 46, 26, 51])),
        (11.0, 15.0, _box("9S", 0.95, [75, 45, 80, 50])),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="C")
    return reader, play_script(reader, script, 15.0)


def test_a_card_taken_back_is_gone_though_its_name_is_read_on_another_trick_card() -> None:
    reader, events = _read(east_second_corner_after_takeback="AS")
    assert reader.all_tricks() == [
        [("N", "TC"), ("E", "AC"), ("S", "QC"), ("W", "9C")],
        [("E", "9S")],
    ]
    replaced = [e for e in events if isinstance(e, ReaderWarning) and e.kind == CARD_REPLACED]
    assert [(str(e.seat), "nine of clubs" in e.message) for e in replaced] == [("W", True)]
    # the replacement comes before the trick is cleared, in the trick it belongs to
    first_clear = next(i for i, e in enumerate(events) if isinstance(e, TrickCleared))
    nine = next(i for i, e in enumerate(events)
                if isinstance(e, CardPlayed) and str(e.card) == "9C")
    assert nine < first_clear


def test_the_same_takeback_read_cleanly_gives_the_same_trick() -> None:
    reader, _events = _read(east_second_corner_after_takeback="AC")
    assert reader.all_tricks()[0] == [("N", "TC"), ("E", "AC"), ("S", "QC"), ("W", "9C")]
