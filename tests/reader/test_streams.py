"""The trick reader on recorded detection streams: each fixture is one tricky case.

The fixtures (``fixtures/*.json``, recorded by ``record_fixtures.py``) hold the
per-frame detections and what the reader must find: the tricks in the order
played, the warnings it must raise, and the only warnings it may raise (a
false alarm is a failure too).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kiosk.vision.brief import HandBrief
from kiosk.vision.events import CardPlayed, ReaderWarning, TrickCleared, TrickComplete
from kiosk.vision.pipeline import load_stream, read_stream, stream_calibration

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.json"))


def _read(path: Path) -> tuple[dict[str, Any], Any]:
    stream = load_stream(path)
    brief = HandBrief.from_json(stream.get("play", {}))
    return stream, read_stream(stream["frames"], stream_calibration(stream), brief=brief)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_reads_the_tricks_played(path: Path) -> None:
    stream, reading = _read(path)
    expect = stream["expect"]
    assert reading.tricks_json() == expect["tricks"], stream["about"]
    kinds = Counter(w.kind for w in reading.warnings)
    for kind in expect.get("warnings", []):
        assert kinds[kind] >= 1, f"no {kind} warning: {stream['about']}"
    if "only_warnings" in expect:
        unexpected = {k for k in kinds if k not in expect["only_warnings"]}
        assert not unexpected, [w.message for w in reading.warnings]


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_events_are_consistent(path: Path) -> None:
    """One TrickComplete and one TrickCleared per full trick, in time order, and every
    CardPlayed names a seat and a euchre card; event keys never repeat."""
    stream, reading = _read(path)
    events = [e for _t, e in reading.events]
    times = [t for t, _e in reading.events]
    assert times == sorted(times)
    full = [t for t in stream["expect"]["tricks"]
            if len(t) == (3 if stream["play"].get("sitting_out") else 4)]
    assert sum(isinstance(e, TrickComplete) for e in events) >= len(full)
    assert sum(isinstance(e, TrickCleared) for e in events) >= len(full) - (
        0 if len(stream["expect"]["tricks"]) == len(full) else 0)
    keys = [e.key for e in events]
    assert len(keys) == len(set(keys))
    for e in events:
        if isinstance(e, CardPlayed):
            assert str(e.seat) in "NESW" and len(str(e.card)) == 2 and 0 < e.confidence <= 1


def test_take_back_reports_the_replacement_in_place() -> None:
    """A corrected revoke: the second CardPlayed for East replaces the first (the table
    session's rule), with a card_replaced warning between them."""
    stream, reading = _read(Path(__file__).parent / "fixtures" / "take-back.json")
    east = [str(e.card) for _t, e in reading.events
            if isinstance(e, CardPlayed) and str(e.seat) == "E"]
    assert east == stream["expect"]["replaced"]["E"]
    warning = next(w for w in reading.warnings if w.kind == "card_replaced")
    assert str(warning.seat) == "E"
    assert "nine of clubs" in warning.message and "ten of spades" in warning.message


def test_out_of_turn_names_the_seat_whose_turn_it_was() -> None:
    _stream, reading = _read(Path(__file__).parent / "fixtures" / "out-of-turn.json")
    (warning,) = [w for w in reading.warnings if w.kind == "out_of_turn"]
    assert str(warning.seat) == "E" and "North's turn" in warning.message


def test_lone_hand_completes_with_three_cards() -> None:
    _stream, reading = _read(Path(__file__).parent / "fixtures" / "lone-hand.json")
    kinds = [e.kind for _t, e in reading.events if not isinstance(e, ReaderWarning)]
    assert kinds[:4] == ["card_played"] * 3 + ["trick_complete"]


def test_uncertain_card_is_asked_not_guessed() -> None:
    for name in ("ambiguous", "unreadable"):
        _stream, reading = _read(Path(__file__).parent / "fixtures" / f"{name}.json")
        north = [e for _t, e in reading.events if isinstance(e, CardPlayed) and str(e.seat) == "N"]
        assert north == [], name
        (warning,) = [w for w in reading.warnings if w.kind == name]
        assert str(warning.seat) == "N" and "North" in warning.message


def test_latency_from_rest_to_event_is_under_a_second() -> None:
    """The clean trick's cards come to rest 0.6 s after each slide starts (builder)."""
    stream, reading = _read(Path(__file__).parent / "fixtures" / "clean-trick.json")
    rests = {"N": 1.1, "E": 2.3, "S": 3.5, "W": 4.7}
    for t, e in reading.events:
        if isinstance(e, CardPlayed):
            assert 0 <= t - rests[str(e.seat)] <= 1.0, (e, t)


def test_fixtures_are_valid_json_with_expectations() -> None:
    for path in FIXTURES:
        data = json.loads(path.read_text())
        assert {"frames", "expect", "view", "size", "play"} <= set(data), path.name


def test_new_hand_forgets_the_cards_of_the_last_one() -> None:
    """The same cards are dealt again next hand: they must not be 'seen twice'."""
    stream = load_stream(Path(__file__).parent / "fixtures" / "clean-trick.json")
    from kiosk.vision.reader import TrickReader

    reader = TrickReader(stream_calibration(stream), "N", trump="H")
    first = [e for f in stream["frames"] for e in reader.feed(f["t"], f["detections"])]
    reader.new_hand("N", trump="H")
    shift = stream["frames"][-1]["t"] + 1.0
    second = [e for f in stream["frames"]
              for e in reader.feed(f["t"] + shift, f["detections"])]
    played = [(str(e.seat), str(e.card)) for e in first if isinstance(e, CardPlayed)]
    assert played == [(str(e.seat), str(e.card)) for e in second if isinstance(e, CardPlayed)]
    assert not any(isinstance(e, ReaderWarning) for e in first + second)
