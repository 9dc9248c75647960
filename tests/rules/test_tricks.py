"""Effective suit, trick ranking and legal plays (alberta55 2 CARDS, general THE ORDER OF TRUMP)."""

from __future__ import annotations

from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.tricks import effective_suit, legal_plays, trick_winner


def cards(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


def plays(text: str) -> list[tuple[Seat, Card]]:
    out = []
    for token in text.split():
        seat, card = token.split(":")
        out.append((Seat(seat), Card.parse(card)))
    return out


def test_spades_trump_ranks_js_jc_then_a_k_q_t_9() -> None:
    """alberta55 2 CARDS: 'If spades are trump, the spade J is highest, the club J is second.'"""
    order = cards("JS JC AS KS QS TS 9S")
    for higher, lower in zip(order, order[1:], strict=False):
        trick = [(Seat.N, Card.parse("9D")), (Seat.E, lower), (Seat.S, higher)]
        assert trick_winner(trick, Suit.SPADES) is Seat.S


def test_the_left_bower_belongs_to_trump_not_its_printed_suit() -> None:
    assert effective_suit(Card.parse("JC"), Suit.SPADES) is Suit.SPADES
    assert effective_suit(Card.parse("JC"), Suit.HEARTS) is Suit.CLUBS
    # a diamond lead with hearts trump: JD is not a diamond, so it does not follow
    assert legal_plays(cards("JD 9S"), Card.parse("AD"), Suit.HEARTS) == cards("JD 9S")


def test_non_trump_suit_ranks_a_k_q_j_t_9() -> None:
    """alberta55 2 CARDS: 'In each non-trump suit the ranking is A, K, Q, J, 10 and 9.'"""
    assert trick_winner(plays("N:TD E:JD S:9D W:QD"), Suit.CLUBS) is Seat.W
    assert trick_winner(plays("N:TD E:JD S:9D"), Suit.CLUBS) is Seat.E


def test_highest_card_of_the_suit_led_wins_unless_trumped() -> None:
    """alberta55 6 THE PLAY: 'won by the highest card of the suit led, or ... the highest trump.'"""
    assert trick_winner(plays("N:9C E:AD S:KC W:AS"), Suit.HEARTS) is Seat.S
    assert trick_winner(plays("N:9C E:AD S:KC W:9H"), Suit.HEARTS) is Seat.W


def test_a_lone_hand_trick_has_three_cards() -> None:
    assert trick_winner(plays("S:9S W:KS N:TS"), Suit.HEARTS) is Seat.W


def test_must_follow_suit_if_able_else_anything() -> None:
    """alberta55 6: 'Each hand must follow suit to a lead if able; if unable ... at will.'"""
    hand = cards("AS 9H KC")
    assert legal_plays(hand, Card.parse("QS"), Suit.HEARTS) == cards("AS")
    assert legal_plays(hand, Card.parse("QD"), Suit.HEARTS) == hand
    assert legal_plays(hand, None, Suit.HEARTS) == hand


def test_leading_the_left_bower_calls_for_trump() -> None:
    hand = cards("AH 9D")
    assert legal_plays(hand, Card.parse("JD"), Suit.HEARTS) == cards("AH")
