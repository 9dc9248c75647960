"""The pack the table's deck profile enrolled is evidence for the twin check (issue 63):
a card the deck does not hold is no twin to ask about; a profile that saw too little of
the pack says nothing, and every doubt is asked as before."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import EUCHRE_DECK, EUCHRE_NAMES, Card, Seat
from kiosk.table.phases import Phase
from kiosk.table.referee import plays_of
from kiosk.table.session import TableSession
from kiosk.table.twins import enrolled_pack, renege_questions
from kiosk.vision.events import CardPlayed

Opener = Callable[..., TableSession]
BIDS = [Bid(Seat.E, Call.PASS), Bid(Seat.S, Call.PASS),
        Bid(Seat.W, Call.ORDER)]  # hearts are trump, North deals
#: West shows out of spades in trick 1 and plays the jack of spades in trick 3: a renege,
#: unless that card is the jack of clubs the camera took for its twin
PLAYS = plays_of("E AS", "S 9S", "W KD", "N QS",
                 "E 9C", "S TC", "W QC", "N AC",
                 "N AD", "E 9D", "S TD", "W JS")
#: a pack that lost its jack of clubs (the layout said: "the pack is imperfect"), and
#: the two 5s the players keep score with
NO_JACK_OF_CLUBS = sorted(EUCHRE_NAMES - {"JC"}) + ["5C", "5D"]


def _play(s: TableSession) -> TableSession:
    s.see_turn_up("9H")
    for bid in BIDS:
        s.bid(bid.call, bid.suit, bid.alone)
    for t, (seat, card) in enumerate(PLAYS, start=1):
        s.feed(CardPlayed(seat, card, float(t), 0.95), source="cam")
    return s


def test_a_twin_the_enrolled_pack_does_not_hold_is_no_doubt() -> None:
    asked = renege_questions("tournament", Seat.N, Card.parse("9H"), BIDS, PLAYS)
    assert [str(q) for q in asked] == ["trick 3 W: JS or JC?"]
    pack = enrolled_pack(NO_JACK_OF_CLUBS)
    assert pack is not None and "JC" not in pack and "5C" not in pack
    assert renege_questions("tournament", Seat.N, Card.parse("9H"), BIDS, PLAYS, pack=pack) == []


def test_a_profile_that_saw_part_of_the_pack_rules_nothing_out() -> None:
    ten_shots = ["JS", "JD", "JH", "AS", "AH", "KD", "QS", "9C", "TC", "5C"]
    assert enrolled_pack(ten_shots) is None
    assert enrolled_pack(sorted(EUCHRE_NAMES - {"JC", "QD"})) is None  # two unshown
    assert enrolled_pack(sorted(EUCHRE_NAMES)) == frozenset(EUCHRE_DECK)


def test_the_session_decides_with_the_pack_it_is_given(new_session: Opener) -> None:
    s = new_session()
    s.deck_pack = lambda: enrolled_pack(NO_JACK_OF_CLUBS)
    _play(s)
    assert s.hand is not None and s.hand.suggestion is None
    assert s.phase == Phase.RENEGE  # the deck holds no jack of clubs: flagged


def test_without_a_known_pack_the_twin_is_asked(new_session: Opener) -> None:
    s = _play(new_session())
    assert s.hand is not None and s.hand.suggestion is not None
    assert s.hand.suggestion.twin and s.hand.suggestion.card == Card.parse("JC")
    assert s.phase == Phase.PLAYING


def test_the_app_hands_the_table_its_deck_profiles_pack(new_session: Opener) -> None:
    """The presenter gives the session the enrolled cards of the profile its detector
    reads with; none while the detector has no profile."""
    from kiosk.app.presenter import TablePresenter

    s = new_session()
    p = TablePresenter(s)
    assert s.deck_pack() is None  # no detector
    p.deck_setup.detector = SimpleNamespace(deck=None)
    assert s.deck_pack() is None  # a detector that reads with no profile
    p.deck_setup.detector = SimpleNamespace(deck=SimpleNamespace(enrolled=NO_JACK_OF_CLUBS))
    _play(s)
    assert p.screen == "renege" and p.twins.asked() is None
