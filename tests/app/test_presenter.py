"""Every screen's logic, without a window: what it shows and what a tap does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kiosk.app.demo import DemoDriver, start_demo
from kiosk.app.palette import suit_colour
from kiosk.app.presenter import TablePresenter
from kiosk.app.words import card_label, card_words
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.table.referee import plays_of
from kiosk.table.session import TableSession
from kiosk.vision.brief import HandBrief
from kiosk.vision.events import CardPlayed, TrickCleared, face


@pytest.fixture
def presenter(tmp_path: Path) -> TablePresenter:
    return TablePresenter(TableSession.open(tmp_path / "j.sqlite3"))


def play_demo_hand(p: TablePresenter) -> None:
    driver = DemoDriver(p.session, pace=0.01, autoplay=False)
    for _ in range(300):
        driver.tick(0.01)


def test_no_kivy_behind_the_screens() -> None:
    """The presenter, the session and the demo load without Kivy (or OpenCV)."""
    import subprocess

    code = ("import sys, kiosk.app.presenter, kiosk.app.demo, kiosk.table.session; "
            "assert 'kivy' not in sys.modules and 'cv2' not in sys.modules")
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


def test_setup_fills_from_the_profile_and_refuses_bad_input(presenter: TablePresenter) -> None:
    v = presenter.setup_view()
    assert v.profile == "tournament" and dict(v.profiles)["alberta55"] == "Alberta 55+"
    assert presenter.profile_defaults("ssc") == (10, 25)
    assert not presenter.save_setup("Spring", "x", "1", "A", "B", "ssc", 10, 25, False)
    assert presenter.message == "Table and round are numbers."
    assert not presenter.save_setup("Spring", "3", "1", "Same", "Same", "ssc", 10, 25, False)
    assert "different names" in presenter.message
    assert presenter.save_setup("Spring", "3", "1", "Ann & Bob", "Cy & Di", "ssc", 10, 25, True)
    assert presenter.screen == "setup" and presenter.four_colour
    assert presenter.start("N")
    assert presenter.screen == "bidding"


def test_bidding_asks_for_the_turn_up_then_shows_the_buttons(presenter: TablePresenter) -> None:
    start_demo(presenter.session, deal=True)
    v = presenter.bidding_view()
    assert v.turn_up is None and "turn-up" in v.title and v.buttons == ()
    assert presenter.tap_turn_up("9H")
    v = presenter.bidding_view()
    assert v.title == "East to bid" and v.dealer == "North dealt"
    assert [b.label for b in v.buttons] == ["Pass", "Order it up", "Order it up alone"]
    assert presenter.tap_bid(0)
    assert presenter.bidding_view().history == ("East: pass",)


def test_a_forbidden_bid_is_explained_and_not_recorded(tmp_path: Path) -> None:
    p = TablePresenter(TableSession.open(tmp_path / "j.sqlite3"))
    start_demo(p.session, deal=True)
    p.tap_turn_up("9H")
    for _ in range(7):
        p.tap_bid(0)
    v = p.bidding_view()
    assert v.title == "North to bid" and v.round == 2
    passing = v.buttons[0]
    assert not passing.allowed and "Stick the dealer" in v.explain
    entries = len(p.session.journal)
    assert not p.tap_bid(passing.index)
    assert "Stick the dealer" in p.message and len(p.session.journal) == entries


def test_live_shows_each_seats_card_whose_turn_and_tricks(presenter: TablePresenter) -> None:
    s = presenter.session
    start_demo(s, deal=True)
    presenter.tap_turn_up("9H")
    for _ in range(2):
        presenter.tap_bid(0)
    presenter.tap_bid(1)  # West orders it up
    assert presenter.screen == "live"
    s.feed(CardPlayed(Seat.E, face("AS"), 1, 0.9))
    v = presenter.live_view()
    assert v.title == "South to play" and v.trump.startswith("Trump: hearts")
    assert v.turn == "South"  # shown in big type
    assert {x.seat: x.card for x in v.seats}["E"] == "AS"
    assert [x.seat for x in v.seats if x.on_turn] == ["S"]
    for seat, card, t in (("S", "9S", 2), ("W", "KS", 3), ("N", "QS", 4)):
        s.feed(CardPlayed(Seat.parse(seat), face(card), t, 0.9))
    v = presenter.live_view()
    assert v.title == "Trick 1 to East" and v.tricks == {"NS": 0, "EW": 1}
    assert v.turn == ""  # the trick's winner is the news, not the next lead
    s.feed(TrickCleared(5))
    v = presenter.live_view()
    assert all(x.card is None for x in v.seats) and v.title == "East to play"
    assert presenter.shot_name() == "live"
    for seat, card, t in (("E", "JH", 6), ("S", "QH", 7)):
        s.feed(CardPlayed(Seat.parse(seat), face(card), t, 0.9))
    assert presenter.shot_name() == "live-mid-hand"  # a second picture, cards on the table


def test_score_and_game_end_after_a_hand(presenter: TablePresenter) -> None:
    start_demo(presenter.session, deal=True)
    play_demo_hand(presenter)
    assert presenter.screen == "score"
    v = presenter.score_view()
    assert v.scores == {"NS": 0, "EW": 1} and v.can_next and not v.can_end
    assert v.hand_summary == "Cy & Di made it: Cy & Di +1"
    presenter.open("correction")
    assert presenter.screen == "correction"
    rows = presenter.correction_view().rows
    assert len(rows) == 5 and rows[0][1][0] == ("N", "QS")
    presenter.select_slot(1, "N")
    assert presenter.pick_card("KS") is False  # KS is West's card in trick 1
    assert presenter.message
    presenter.open(None)
    assert presenter.next_hand()
    assert presenter.screen == "bidding"


def test_game_end_needs_both_teams(tmp_path: Path) -> None:
    from tests.table.conftest import make_setup

    s = TableSession.open(tmp_path / "j.sqlite3")
    p = TablePresenter(s)
    s.configure(make_setup(points=1))
    s.start_game("N")
    play_demo_hand(p)
    assert p.score_view().can_end
    assert p.end_game()
    v = p.game_end_view()
    assert v.headline == "Cy & Di win 1 to 0" and v.confirmed == {"NS": False, "EW": False}
    assert p.confirm("EW")
    assert p.game_end_view().question == "Cy & Di: do you agree with this score?"
    assert p.game_end_view().confirmed == {"NS": False, "EW": False}  # asked again first
    assert p.answer_agreement(True)
    assert p.game_end_view().confirmed == {"NS": False, "EW": True}
    assert p.take_back("EW") and p.game_end_view().confirmed == {"NS": False, "EW": False}
    assert agree(p, "EW") and agree(p, "NS")
    assert p.screen == "game_end"


def test_renege_screen_tells_the_story(tmp_path: Path) -> None:
    from tests.table.conftest import make_setup

    s = TableSession.open(tmp_path / "j.sqlite3")
    p = TablePresenter(s)
    s.configure(make_setup("tournament"))
    s.start_game("N")
    s.see_turn_up("9H")
    s.bid("pass")
    s.bid("pass")
    s.bid("order")
    for t, (seat, card) in enumerate(plays_of("E AS", "S QH", "W KS", "N QS")):
        s.feed(CardPlayed(seat, card, t, 0.9))
    s.feed(TrickCleared(10))
    s.feed(CardPlayed(Seat.S, face("9S"), 11, 0.9))
    while s.hand is not None and s.hand.suggestion is not None and s.hand.suggestion.twin:
        s.keep_card()  # asked first about each card the renege hangs on: as read
    assert p.screen == "renege"
    v = p.renege_view()
    assert v.headline == "Renege: South did not follow suit"
    assert v.story[0] == "In trick 1, spades were led and South played the queen of hearts."
    assert "nine of spades" in v.story[1]
    assert [o.label for o in v.options] == ["Score the penalty: Cy & Di +2"]
    assert v.chooser.startswith("The rule book gives one penalty")
    assert not p.call_director() and "not paired" in p.message  # nobody would be told
    assert not p.renege_view().director_called
    assert p.tap_renege_option(0) and p.screen == "renege"  # put again first
    assert p.renege_view().confirm == "Score the penalty: Cy & Di +2"
    assert p.confirm_renege(True)
    assert p.screen == "score"


def test_card_faces_and_the_four_colour_pack() -> None:
    assert card_label("TH") == "10\u2665"
    assert suit_colour("C") == suit_colour("S")
    assert suit_colour("C", four_colour=True) != suit_colour("S", four_colour=True)
    assert suit_colour("D", four_colour=True)[2] > 0.5  # diamonds blue


def test_pairing_fills_the_table_and_points_the_outbox(tmp_path: Path) -> None:
    from kiosk.table.director_problem import DirectorFault
    from kiosk.table.outbox import Outbox
    from kiosk.table.pairing import Pairing, PairingError

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    p = TablePresenter(TableSession.open(tmp_path / "j.sqlite3", outbox=outbox))
    assert "Not paired" in p.setup_view().pairing

    def refused(server: str, code: str) -> Pairing:
        raise PairingError(DirectorFault.SAID_NO, detail="unknown code")

    assert not p.pair("10.0.0.5:8555", "zzz", pairer=refused)
    assert p.message == "The director said no: unknown code."
    seating = {"table": 7, "profile": "ssc", "points_to_win": 10, "game_minutes": 25,
               "next_round": 3, "rounds": [{"round": 3, "table": 7, "teams": ["Ed & Flo",
                                                                            "Gus & Hal"]}]}
    assert p.pair("10.0.0.5:8555", "k7p2qx",
                  pairer=lambda server, code: Pairing("http://" + server, 7, "tok", "Spring"),
                  fetcher=lambda server, token: seating)
    v = p.setup_view()
    assert (v.table, v.tournament, v.round) == ("7", "Spring", "3")
    assert (v.team_ns, v.team_ew, v.profile, v.minutes) == ("Ed & Flo", "Gus & Hal", "ssc", 25)
    assert v.pairing == "Paired with the director at http://10.0.0.5:8555."
    assert outbox.config() == {"server": "http://10.0.0.5:8555", "token": "tok"}


def test_pairing_by_the_qr_code_held_up_to_the_camera(tmp_path: Path) -> None:
    import io

    import cv2
    import numpy as np
    import segno

    from kiosk.table.outbox import Outbox
    from kiosk.table.pairing import Invite, Pairing

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    p = TablePresenter(TableSession.open(tmp_path / "j.sqlite3", outbox=outbox))
    redeemed: list[Invite] = []

    def redeemer(invite: Invite) -> Pairing:
        redeemed.append(invite)
        return Pairing(invite.server, invite.table or 0, "tok", "Spring")

    assert not p.pair_from_camera(redeemer=redeemer)
    assert p.message.startswith("No camera picture yet")
    p.camera_setup.frame = np.full((480, 640, 3), 90, np.uint8)  # the table, no QR code
    assert not p.pair_from_camera(redeemer=redeemer)
    assert p.message.startswith("No table QR code in the camera's view")
    assert not redeemed

    # the director's Tables page, photographed: its QR code in a grey camera picture
    png = io.BytesIO()
    segno.make("http://10.0.0.5:8555/pair?table=4&code=K7P2QX", error="m").save(
        png, kind="png", scale=6, border=4)
    code = cv2.imdecode(np.frombuffer(png.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[40:40 + code.shape[0], 200:200 + code.shape[1]] = code
    p.camera_setup.frame = frame
    seating = {"table": 4, "profile": "alberta55", "points_to_win": 10, "game_minutes": 25,
               "next_round": 1, "rounds": [{"round": 1, "table": 4, "teams": ["Ann & Bob",
                                                                            "Cy & Di"]}]}
    assert p.pair_from_camera(redeemer=redeemer, fetcher=lambda server, token: seating)
    assert redeemed == [Invite("http://10.0.0.5:8555", "K7P2QX", 4)]
    v = p.setup_view()
    assert (v.table, v.tournament, v.team_ns, v.team_ew) == ("4", "Spring", "Ann & Bob", "Cy & Di")
    assert outbox.config() == {"server": "http://10.0.0.5:8555", "token": "tok"}


def test_a_paired_kiosk_takes_the_next_games_teams_from_the_director(tmp_path: Path) -> None:
    # Found end to end (tests/e2e): after the first game the set-up's names were
    # blank and nothing asked the director who plays next.
    from kiosk.table.assignment import AssignmentError
    from kiosk.table.director_problem import DirectorFault
    from kiosk.table.outbox import Outbox
    from tests.table.conftest import make_setup

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    s = TableSession.open(tmp_path / "j.sqlite3", outbox=outbox)
    p = TablePresenter(s)
    s.configure(make_setup(points=1))  # table 4, round 2
    outbox.configure("http://10.0.0.5:8555", "tok")
    s.start_game("N")
    play_demo_hand(p)
    assert p.end_game() and agree(p, "NS") and agree(p, "EW")
    asked: list[tuple[str, str]] = []

    def seating(server: str, token: str) -> dict:
        asked.append((server, token))
        # the director has not had round 2's result yet: it still says round 2 is next
        return {"table": 4, "next_round": 2, "rounds": [
            {"round": 2, "table": 4, "teams": ["Ann & Bob", "Cy & Di"]},
            {"round": 3, "table": 4, "teams": ["Ed & Flo", "Cy & Di"]}]}

    assert p.new_game(fetcher=seating)
    assert asked == [("http://10.0.0.5:8555", "tok")]
    v = p.setup_view()
    assert (v.round, v.team_ns, v.team_ew) == ("3", "Ed & Flo", "Cy & Di")
    assert p.start("N") and s.phase == "bidding"  # the demo hand again, in a new game

    def down(server: str, token: str) -> dict:
        raise AssignmentError(DirectorFault.UNREACHABLE, detail="refused")

    play_demo_hand(p)
    assert p.end_game() and agree(p, "NS") and agree(p, "EW")
    assert p.new_game(fetcher=down)  # the director is away: the players type the names
    assert p.message.startswith("The seating for the next game did not come")
    assert s.phase == "ready" and p.setup_view().team_ns == ""
    assert [i.body["round"] for i in outbox.pending()] == [2, 3]


def test_time_up_says_what_happens(tmp_path: Path) -> None:
    from tests.table.conftest import FakeClock, make_setup

    clock = FakeClock()
    s = TableSession.open(tmp_path / "j.sqlite3", clock=clock)
    p = TablePresenter(s)
    s.configure(make_setup(minutes=25))
    s.start_game("N")
    clock.now += 25 * 60 + 5
    play_demo_hand(p)
    v = p.score_view()
    assert v.clock == "0:00" and v.clock_note.startswith("Time is up")
    assert v.can_end and not v.can_next


def test_the_reader_is_told_who_leads_and_what_is_trump(presenter: TablePresenter) -> None:
    s = presenter.session
    start_demo(s, deal=True)
    assert s.hand_brief() == HandBrief(hand=1, dealer=Seat.N)
    presenter.tap_turn_up("9H")
    for index in (0, 0, 1):
        presenter.tap_bid(index)
    assert s.hand_brief() == HandBrief(hand=1, dealer=Seat.N, leader=Seat.E, trump=Suit.HEARTS,
                                       turn_up=Card.parse("9H"), kept_by=Seat.N)


def test_a_cards_frame_is_kept_when_it_is_played_not_when_it_is_read_again(
        tmp_path: Path) -> None:
    """The renege screen shows the frame a card was played in. A card of trick 1 read
    again under another name, in a later frame, keeps its own: the later frame shows
    a later trick."""
    from kiosk.rules.cards import Seat
    from kiosk.vision.events import CardReread, face
    from tests.table.conftest import make_setup

    session = TableSession.open(tmp_path / "j.sqlite3", frames_dir=tmp_path / "frames")
    session.configure(make_setup("tournament"))
    session.start_game("N")
    session.see_turn_up("9H")
    for call in ("pass", "pass", "order"):
        session.bid(call)
    p = TablePresenter(session)
    for k, (seat, card) in enumerate(plays_of("E AS", "S TS", "W KS", "N QS")):
        played = CardPlayed(seat, card, float(k), 0.95)
        assert p.apply(played)
        if seat == "S":
            assert p.frame_name(played) == str(session.frame_path(1, 1, "S"))
    assert p.apply(TrickCleared(5.0))
    reread = CardReread(trick=1, seat=Seat.S, card=face("9S"), was=face("TS"), t=6.0,
                        confidence=0.7)
    assert p.apply(reread)
    assert session.hand is not None and session.hand.suggestion is not None  # asked
    assert p.frame_name(reread) is None


CARD_CODE = r"\b[9TJQKA][CDHS]\b"


def agree(p: TablePresenter, side: str) -> bool:
    """A team taps its button, then says yes to the question put again."""
    return p.confirm(side) and p.answer_agreement(True)


def _started(tmp_path: Path, profile: str = "tournament", **kwargs: object) -> TablePresenter:
    from tests.table.conftest import make_setup

    s = TableSession.open(tmp_path / "j.sqlite3", **kwargs)  # type: ignore[arg-type]
    s.configure(make_setup(profile))
    s.start_game("N")
    return TablePresenter(s)


def test_undo_takes_back_a_wrong_bid_then_the_turn_up_then_the_dealer(tmp_path: Path) -> None:
    p = _started(tmp_path)
    assert p.bidding_view().undo == "Undo: North deals"
    assert p.tap_turn_up("9H") and p.bidding_view().undo == "Undo the turn-up"
    assert p.tap_bid(0)  # East: pass
    assert p.tap_bid(0)  # ... and a second tap that passed for South too
    assert p.bidding_view().undo == "Undo South's pass"
    assert p.undo() and p.bidding_view().title == "South to bid"
    assert p.undo() and p.undo()
    assert p.bidding_view().turn_up is None
    assert p.undo() and p.screen == "setup"


def test_the_bid_that_made_trump_can_be_undone_until_a_card_is_played(tmp_path: Path) -> None:
    p = _started(tmp_path)
    p.tap_turn_up("9H")
    p.tap_bid(0)
    p.tap_bid(0)
    order = next(b.index for b in p.bidding_view().buttons if b.label == "Order it up")
    assert p.tap_bid(order) and p.screen == "live"
    assert p.live_view().undo == "Undo: West ordered it up"
    p.session.feed(CardPlayed(Seat.E, face("AS"), 1.0, 0.9))
    assert p.live_view().undo == ""
    assert not p.undo() and "cards are already on the table" in p.message


def test_a_seats_card_on_the_live_screen_is_a_tap_target(tmp_path: Path) -> None:
    p = _started(tmp_path)
    p.tap_turn_up("9H")
    for _ in range(3):
        p.tap_bid(0 if _ < 2 else 1)
    assert p.screen == "live"
    p.session.feed(CardPlayed(Seat.E, face("AS"), 1.0, 0.9))
    assert p.tap_seat("S")  # the camera missed South's card: tap South's empty place
    assert p.screen == "correction" and p.selected == (1, Seat.S)
    assert p.pick_card("9S") and p.session.hand is not None
    assert p.session.hand.plays == [(Seat.E, Card.parse("AS")), (Seat.S, Card.parse("9S"))]
    log = p.correction_view().log
    assert log == ("Trick 1, South: nine of spades added",)
    assert p.tap_seat("E") and p.selected == (1, Seat.E)
    assert p.pick_card("KS")
    assert p.correction_view().log[-1] == "Trick 1, East: ace of spades changed to king of spades"


def test_no_card_code_reaches_a_player(tmp_path: Path) -> None:
    import re

    p = _started(tmp_path)
    p.tap_turn_up("9H")
    p.tap_bid(0), p.tap_bid(0), p.tap_bid(1)
    p.session.feed(CardPlayed(Seat.E, face("AS"), 1.0, 0.9))
    p.session.feed(CardPlayed(Seat.E, face("9D"), 2.0, 0.9))  # read again as another card
    p.session.feed(CardPlayed(Seat.S, face("9D"), 3.0, 0.9))  # the same card twice
    shown = [*p.live_view().notices, p.message]
    assert any("nine of diamonds" in n for n in shown), shown
    assert not any(re.search(CARD_CODE, n) for n in shown), shown


def test_a_notice_goes_once_the_table_moves_on(tmp_path: Path) -> None:
    p = _started(tmp_path)
    p.tap_turn_up("9H")
    p.tap_bid(0), p.tap_bid(0), p.tap_bid(1)
    p.session.feed(CardPlayed(Seat.S, face("9S"), 1.0, 0.9))  # before East led
    assert any("before East led" in n for n in p.live_view().notices)
    p.session.feed(CardPlayed(Seat.E, face("AS"), 2.0, 0.9))
    assert p.live_view().notices == ()


def test_the_score_screen_closes_when_the_next_card_is_played(tmp_path: Path) -> None:
    p = _started(tmp_path)
    p.tap_turn_up("9H")
    p.tap_bid(0), p.tap_bid(0), p.tap_bid(1)
    p.open("score")
    assert p.screen == "score"
    p.session.feed(CardPlayed(Seat.E, face("AS"), 1.0, 0.9))
    assert p.screen == "live"


def test_call_the_director_once_and_cancel_it(tmp_path: Path) -> None:
    from kiosk.table.outbox import Outbox

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    outbox.configure("http://10.0.0.5:8555", "tok")  # paired: the director is told
    p = _started(tmp_path, outbox=outbox)
    assert p.call_director() and p.bidding_view().director_called
    assert p.call_director() and not p.bidding_view().director_called  # the same button
    calls = [i.body for i in outbox.pending() if i.kind == "call"]
    assert [c.get("cancelled", False) for c in calls] == [False, True]


def test_the_renege_choice_names_the_team_that_chooses(tmp_path: Path) -> None:
    p = _started(tmp_path, profile="alberta55")  # the offended side chooses its penalty
    s = p.session
    s.see_turn_up("9H")
    s.bid("pass"), s.bid("pass"), s.bid("order")
    for t, (seat, card) in enumerate(plays_of("E AS", "S QH", "W KS", "N QS")):
        s.feed(CardPlayed(seat, card, t, 0.9))
    s.feed(TrickCleared(10))
    s.feed(CardPlayed(Seat.S, face("9S"), 11, 0.9))
    while s.hand is not None and s.hand.suggestion is not None and s.hand.suggestion.twin:
        s.keep_card()  # asked first about each card the renege hangs on: as read
    v = p.renege_view()
    assert v.chooser == "Cy & Di (East-West) choose, because South reneged:"
    assert [o.label for o in v.options] == [
        "Give Cy & Di 2 points", "Take 2 points from Ann & Bob",
        "Play the hand out, and choose at the end"]
    assert p.tap_renege_option(0) and p.confirm_renege(True) and p.screen == "score"
    assert p.score_view().hand_summary == "Renege by South: Cy & Di +2"


def test_a_paired_kiosk_gets_its_teams_before_the_first_deal(tmp_path: Path) -> None:
    from kiosk.table.outbox import Outbox

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    s = TableSession.open(tmp_path / "j.sqlite3", outbox=outbox)
    p = TablePresenter(s)
    outbox.configure("http://10.0.0.5:8555", "tok")
    p.save_setup("Zone 4", "4", "2", "", "", "alberta55", 10, 0, False)
    assert not p.start("N") and "both teams' names" in p.message
    assert s.phase == "ready"

    def seating(server: str, token: str) -> dict:
        return {"table": 4, "next_round": 2, "profile": "alberta55", "rounds": [
            {"round": 2, "table": 4, "teams": ["Ann & Bob", "Cy & Di"]}]}

    assert p.fetch_seating(fetcher=seating)
    assert (p.setup_view().team_ns, p.setup_view().team_ew) == ("Ann & Bob", "Cy & Di")
    assert p.start("N") and s.phase == "bidding"


def test_a_result_the_director_flags_is_not_thanked_for(tmp_path: Path) -> None:
    from kiosk.table.outbox import Outbox

    outbox = Outbox(tmp_path / "outbox.sqlite3")
    s = TableSession.open(tmp_path / "j.sqlite3", outbox=outbox)
    from tests.table.conftest import make_setup

    s.configure(make_setup(points=1))
    s.start_game("N")
    p = TablePresenter(s)
    play_demo_hand(p)
    assert p.end_game() and agree(p, "NS") and agree(p, "EW")
    item = outbox.item(s.game_id())
    assert item is not None
    outbox._finish(item, "acknowledged", {"acknowledged": True, "status": "conflict"})
    assert "does not match" in p.game_end_view().note


def test_a_moved_camera_offers_the_camera_set_up_during_the_hand(tmp_path: Path) -> None:
    from kiosk.vision.events import ReaderWarning, WarningKind

    p = _started(tmp_path)
    p.tap_turn_up("9H")
    p.tap_bid(0), p.tap_bid(0), p.tap_bid(1)
    assert not p.live_view().recalibrate
    p.session.feed(ReaderWarning(WarningKind.CAMERA_MOVED,
                                 "the camera or the mat moved (40 px): calibrate again",
                                 None, 3.0))
    assert p.live_view().recalibrate
    p.open("calibration")
    assert p.screen == "calibration"
    p.open(None)
    assert p.screen == "live"


def test_a_turn_up_read_by_the_camera_saves_its_tap_and_can_be_undone(tmp_path: Path) -> None:
    """The bidding taps of the demo's hand: 3 when the camera read the turn-up on the kitty
    (the first bid agrees with it), 4 when the players tap it in."""
    from kiosk.app.demo import load_record
    from kiosk.vision.events import KittyChange, KittySeen

    record = load_record("N")
    for camera_read in (True, False):
        p = _started(tmp_path / str(camera_read))
        taps = 0
        if camera_read:
            p.session.feed(KittySeen(Seat.N, face(record["turn_up"]), KittyChange.SHOWN, 0.5, 0.95))
            assert p.bidding_view().turn_up_note == (
                f"Turn-up: {card_words(record['turn_up'])}. Right? Then just bid. If not, "
                "tap 'Not this card'.")
            assert p.bidding_view().undo == "Not this card"
        else:
            assert p.tap_turn_up(record["turn_up"])
            taps += 1
            assert p.bidding_view().turn_up_note == ""
        for bid in record["bids"]:
            label = "Pass" if bid["call"] == "pass" else "Order it up"
            assert p.tap_bid(next(b.index for b in p.bidding_view().buttons if b.label == label))
            taps += 1
        assert p.screen == "live"
        assert taps == (3 if camera_read else 4)
    p = _started(tmp_path / "misread")
    # the camera read the ten, not the nine
    p.session.feed(CardPlayed(Seat.N, face("TH"), 0.5, 0.95))
    assert p.bidding_view().undo == "Not this card"
    assert p.undo() and p.tap_turn_up("9H")
    assert p.bidding_view().turn_up == "9H" and p.bidding_view().turn_up_note == ""
