"""Effective suit, trick ranking, the winner of a trick, and legal plays.

Every rule book ranks trumps the same way: the right bower (jack of trumps),
the left bower (the other jack of the same colour), then A K Q T 9.  The left
bower *is* a trump for every purpose once trump is made, so following suit and
winning tricks are both decided by a card's *effective* suit, never its
printed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kiosk.rules.cards import Card, Rank, Seat, Suit


def is_right_bower(card: Card, trump: Suit) -> bool:
    """The jack of the trump suit."""
    return card.rank is Rank.JACK and card.suit is trump


def is_left_bower(card: Card, trump: Suit) -> bool:
    """The jack of the other suit of trump's colour.

    >>> is_left_bower(Card.parse("JD"), Suit.HEARTS)
    True
    """
    return card.rank is Rank.JACK and card.suit is trump.same_colour


def effective_suit(card: Card, trump: Suit) -> Suit:
    """The suit a card counts as once trump is made: the left bower is a trump.

    >>> effective_suit(Card.parse("JD"), Suit.HEARTS)
    <Suit.HEARTS: 'H'>
    >>> effective_suit(Card.parse("JD"), Suit.CLUBS)
    <Suit.DIAMONDS: 'D'>
    """
    return trump if is_left_bower(card, trump) else card.suit


def strength(card: Card, trump: Suit, led: Suit) -> int:
    """How strongly a card competes for a trick led in the effective suit `led`.

    Trumps beat the led suit, which beats everything else (0: cannot win).

    >>> cards = [Card.parse(t) for t in ("JH", "JD", "AH", "9H", "AS", "KD")]
    >>> ranked = sorted(cards, key=lambda c: strength(c, Suit.HEARTS, Suit.SPADES), reverse=True)
    >>> " ".join(str(card) for card in ranked)
    'JH JD AH 9H AS KD'
    """
    if is_right_bower(card, trump):
        return 300
    if is_left_bower(card, trump):
        return 299
    if card.suit is trump:
        return 200 + card.rank.order
    if card.suit is led:
        return 100 + card.rank.order
    return 0


def trick_winner(plays: Sequence[tuple[Seat, Card]], trump: Suit) -> Seat:
    """The seat whose card wins a trick; `plays` are in the order played, lead first.

    >>> plays = [(Seat.E, Card.parse("AS")), (Seat.S, Card.parse("9H")), (Seat.W, Card.parse("KS"))]
    >>> trick_winner(plays, Suit.HEARTS)
    <Seat.S: 'S'>
    >>> trick_winner(plays, Suit.CLUBS)
    <Seat.E: 'E'>
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = effective_suit(plays[0][1], trump)
    seat, _card = max(plays, key=lambda play: strength(play[1], trump, led))
    return seat


def follows(card: Card, led: Suit, trump: Suit) -> bool:
    """Whether a card is of the led (effective) suit."""
    return effective_suit(card, trump) is led


def legal_plays(hand: Iterable[Card], led_card: Card | None, trump: Suit) -> list[Card]:
    """The cards a hand may play: any card on a lead, else the led suit if it has one.

    >>> hand = [Card.parse(t) for t in ("JD", "AD", "KS")]
    >>> legal_plays(hand, Card.parse("9H"), Suit.HEARTS)   # the left bower must follow hearts
    [Card.parse('JD')]
    >>> legal_plays(hand, Card.parse("9D"), Suit.HEARTS)   # ... and cannot follow diamonds
    [Card.parse('AD')]
    >>> legal_plays(hand, Card.parse("9C"), Suit.HEARTS)
    [Card.parse('JD'), Card.parse('AD'), Card.parse('KS')]
    """
    cards = list(hand)
    if led_card is None:
        return cards
    led = effective_suit(led_card, trump)
    following = [card for card in cards if follows(card, led, trump)]
    return following or cards
