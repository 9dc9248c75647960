"""The referee says the engine's refusals in players' words: each seat the engine names
by its name, South too (an S in the engine's message may also be spades), from the
seats the error carries, not from the message's letters."""

from __future__ import annotations

import pytest

from kiosk.rules.bidding import Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.play import HandState, IllegalPlayError
from kiosk.rules.profiles import get_profile
from kiosk.table import referee

BIDS = [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "pass"},
        {"seat": "W", "call": "order", "alone": False}]


def _refusal(plays: list[tuple[str, str]]) -> str | None:
    return referee.replay("tournament", "N", "9H", BIDS, plays).problem


def test_a_seat_that_plays_twice_in_a_trick_is_named_south_too() -> None:
    assert _refusal([("E", "AS"), ("S", "9S"), ("S", "TS")]) == (
        "South plays twice in trick 1.")
    assert _refusal([("E", "AS"), ("E", "9S")]) == "East plays twice in trick 1."


def test_a_card_played_twice_names_the_seat_that_played_it_first() -> None:
    assert _refusal([("E", "9S"), ("S", "AS"), ("W", "AS")]) == (
        "The ace of spades is played twice (by South in trick 1).")


def test_only_the_seats_the_engine_named_are_said_by_name() -> None:
    """A bare S that is the suit stays a suit; a seat letter the error did not name (a
    ValueError without seats) is left as the engine wrote it."""
    refused = IllegalBidError("S names S, the turned-down suit, which cannot be trump",
                              Seat.S)
    assert referee._plain(refused) == "South names S, the turned-down suit, which cannot be trump."
    assert referee._plain(IllegalPlayError("S plays, but sits out (N plays alone)",
                                           Seat.S, Seat.N)) == (
        "South plays, but sits out (North plays alone).")
    assert referee._plain(ValueError("expected N, E, S or W")) == "Expected N, E, S or W."


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
    assert [referee.seat_name(s) for s in "NESW"] == ["North", "East", "South", "West"]
    assert referee.seat_name(None) == "None"
    assert [seat.words for seat in Seat] == ["North", "East", "South", "West"]
