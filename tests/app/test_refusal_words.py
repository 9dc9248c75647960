"""The engine's refusals in players' words (kiosk.app.words, from the referee's
`Refusal`): each seat the engine names by its name, South too (an S in the engine's
message may also be spades), each card in words, from the facts the error carries (its
fault, seats and cards), never from the message's text."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.words import refusal_words, seat_name
from kiosk.rules.bidding import Bid, BidFault, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.play import HandState, IllegalPlayError, PlayFault
from kiosk.rules.profiles import get_profile
from kiosk.rules.record import SeatCard
from kiosk.table import referee
from kiosk.table.referee import Refusal, plays_of

BIDS = [Bid(Seat.E, Call.PASS), Bid(Seat.S, Call.PASS), Bid(Seat.W, Call.ORDER)]


def _refusal(plays: list[SeatCard]) -> str | None:
    problem = referee.replay("tournament", Seat.N, Card.parse("9H"), BIDS, plays).problem
    return None if problem is None else refusal_words(problem)


def _said(error: Exception) -> str:
    return refusal_words(Refusal.of(error))


def test_a_seat_that_plays_twice_in_a_trick_is_named_south_too() -> None:
    assert _refusal(plays_of("E AS", "S 9S", "S TS")) == (
        "South plays twice in trick 1.")
    assert _refusal(plays_of("E AS", "E 9S")) == "East plays twice in trick 1."


def test_a_card_played_twice_names_the_seat_that_played_it_first() -> None:
    assert _refusal(plays_of("E 9S", "S AS", "W AS")) == (
        "The ace of spades is played twice (by South in trick 1).")


def test_the_words_come_from_the_errors_facts_not_its_message() -> None:
    """The turned-down suit stays the engine's letter; a seat is said by name whatever
    the message holds; an error without facts (a ValueError) is said as written."""
    refused = IllegalBidError("(any text)", Seat.S, fault=BidFault.TURNED_DOWN_SUIT,
                              suit=Suit.SPADES)
    assert _said(refused) == "South names S, the turned-down suit, which cannot be trump."
    assert _said(IllegalPlayError("(any text)", Seat.S, Seat.N,
                                           fault=PlayFault.SITS_OUT)) == (
        "South plays, but sits out (North plays alone).")
    assert _said(ValueError("expected N, E, S or W")) == "Expected N, E, S or W."


def test_a_discard_played_and_a_take_up_without_a_natural_trump_are_said_in_words() -> None:
    hand = HandState(get_profile("alberta55"), Seat.N, Card.parse("9H"))
    for seat in (Seat.E, Seat.S, Seat.W):
        hand.bid(Bid(seat, Call.PASS))
    hand.bid(Bid(Seat.N, Call.ORDER))
    hand.set_discard(Card.parse("9C"))
    with pytest.raises(IllegalPlayError) as discard:
        hand.verify_play(Seat.E, Card.parse("9C"))
    assert _said(discard.value) == "East plays the nine of clubs, the dealer's discard."
    natural = IllegalPlayError(
        "(any text)", Seat.N, fault=PlayFault.NO_NATURAL_TRUMP, card=Card.parse("9H"),
        cards=tuple(map(Card.parse, ("AS", "KD", "QC", "JS"))), discard=Card.parse("9C"))
    assert _said(natural) == (
        "North (dealer) took up the nine of hearts without a natural H (dealt the ace of "
        "spades the king of diamonds the queen of clubs the jack of spades, discarded the "
        "nine of clubs).")


def test_the_engine_names_the_seats_of_its_refusals() -> None:
    """A refusal that names a seat carries it typed, in the order the message says it."""
    with pytest.raises(IllegalBidError) as malformed:
        Bid(Seat.S, Call.NAME)
    assert malformed.value.seats == ()  # names no seat
    hand = HandState(get_profile("tournament"), Seat.N, Card.parse("9H"))
    with pytest.raises(IllegalBidError, match="^S names a suit in round one") as early:
        hand.verify_bid(Bid(Seat.S, Call.NAME, Suit.SPADES))
    assert early.value.seats == (Seat.S,)


def test_seat_names_come_from_the_rules_engine() -> None:
    assert [seat_name(s) for s in "NESW"] == ["North", "East", "South", "West"]
    assert seat_name(None) == "None"
    assert [seat.words for seat in Seat] == ["North", "East", "South", "West"]


def test_every_refusal_of_a_played_card_is_said_without_codes() -> None:
    """Over whole hands, every card each seat could not play now is refused with a fault,
    and said with seats by name and euchre cards in words (never 'S' or 'AS')."""
    import random
    import re

    from kiosk.rules.cards import EUCHRE_DECK

    code = re.compile(r"\b([9TJQKA][CDHS]|[NESW])\b")
    rng = random.Random(60)
    faults = set()
    for _hand in range(6):
        deck = list(EUCHRE_DECK)
        rng.shuffle(deck)
        hands = {seat: deck[i * 5:(i + 1) * 5] for i, seat in enumerate(Seat)}
        hand = HandState(get_profile("tournament"), Seat.N, deck[20], hands=hands)
        hand.bid(Bid(Seat.E, Call.ORDER))
        while hand.turn is not None and not hand.is_over:
            for seat in Seat:
                for card in EUCHRE_DECK:
                    try:
                        hand.verify_play(seat, card)
                    except IllegalPlayError as refused:
                        assert refused.fault is not None
                        faults.add(refused.fault)
                        words = _said(refused)
                        assert not code.search(words), words
            hand.play(hand.turn, next(c for c in EUCHRE_DECK if hand.can_play(hand.turn, c)))
    assert {PlayFault.TWICE_IN_TRICK, PlayFault.DEALT_TO, PlayFault.CARD_TWICE} <= faults


def test_every_refused_tap_and_set_up_fault_is_said_in_words(tmp_path: Path) -> None:
    """The session refuses with facts; each has its sentence here, and a set-up the
    table cannot play names what to change."""
    from kiosk.app.words import refused_words, setup_words
    from kiosk.table.intents import IntentRefused, Why
    from kiosk.table.session import TableSession
    from kiosk.table.setup import SetupFault, TableSetup

    for why in Why:
        words = refused_words(IntentRefused(why, detail="Not so.", trick=1))
        assert words[:1].isupper() or words.startswith("'"), (why, words)
        assert words.endswith("."), (why, words)
    assert [setup_words(f) for f in SetupFault][:2] == [
        "The table number starts at 1.", "The round number starts at 1."]
    session = TableSession.open(tmp_path / "table.sqlite3")
    with pytest.raises(IntentRefused) as refused:
        session.configure(TableSetup(tournament="", table=0, team_ns="", team_ew="",
                                     profile="tournament", points_to_win=10, minutes=0))
    assert refused.value.why is Why.BAD_SETUP and refused.value.setup is SetupFault.TABLE
    assert refused_words(refused.value) == "The table number starts at 1."
    with pytest.raises(IntentRefused) as unknown:
        session.configure(TableSetup(tournament="", table=1, team_ns="", team_ew="",
                                     profile="bridge", points_to_win=10, minutes=0))
    assert refused_words(unknown.value) == "Unknown rules 'bridge'."
