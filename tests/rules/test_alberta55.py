"""alberta55: alberta55.txt and its booklet, clause by clause (section numbers of the book)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.bidding import Auction, Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.game import game_tally
from kiosk.rules.profiles import get_profile
from kiosk.rules.record import HandRecord, HandRecordError
from kiosk.rules.scoring import score_hand
from kiosk.rules.standings import parse_games, standings_json, team_records

PROFILE = get_profile("alberta55")
FIXTURES = Path(__file__).parent / "fixtures"


def auction(dealer_hand: str | None = None) -> Auction:
    hand = None if dealer_hand is None else [Card.parse(t) for t in dealer_hand.split()]
    return Auction(PROFILE, Seat.N, Card.parse("9H"), hand)


def test_s4_making_trump_dealer_needs_a_natural_card_to_pick_up() -> None:
    bidding = auction("TS 9C KC JD AS")  # JD would be the left bower, but is not natural
    for seat in (Seat.E, Seat.S, Seat.W):
        bidding.bid(Bid(seat, Call.PASS))
    with pytest.raises(IllegalBidError, match="without a natural H"):
        bidding.bid(Bid(Seat.N, Call.ORDER))
    assert auction("TS 9C KC QH AS").can_bid(Bid(Seat.E, Call.PASS))


def test_s4_making_trump_an_opponent_orders_up_with_no_hand_requirement() -> None:
    bidding = auction("TS 9C KC JD AS")
    made = bidding.bid(Bid(Seat.E, Call.ORDER))
    assert made.contract is not None and made.contract.dealer_took_up


def test_s4_making_trump_dealers_partner_who_orders_up_must_play_alone() -> None:
    bidding = auction()
    bidding.bid(Bid(Seat.E, Call.PASS))
    made = bidding.bid(Bid(Seat.S, Call.ORDER, alone=False))
    assert made.contract is not None and made.contract.alone
    assert made.contract.sitting_out is Seat.N


def test_s4_making_trump_no_one_names_trump_the_deal_passes_left() -> None:
    bidding = auction()
    for _round in range(2):
        for seat in Seat.E.clockwise():
            bidding.bid(Bid(seat, Call.PASS))
    assert bidding.passed_out and bidding.contract is None


def test_s6_the_play_opening_lead_skips_a_laid_down_hand(
    made_by_w: dict[str, Any], score: Any
) -> None:
    made_by_w["bids"][2]["alone"] = True
    made_by_w["tricks"] = [["E:AS", "S:9S", "W:KS"]]
    with pytest.raises(HandRecordError, match="E plays, but sits out"):
        score(made_by_w, "alberta55")


def test_s8_scoring_made_march_lone_euchred(made_by_w: dict[str, Any], score: Any) -> None:
    assert score(made_by_w, "alberta55")["points"] == {"NS": 0, "EW": 1}


def test_s9_game_ends_at_ten_or_a_directors_five_or_seven() -> None:
    hands = [{"NS": 2, "EW": 0}, {"NS": 2, "EW": 0}, {"NS": 1, "EW": 0}]
    assert game_tally(hands, PROFILE).winner is None
    assert game_tally(hands, dataclasses.replace(PROFILE, points_to_win=5)).winner == "NS"
    assert game_tally(hands[:2], dataclasses.replace(PROFILE, points_to_win=7)).winner is None


def test_game_courtesies_25_minute_time_limit() -> None:
    assert PROFILE.game_minutes == 25


def test_s11_bidding_naming_the_turned_down_suit_is_void_and_bars_the_side() -> None:
    bidding = auction()
    for seat in Seat.E.clockwise():
        bidding.bid(Bid(seat, Call.PASS))
    made = bidding.bid(Bid(Seat.E, Call.NAME, Suit.HEARTS))
    assert made.contract is None and made.irregularity is not None
    assert bidding.barred_teams == {"EW"}
    assert not bidding.can_bid(Bid(Seat.W, Call.NAME, Suit.CLUBS))
    assert bidding.can_bid(Bid(Seat.S, Call.NAME, Suit.CLUBS))


def test_s11_declaration_out_of_turn_is_void_and_bars_the_side() -> None:
    bidding = auction()
    made = bidding.bid(Bid(Seat.W, Call.ORDER))  # E's turn
    assert made.contract is None
    assert made.irregularity is not None and made.irregularity.ruling.value == "void_side_barred"
    assert bidding.turn is Seat.E and bidding.barred_teams == {"EW"}


def test_s11_declaration_out_of_turn_a_pass_is_not_penalized() -> None:
    bidding = auction()
    made = bidding.bid(Bid(Seat.S, Call.PASS))
    assert made.irregularity is not None and made.irregularity.ruling.value == "no_penalty"
    assert bidding.barred_teams == frozenset() and bidding.turn is Seat.E


def test_s11_lead_out_of_turn_the_trick_stands(made_by_w: dict[str, Any], score: Any) -> None:
    made_by_w["tricks"][0] = ["S:9S", "W:KS", "N:TS", "E:AS"]
    result = score(made_by_w, "alberta55")
    assert result["outcome"] == "made" and result["points"] == {"NS": 0, "EW": 1}
    assert result["irregularities"][0]["ruling"] == "trick_stands"


def test_s11_revoke_non_revoking_side_chooses_hand_or_two_points(
    made_by_w: dict[str, Any], score: Any
) -> None:
    made_by_w["tricks"][0][1] = "S:9D"
    made_by_w["tricks"][1][1] = "S:9S"
    result = score(made_by_w, "alberta55")
    assert result["points"] == {"NS": 0, "EW": 1}  # the hand as played
    assert result["penalty_options"] == [
        {"option": "penalty_added", "points": {"NS": 0, "EW": 2}},
        {"option": "penalty_deducted", "points": {"NS": -2, "EW": 0}},
    ]


def test_s11_revoke_penalty_taken_from_the_revoking_side_stops_at_zero() -> None:
    tally = game_tally([{"NS": 1, "EW": 0}, {"NS": -2, "EW": 0}], PROFILE)
    assert tally.points == {"NS": 0, "EW": 0}


def test_s11_revoke_on_a_lone_hand_is_four_points() -> None:
    penalty = PROFILE.renege_penalty
    assert penalty.points_for(alone=True, owed_to_makers=True) == 4
    assert penalty.points_for(alone=False, owed_to_makers=True) == 2


def test_tournament_play_10_two_way_tie_who_beat_who() -> None:
    games = {
        "games": [
            {"teams": ["A", "B"], "points": [10, 4]},
            {"teams": ["B", "C"], "points": [10, 2]},
            {"teams": ["A", "C"], "points": [3, 10]},
            {"teams": ["B", "D"], "points": [10, 0]},
            {"teams": ["A", "D"], "points": [10, 9]},
            {"teams": ["C", "D"], "points": [5, 10]},
        ]
    }
    rows = standings_json(games, "alberta55")["standings"]
    assert [(r["rank"], r["team"], r["tiebreak"]) for r in rows[:2]] == [
        (1, "A", "head-to-head"),
        (2, "B", "head-to-head"),
    ]


def test_s11_declaration_out_of_turn_a_turn_down_out_of_turn_is_void_and_bars_the_side() -> None:
    """The rule covers "a declaration (or turn-down) other than a pass, out of turn": the
    dealer turning the turn-up down before the others have spoken is void, and the dealer's
    side is barred."""
    bidding = auction()
    made = bidding.bid(Bid(Seat.N, Call.PASS))  # E's turn: N, the dealer, turns it down
    assert made.irregularity is not None and made.irregularity.ruling.value == "void_side_barred"
    assert bidding.barred_teams == {"NS"} and bidding.turn is Seat.E and bidding.round == 1
    assert not bidding.can_bid(Bid(Seat.S, Call.ORDER))


def test_s11_declaration_out_of_turn_the_dealers_round_two_pass_is_only_a_pass() -> None:
    bidding = auction()
    for seat in Seat.E.clockwise():
        bidding.bid(Bid(seat, Call.PASS))
    made = bidding.bid(Bid(Seat.N, Call.PASS))  # round two, E's turn: a pass, not a turn-down
    assert made.irregularity is not None and made.irregularity.ruling.value == "no_penalty"
    assert bidding.barred_teams == frozenset()


def test_tournament_play_7_a_win_is_recorded_as_ten_the_loser_its_actual_points() -> None:
    """Tournament play 7, "10 or whatever number set by the director for a win, loser actual
    points": a lone march from 9 to 13 is still 10 on the Master Score Card, so it cannot
    win a total-points tie-break against a win at exactly 10.  A game won on time keeps the
    points scored."""
    games = {
        "games": [
            {"teams": ["A", "C"], "points": [13, 5]},
            {"teams": ["B", "D"], "points": [10, 6]},
        ]
    }
    rows = standings_json(games, "alberta55")["standings"]
    assert [
        (r["rank"], r["team"], r["points_for"], r["points_against"], r["tiebreak"]) for r in rows
    ] == [
        (1, "A", 10, 5, "coin flip and play-off"),
        (1, "B", 10, 6, "coin flip and play-off"),
        (3, "D", 6, 10, "points"),
        (4, "C", 5, 10, "points"),
    ]
    on_time = parse_games({"games": [{"teams": ["A", "B"], "points": [6, 5]}]})
    assert team_records(on_time, PROFILE.standings)["A"].points_for == 6
    seven = dataclasses.replace(PROFILE.standings, winner_points_cap=7)
    records = team_records(parse_games(games), seven)
    assert records["A"].points_for == 7 and records["C"].points_against == 7


def test_s4_making_trump_no_natural_card_shown_by_the_discard_and_the_dealers_plays() -> None:
    """With the dealt hands unseen, the discard and the dealer's four other cards played are
    the dealer's hand as dealt: if none is of the turn-up's suit, the take-up was not allowed."""
    fixture = json.loads((FIXTURES / "10-dealer-takes-up-without-natural-trump.json").read_text())
    record = fixture["record"]
    del record["hands"]  # the discard TC and S's plays 9S KD TD 9D show S held no heart
    with pytest.raises(HandRecordError, match=r"S \(dealer\) took up 9H without a natural H"):
        score_hand(HandRecord.from_json(record), PROFILE)
    record["discard"] = "TH"  # ... a heart discarded is a natural card: allowed
    record["tricks"][2][2] = "W:TC"
    assert score_hand(HandRecord.from_json(record), PROFILE).outcome.value == "euchred"
    del record["tricks"][4]  # S's last card unseen: nothing shows S had no heart
    record["discard"] = "TC"
    record["tricks"][2][2] = "W:TH"
    record["tricks"][3] = record["tricks"][3][:3]
    with pytest.raises(HandRecordError, match="play stops after 3 tricks"):
        score_hand(HandRecord.from_json(record), PROFILE)
