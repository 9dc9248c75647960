"""The reader benchmark's "after the players answered" figure: a question fixes only the
seat it was about, in the trick it was asked in; a card recorded wrong without a
question stays wrong. And its two latencies: to the card named right, and to the kiosk's
first answer about the card (named right, or asked about)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from bench_reader import (  # noqa: E402
    answered,
    asked_seats,
    card_latencies,
    checked_on_renege_screen,
    main,
    model_detector,
    renege_counts,
    verdict,
)

from kiosk.rules.cards import Seat  # noqa: E402
from kiosk.vision.events import (  # noqa: E402
    CardPlayed,
    ReaderWarning,
    TrickCleared,
    WarningKind,
    face,
)

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
        (1.0, CardPlayed(seat=Seat.N, card=face("9C"), t=1.0, confidence=0.9)),
        (2.0, ReaderWarning(WarningKind.AMBIGUOUS, "QH or QD?", seat=Seat.E, t=2.0)),
        (2.5, ReaderWarning(WarningKind.OUT_OF_TURN, "not a question", seat=Seat.W, t=2.5)),
        (3.0, ReaderWarning(WarningKind.MISSING_CARD, "tap it", seat=Seat.S, t=3.0)),
        (3.0, TrickCleared(t=3.0)),
        (4.0, ReaderWarning(WarningKind.UNREADABLE, "tap it in", seat=Seat.N, t=4.0)),
    ]
    assert asked_seats(events) == {(0, "E"), (0, "S"), (1, "N")}


def test_a_question_about_an_earlier_trick_counts_there() -> None:
    """A card read twice names the trick where it was first read: that is where the
    players' answer goes."""
    events = [
        (1.0, TrickCleared(t=1.0)),
        (2.0, ReaderWarning(WarningKind.SEEN_TWICE, "check S", seat=Seat.S, t=2.0)),
        (2.0, ReaderWarning(WarningKind.SEEN_TWICE, "check E", seat=Seat.E, t=2.0, trick=1)),
    ]
    assert asked_seats(events) == {(1, "S"), (0, "E")}


# A rendered hand (seed 1017): North's ace of clubs in the last trick was read as the ace
# of spades, so North "held a spade" when spades were led in trick 1 and played a club.
RECORD = {
    "dealer": "N",
    "turn_up": "QD",
    "bids": [{"seat": s, "call": "pass"} for s in "ESWNES"]
    + [{"seat": "W", "call": "name", "suit": "H", "alone": False}],
}
PLAYED = [
    ["E:KS", "S:9S", "W:JS", "N:KC"],
    ["E:KD", "S:TD", "W:QS", "N:AD"],
    ["N:QH", "E:AH", "S:TH", "W:JH"],
    ["W:9H", "N:KH", "E:QC", "S:TC"],
    ["N:AC", "E:TS", "S:9D", "W:JC"],
]
MISREAD = [*PLAYED[:4], ["N:AS", "E:TS", "S:9D", "W:JC"]]


def test_the_renege_screen_check_clears_a_renege_made_of_a_misread_card() -> None:
    assert verdict(RECORD, PLAYED) == (set(), None)
    assert verdict(RECORD, MISREAD) == ({("N", 1)}, None)
    # the screen shows North's trick-1 club and the trick-5 "ace of spades": fixed
    assert checked_on_renege_screen(RECORD, PLAYED, MISREAD) == PLAYED


def test_the_renege_screen_check_keeps_a_true_renege() -> None:
    """Had North really played the ace of spades last, the renege stands."""
    assert checked_on_renege_screen(RECORD, MISREAD, MISREAD) == MISREAD
    assert verdict(RECORD, checked_on_renege_screen(RECORD, MISREAD, MISREAD))[0] == {("N", 1)}


def test_latency_to_the_right_name_and_to_the_first_answer() -> None:
    plays = [
        {"seat": "N", "card": "9C", "trick": 1, "t_rest": 1.0},  # read right at once
        {"seat": "E", "card": "TC", "trick": 1, "t_rest": 2.0},  # read TS, asked, then TC
        {"seat": "S", "card": "JC", "trick": 1, "t_rest": 3.0},  # asked, never named
        {"seat": "E", "card": "AH", "trick": 2, "t_rest": 6.0},  # a question of trick 1
    ]
    events = [
        (1.5, CardPlayed(seat=Seat.N, card=face("9C"), t=1.5, confidence=0.9)),
        (2.6, CardPlayed(seat=Seat.E, card=face("TS"), t=2.6, confidence=0.5)),
        (2.6, ReaderWarning(WarningKind.UNSURE, "TS?", seat=Seat.E, t=2.6)),
        (3.5, CardPlayed(seat=Seat.E, card=face("TC"), t=3.5, confidence=0.9)),
        (3.8, ReaderWarning(WarningKind.OUT_OF_TURN, "not a question", seat=Seat.S, t=3.8)),
        (3.9, ReaderWarning(WarningKind.UNREADABLE, "tap it in", seat=Seat.S, t=3.9)),
        (5.0, TrickCleared(t=5.0)),
        (6.4, ReaderWarning(WarningKind.UNSURE, "trick 1", seat=Seat.E, t=6.4, trick=1)),
        (7.5, CardPlayed(seat=Seat.E, card=face("AH"), t=7.5, confidence=0.9)),
    ]
    named, first_answer = card_latencies(events, plays)
    assert [round(v, 2) for v in named] == [0.5, 1.5, 1.5]  # South's JC never named
    # East's TC was asked about at 0.6 s; South's JC at 0.9 s (not by the out-of-turn
    # notice); the question at 6.4 s is about trick 1, not East's AH in trick 2
    assert [round(v, 2) for v in first_answer] == [0.5, 0.6, 0.9, 1.5]


def test_a_job_reads_with_the_proposal_threshold_it_names() -> None:
    from kiosk.vision.cards.detector import PROPOSAL_CONFIDENCE

    assert model_detector({}).proposal_confidence == PROPOSAL_CONFIDENCE
    assert model_detector({"proposal_confidence": 0.01}).proposal_confidence == 0.01


@pytest.mark.parametrize(("option", "value"),
                         [("--proposal-confidence", "0"), ("--box-confidence", "1.5")])
def test_a_threshold_outside_zero_to_one_is_one_line_and_exit_2(
    option: str, value: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([option, value, "--out", str(tmp_path / "never")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"{option} must be over 0 and at most 1, not {float(value)}" in err
    assert "Traceback" not in err
    assert not (tmp_path / "never").exists()  # refused before anything is written


def test_a_renege_proved_by_a_card_left_unread_is_missed_until_the_players_answer() -> None:
    """North really reneged (a club on a spade lead; the AS, played last, proves it). The
    reader left the AS out of trick 5 and asked for it: the raw read has no proof, so the
    renege is missed there; once the players answer, it stands. (As in hand 16075.)"""
    short = [*MISREAD[:4], ["E:TS", "S:9D", "W:JC"]]
    after = answered(MISREAD, short, {(4, "N")})
    assert after == MISREAD
    counts, error = renege_counts(RECORD, MISREAD, short, after)
    assert error is None
    assert counts == {
        "false_reneges": 0, "missed_reneges": 1, "true_reneges": 1,
        "false_reneges_after_answers": 0, "missed_reneges_after_answers": 0,
        "false_reneges_after_check": 0,
    }  # fmt: skip
    # unasked, it stays missed
    counts, _ = renege_counts(RECORD, MISREAD, short, answered(MISREAD, short, set()))
    assert counts["missed_reneges_after_answers"] == 1
    # a trick left short in the middle cannot be scored at all: said why
    middle = [MISREAD[0], ["E:KD", "S:TD", "W:QS"], *MISREAD[2:]]
    counts, error = renege_counts(RECORD, MISREAD, middle, middle)
    assert error == "trick 2 has 3 cards, but 4 players play to each trick"
    assert counts["missed_reneges"] == counts["missed_reneges_after_answers"] == 1


def test_a_resumed_model_read_replays_the_hands_read_before(tmp_path: Path) -> None:
    """``--resume``: a hand whose boxes an earlier read saved is read again from them, with
    no model loaded (the job names none that exists), and is counted as replayed."""
    from bench_reader import _saved_stream, plan, read_one, render, summarize

    from devtools.oracle import OracleDetector
    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.cards.detector import ModelError
    from kiosk.vision.pipeline import save_stream

    job = render(plan(0, 4242) | {"dir": str(tmp_path), "fps": 6.0, "streams": True})
    truth = json.loads(Path(job["truth"]).read_text(encoding="utf-8"))
    boxes = OracleDetector(truth["frames"], tuple(truth["size"]), seed=job["seed"])
    frames = [{"t": i / truth["fps"], "detections": boxes.detect()}
              for i in range(len(truth["frames"]))]
    calibration = Calibration.default(truth["view"], tuple(truth["size"]))
    save_stream(_saved_stream(job), frames, calibration, view=truth["view"], fps=truth["fps"])
    job = {**job, "streams": False, "model": str(tmp_path / "no-such-model.onnx")}

    row = read_one({**job, "resume": True}, "model")

    assert row["replayed"] is True
    assert row["exact"] == row["tricks"] == len(truth["record"]["tricks"])
    assert summarize("model", [row])["hands_replayed"] == 1
    with pytest.raises(ModelError):  # without --resume the hand is read with the model
        read_one(job, "model")


def test_resume_without_the_model_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--resume", "--detector", "oracle", "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "--resume works with --detector model only" in capsys.readouterr().err


def test_a_part_of_a_set_is_those_hands_as_the_whole_set_has_them() -> None:
    """``--from-hand``: two processes reading the halves of a set read the set's hands,
    each with the view, mat and camera it has in the whole set."""
    from bench_reader import plan, set_plans

    whole = set_plans(50, 17050)
    second_half = set_plans(50, 17050, first=25)
    assert second_half == whole[25:]
    assert second_half[0] == plan(25, 17050)
    assert second_half[0]["view"] != set_plans(25, 17075)[0]["view"]  # not a set of its own


@pytest.mark.parametrize("first", ["-1", "50"])
def test_a_first_hand_outside_the_set_is_one_line_and_exit_2(
    first: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--hands", "50", "--from-hand", first, "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "--from-hand must be from 0 to 49" in capsys.readouterr().err
