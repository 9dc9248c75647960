"""Issue 58's presenter: no silent edit of a finished trick, a yes before a penalty or an
agreement counts, the camera's second thoughts asked, a stopped camera said, the director's
rules kept, and an unpaired kiosk honest about calling the director."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.presenter import TablePresenter
from kiosk.rules.cards import Card, Seat
from kiosk.table.referee import plays_of
from kiosk.table.session import TableSession
from kiosk.vision.events import CardPlayed, CardReread, face
from tests.table.conftest import make_setup


def _playing(tmp_path: Path, **kwargs: object) -> TablePresenter:
    s = TableSession.open(tmp_path / "j.sqlite3", **kwargs)  # type: ignore[arg-type]
    s.configure(make_setup("tournament"))
    s.start_game("N")
    s.see_turn_up("9H")
    for call in ("pass", "pass", "order"):  # West orders up: hearts are trump
        s.bid(call)
    return TablePresenter(s)


def _tap_in(p: TablePresenter, seat: str, card: str) -> None:
    assert p.tap_seat(seat) and p.pick_card(card), p.message


def test_tapping_the_next_leader_after_a_full_trick_starts_the_next_trick(
        tmp_path: Path) -> None:
    """Cards tapped in: the full trick stays on the table (no camera clears it). A tap on
    East's place, East having won it, is East's lead to trick 2, not a change to trick 1."""
    p = _playing(tmp_path)
    for seat, card in plays_of("E AS", "S 9S", "W KS", "N QS"):
        _tap_in(p, seat, card)
    assert p.live_view().won_by == "Trick 1 to East"
    assert p.tap_seat("E") and p.selected == (2, Seat.E)
    assert p.correction_view().prompt == "Trick 2, East: tap the card East played"
    assert p.pick_card("JH")
    hand = p.session.hand
    assert hand is not None
    assert hand.plays[0] == (Seat.E, Card.parse("AS"))
    assert hand.plays[4] == (Seat.E, Card.parse("JH"))
    assert p.selected == (2, Seat.S)  # the next seat's place, for the next card tapped in


def test_a_finished_tricks_card_is_changed_only_after_a_yes_and_can_be_undone(
        tmp_path: Path) -> None:
    p = _playing(tmp_path)
    for seat, card in plays_of("E AS", "S 9S", "W KS", "N QS"):
        p.apply(CardPlayed(seat, card, float(len(p.session.journal)), 0.95))
    p.open("correction")
    p.select_slot(1, "N")
    assert p.correction_view().prompt == "Trick 1 is finished. North: tap the right card"
    assert not p.pick_card("TH")  # asked first
    v = p.correction_view()
    assert v.question == ("Trick 1, North: the queen of spades becomes the ten of hearts. "
                          "Trick 1 then goes to North, not East.")
    hand = p.session.hand
    assert hand is not None and hand.plays[3] == (Seat.N, Card.parse("QS"))
    assert p.confirm_fix(True)
    assert hand.plays[3] == (Seat.N, Card.parse("TH"))
    assert p.live_view().won_by == "Trick 1 to North"
    assert p.correction_view().undo == "Undo the change"
    assert p.undo_fix() and hand.plays[3] == (Seat.N, Card.parse("QS"))
    assert p.correction_view().undo == ""
    p.select_slot(1, "N")
    assert not p.pick_card("KS") and "West" in p.message  # refused outright, never asked


def test_the_cameras_second_thought_is_asked_and_a_no_keeps_the_card(tmp_path: Path) -> None:
    p = _playing(tmp_path)
    for seat, card in plays_of("E AS", "S TS", "W KS", "N QS"):
        p.apply(CardPlayed(seat, card, float(len(p.session.journal)), 0.95))
    p.apply(CardReread(trick=1, seat=Seat.S, card=face("9S"), was=face("TS"), t=50.0,
                          confidence=0.8))
    v = p.live_view()
    assert v.ask == ("The camera now reads South's card in trick 1 as the nine of spades; "
                     "the record has the ten of spades.")
    assert p.ask_about_suggestion() and p.screen == "correction"
    assert p.correction_view().question.startswith(
        "Trick 1, South: the ten of spades becomes the nine of spades.")
    p.confirm_fix(False)  # the players keep the ten
    hand = p.session.hand
    assert hand is not None and hand.suggestion is None
    assert hand.plays[1] == (Seat.S, Card.parse("TS"))
    assert p.live_view().ask == ""


def test_a_camera_that_stops_is_said_within_seconds(tmp_path: Path) -> None:
    p = _playing(tmp_path)
    p.camera = True
    p.frame_seen(100.0)
    assert p.camera_note(now=102.0) == ""
    assert p.camera_note(now=100.0 + p.CAMERA_QUIET_S) == (
        "No camera: tap a seat to enter its card.")
    p.feed_ended = True
    assert p.camera_note(now=100.5) == "Video ended: tap a seat to enter its card."


def test_a_paired_kiosk_keeps_the_rules_the_director_set(tmp_path: Path) -> None:
    from kiosk.table.outbox import Outbox

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    s = TableSession.open(tmp_path / "j.sqlite3", outbox=outbox)
    s.configure(make_setup("tournament", points=10))
    p = TablePresenter(s)
    assert p.update_setup(points_to_win=1)  # not paired: the players choose
    assert p.update_setup(points_to_win=10)
    outbox.configure("http://10.0.0.5:8555", "tok")
    assert not p.update_setup(points_to_win=1) and "director set these rules" in p.message
    assert s.setup is not None and s.setup.points_to_win == 10
    assert p.update_setup(four_colour=True)  # the cards' colours are the players' own


def test_an_unpaired_kiosk_says_nobody_was_told(tmp_path: Path) -> None:
    p = _playing(tmp_path)
    assert not p.call_director()
    assert "not paired" in p.message and "nobody was told" in p.message
    assert not p.session.director_called


def test_round_two_says_each_reason_once_and_names_the_side(tmp_path: Path) -> None:
    """Alberta 55+, round 2: the turned-down suit is refused with the bidder's team named
    (never 'your side' on a screen four players share), and the reminder that says the
    same is not repeated under it."""
    s = TableSession.open(tmp_path / "j.sqlite3")
    s.configure(make_setup("alberta55"))
    s.start_game("N")
    s.see_turn_up("9H")
    for _ in range(4):
        s.bid("pass")  # the turn-up is turned down: round 2, East to bid
    v = TablePresenter(s).bidding_view()
    assert v.title == "East to bid"
    assert "your side" not in v.explain.lower()
    assert v.explain.count("turned down") == 1, v.explain
    assert v.hint == ""


def test_an_unpaired_table_chooses_the_same_teams_or_new_ones(tmp_path: Path) -> None:
    """Not paired, the next game never clears the names unasked: the players choose."""
    from tests.app.test_presenter import agree, play_demo_hand

    for same, want in ((True, ("Ann & Bob", "Cy & Di")), (False, ("", ""))):
        s = TableSession.open(tmp_path / f"{same}.sqlite3")
        s.configure(make_setup(points=1))
        s.start_game("N")
        p = TablePresenter(s)
        play_demo_hand(p)
        assert p.end_game() and agree(p, "NS") and agree(p, "EW")
        assert p.game_end_view().paired is False
        assert p.new_game(same_teams=same)
        assert s.setup is not None and s.setup.round == 3
        assert (s.setup.team_ns, s.setup.team_ew) == want
