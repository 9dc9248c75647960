"""The trick reader's parts, each alone: the naming decision is a frozen verdict with no
side effects, a trick's life is decided from the trick alone, and warnings are facts
that the wording module says in words (cards in words, never codes)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from kiosk.rules.cards import Card, Seat
from kiosk.vision.events import ReaderWarning, WarningKind, event_from_json
from kiosk.vision.reader import naming
from kiosk.vision.reader.config import ReaderConfig
from kiosk.vision.reader.track import Track
from kiosk.vision.reader.trick import TableTrick, TrickCard
from kiosk.vision.wording import card_words, narrate

CFG = ReaderConfig()


def _track(card: str, score: float, frames: int, at: tuple[float, float] = (0.5, 0.2)
           ) -> Track:
    track = Track(card, first_seen=0.0, last_seen=0.0, rest_start=0.0, came=0.0,
                  points=np.array([at]))
    for i in range(frames):
        track.observe(i / 10, np.array([at]), score, CFG)
    return track


def test_a_name_read_well_alone_is_named_and_nothing_changes() -> None:
    jh = _track("JH", 0.9, 8)
    before = (jh.total, jh.shadow, jh.zone_seat)
    trick = TableTrick(leader=Seat.N)
    verdict = naming.decide(Seat.N, [jh], None, trick, [jh], set(), 0.7, CFG)
    assert verdict is not None and verdict.track is jh and not verdict.due
    assert verdict.confidence == pytest.approx(0.9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.due = True  # type: ignore[misc]
    assert (jh.total, jh.shadow, jh.zone_seat) == before and trick.warned == set()


def test_two_names_read_alike_are_not_named() -> None:
    jd, jh = _track("JD", 0.9, 8), _track("JH", 0.9, 8)
    assert naming.decide(Seat.N, [jd, jh], None, TableTrick(leader=Seat.N), [jd, jh], set(),
                         0.7, CFG) is None


def test_a_name_already_played_counts_less_against_one_to_come() -> None:
    as_, ac = _track("AS", 0.9, 8), _track("AC", 0.9, 4)
    assert naming.runner_up(as_, [as_, ac], {"AC"}, CFG) == pytest.approx(ac.total / 2)


def test_a_trick_taken_in_before_its_cards_were_read() -> None:
    trick = TableTrick(leader=Seat.N)
    trick.plays += [TrickCard(Seat.N, "9C", 1.0, 0.9, last_seen=1.0),
                    TrickCard(Seat.E, "TC", 2.0, 0.9, last_seen=2.0)]
    trick.last_seen = 2.0
    assert not trick.taken_in_before(Seat.S, 3.0, CFG)
    assert trick.taken_in_before(Seat.S, 2.0 + CFG.gathered_time, CFG)
    assert trick.clearing(2.0 + CFG.ask_time, CFG) == "hidden"


def test_warnings_say_cards_in_words_never_codes() -> None:
    w = ReaderWarning(WarningKind.SEEN_TWICE, "", Seat.E, 5.0, card=Card.parse("AC"),
                      other_seat=Seat.N, other_trick=1)
    assert narrate(w) == ("The ace of clubs was already read as North's card in trick 1; "
                          "please check East's card.")
    assert "AC" not in w.message and event_from_json(w.to_json()) == w
    assert card_words("9D") == "nine of diamonds"


def test_a_warning_from_an_older_journal_keeps_its_words() -> None:
    data = {"kind": "reader_warning", "warning": "occluded", "message": "An arm hides it.",
            "seat": "N", "t": 3.0}
    assert event_from_json(data).message == "An arm hides it."
