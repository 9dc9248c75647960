"""Cards, suits, ranks and seats in the notation of CONTRACTS.md.

The detector names every card it sees, euchre or not, so a `Card` can be any
rank from 2 to ace; `Card.is_euchre` says whether it belongs in a euchre pack.
A face-down card is not a card at all: `parse_token` returns `FaceDown.BACK`
for it, so code that reads the camera can tell "a card I can't read" from
"a card".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal


class CardParseError(ValueError):
    """A card token that is not a card; the message names the token.

    >>> Card.parse("XH")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kiosk.rules.cards.CardParseError: 'XH' is not a card (expected rank 9 T J Q K A or 2-8, ...)
    """

    def __init__(self, token: object, why: str | None = None) -> None:
        self.token = token
        detail = why or "expected rank 9 T J Q K A or 2-8, then suit C D H S"
        super().__init__(f"{token!r} is not a card ({detail})")


class Suit(enum.Enum):
    """The four suits, by their one-letter code."""

    # members are singletons compared by identity, so hash them by identity too:
    # the engine keys dicts and sets by these on every card played
    __hash__ = object.__hash__

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; the left bower is the jack of the same colour."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of this colour (where the left bower comes from).

        >>> Suit.HEARTS.same_colour
        <Suit.DIAMONDS: 'D'>
        """
        return _SAME_COLOUR[self._value_]

    @classmethod
    def parse(cls, token: str) -> Suit:
        """Read a suit letter, either case.

        >>> Suit.parse("h")
        <Suit.HEARTS: 'H'>
        """
        if not isinstance(token, str):
            raise CardParseError(token, "a suit is one of C D H S")
        try:
            return cls(token.strip().upper())
        except ValueError:
            raise CardParseError(token, "a suit is one of C D H S") from None

    def __str__(self) -> str:
        return self.value


_SAME_COLOUR = {
    "C": Suit.SPADES,
    "S": Suit.CLUBS,
    "H": Suit.DIAMONDS,
    "D": Suit.HEARTS,
}


class Rank(enum.Enum):
    """Ranks in their natural order; `T` is the ten.  Only 9 to A are euchre ranks."""

    # members are singletons compared by identity, so hash them by identity too:
    # the engine keys dicts and sets by these on every card played
    __hash__ = object.__hash__

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def order(self) -> int:
        """Position in the natural order, 2 lowest (0) to ace highest (12).

        >>> Rank.ACE.order > Rank.KING.order > Rank.JACK.order > Rank.TEN.order
        True
        """
        return _RANK_ORDER[self]

    def __str__(self) -> str:
        return self.value


_RANK_ORDER = {rank: index for index, rank in enumerate(Rank)}
_RANK_WORDS = dict(zip(Rank, ("two", "three", "four", "five", "six", "seven", "eight",
                              "nine", "ten", "jack", "queen", "king", "ace"), strict=True))


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card.

    >>> card = Card.parse("jh")
    >>> card, str(card), card.is_euchre
    (Card.parse('JH'), 'JH', True)
    >>> Card.parse("10d") == Card(Rank.TEN, Suit.DIAMONDS)
    True
    >>> Card.parse("5H").is_euchre
    False
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read `JH`, `jh`, `10H` or `TH`; raise `CardParseError` naming a bad token."""
        if not isinstance(token, str):
            raise CardParseError(token, "a card is written like JH or 10D")
        text = token.strip().upper()
        if len(text) == 3 and text.startswith("10"):
            text = "T" + text[2]
        card = _BY_NAME.get(text)
        if card is None:
            raise CardParseError(token)
        return card

    @property
    def is_euchre(self) -> bool:
        """True for the 24 cards of a euchre pack (9 to ace)."""
        return self.rank.order >= Rank.NINE.order

    @property
    def words(self) -> str:
        """The card in plain words, for sentences a player reads.

        >>> Card.parse("TH").words, Card.parse("6d").words
        ('ten of hearts', 'six of diamonds')
        """
        return f"{_RANK_WORDS[self.rank]} of {self.suit.name.lower()}"

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_BY_NAME: dict[str, Card] = {
    f"{rank.value}{suit.value}": Card(rank, suit) for rank in Rank for suit in Suit
}

#: The 24 cards of a euchre pack, clubs first.
EUCHRE_DECK: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in Suit for rank in Rank if Card(rank, suit).is_euchre
)

#: Their names as the detector and the camera's events write them (``JH``, ``TC``).
EUCHRE_NAMES: frozenset[str] = frozenset(str(card) for card in EUCHRE_DECK)


class FaceDown(enum.Enum):
    """A card seen face down (`back`): present, but not readable."""

    BACK = "back"

    def __str__(self) -> str:
        return self.value


def parse_token(token: str) -> Card | Literal[FaceDown.BACK]:
    """Read one detector or record token: a card, or `back` for a face-down card.

    >>> parse_token("AS")
    Card.parse('AS')
    >>> parse_token("Back")
    <FaceDown.BACK: 'back'>
    """
    if isinstance(token, str) and token.strip().lower() == FaceDown.BACK.value:
        return FaceDown.BACK
    return Card.parse(token)


class Team(enum.StrEnum):
    """The two partnerships. Equal to their codes, as the journal and the contracts write
    them.

    >>> Team.NS == "NS", Team.EW.other, [str(seat) for seat in Team.EW.seats]
    (True, <Team.NS: 'NS'>, ['E', 'W'])
    """

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Team.NS else (Seat.E, Seat.W)


class Seat(enum.Enum):
    """The four seats, clockwise: N, E, S, W.

    >>> Seat.N.left, Seat.N.partner, Seat.E.team
    (<Seat.E: 'E'>, <Seat.S: 'S'>, <Team.EW: 'EW'>)
    """

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    __hash__ = object.__hash__  # as for Suit: identity, and fast

    @property
    def left(self) -> Seat:
        """The player on this seat's left: the next one clockwise (deal and play go this way)."""
        return _CLOCKWISE[self._value_][1]

    @property
    def partner(self) -> Seat:
        """The player opposite."""
        return _CLOCKWISE[self._value_][2]

    @property
    def team(self) -> Team:
        """The partnership, `NS` or `EW`."""
        return Team.NS if self in (Seat.N, Seat.S) else Team.EW

    @property
    def words(self) -> str:
        """The seat's name, for sentences a player reads (the one table of seat names).

        >>> Seat.S.words
        'South'
        """
        return _SEAT_WORDS[self._value_]

    def clockwise(self) -> tuple[Seat, Seat, Seat, Seat]:
        """This seat and the next three clockwise: the order of a trick it leads.

        >>> [str(seat) for seat in Seat.W.clockwise()]
        ['W', 'N', 'E', 'S']
        """
        return _CLOCKWISE[self._value_]

    @classmethod
    def parse(cls, token: str) -> Seat:
        """Read a seat letter, either case; a bad one raises `ValueError` naming it.

        >>> Seat.parse("w")
        <Seat.W: 'W'>
        """
        if isinstance(token, str):
            try:
                return cls(token.strip().upper())
            except ValueError:
                pass
        raise ValueError(f"{token!r} is not a seat (expected N, E, S or W)")

    def __str__(self) -> str:
        return self.value


_SEATS: tuple[Seat, ...] = tuple(Seat)
_SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
_CLOCKWISE: dict[str, tuple[Seat, Seat, Seat, Seat]] = {
    seat.value: (seat, _SEATS[(i + 1) % 4], _SEATS[(i + 2) % 4], _SEATS[(i + 3) % 4])
    for i, seat in enumerate(_SEATS)
}

#: The two partnerships, in the order results are printed.
TEAMS: tuple[str, str] = ("NS", "EW")


def other_team(team: str) -> str:
    """The opposing partnership.

    >>> other_team("NS")
    'EW'
    """
    return "EW" if team == "NS" else "NS"
