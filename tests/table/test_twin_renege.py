"""No renege on a twin's word (issue 63): a renege that would vanish if one of its cards
were its same-colour twin is first a question to the players, never a flag on the
camera's word alone; the pack (each card once) settles a twin without asking."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import EUCHRE_DECK, Card, Seat
from kiosk.table.hand_log import Suggestion
from kiosk.table.phases import Phase
from kiosk.table.referee import plays_of
from kiosk.table.session import TableSession
from kiosk.table.twins import TwinQuestion, renege_questions
from kiosk.vision.events import CardPlayed

Opener = Callable[..., TableSession]
BIDS = [Bid(Seat.E, Call.PASS), Bid(Seat.S, Call.PASS),
        Bid(Seat.W, Call.ORDER)]  # hearts are trump, North deals
#: West shows out of spades in trick 1, then plays a spade in trick 3, read as the jack
#: of spades: a renege, unless that card is the jack of clubs the camera took for its twin
TRICK_1 = plays_of("E AS", "S 9S", "W KD", "N QS")
TRICK_2 = plays_of("E 9C", "S TC", "W QC", "N AC")
TRICK_3 = plays_of("N AD", "E 9D", "S TD", "W JS")
NINE_OF_HEARTS = Card.parse("9H")


def _two_tricks(new_session: Opener) -> TableSession:
    s = new_session()
    s.see_turn_up("9H")
    for bid in BIDS:
        s.bid(bid.call, bid.suit, bid.alone)
    for t, (seat, card) in enumerate(TRICK_1 + TRICK_2 + TRICK_3, start=1):
        s.feed(CardPlayed(seat, card, float(t), 0.95), source="cam")
    return s


def test_the_card_a_renege_hangs_on_is_asked_before_it_is_flagged(
        new_session: Opener) -> None:
    s = _two_tricks(new_session)
    assert s.hand is not None and s.hand.view is not None
    assert s.hand.view.renege is not None  # the rules engine sees a renege ...
    assert s.phase == Phase.PLAYING  # ... the table does not flag it yet: it asks
    assert s.hand.suggestion == Suggestion(3, Seat.W, Card.parse("JC"), Card.parse("JS"),
                                           twin=True)


def test_the_players_answer_that_it_is_the_card_read_and_the_renege_stands(
        new_session: Opener) -> None:
    s = _two_tricks(new_session)
    s.keep_card()  # "the jack of spades"
    assert s.phase == Phase.RENEGE
    assert s.hand is not None and s.hand.suggestion is None
    assert s.hand.fixed[(3, Seat.W)] == Card.parse("JS")


def test_the_players_answer_that_it_is_the_twin_and_the_renege_is_gone(
        new_session: Opener) -> None:
    s = _two_tricks(new_session)
    s.correct(3, "W", "JC", confirmed=True)  # "the jack of clubs"
    assert s.hand is not None and s.hand.view is not None
    assert s.hand.view.renege is None and s.hand.suggestion is None
    assert s.phase == Phase.PLAYING


def test_the_answer_is_kept_in_the_journal(new_session: Opener) -> None:
    s = _two_tricks(new_session)
    s.keep_card()
    s.journal.close()
    again = new_session()
    assert again.phase == Phase.RENEGE and again.hand is not None
    assert again.hand.suggestion is None


def test_a_twin_already_played_elsewhere_in_the_hand_is_not_asked() -> None:
    """The lead of trick 1 might be the ace of clubs, which would clear West, but North
    played the ace of clubs in trick 2: the pack holds it once, so the lead is no doubt."""
    plays = [*TRICK_1, *TRICK_2, *TRICK_3]
    questions = renege_questions("tournament", Seat.N, NINE_OF_HEARTS, BIDS, plays)
    assert questions == [TwinQuestion(3, Seat.W, Card.parse("JS"), Card.parse("JC"))]
    # the same hand with the ace of clubs still unseen: the lead is put to them too
    unseen = [*TRICK_1, *plays_of("E AD", "S 9D", "W JS", "N TD")]
    assert renege_questions("tournament", Seat.N, NINE_OF_HEARTS, BIDS, unseen) == [
        TwinQuestion(1, Seat.E, Card.parse("AS"), Card.parse("AC")),
        TwinQuestion(2, Seat.W, Card.parse("JS"), Card.parse("JC"))]


def test_the_turn_up_out_of_reach_is_no_twin() -> None:
    """West's proving card is read as the ten of diamonds. Its twin, the ten of hearts,
    is the turn-up North took: West cannot hold it, so that card is not asked about."""
    bids = [Bid(Seat.E, Call.ORDER)]  # North deals, East orders up
    plays = plays_of("E AD", "S 9D", "W 9S", "N QD",   # West shows out of diamonds
                     "E 9C", "S TC", "W TD")  # and plays one
    assert (2, Seat.W) not in {
        (q.trick, q.seat)
        for q in renege_questions("tournament", Seat.N, Card.parse("TH"), bids, plays)}
    assert (2, Seat.W) in {
        (q.trick, q.seat)
        for q in renege_questions("tournament", Seat.N, NINE_OF_HEARTS, bids, plays)}


def test_a_card_outside_the_pack_is_no_twin() -> None:
    plays = [*TRICK_1, *TRICK_2, *TRICK_3]
    pack = {c for c in EUCHRE_DECK if str(c) != "JC"}
    assert renege_questions("tournament", Seat.N, NINE_OF_HEARTS, BIDS, plays, pack=pack) == []


def test_no_renege_no_question() -> None:
    plays = [*TRICK_1[:2], (Seat.W, Card.parse("KS")), TRICK_1[3]]
    assert renege_questions("tournament", Seat.N, NINE_OF_HEARTS, BIDS, plays) == []
