"""The turn-up the camera reads on the kitty, taken into the game: it fills the bidding
screen until the first bid agrees with it (a player's tap wins over it), and what the
camera saw become of it (taken, turned down) is weighed against the bids tapped, in
plain words where they disagree. North deals in every test; East bids first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kiosk.app.presenter import TablePresenter
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.table.camera import HandFollower
from kiosk.table.session import TableSession
from kiosk.vision.brief import HandBrief
from kiosk.vision.events import KittyChange, KittySeen, face
from tests.table.conftest import make_setup

Opener = Callable[..., TableSession]


def kitty(change: KittyChange, card: str = "9H", t: float = 1.0, seat: str = "N") -> KittySeen:
    return KittySeen(seat=Seat.parse(seat), card=face(card), change=change, t=t, confidence=0.95)


def test_the_kitty_turn_up_fills_the_bidding_screen_and_the_first_bid_agrees(
        new_session: Opener) -> None:
    s = new_session()
    p = TablePresenter(s)
    s.feed(kitty(KittyChange.SHOWN))
    assert s.hand is not None and s.hand.turn_up == Card.parse("9H")
    view = p.bidding_view()
    assert view.turn_up == "9H" and view.title == "East to bid"  # no picker: bid at once
    assert view.turn_up_note == ("Turn-up: nine of hearts. Right? Then just bid. If not, "
                                 "tap 'Not this card'.")
    assert view.undo == "Not this card"
    assert p.tap_bid(next(b.index for b in view.buttons if b.label == "Pass"))
    assert p.bidding_view().turn_up_note == ""  # agreed
    s.feed(kitty(KittyChange.SHOWN, "TH", t=2.0))  # a later read changes nothing now
    assert s.hand.turn_up == Card.parse("9H")


def test_not_this_card_brings_the_picker_back(new_session: Opener) -> None:
    s = new_session()
    p = TablePresenter(s)
    s.feed(kitty(KittyChange.SHOWN, "TH"))  # misread: the nine was turned up
    assert p.undo()
    view = p.bidding_view()
    assert view.turn_up is None and view.title == "Tap the turn-up card below"
    assert p.tap_turn_up("9H") and p.bidding_view().turn_up_note == ""


def test_a_players_tap_wins_over_the_camera_and_a_later_read_corrects_an_earlier(
        new_session: Opener) -> None:
    s = new_session()
    s.feed(kitty(KittyChange.SHOWN, "TH"))
    s.feed(kitty(KittyChange.SHOWN, "9H", t=2.0))  # read again, better: the camera's word
    assert s.hand is not None and s.hand.turn_up == Card.parse("9H")
    s.undo()  # 'Not this card', twice: back to the first read, then to nothing
    s.undo()
    s.see_turn_up("JD")  # the players tap it in
    s.feed(kitty(KittyChange.SHOWN, "9H", t=3.0))
    assert s.hand.turn_up == Card.parse("JD") and s.hand.turn_up_source == "tap"


def test_the_turn_up_beside_another_seat_is_not_this_deal(new_session: Opener) -> None:
    s = new_session()
    s.feed(kitty(KittyChange.SHOWN, seat="E"))
    assert s.hand is not None and s.hand.turn_up is None


def pass_round_one(p: TablePresenter) -> None:
    for _ in range(4):
        view = p.bidding_view()
        assert p.tap_bid(next(b.index for b in view.buttons if b.label == "Pass"))


def test_the_dealer_seen_picking_it_up_questions_four_passes(new_session: Opener) -> None:
    s = new_session()
    p = TablePresenter(s)
    s.feed(kitty(KittyChange.SHOWN))
    s.feed(kitty(KittyChange.TAKEN, t=5.0))  # seen before the players tapped the order
    assert p.bidding_view().turn_up_note.startswith("Turn-up")  # nothing tapped yet
    pass_round_one(p)
    assert p.bidding_view().turn_up_note == (
        "The camera saw North pick up the turn-up. Was it ordered up? If so, tap Undo.")


def test_a_turn_up_seen_turned_down_questions_no_order(new_session: Opener) -> None:
    """Gone where it lay may be turned down, or lifted straight up under the dealer's hand:
    the camera cannot tell, so an order stands without a question (and the dealer still
    may play the card)."""
    s = new_session()
    p = TablePresenter(s)
    s.feed(kitty(KittyChange.SHOWN))
    order = next(b.index for b in p.bidding_view().buttons if b.label == "Order it up")
    assert p.tap_bid(order)  # East orders it up
    s.feed(kitty(KittyChange.TURNED_DOWN, t=6.0))
    assert s.hand is not None and s.hand.kitty_seen is KittyChange.TURNED_DOWN  # kept, as seen
    assert not p.live_view().notices
    assert s.hand_brief().kept_by is Seat.N


def test_what_the_camera_saw_agreeing_with_the_bids_says_nothing(tmp_path: Path) -> None:
    for change, ordered in ((KittyChange.TAKEN, True), (KittyChange.TURNED_DOWN, False)):
        s = TableSession.open(tmp_path / f"{change}.sqlite3")
        s.configure(make_setup())
        s.start_game("N")
        p = TablePresenter(s)
        s.feed(kitty(change, t=9.0))
        if ordered:
            assert p.tap_turn_up("9H")
            assert p.tap_bid(next(b.index for b in p.bidding_view().buttons
                                  if b.label == "Order it up"))
            assert not p.live_view().notices
        else:
            assert p.tap_turn_up("9H")
            pass_round_one(p)
            assert p.bidding_view().turn_up_note == ""


def test_what_the_camera_saw_survives_a_restart(new_session: Opener) -> None:
    s = new_session()
    s.feed(kitty(KittyChange.SHOWN))
    s.feed(kitty(KittyChange.TURNED_DOWN, t=6.0))
    s.journal.close()
    again = new_session()
    assert again.hand is not None
    assert (again.hand.turn_up, again.hand.turn_up_source, again.hand.kitty_seen) == (
        Card.parse("9H"), "camera", KittyChange.TURNED_DOWN)


class DealRecorder:
    """A pipeline that notes what the follower tells it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, object]] = []

    def new_deal(self, dealer: Seat) -> None:
        self.told.append(("deal", dealer))

    def new_hand(self, brief: HandBrief) -> None:
        self.told.append(("hand", brief))

    def __call__(self, frame: object, t: float) -> list[object]:
        return []


def test_the_reader_hears_of_each_deal_as_bidding_begins_then_of_its_contract(
        new_session: Opener) -> None:
    """The kitty is watched from the deal; the contract (with the turn-up and the seat
    that may still play it) comes when the last bid is in; each once a hand."""
    s = new_session()
    pipeline = DealRecorder()
    follower = HandFollower(pipeline)
    for _ in range(2):  # a frame, then another: told once
        follower.follow(s.hand_brief())
        follower(None, 0.0)
    assert pipeline.told == [("deal", Seat.N)]
    s.feed(kitty(KittyChange.SHOWN))
    s.bid("order")  # East orders the nine of hearts up: North, the dealer, keeps it
    follower.follow(s.hand_brief())
    follower(None, 1.0)
    assert pipeline.told[1:] == [("hand", HandBrief(
        hand=1, dealer=Seat.N, leader=Seat.E, trump=Suit.HEARTS, turn_up=Card.parse("9H"),
        kept_by=Seat.N))]
