"""The reader benchmark's "after the players answered" figure: a question fixes only the
seat it was about, in the trick it was asked in; a card recorded wrong without a
question stays wrong."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from bench_reader import answered, asked_seats  # noqa: E402

from kiosk.vision.events import CardPlayed, ReaderWarning, TrickCleared  # noqa: E402

WANT = [["N:9C", "E:TC", "S:JC", "W:QC"], ["E:AH", "S:KH", "W:QH", "N:JH"]]


def test_an_answered_question_fixes_its_seat_in_its_trick_only() -> None:
    got = [["N:9C", "E:TS", "S:JC", "W:QC"], ["E:AH", "S:KD", "W:QH", "N:JH"]]
    # East was asked about in trick 1; South's KD in trick 2 was never questioned
    assert answered(WANT, got, {(0, "E")}) == [WANT[0], got[1]]
    assert answered(WANT, got, {(1, "E")}) == got  # a question about the wrong trick


def test_a_missing_card_goes_in_at_its_turn_and_a_lost_trick_stays_lost() -> None:
    got = [["N:9C", "S:JC", "W:QC"]]
    assert answered(WANT, got, {(0, "E")}) == [WANT[0]]
    assert answered(WANT, [], {(0, "E")}) == []


def test_questions_are_counted_in_the_trick_they_were_asked_in() -> None:
    events = [
        (1.0, CardPlayed(seat="N", card="9C", t=1.0, confidence=0.9)),
        (2.0, ReaderWarning(kind="ambiguous", message="QH or QD?", seat="E", t=2.0)),
        (2.5, ReaderWarning(kind="out_of_turn", message="not a question", seat="W", t=2.5)),
        (3.0, ReaderWarning(kind="missing_card", message="tap it", seat="S", t=3.0)),
        (3.0, TrickCleared(t=3.0)),
        (4.0, ReaderWarning(kind="unreadable", message="tap it in", seat="N", t=4.0)),
    ]
    assert asked_seats(events) == {(0, "E"), (0, "S"), (1, "N")}
