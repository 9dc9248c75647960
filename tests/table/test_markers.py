"""The players' 5s against the kiosk's score (alberta55.txt, "10. MARKERS"): a difference
is asked about, recorded, replayed, and sent to the director with the game if unsettled."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.app.demo import RECORD
from kiosk.rules.cards import Team
from kiosk.table import markers
from kiosk.table.entries import FivesRead
from kiosk.table.session import TableSession

Opener = Callable[..., TableSession]
DEMO = json.loads(RECORD.read_text())
NS, EW = Team.NS, Team.EW


def play_demo_hand(s: TableSession, source: str = "h1") -> None:
    """The demo hand (EW make 1 point) played in from the camera's events."""
    from tests.table.test_session import feed_tricks, play_bids

    s.see_turn_up(DEMO["turn_up"])
    play_bids(s, DEMO["bids"])
    feed_tricks(s, DEMO["tricks"], source=source)
    s.next_hand()


def test_fives_that_agree_ask_nothing(new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    assert s.scores == {"NS": 0, "EW": 1}
    assert s.see_markers({NS: 0, EW: 1})
    assert s.markers.open() == [] and s.markers.unsettled() == []


def test_a_side_whose_fives_differ_is_asked_which_is_right(new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    s.see_markers({NS: 0, EW: 2})
    [dispute] = s.markers.open()
    assert (dispute.side, dispute.fives, dispute.kiosk, dispute.hand) == (EW, 2, 1, 1)
    s.answer_markers(EW, "kiosk")  # the players move their 5s back to one
    assert s.markers.open() == [] and s.markers.unsettled() == []


def test_a_side_that_cannot_be_read_is_not_a_difference(new_session: Opener) -> None:
    s = new_session("general")
    play_demo_hand(s)
    s.see_markers({NS: None, EW: 1})
    assert s.markers.open() == []
    assert not s.see_markers({NS: None, EW: None})  # nothing read: nothing recorded


def test_the_difference_and_the_answer_are_replayed_from_the_journal(
        new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    s.see_markers({NS: 1, EW: 1})
    s.answer_markers(NS, "fives")
    before = [d.to_json() for d in s.markers.disputes]
    s.journal.close()
    again = new_session("alberta55")
    assert [d.to_json() for d in again.markers.disputes] == before
    assert before == [{"hand": 1, "side": "NS", "fives": 1, "kiosk": 0, "answer": "fives"}]
    assert again.markers.open() == []


def test_an_open_difference_survives_a_restart_and_can_be_answered_after(
        new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    s.see_markers({NS: 3, EW: 1})
    s.journal.close()
    again = new_session("alberta55")
    [dispute] = again.markers.open()
    assert dispute.side == NS
    again.answer_markers(NS, "kiosk")
    assert again.markers.open() == []


def test_only_an_open_difference_can_be_answered(new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    with pytest.raises(ValueError, match="no open difference"):
        s.answer_markers(NS, "kiosk")
    s.see_markers({NS: 4, EW: 1})
    with pytest.raises(ValueError, match="unknown answer"):
        s.answer_markers(NS, "maybe")


def test_the_fives_are_read_for_the_rule_books_that_keep_score_with_them(
        new_session: Opener) -> None:
    assert markers.wanted("alberta55", markers.MarkerBook())
    assert markers.wanted("general", markers.MarkerBook())
    s = new_session("tournament")
    assert not markers.wanted(s.profile, s.markers)
    play_demo_hand(s)
    s.see_markers({NS: 0, EW: 1})  # a club that keeps its 5s anyway: seen, so read on
    assert markers.wanted(s.profile, s.markers)


def test_a_score_past_ten_agrees_with_fives_fully_uncovered() -> None:
    book = markers.MarkerBook()
    book.read(FivesRead(9, {NS: 10, EW: 4}, {NS: 12, EW: 4}), seq=1)
    assert book.open() == []


def test_an_unsettled_difference_goes_to_the_director_with_the_game(
        new_session: Opener, tmp_path: Path) -> None:
    from kiosk.table.outbox import Outbox
    from tests.table.test_session import _turned, _turned_tricks, feed_tricks, play_bids

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    s = new_session("alberta55", outbox=outbox, points=3)
    for number in range(10):
        s.see_turn_up("9H")
        play_bids(s, _turned(DEMO["bids"], number))
        feed_tricks(s, _turned_tricks(DEMO["tricks"], number), source=f"h{number}")
        if s.game_can_end():
            break
        s.next_hand()
        kiosk = s.scores
        if number == 0:
            s.see_markers({NS: kiosk["NS"] + 2, EW: kiosk["EW"]})  # left open
        if number == 1:
            s.see_markers({NS: kiosk["NS"], EW: kiosk["EW"] + 1})
            s.answer_markers(EW, "kiosk")  # settled: not reported
    s.end_game()
    s.confirm("NS")
    s.confirm("EW")
    [item] = outbox.pending()
    assert item.body["markers"] == [{"hand": 1, "side": "NS", "fives": 2, "kiosk": 0,
                                     "answer": None, "team": "Ann & Bob"}]


def test_a_game_without_differences_posts_what_it_always_did(
        new_session: Opener) -> None:
    s = new_session("alberta55")
    play_demo_hand(s)
    s.see_markers({NS: 0, EW: 1})
    assert "markers" not in s.game_result()


def test_the_examples_in_the_docstrings() -> None:
    import doctest

    assert doctest.testmod(markers).failed == 0
