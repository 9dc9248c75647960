"""A card already played is read again, on a later card: one of the two reads is wrong.

On rendered hands a TH read as the 9H at 0.68 (the classifier's runner-up: TH) cost two
tricks when the true 9H came down later, read at 0.92: the earlier trick held the wrong
card and the later one lost its card to "already played". Read that much more surely
the second time, the name goes to the later card and the earlier one takes its
runner-up, put to the players; otherwise both are put to the players, as before.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, CardReread, ReaderWarning, VisionEvent
from kiosk.vision.pipeline import compact_box
from kiosk.vision.reader import AMBIGUOUS, SEEN_TWICE, UNSURE, TrickReader

sys.path.insert(0, str(Path(__file__).parent))
from builder import play_script  # noqa: E402

BOXES = {"S": [45, 75, 50, 80], "W": [20, 45, 25, 50], "N": [45, 20, 50, 25], "E": [75, 45, 80, 50]}
FPS = 12


def _box(
    seat: str, card: str, confidence: float, alternative: str | None = None, other: float = 0.0
) -> dict[str, Any]:
    box: dict[str, Any] = {"card": card, "confidence": confidence, "box": BOXES[seat]}
    if alternative is not None:
        box |= {"alternative": alternative, "alternative_confidence": other}
    return box


def _hand(
    second_read: float, alternative: str | None = "TH"
) -> tuple[TrickReader, list[VisionEvent]]:
    """Hearts are trump. Trick 1: South leads the AC, West the KS, North the TH (read as
    the 9H at 0.68, runner-up ``alternative``), East the 9C; North wins (a trump either
    way) and leads the 9H in trick 2 (a little to the right), read at ``second_read``."""
    gone = 6.0  # the trick is raked in
    script = [
        (0.5, gone, _box("S", "AC", 0.95)),
        (1.5, gone, _box("W", "KS", 0.95)),
        (2.5, gone, _box("N", "9H", 0.68, alternative, 0.08)),
        (3.5, gone, _box("E", "9C", 0.95)),
        (8.0, 12.0, _box("N", "9H", second_read, "TH", 0.03) | {"box": [55, 22, 60, 27]}),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="H")
    return reader, play_script(reader, script, 12.0)


def test_a_card_read_far_more_surely_later_takes_the_name_from_the_earlier_misread() -> None:
    reader, events = _hand(second_read=0.95)
    rereads = [e for e in events if isinstance(e, CardReread)]
    assert [(e.trick, str(e.seat), str(e.card), str(e.was))
            for e in rereads] == [(1, "N", "TH", "9H")]
    assert reader.all_tricks() == [
        [("S", "AC"), ("W", "KS"), ("N", "TH"), ("E", "9C")],
        [("N", "9H")],
    ]
    played = [(str(e.seat), str(e.card)) for e in events if isinstance(e, CardPlayed)]
    assert played[-1] == ("N", "9H")
    # the changed card is put to the players, naming its trick; nothing is read twice
    warnings = [e for e in events if isinstance(e, ReaderWarning)]
    assert [(str(w.seat), w.trick) for w in warnings if w.kind == UNSURE] == [("N", 1)]
    assert not [w for w in warnings if w.kind == SEEN_TWICE]
    # the re-read comes before the play that needs the name
    assert events.index(rereads[0]) < max(
        i for i, e in enumerate(events) if isinstance(e, CardPlayed)
    )


def test_a_second_read_no_surer_than_the_first_puts_both_to_the_players() -> None:
    reader, events = _hand(second_read=0.75)  # under 0.68 + 0.2
    assert not [e for e in events if isinstance(e, CardReread)]
    asked = [
        (str(w.seat), w.trick) for w in events
        if isinstance(w, ReaderWarning) and w.kind == SEEN_TWICE
    ]
    assert asked == [("N", None), ("N", 1)]
    assert reader.all_tricks()[0][2] == ("N", "9H")


def test_with_nothing_else_read_on_the_earlier_card_both_are_put_to_the_players() -> None:
    """Surer, but no other name was ever read on the earlier card: the kiosk has nothing
    to put in its place, so it asks rather than guesses. The pack holds one nine of hearts
    and its twin, the nine of diamonds, is unseen: one question names both places (one
    tap settles both: tests/reader/test_twins)."""
    reader, events = _hand(second_read=0.95, alternative=None)
    assert not [e for e in events if isinstance(e, CardReread)]
    twice = [w for w in events if isinstance(w, ReaderWarning) and w.kind == SEEN_TWICE]
    assert [(str(w.seat), str(w.other_seat), w.other_trick, str(w.other)) for w in twice] == [
        ("N", "N", 1, "9D")]
    assert reader.all_tricks()[0][2] == ("N", "9H")


def test_after_the_fifth_trick_a_card_on_the_table_is_no_play() -> None:
    """A lone hand: North sits out and lays a card down once the five tricks are in (a
    rendered hand made a sixth trick of that)."""
    cards = iter(
        ["9C", "TC", "JC", "QC", "KC", "AC", "9D", "TD", "JD", "QD", "KD", "AD", "9S", "TS", "JS"]
    )
    script: list[tuple[float, float, dict[str, Any]]] = []
    start = 0.5
    for _trick in range(5):
        for k, seat in enumerate(("E", "S", "W")):
            script.append((start + k, start + 4.5, _box(seat, next(cards), 0.95)))
        start += 7.0
    script.append((start, start + 4.0, _box("N", "AS", 0.95)))
    reader = TrickReader(
        Calibration.default("overhead", (100, 100)),
        leader="E",
        sitting_out="N",
        winner_of=lambda plays: plays[0][0],
    )
    events = play_script(reader, script, start + 4.0)
    assert len(reader.all_tricks()) == 5
    assert ("N", "AS") not in [(str(e.seat), str(e.card)) for e in events
                               if isinstance(e, CardPlayed)]
    assert not [w for w in events if isinstance(w, ReaderWarning) and str(w.seat) == "N"]


def test_a_recorded_stream_keeps_each_boxs_runner_up(tmp_path: Path) -> None:
    """Replays of recorded hands need the runner-up too: the compact box carries it, and
    the reader reads it back (a box without one still reads as before)."""
    from kiosk.vision import reader
    from kiosk.vision.cards import detector
    from kiosk.vision.pipeline import load_stream, save_stream

    named = detector.Detection("9H", 0.68, (1.0, 2.0, 3.0, 4.0), "TH", 0.0812)
    plain = detector.Detection("AC", 0.9, (5.0, 6.0, 7.0, 8.0))
    path = tmp_path / "stream.json"
    frames = [{"t": 0.0, "detections": [compact_box(named), compact_box(plain)]}]
    save_stream(path, frames, None, view="overhead", fps=12.0)
    boxes = [reader.Detection.coerce(b) for b in load_stream(path)["frames"][0]["detections"]]
    assert [(b.card, b.alternative, b.alternative_confidence) for b in boxes] == [
        ("9H", "TH", 0.081),
        ("AC", None, 0.0),
    ]


def test_the_earlier_card_itself_read_again_where_it_lies_is_no_second_card() -> None:
    """A rendered hand's trick was taken for raked in while its cards still lay there
    (a card taken back and replaced after the trick was full): North's TC, read better
    where it still lay, took its own name from trick 1. A name read where the earlier
    card lay is that card, not a second one."""
    script = [
        (0.5, 12.0, _box("S", "AC", 0.95)),
        (1.5, 12.0, _box("W", "KS", 0.95)),
        (2.5, 8.0, _box("N", "9H", 0.68, "TH", 0.08)),
        (8.0, 12.0, _box("N", "9H", 0.95, "TH", 0.03)),  # the same card, now read well
        (3.5, 12.0, _box("E", "9C", 0.95)),
        (6.0, 12.0, {"card": "QS", "confidence": 0.95, "box": [20, 35, 25, 40]}),
    ]
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="H")
    events = play_script(reader, script, 12.0)
    assert reader.tricks and reader.tricks[0][2] == ("N", "9H")
    assert not [e for e in events if isinstance(e, CardReread)]


def _doubted_then_read_again(second_read: float) -> tuple[TrickReader, list[VisionEvent]]:
    """Hearts are trump. Trick 1: South leads the KS, West the 9S, North the AS, which
    reads AC and AS in turn (the players are asked which) and then AC alone; East the TS.
    North wins with the AS and leads the AC in trick 2, read at ``second_read``."""
    gone = 10.0
    script: list[tuple[float, float, dict[str, Any]]] = [
        (0.5, gone, _box("S", "KS", 0.95)),
        (1.5, gone, _box("W", "9S", 0.95)),
        (4.0, gone, _box("E", "TS", 0.95)),
        (6.0, gone, _box("N", "AC", 0.7)),
        (13.0, 17.0, _box("N", "AC", second_read) | {"box": [55, 22, 60, 27]}),
    ]
    for frame in range(int(2.5 * FPS), int(6.0 * FPS)):  # the name in doubt, frame by frame
        name = ("AC", "AS")[frame % 2]
        script.append((frame / FPS, (frame + 1) / FPS, _box("N", name, 0.7)))
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="S", trump="H")
    return reader, play_script(reader, script, 17.0)


def test_a_card_the_players_were_asked_about_takes_its_other_name_when_this_one_comes() -> None:
    """Read as surely as the earlier card (not 0.2 more), the name is the new card's: the
    earlier card was in doubt between these two names."""
    reader, events = _doubted_then_read_again(second_read=0.7)
    assert [str(w.seat) for w in events
            if isinstance(w, ReaderWarning) and w.kind == AMBIGUOUS] == ["N"]
    rereads = [(e.trick, str(e.seat), str(e.card), str(e.was)) for e in events
               if isinstance(e, CardReread)]
    assert rereads == [(1, "N", "AS", "AC")]
    assert reader.all_tricks() == [
        [("S", "KS"), ("W", "9S"), ("N", "AS"), ("E", "TS")],
        [("N", "AC")],
    ]


def test_a_doubted_card_keeps_its_name_when_the_second_read_is_unsure() -> None:
    reader, events = _doubted_then_read_again(second_read=0.45)
    assert not [e for e in events if isinstance(e, CardReread)]
    assert reader.all_tricks()[0][2] == ("N", "AC")
