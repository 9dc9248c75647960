"""A card unread for a while, read again on the same spot under another name, is the card
that came down there first: it keeps its turn.

On a rendered overhead hand West's QH was read in two frames as it came down, then not
at all for 1.6 s, then read QD on the very spot; North's card, come down meanwhile, was
put before it in the trick (a wrong trick, and an "out of turn" that was not).
"""

from __future__ import annotations

from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import VisionEvent
from kiosk.vision.reader import TrickReader

FPS = 12
WEST_CORNERS = ([20, 45, 25, 50], [27, 52, 32, 57])


def _box(card: str, confidence: float, box: list[int]) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": box}


def _frame(t: float, west_again: float) -> list[dict[str, Any]]:
    """South leads the AC at 0.5 s; West's card is read QH in two frames at 1.5 s, then
    not at all until ``west_again``, from when its second corner reads QD; North plays
    the KH at 3 s, East the KC at 7 s."""
    boxes = [_box("AC", 0.95, [45, 75, 50, 80])]
    if 1.5 <= t < 1.5 + 1.5 / FPS:  # two frames: too few to count
        boxes += [_box("QH", 0.93, corner) for corner in WEST_CORNERS]
    if t >= west_again:
        boxes.append(_box("QD", 0.7, WEST_CORNERS[1]))
    if t >= 3.0:
        boxes.append(_box("KH", 0.95, [45, 20, 50, 25]))
    if t >= 7.0:
        boxes.append(_box("KC", 0.95, [75, 45, 80, 50]))
    return boxes


def _tricks(west_again: float) -> list[list[tuple[str, str]]]:
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="S")
    events: list[VisionEvent] = []
    for frame in range(int(10.0 * FPS)):
        t = frame / FPS
        events += reader.feed(t, _frame(t, west_again))
    return reader.all_tricks()


def test_a_card_read_again_on_its_spot_after_a_gap_keeps_its_turn() -> None:
    assert _tricks(west_again=5.0) == [[("S", "AC"), ("W", "QD"), ("N", "KH"), ("E", "KC")]]
