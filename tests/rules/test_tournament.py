"""tournament: tournament.txt, clause by clause (the book's headings)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.rules.bidding import Auction, Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.profiles import get_profile
from kiosk.rules.progressive import progressive_round
from kiosk.rules.scoring import HandResult, Outcome, false_renege_claim_points

PROFILE = get_profile("tournament")


def passed_round_one() -> Auction:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    for seat in Seat.E.clockwise():
        bidding.bid(Bid(seat, Call.PASS))
    return bidding


def test_bidding_any_player_may_order_up_even_if_void() -> None:
    hand = [Card.parse(t) for t in ["TS", "9C", "KC", "JD", "AS"]]
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"), hand)
    for seat in (Seat.E, Seat.S, Seat.W):
        bidding.bid(Bid(seat, Call.PASS))
    assert bidding.can_bid(Bid(Seat.N, Call.ORDER))


def test_bidding_canadian_loner_dealers_partner_not_required_to_go_alone() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    bidding.bid(Bid(Seat.E, Call.PASS))
    contract = bidding.bid(Bid(Seat.S, Call.ORDER)).contract
    assert contract is not None and not contract.alone


def test_bidding_turned_down_suit_cannot_be_called() -> None:
    bidding = passed_round_one()
    with pytest.raises(IllegalBidError, match="turned-down suit"):
        bidding.verify_bid(Bid(Seat.E, Call.NAME, Suit.HEARTS))


def test_bidding_stick_the_dealer() -> None:
    bidding = passed_round_one()
    for seat in (Seat.E, Seat.S, Seat.W):
        bidding.bid(Bid(seat, Call.PASS))
    assert bidding.turn is Seat.N
    assert not bidding.can_bid(Bid(Seat.N, Call.PASS))
    assert not bidding.can_bid(Bid(Seat.N, Call.NAME, Suit.HEARTS))
    assert bidding.bid(Bid(Seat.N, Call.NAME, Suit.DIAMONDS)).contract is not None


def test_scoring_progressive_lone_maker_5_partner_4_eight_hands() -> None:
    seating = {Seat.N: "Nan", Seat.E: "Eve", Seat.S: "Sam", Seat.W: "Wes"}
    lone_march = HandResult(
        Suit.SPADES,
        Seat.W,
        True,
        (Seat.W,) * 5,
        {"NS": 0, "EW": 5},
        {"NS": 0, "EW": 4},
        Outcome.MARCH,
    )
    euchre = HandResult(
        Suit.CLUBS,
        Seat.E,
        False,
        (Seat.N,) * 5,
        {"NS": 5, "EW": 0},
        {"NS": 2, "EW": 0},
        Outcome.EUCHRED,
    )
    totals = progressive_round([(seating, lone_march), (seating, euchre)], PROFILE)
    assert totals == {"Nan": 2, "Eve": 4, "Sam": 2, "Wes": 5}
    with pytest.raises(ValueError, match="8 hands"):
        progressive_round([(seating, euchre)] * 9, PROFILE)


def test_scoring_euchre_of_a_loner_scores_two() -> None:
    assert PROFILE.hand_points.lone_euchred == 2


def test_renege_hand_over_two_points(made_by_w: dict[str, Any], score: Any) -> None:
    made_by_w["tricks"][0][1] = "S:9D"
    made_by_w["tricks"][1][1] = "S:9S"
    made_by_w["tricks"] = made_by_w["tricks"][:2]  # play stops at the proof
    result = score(made_by_w, "tournament")
    assert result["outcome"] == "renege" and result["points"] == {"NS": 0, "EW": 2}


def test_renege_during_a_loner_four_points_whoever_reneged() -> None:
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=False) == 4
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=True) == 4


def test_renege_false_claim_two_points_to_the_accused() -> None:
    assert false_renege_claim_points("NS", PROFILE) == {"NS": 2, "EW": 0}
    with pytest.raises(ValueError):
        false_renege_claim_points("NS", get_profile("ssc"))


def test_bid_out_of_turn_play_stops_two_points(score: Any) -> None:
    record = {
        "dealer": "N",
        "turn_up": "9H",
        "tricks": [],
        "bids": [{"seat": "E", "call": "pass"}, {"seat": "N", "call": "order", "alone": False}],
    }
    result = score(record, "tournament")
    assert result["outcome"] == "bid_out_of_turn" and result["points"] == {"NS": 0, "EW": 2}


def test_lead_out_of_turn_four_points_on_a_lone_call(made_by_w: dict[str, Any], score: Any) -> None:
    made_by_w["bids"][2]["alone"] = True
    made_by_w["tricks"] = [["N:TS", "S:9S", "W:KS"]]  # S should lead: E is laid down
    result = score(made_by_w, "tournament")
    assert result["outcome"] == "lead_out_of_turn" and result["points"] == {"NS": 0, "EW": 4}


def test_the_deal_game_to_ten_no_time_limit_in_the_book() -> None:
    assert PROFILE.points_to_win == 10 and PROFILE.game_minutes is None
