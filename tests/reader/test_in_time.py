"""A card is reported within about a second of coming to rest, even when its name was in
doubt for a moment.

On rendered hands read by the model, the cards reported over a second late were mostly
ones whose name changed as they came down: an AS read AC for five frames, then AS,
waited for the AS to be read two and a half times as much as the AC; a KS read KC as it
came down was taken for the KC and put right only when the trick was gathered. Now a
reading that has settled on one name is reported 0.8 s after the place stopped, with a
question, and a trick card's name gives way on the spot to the name read on its very
corners since. Two names still read turn about are asked about, not guessed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning, VisionEvent
from kiosk.vision.reader import AMBIGUOUS, CARD_REPLACED, UNSURE, ReaderConfig, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import ScriptLine, play_script  # noqa: E402

BOXES = {"S": [45, 75, 50, 80], "W": [20, 45, 25, 50], "N": [45, 20, 50, 25], "E": [75, 45, 80, 50]}
FPS = 12.0


def _box(seat: str, card: str, confidence: float) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": BOXES[seat]}


def _read(
    script: list[ScriptLine], end: float, config: ReaderConfig | None = None
) -> tuple[TrickReader, list[VisionEvent]]:
    """West leads the JC; North's card is what the script says."""
    reader = TrickReader(
        Calibration.default("overhead", (100, 100)), leader="W", trump="H", config=config
    )
    lead: list[ScriptLine] = [(0.5, end, _box("W", "JC", 0.95))]
    return reader, play_script(reader, lead + script, end, FPS)


def _north(events: list[VisionEvent]) -> list[tuple[float, str]]:
    return [(e.t, str(e.card)) for e in events if isinstance(e, CardPlayed) and str(e.seat) == "N"]


def _asked(events: list[VisionEvent], kind: str) -> list[str | None]:
    return [str(e.seat) for e in events if isinstance(e, ReaderWarning) and e.kind == kind]


# North's AS read AC for the first frames it lay there, then AS
SETTLED_LATE: list[ScriptLine] = [
    (2.0, 2.35, _box("N", "AC", 0.9)),
    (2.35, 6.0, _box("N", "AS", 0.95)),
]


def test_a_reading_settled_on_one_name_is_reported_soon_after_the_card_stopped() -> None:
    _reader, events = _read(SETTLED_LATE, 6.0)
    ((t, card),) = _north(events)
    assert card == "AS"
    assert t <= 2.0 + 1.05  # the place stopped at 2.0; the AS was first read at 2.42
    # reported before it was sure, but its doubt is its twin's alone (AC, then AS): that
    # is asked once the trick is full, if its winner hangs on it (tests/reader/test_twins)
    assert "N" not in _asked(events, UNSURE)


def test_without_the_deadline_the_same_card_waits_for_dominance() -> None:
    _reader, events = _read(SETTLED_LATE, 6.0, ReaderConfig(decide_time=99.0))
    ((t, card),) = _north(events)
    (soon,) = _north(_read(SETTLED_LATE, 6.0)[1])
    assert card == "AS" and t >= soon[0] + 0.25


def test_two_names_read_turn_about_are_asked_not_guessed() -> None:
    # AS read half again as surely as AC, but both all the while: not settled
    turns: list[ScriptLine] = []
    for frame in range(int(2.0 * FPS), int(6.0 * FPS)):
        t = frame / FPS
        card, confidence = ("AS", 0.9) if frame % 2 else ("AC", 0.6)
        turns.append((t, t + 0.5 / FPS, _box("N", card, confidence)))
    _reader, events = _read(turns, 6.0)
    assert _north(events) == []
    assert _asked(events, AMBIGUOUS) == ["N"]


def test_a_trick_card_misread_as_it_came_down_takes_the_name_read_on_it_since() -> None:
    # North's KS read KC while it settled (taken for the KC), then KS for seconds
    script: list[ScriptLine] = [(2.0, 2.7, _box("N", "KC", 0.8)), (2.7, 7.0, _box("N", "KS", 0.95))]
    reader, events = _read(script, 7.0)
    played = _north(events)
    assert [card for _t, card in played] == ["KC", "KS"]
    assert played[1][0] <= 2.7 + 1.2  # not when the trick is gathered
    assert reader.current_trick == [("W", "JC"), ("N", "KS")]
    assert CARD_REPLACED not in {e.kind for e in events if isinstance(e, ReaderWarning)}


def test_a_card_taken_back_and_replaced_on_the_same_spot_is_still_a_replacement() -> None:
    # the KC lies there alone, is taken back, and a second later the KS is put there
    script: list[ScriptLine] = [(2.0, 3.0, _box("N", "KC", 0.9)), (4.0, 7.0, _box("N", "KS", 0.95))]
    reader, events = _read(script, 7.0)
    assert [card for _t, card in _north(events)] == ["KC", "KS"]
    assert reader.current_trick == [("W", "JC"), ("N", "KS")]
    assert _asked(events, CARD_REPLACED) == ["N"]
