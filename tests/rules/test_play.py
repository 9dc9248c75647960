"""The hand state machine as the table session uses it: card by card."""

from __future__ import annotations

import pytest

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import Card, Seat
from kiosk.rules.play import HandState, IllegalPlayError, InvalidDealError
from kiosk.rules.profiles import get_profile
from kiosk.rules.renege import RenegeProof

DEAL = {
    Seat.N: "TS QH 9C KC KH",
    Seat.E: "AS JH AD QD QC",
    Seat.S: "9S 9D KD TD TC",
    Seat.W: "KS TH AH JD AC",
}


def hand_state(profile: str = "general", *, known: bool = False, alone: bool = False) -> HandState:
    hands = {seat: [Card.parse(t) for t in cards.split()] for seat, cards in DEAL.items()}
    state = HandState(get_profile(profile), Seat.N, Card.parse("9H"), hands if known else None)
    state.bid(Bid(Seat.E, Call.PASS))
    state.bid(Bid(Seat.S, Call.PASS))
    state.bid(Bid(Seat.W, Call.ORDER, alone=alone))
    return state


def play(state: HandState, tokens: str) -> None:
    for token in tokens.split():
        seat, card = token.split(":")
        state.play(Seat(seat), Card.parse(card))


def test_turn_and_leader_follow_the_trick_winner() -> None:
    state = hand_state()
    assert state.leader is Seat.E and state.turn is Seat.E
    play(state, "E:AS S:9S")
    assert state.turn is Seat.W and state.trick_number == 1
    play(state, "W:KS N:TS")
    assert state.trick_number == 2 and state.leader is Seat.E
    play(state, "E:JH S:9D W:TH N:QH E:AD S:KD W:AH N:KC")
    assert state.leader is Seat.W and state.turn is Seat.W


def test_bidding_turn_is_reported_before_play() -> None:
    state = HandState(get_profile("general"), Seat.N, Card.parse("9H"))
    assert state.turn is Seat.E
    with pytest.raises(IllegalPlayError, match="before trump is made"):
        state.verify_play(Seat.E, Card.parse("AS"))


def test_a_failure_to_follow_is_unknown_until_proven() -> None:
    state = hand_state()
    played = state.play(Seat.E, Card.parse("AS"))
    assert played.followed_suit is None and played.known_legal is True
    played = state.play(Seat.S, Card.parse("9D"))
    assert played.followed_suit is False and played.known_legal is None and played.proofs == ()
    play(state, "W:KS N:TS E:JH")
    played = state.play(Seat.S, Card.parse("9S"))
    assert played.proofs == (RenegeProof(Seat.S, 1, 2),)
    assert state.reneges == [RenegeProof(Seat.S, 1, 2)]
    assert state.ended_by == RenegeProof(Seat.S, 1, 2) and state.is_over


def test_with_hands_known_a_renege_is_illegal_at_once() -> None:
    state = hand_state(known=True)
    state.play(Seat.E, Card.parse("AS"))
    played = state.play(Seat.S, Card.parse("9D"))
    assert played.known_legal is False
    assert played.proofs == (RenegeProof(Seat.S, 1, 1),)


def test_with_hands_known_a_void_player_may_discard() -> None:
    state = hand_state(known=True)
    play(state, "E:AS S:9S W:KS N:TS E:JH")
    assert state.play(Seat.S, Card.parse("9D")).known_legal is True


def test_the_dealer_holding_the_turn_up_reneges_visibly() -> None:
    state = hand_state()
    play(state, "E:AS S:9S W:KS N:TS E:JH S:9D W:TH")
    played = state.play(Seat.N, Card.parse("KC"))
    assert played.known_legal is False and played.proofs == (RenegeProof(Seat.N, 2, 2),)


def test_alberta55_play_goes_on_after_a_proven_revoke() -> None:
    state = hand_state("alberta55")
    play(state, "E:AS S:9D W:KS N:TS E:JH S:9S")
    assert state.reneges and state.ended_by is None and not state.is_over


def test_lone_hand_three_players_and_the_partner_cannot_play() -> None:
    state = hand_state(alone=True)
    assert state.active_seats == (Seat.S, Seat.W, Seat.N)
    assert state.turn is Seat.S
    assert not state.can_play(Seat.E, Card.parse("AS"))
    play(state, "S:9S W:KS N:TS")
    assert len(state.tricks) == 1 and state.tricks[0].winner is Seat.W


def test_lead_out_of_turn_is_flagged_not_refused() -> None:
    state = hand_state("ssc")
    played = state.play(Seat.W, Card.parse("AC"))
    assert played.irregularity is not None and played.irregularity.kind.value == "lead_out_of_turn"
    assert state.is_over


@pytest.mark.parametrize(
    ("moves", "card", "message"),
    [
        ("E:AS", "E:QC", "E plays twice in trick 1"),
        ("E:AS", "S:AS", "AS is played twice"),
        ("", "E:5S", "not a euchre card"),
        ("", "E:9C", "the dealer's discard"),
    ],
)
def test_impossible_plays_are_refused(moves: str, card: str, message: str) -> None:
    state = hand_state()
    state.set_discard(Card.parse("9C"))
    play(state, moves)
    seat, text = card.split(":")
    with pytest.raises(IllegalPlayError, match=message):
        state.play(Seat(seat), Card.parse(text))


def test_the_turn_up_belongs_to_the_dealer_once_taken_up() -> None:
    state = hand_state()
    with pytest.raises(IllegalPlayError, match="taken up by N"):
        state.verify_play(Seat.E, Card.parse("9H"))


def test_dealt_hands_are_checked() -> None:
    with pytest.raises(InvalidDealError, match="dealt 4 cards"):
        HandState(get_profile("ssc"), Seat.N, Card.parse("9H"), {Seat.N: [Card.parse("AS")] * 4})
    with pytest.raises(InvalidDealError, match="9H is dealt twice"):
        HandState(
            get_profile("ssc"),
            Seat.N,
            Card.parse("9H"),
            {Seat.N: [Card.parse(t) for t in ["9H", "TS", "QS", "KS", "AS"]]},
        )


def test_after_five_tricks_the_hand_is_over() -> None:
    state = hand_state()
    play(
        state,
        "E:AS S:9S W:KS N:TS E:JH S:9D W:TH N:QH E:AD S:KD W:AH N:KC "
        "W:JD N:KH E:QD S:TD W:AC N:9H E:QC S:TC",
    )
    assert state.play_complete and state.is_over and state.turn is None
    assert state.tricks_won() == {"NS": 1, "EW": 4}
    with pytest.raises(IllegalPlayError, match="after all five tricks"):
        state.verify_play(Seat.W, Card.parse("QS"))


def test_the_dealer_holding_the_turn_up_reneges_visibly_with_the_dealt_hand_known() -> None:
    """RENEGE (tournament): N is dealt no heart but takes up 9H, so N certainly holds a heart
    whatever the unseen discard; a club on the heart lead is proven at once, as when the
    dealt hand is unseen (the turn-up cannot be discarded)."""
    no_heart = [Card.parse(t) for t in ("TS", "9C", "KC", "QS", "AC")]
    state = HandState(get_profile("tournament"), Seat.N, Card.parse("9H"), {Seat.N: no_heart})
    state.bid(Bid(Seat.E, Call.ORDER))
    play(state, "E:JH S:TH W:AH")
    played = state.play(Seat.N, Card.parse("KC"))
    assert played.known_legal is False
    assert state.reneges == [RenegeProof(Seat.N, 1, 1)]
