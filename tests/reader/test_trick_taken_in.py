"""The end of a trick: what is the next lead, and what is not.

Two rendered hands made wrong tricks here. In one, a JD read for four frames on the
pile being swept up, gone a second later, was taken for the next lead (out of turn, and
a false renege). In the other, a lone hand's trick was taken in with North's card
unread, and West's lead of the next trick a second later was taken for West's card
replaced.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning, VisionEvent
from kiosk.vision.reader import CARD_REPLACED, MISSING_CARD, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import play_script  # noqa: E402

FPS = 12
SEATS = {"S": [45, 75, 50, 80], "W": [20, 45, 25, 50], "N": [45, 20, 50, 25], "E": [75, 45, 80, 50]}


def _box(seat: str, card: str, confidence: float = 0.95) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": SEATS[seat]}


def test_a_name_read_on_the_pile_being_swept_up_is_no_lead() -> None:
    """Diamonds are trump: East's 9D wins. While the trick is gathered, a JD is read in
    West's zone for a third of a second; East leads the KS at 9 s."""
    script = [
        (0.5, 6.0, _box("S", "AH")),
        (1.5, 6.6, _box("W", "9H")),
        (2.5, 6.0, _box("N", "JH")),
        (3.5, 6.0, _box("E", "9D")),
        (5.9, 6.25, {"card": "JD", "confidence": 0.65, "box": [40, 48, 44, 52]}),
        (9.0, 12.0, _box("E", "KS")),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="D")
    events = play_script(reader, script, 12.0)
    assert reader.all_tricks() == [
        [("S", "AH"), ("W", "9H"), ("N", "JH"), ("E", "9D")],
        [("E", "KS")],
    ]
    assert "JD" not in [str(e.card) for e in events if isinstance(e, CardPlayed)]


def _lone_trick_then_west(south_gone: float) -> tuple[TrickReader, list[VisionEvent]]:
    """East sits out. West leads the JS (unread from 3 s), North's card is never read,
    South's KS lies there until ``south_gone``; West puts the TC down at 5.3 s."""
    script = [
        (0.5, 3.0, _box("W", "JS")),
        (1.5, south_gone, _box("S", "KS")),
        (5.3, 9.0, _box("W", "TC")),
    ]
    reader = TrickReader(
        Calibration.default("overhead", (100, 100)), leader="W", trump="C", sitting_out="E"
    )
    return reader, play_script(reader, script, 9.0)


def test_a_lead_after_an_unfinished_trick_was_taken_in_is_no_replacement() -> None:
    """The trick is taken in (the KS goes at 4 s): the TC, 1.3 s later, leads the next."""
    reader, events = _lone_trick_then_west(south_gone=4.0)
    assert reader.all_tricks() == [[("W", "JS"), ("S", "KS")], [("W", "TC")]]
    warnings = [(w.kind, str(w.seat)) for w in events if isinstance(w, ReaderWarning)]
    assert (MISSING_CARD, "N") in warnings
    assert (CARD_REPLACED, "W") not in warnings


def test_a_card_taken_back_while_the_others_lie_there_is_still_a_replacement() -> None:
    """The same trick, but South's KS still lies there: West's TC replaces the JS."""
    reader, events = _lone_trick_then_west(south_gone=9.0)
    assert reader.all_tricks() == [[("W", "TC"), ("S", "KS")]]
    assert (CARD_REPLACED, "W") in [
        (w.kind, str(w.seat)) for w in events if isinstance(w, ReaderWarning)
    ]
