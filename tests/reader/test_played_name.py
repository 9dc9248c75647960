"""A name already played this hand counts for less as the runner-up to one still to come.

A euchre deck holds one card of each name. On a rendered hand North's AS was read 0.95 on
one corner and AC, East's card in trick 1, 0.55 on the other, for as long as it lay
there: the two names never parted two and a half times, so the players were asked about a
card the camera read well. Counting the played name at half, the AS is taken.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning, VisionEvent
from kiosk.vision.reader import AMBIGUOUS, ReaderConfig, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import ScriptLine, play_script  # noqa: E402

BOXES = {"S": [45, 75, 50, 80], "W": [20, 45, 25, 50], "N": [45, 20, 50, 25], "E": [75, 45, 80, 50]}


def _box(seat: str, card: str, confidence: float) -> dict[str, Any]:
    return {"card": card, "confidence": confidence, "box": BOXES[seat]}


def _trick_one() -> list[ScriptLine]:
    """Trick 1: South leads the AC, West plays the KS, North the TH, East the 9C; the
    trick is raked in at 6 s."""
    gone = 6.0
    return [
        (0.5, gone, _box("S", "AC", 0.95)),
        (1.5, gone, _box("W", "KS", 0.95)),
        (2.5, gone, _box("N", "TH", 0.95)),
        (3.5, gone, _box("E", "9C", 0.95)),
    ]


def _hand(second: str, config: ReaderConfig | None = None) -> tuple[TrickReader, list[VisionEvent]]:
    """Hearts are trump. Trick 1: South leads the AC, West the KS, North the TH, East the
    9C; North wins and leads trick 2: its AS, one corner read AS at 0.95 and the other
    ``second`` at 0.55."""
    other_corner = {"box": [52, 27, 57, 32]}
    script: list[ScriptLine] = [
        *_trick_one(),
        (8.0, 13.0, _box("N", "AS", 0.95)),
        (8.0, 13.0, _box("N", second, 0.55) | other_corner),
    ]
    reader = TrickReader(
        Calibration.default("overhead", (100, 100)), leader="S", trump="H", config=config
    )
    return reader, play_script(reader, script, 13.0)


def _north_in_trick_two(reader: TrickReader) -> list[tuple[str, str]]:
    return reader.all_tricks()[1] if len(reader.all_tricks()) > 1 else []


def test_a_name_played_earlier_does_not_hold_up_one_still_to_come() -> None:
    reader, events = _hand(second="AC")
    assert _north_in_trick_two(reader) == [("N", "AS")]
    assert not [e for e in events if isinstance(e, ReaderWarning) and e.kind == AMBIGUOUS]
    (t,) = [e.t for e in events if isinstance(e, CardPlayed) and str(e.card) == "AS"]
    assert t < 8.0 + 1.0


def test_counted_in_full_the_played_name_holds_it_up() -> None:
    reader, events = _hand(second="AC", config=ReaderConfig(played_weight=1.0))
    assert ("N", "AS") not in _north_in_trick_two(reader)
    assert [str(e.seat) for e in events
            if isinstance(e, ReaderWarning) and e.kind == AMBIGUOUS] == ["N"]


def test_a_name_still_to_come_as_runner_up_counts_in_full() -> None:
    # AD not played yet: the two names fight as before and the players are asked
    reader, events = _hand(second="AD")
    assert ("N", "AS") not in _north_in_trick_two(reader)
    assert [str(e.seat) for e in events
            if isinstance(e, ReaderWarning) and e.kind == AMBIGUOUS] == ["N"]


def test_the_strongest_rival_counts_not_the_second_read_most() -> None:
    """North's AS (0.95) is read AC (played: counts half, 0.375) on one corner and AD
    (still to come: in full, 0.55) on another. The rival that holds it up is the AD, though
    the AC is read more: the AS leads it 1.7 times, not the 2.5 times it leads the halved
    AC, so the players are asked (taken as sure at once when the second read most was
    the only rival weighed)."""
    script: list[ScriptLine] = [
        *_trick_one(),
        (8.0, 13.0, _box("N", "AS", 0.95)),
        (8.0, 13.0, _box("N", "AC", 0.75) | {"box": [52, 27, 57, 32]}),
        (8.0, 13.0, _box("N", "AD", 0.55) | {"box": [47, 22, 52, 27]}),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="H")
    events = play_script(reader, script, 13.0)
    late = [e for e in events if e.t >= 8.0]
    assert not [e for e in late if isinstance(e, CardPlayed)]
    assert [(str(e.seat), e.kind) for e in late
            if isinstance(e, ReaderWarning)] == [("N", AMBIGUOUS)]
