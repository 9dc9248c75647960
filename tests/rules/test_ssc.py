"""ssc: ssc.txt, clause by clause (the book's headings and bullets)."""

from __future__ import annotations

from typing import Any

from kiosk.rules.bidding import Auction, Bid, Call
from kiosk.rules.cards import Card, Seat
from kiosk.rules.profiles import get_profile
from kiosk.rules.standings import standings_json

PROFILE = get_profile("ssc")


def test_getting_started_games_are_25_minutes() -> None:
    assert PROFILE.game_minutes == 25


def test_scoring_alone_march_4_euchre_of_a_loner_2() -> None:
    assert PROFILE.hand_points.lone_march == 4 and PROFILE.hand_points.lone_euchred == 2


def test_bidding_dealers_partner_pick_it_up_must_go_alone() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    bidding.bid(Bid(Seat.E, Call.PASS))
    contract = bidding.bid(Bid(Seat.S, Call.ORDER)).contract
    assert contract is not None and contract.alone


def test_bidding_no_natural_trump_needed_to_pick_up() -> None:
    hand = [Card.parse(t) for t in ["TS", "9C", "KC", "JD", "AS"]]
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"), hand)
    for seat in (Seat.E, Seat.S, Seat.W):
        bidding.bid(Bid(seat, Call.PASS))
    assert bidding.can_bid(Bid(Seat.N, Call.ORDER))


def test_irregularities_renege_loss_of_bid_and_two_points(
    made_by_w: dict[str, Any], score: Any
) -> None:
    made_by_w["tricks"][0][2] = "W:AC"  # a maker fails to follow spades ...
    made_by_w["tricks"][4][0] = "W:KS"  # ... and shows a spade in trick 5
    result = score(made_by_w, "ssc")
    assert result["reneges"] == [{"seat": "W", "trick": 1, "proven_at": 5}]
    assert result["outcome"] == "renege" and result["points"] == {"NS": 2, "EW": 0}


def test_irregularities_renege_against_a_loner_loner_side_scores_four() -> None:
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=True) == 4


def test_irregularities_renege_by_the_declaring_team_on_a_loner_gives_two() -> None:
    assert PROFILE.renege_penalty.points_for(alone=True, owed_to_makers=False) == 2


def test_irregularities_bid_out_of_turn_loss_of_bid_and_two_points(score: Any) -> None:
    record = {
        "dealer": "N",
        "turn_up": "9H",
        "tricks": [],
        "bids": [{"seat": "S", "call": "order", "alone": False}],
    }
    result = score(record, "ssc")
    assert result["outcome"] == "bid_out_of_turn" and result["points"] == {"NS": 0, "EW": 2}


def test_irregularities_bid_out_of_turn_may_be_voided_by_the_non_offenders() -> None:
    bidding = Auction(PROFILE, Seat.N, Card.parse("9H"))
    bidding.bid(Bid(Seat.S, Call.ORDER))
    assert bidding.pending_penalty is not None
    bidding.bid(Bid(Seat.E, Call.ORDER, alone=True))
    assert bidding.pending_penalty is None
    assert bidding.contract is not None and bidding.contract.maker is Seat.E


def test_irregularities_lead_out_of_turn_two_points(made_by_w: dict[str, Any], score: Any) -> None:
    made_by_w["tricks"][0] = ["S:9S", "W:KS", "N:TS", "E:AS"]
    result = score(made_by_w, "ssc")
    assert result["outcome"] == "lead_out_of_turn" and result["points"] == {"NS": 0, "EW": 2}


def test_round_robin_win_2_tie_1_loss_0_then_head_to_head() -> None:
    games = {
        "games": [
            {"teams": ["A", "B"], "points": [6, 6]},  # a tie on time
            {"teams": ["A", "C"], "points": [10, 3]},
            {"teams": ["B", "C"], "points": [10, 9]},
            {"teams": ["C", "D"], "points": [10, 2]},
            {"teams": ["A", "D"], "points": [2, 10]},
            {"teams": ["B", "D"], "points": [4, 10]},
        ]
    }
    rows = standings_json(games, "ssc")["standings"]
    # D: W2 L1 = 4; A: W1 T1 L1 = 3; B: W1 T1 L1 = 3; C: W1 L2 = 2.
    # A and B met but tied, so head-to-head leaves them level; points for: B 20, A 18.
    assert [(r["rank"], r["team"], r["tiebreak"]) for r in rows] == [
        (1, "D", None),
        (2, "B", "points"),
        (3, "A", "points"),
        (4, "C", None),
    ]
    assert [r["ties"] for r in rows] == [0, 1, 1, 0]


def test_round_robin_more_than_two_tied_and_not_all_met_use_points_for() -> None:
    games = {
        "games": [
            {"teams": ["A", "B"], "points": [10, 5]},
            {"teams": ["B", "C"], "points": [10, 6]},
            {"teams": ["C", "D"], "points": [10, 7]},
            {"teams": ["D", "A"], "points": [10, 8]},
        ]
    }
    rows = standings_json(games, "ssc")["standings"]
    # all four are 1-1; A-C and B-D never met, so points for decide
    assert [(r["team"], r["points_for"], r["tiebreak"]) for r in rows] == [
        ("A", 18, "points"),
        ("D", 17, "points"),
        ("C", 16, "points"),
        ("B", 15, "points"),
    ]


def test_round_robin_three_tied_who_all_met_go_by_head_to_head() -> None:
    games = {
        "games": [
            {"teams": ["A", "B"], "points": [10, 9]},
            {"teams": ["B", "C"], "points": [10, 9]},
            {"teams": ["C", "A"], "points": [10, 1]},
            {"teams": ["A", "D"], "points": [10, 0]},
            {"teams": ["B", "D"], "points": [10, 0]},
            {"teams": ["C", "D"], "points": [0, 10]},
        ]
    }
    rows = standings_json(games, "ssc")["standings"]
    # A, B: W2 L1 = 4 each; C: W1 L2 = 2; D: W1 L2 = 2.
    # A beat B; C and D met, D won.
    assert [(r["rank"], r["team"], r["tiebreak"]) for r in rows] == [
        (1, "A", "head-to-head"),
        (2, "B", "head-to-head"),
        (3, "D", "head-to-head"),
        (4, "C", "head-to-head"),
    ]
