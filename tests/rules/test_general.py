"""general: general.txt, clause by clause (the book's headings)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.rules.bidding import Auction, Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.profiles import get_profile

PROFILE = get_profile("general")


def test_the_bidding_dealer_must_have_a_natural_trump_left_bower_is_not_one() -> None:
    bidding = Auction(
        PROFILE, Seat.N, Card.parse("9H"), [Card.parse(t) for t in ["JD", "9C", "TC", "QS", "AS"]]
    )
    for seat in (Seat.E, Seat.S, Seat.W):
        bidding.bid(Bid(seat, Call.PASS))
    with pytest.raises(IllegalBidError):
        bidding.verify_bid(Bid(Seat.N, Call.ORDER))


def test_the_bidding_turn_up_suit_cannot_be_named_in_round_two() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    for seat in Seat.E.clockwise():
        bidding.bid(Bid(seat, Call.PASS))
    assert not bidding.can_bid(Bid(Seat.E, Call.NAME, Suit.HEARTS))
    assert bidding.can_bid(Bid(Seat.E, Call.NAME, Suit.SPADES))


def test_the_bidding_no_bid_twice_cards_thrown_in() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    for _ in range(2):
        for seat in Seat.E.clockwise():
            bidding.bid(Bid(seat, Call.PASS))
    assert bidding.passed_out


def test_the_bidding_dealers_partner_with_turn_up_suit_is_automatically_alone() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    bidding.bid(Bid(Seat.E, Call.PASS))
    contract = bidding.bid(Bid(Seat.S, Call.ORDER)).contract
    assert contract is not None and contract.alone and contract.sitting_out is Seat.N


def test_the_bidding_dealers_partner_naming_in_round_two_is_not_forced_alone() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    for seat in [*Seat.E.clockwise(), Seat.E]:
        bidding.bid(Bid(seat, Call.PASS))
    contract = bidding.bid(Bid(Seat.S, Call.NAME, Suit.CLUBS)).contract
    assert contract is not None and not contract.alone


def test_reneging_two_points_to_opponents(made_by_w: dict[str, Any], score: Any) -> None:
    made_by_w["tricks"][0][1] = "S:9D"
    made_by_w["tricks"][1][1] = "S:9S"
    result = score(made_by_w, "general")
    assert result["outcome"] == "renege" and result["points"] == {"NS": 0, "EW": 2}
    assert "penalty_options" not in result


def test_reneging_four_if_the_other_team_was_alone() -> None:
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=True) == 4
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=False) == 2


def test_the_scoring_march_two_lone_march_four() -> None:
    table = PROFILE.hand_points
    assert (table.made, table.march, table.lone_made, table.lone_march, table.euchred) == (
        1,
        2,
        1,
        4,
        2,
    )


def test_the_game_to_ten_points() -> None:
    assert PROFILE.points_to_win == 10 and PROFILE.game_minutes is None


def test_bid_out_of_turn_silent_read_as_alberta55_a_turn_down_out_of_turn_bars_the_side() -> None:
    """The book is silent; read as the Hoyle rule alberta55 prints: "a declaration (or
    turn-down) other than a pass, out of turn" is void and the side may not make trump."""
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    made = bidding.bid(Bid(Seat.N, Call.PASS))  # E's turn: N, the dealer, turns it down
    assert made.irregularity is not None and made.irregularity.ruling.value == "void_side_barred"
    assert bidding.barred_teams == {"NS"} and bidding.turn is Seat.E
