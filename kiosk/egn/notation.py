"""EGN's small vocabulary: cards like ``Jd``, seats 0 to 3, calls like ``Order``.

EGN seats 0, 1, 2, 3 are this project's N, E, S, W (CONTRACTS.md); team 0 is N-S.
EGN writes a card rank first in capitals and the suit in lower case (``Tc``, ``9h``),
and allows ``N`` for a nine, ``R`` and ``L`` for the bowers and ``X`` or the generic
suits ``t n g h`` for cards unknown; the kiosk replays only known cards, so those
last are refused with the reason.

>>> parse_card("Nh", "$.x"), card_token(Card.parse("TC"))
(Card.parse('9H'), 'Tc')
>>> parse_card("L", "$.x", trump=Suit.SPADES)
Card.parse('JC')
>>> parse_card("Xx", "$.deals[0]")
Traceback (most recent call last):
...
kiosk.egn.notation.EgnError: $.deals[0]: 'Xx' is an unknown card (the kiosk replays known ones)
"""

from __future__ import annotations

from kiosk.rules.cards import Card, CardParseError, Rank, Seat, Suit


class EgnError(ValueError):
    """EGN the kiosk cannot read, or a game it cannot write; the message is one line that
    names the place (a JSON path like ``$.deals[3].phases[1].tricks[2][0]``) and the
    problem."""


#: EGN's seat numbers, in order: 0 is North, then clockwise.
SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)

#: The call in round one that makes the turn-up's suit trump.
ORDER = "Order"
PASS = "Pass"
#: Calls the schema allows that the kiosk cannot replay, and why.
UNPLAYABLE_CALLS = {
    "n": "no trump (allow_no_trump) is not a rule the kiosk's engine plays",
    "x": "an unknown call cannot be replayed",
}


def seat_of(index: int) -> Seat:
    """The seat for an EGN seat number (0 to 3)."""
    return SEATS[index]


def seat_number(seat: Seat) -> int:
    """The EGN seat number of a seat.

    >>> seat_number(Seat.W)
    3
    """
    return SEATS.index(seat)


def parse_card(token: object, where: str, trump: Suit | None = None) -> Card:
    """Read an EGN card; ``R`` and ``L`` need the trump suit.  An `EgnError` names `where`."""
    if not isinstance(token, str):
        raise EgnError(f"{where}: a card is a string like 'Jd', not {token!r}")
    if token in ("R", "L"):
        if trump is None:
            raise EgnError(f"{where}: {token!r} (a bower) is only a card once trump is made")
        return Card(Rank.JACK, trump if token == "R" else trump.same_colour)
    if token == "B":
        raise EgnError(f"{where}: 'B' is the joker, and the kiosk's pack has none (joker)")
    if len(token) != 2 or "X" in token.upper() or token[1] in "tngTNG":
        raise EgnError(f"{where}: {token!r} is an unknown card (the kiosk replays known ones)")
    rank = "9" if token[0] == "N" else token[0]
    try:
        card = Card.parse(rank + token[1])
    except CardParseError:
        raise EgnError(f"{where}: {token!r} is not an EGN card (like 'Jd' or 'Tc')") from None
    if not card.is_euchre:
        raise EgnError(f"{where}: {token!r} is below the 9 (min_rank): the kiosk plays 9 up")
    return card


def card_token(card: Card) -> str:
    """A card as EGN writes it: rank, then the suit in lower case."""
    return f"{card.rank.value}{card.suit.value.lower()}"


def suit_call(suit: Suit) -> str:
    """The round-two call naming a suit.

    >>> suit_call(Suit.CLUBS)
    'c'
    """
    return suit.value.lower()
