"""A card in doubt until it moved keeps its place in the order of play.

On a rendered tablet hand North's AC read half AS, half AC (asked: which is it?) until
the trick was gathered; swept a little way within North's zone it was read AC and was
put last in the trick, after East and South who played after it: a wrong trick. A card
that moved within its seat's zone came down when it came into that zone.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import ReaderWarning, VisionEvent
from kiosk.vision.reader import AMBIGUOUS, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import play_script  # noqa: E402

FPS = 12
NORTH = ([45, 20, 50, 25], [52, 28, 57, 33])  # the card's two corners
#: slid left in two steps (0.1 of the table each, one frame apart): still North's zone
SLID = [[[x - 10 * step, y1, x2 - 10 * step, y2] for x, y1, x2, y2 in NORTH] for step in (1, 2)]


def _box(card: str, confidence: float, box: list[int]) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": box}


def _frame(t: float) -> list[dict[str, Any]]:
    """West leads the QC at 0.5 s; North's card comes at 1.5 s and reads AS and AC in
    turn; East plays the 9C at 3 s, South the QS at 4 s; at 6 s North's card is slid
    left and reads AC from then on."""
    boxes = [_box("QC", 0.95, [20, 45, 25, 50])]
    if 1.5 <= t < 6.0:
        boxes += [_box(("AS", "AC")[int(t * FPS) % 2], 0.6, corner) for corner in NORTH]
    elif t >= 6.0:
        step = 0 if t < 6.0 + 1 / FPS else 1
        boxes += [_box("AC", 0.9, corner) for corner in SLID[step]]
    if t >= 3.0:
        boxes.append(_box("9C", 0.95, [75, 45, 80, 50]))
    if t >= 4.0:
        boxes.append(_box("QS", 0.95, [45, 75, 50, 80]))
    return boxes


def test_a_card_read_only_after_it_moved_keeps_the_turn_it_came_down_in() -> None:
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    events: list[VisionEvent] = []
    for frame in range(int(9.0 * FPS)):
        events += reader.feed(frame / FPS, _frame(frame / FPS))
    asked = [str(e.seat) for e in events if isinstance(e, ReaderWarning) and e.kind == AMBIGUOUS]
    assert asked == ["N"]  # the doubt was put to the players while it lasted
    assert reader.all_tricks() == [[("W", "QC"), ("N", "AC"), ("E", "9C"), ("S", "QS")]]


def test_a_false_box_of_the_same_name_long_before_does_not_bring_a_card_forward() -> None:
    """One false JS box in East's zone just after West led, then North's TC, then East's
    real JS elsewhere in the zone: the JS came down when it came, after North's card (a
    rendered hand put it first, the zone's clock running from the false box)."""
    script = [
        (0.5, 9.0, _box("9C", 0.95, [20, 45, 25, 50])),
        (1.0, 1.0 + 1 / FPS, _box("JS", 0.3, [84, 38, 88, 42])),  # one frame
        (2.2, 9.0, _box("TC", 0.9, [45, 20, 50, 25])),
        (3.5, 9.0, _box("JS", 0.9, [75, 50, 80, 55])),
        (5.0, 9.0, _box("JC", 0.9, [45, 75, 50, 80])),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    play_script(reader, script, 9.0)
    assert reader.all_tricks() == [[("W", "9C"), ("N", "TC"), ("E", "JS"), ("S", "JC")]]
