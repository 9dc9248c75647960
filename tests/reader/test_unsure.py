"""A card reported on thin evidence comes with a question, so the players can fix a
misread before it is scored (or called a renege); a clear read comes without one."""

from __future__ import annotations

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning
from kiosk.vision.reader import UNSURE, TrickReader

NORTH_BOX = [45, 20, 50, 25]
FPS = 10


def _events(confidence: float) -> list[object]:
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="S")
    events: list[object] = []
    for frame in range(int(3.0 * FPS)):
        t = frame / FPS
        seen = [{"card": "JC", "confidence": confidence, "box": NORTH_BOX}] if t >= 0.5 else []
        events += reader.feed(t, seen)
    return events


def test_a_faint_read_is_reported_with_a_question() -> None:
    events = _events(0.4)
    assert [(str(e.seat), str(e.card)) for e in events
            if isinstance(e, CardPlayed)] == [("N", "JC")]
    (question,) = [e for e in events if isinstance(e, ReaderWarning) and e.kind == UNSURE]
    assert str(question.seat) == "N" and "jack of clubs" in question.message


def test_a_clear_read_asks_nothing() -> None:
    events = _events(0.9)
    assert [(str(e.seat), str(e.card)) for e in events
            if isinstance(e, CardPlayed)] == [("N", "JC")]
    assert not [e for e in events if isinstance(e, ReaderWarning)]
