"""Making trump: the two rounds of bidding as a state machine.

Round one, from the dealer's left: each player passes or orders the dealer to
take up the turn-up (the dealer's own "order" is taking it up).  If all four
pass, the turn-up is turned down and round two begins: each player passes or
names any other suit.  If all four pass again the hand is passed out (a new
deal), unless the profile sticks the dealer, who must then name a suit.

Legality comes in layers (see STYLE.md): `verify_bid` raises
`IllegalBidError` for a bid that cannot happen under the profile, `can_bid`
says the same as a bool, and `bid` makes the bid and returns a frozen
`BidMade` appended to the log.  A bid *out of turn* is not illegal: the rule
books penalize it, so it is accepted and carries an `Irregularity`.

>>> from kiosk.rules.profiles import get_profile
>>> auction = Auction(get_profile("tournament"), dealer=Seat.N, turn_up=Card.parse("9H"))
>>> for seat in "ESWN":
...     _ = auction.bid(Bid(Seat(seat), Call.PASS))
>>> auction.round, auction.turn
(2, <Seat.E: 'E'>)
>>> for seat in "ESW":
...     _ = auction.bid(Bid(Seat(seat), Call.PASS))
>>> auction.can_bid(Bid(Seat.N, Call.PASS))    # stick the dealer
False
>>> auction.bid(Bid(Seat.N, Call.NAME, Suit.SPADES)).contract
Contract(trump=<Suit.SPADES: 'S'>, maker=<Seat.N: 'N'>, alone=False, dealer_took_up=False)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.irregularities import Irregularity, IrregularityKind, Ruling
from kiosk.rules.profiles import OutOfTurnBidRuling, RuleProfile


class BidFault(enum.Enum):
    """Why a bid cannot be made: what an `IllegalBidError` is about."""

    MALFORMED = "malformed"  #: a bid that is no bid (a suit without 'name', ...)
    BIDDING_OVER = "bidding_over"  #: the bidding is over (``passed_out`` or trump made)
    NAME_IN_ROUND_ONE = "name_in_round_one"
    ORDER_IN_ROUND_TWO = "order_in_round_two"
    SIDE_BARRED = "side_barred"  #: the side made a void call
    STICK_THE_DEALER = "stick_the_dealer"  #: the dealer may not pass in round two
    TURNED_DOWN_SUIT = "turned_down_suit"  #: ``suit`` was turned down
    #: the dealer takes up ``card`` without a natural trump (of ``suit``)
    NO_NATURAL_TRUMP = "no_natural_trump"


class IllegalBidError(ValueError):
    """A bid that cannot be made under the profile (not merely out of turn).

    It carries its facts, as `IllegalPlayError` does: `fault` (:class:`BidFault`), the
    `seats` it names, and the `suit`, `card` or `passed_out` its fault is about. Words
    for a screen come from these, not from the message.
    """

    def __init__(self, message: str, *seats: Seat, fault: BidFault = BidFault.MALFORMED,
                 suit: Suit | None = None, card: Card | None = None,
                 passed_out: bool = False) -> None:
        super().__init__(message)
        self.seats: tuple[Seat, ...] = seats
        self.fault = fault
        self.suit = suit
        self.card = card
        self.passed_out = passed_out


class Call(enum.Enum):
    """What a player says: pass, order up the turn-up (round one), or name a suit (round two)."""

    PASS = "pass"
    ORDER = "order"
    NAME = "name"


@dataclass(frozen=True)
class Bid:
    """One spoken bid.  `suit` only with `NAME`; `alone` only on a bid that makes trump.

    >>> Bid(Seat.W, Call.NAME, Suit.CLUBS, alone=True).to_json()
    {'seat': 'W', 'call': 'name', 'suit': 'C', 'alone': True}
    """

    seat: Seat
    call: Call
    suit: Suit | None = None
    alone: bool = False

    def __post_init__(self) -> None:
        if (self.call is Call.NAME) != (self.suit is not None):
            raise IllegalBidError(
                "naming trump needs a suit"
                if self.call is Call.NAME
                else f"a suit goes only with 'name', not {self.call.value!r}"
            )
        if self.call is Call.PASS and self.alone:
            raise IllegalBidError("a pass cannot be alone")

    def to_json(self) -> dict[str, Any]:
        """The CONTRACTS form of a bid."""
        out: dict[str, Any] = {"seat": self.seat.value, "call": self.call.value}
        if self.suit is not None:
            out["suit"] = self.suit.value
        if self.call is not Call.PASS:
            out["alone"] = self.alone
        return out


@dataclass(frozen=True)
class Contract:
    """The outcome of bidding: trump, who made it, and whether alone."""

    trump: Suit
    maker: Seat
    alone: bool
    #: round one: the dealer took up the turn-up (and discards)
    dealer_took_up: bool

    @property
    def makers(self) -> str:
        """The partnership that made trump."""
        return self.maker.team

    @property
    def sitting_out(self) -> Seat | None:
        """The lone player's partner, whose hand is laid down."""
        return self.maker.partner if self.alone else None


@dataclass(frozen=True)
class BidMade:
    """One entry of the auction's log: the bid, its 1-based place, and what it did."""

    bid: Bid
    index: int
    irregularity: Irregularity | None = None
    contract: Contract | None = None


class Auction:
    """The bidding of one hand, fed one spoken bid at a time."""

    def __init__(
        self,
        profile: RuleProfile,
        dealer: Seat,
        turn_up: Card,
        dealer_hand: Iterable[Card] | None = None,
    ) -> None:
        self.profile = profile
        self.dealer = dealer
        self.turn_up = turn_up
        #: the dealer's five cards as dealt, when known (to check a natural trump)
        self.dealer_hand = None if dealer_hand is None else tuple(dealer_hand)
        self.round = 1
        self._turn: Seat | None = dealer.left
        self._log: list[BidMade] = []
        self._barred: set[str] = set()
        self._pending_penalty: Irregularity | None = None
        self.contract: Contract | None = None
        self.passed_out = False

    # --- state -----------------------------------------------------------
    @property
    def turn(self) -> Seat | None:
        """Who bids next; None once bidding is over."""
        return None if self.is_over else self._turn

    @property
    def is_over(self) -> bool:
        """Trump is made, or the hand is passed out (a pending penalty is not the end:
        the non-offending side may still void the bid by bidding on)."""
        return self.contract is not None or self.passed_out

    @property
    def log(self) -> tuple[BidMade, ...]:
        """Every bid spoken, in order, with its effect."""
        return tuple(self._log)

    @property
    def irregularities(self) -> list[Irregularity]:
        """The bidding's irregularities, in order."""
        return [made.irregularity for made in self._log if made.irregularity is not None]

    @property
    def pending_penalty(self) -> Irregularity | None:
        """A penalized bid out of turn that nobody has voided (yet): it ends the hand."""
        return self._pending_penalty

    @property
    def barred_teams(self) -> frozenset[str]:
        """Partnerships that may no longer make trump (a void declaration)."""
        return frozenset(self._barred)

    # --- legality ----------------------------------------------------------
    def verify_bid(self, bid: Bid) -> None:
        """Raise `IllegalBidError` if `bid` cannot be made now; out of turn is allowed."""
        if self.is_over:
            raise IllegalBidError(
                f"bidding is over ({'passed out' if self.passed_out else 'trump is made'}),"
                f" {bid.seat} cannot bid",
                bid.seat, fault=BidFault.BIDDING_OVER, passed_out=self.passed_out,
            )
        if self.round == 1 and bid.call is Call.NAME:
            raise IllegalBidError(
                f"{bid.seat} names a suit in round one (round one is 'pass' or 'order')",
                bid.seat, fault=BidFault.NAME_IN_ROUND_ONE,
            )
        if self.round == 2 and bid.call is Call.ORDER:
            raise IllegalBidError(
                f"{bid.seat} orders up in round two, after the turn-up was turned down",
                bid.seat, fault=BidFault.ORDER_IN_ROUND_TWO,
            )
        if bid.call is not Call.PASS and bid.seat.team in self._barred:
            raise IllegalBidError(
                f"{bid.seat}'s side may not make trump after its void declaration",
                bid.seat, fault=BidFault.SIDE_BARRED,
            )
        if bid.seat is not self._turn:
            return  # out of turn: accepted, and ruled on by `bid`
        if bid.call is Call.PASS:
            if self.round == 2 and bid.seat is self.dealer and self.profile.stick_the_dealer:
                raise IllegalBidError(
                    f"stick the dealer: {bid.seat} (dealer) must name trump, not pass",
                    bid.seat, fault=BidFault.STICK_THE_DEALER,
                )
            return
        if (
            bid.call is Call.NAME
            and bid.suit is self.turn_up.suit
            and not self.profile.turned_down_suit_bars_side
        ):
            raise IllegalBidError(
                f"{bid.seat} names {bid.suit}, the turned-down suit, which cannot be trump",
                bid.seat, fault=BidFault.TURNED_DOWN_SUIT, suit=bid.suit,
            )
        if (
            bid.call is Call.ORDER
            and bid.seat is self.dealer
            and self.profile.dealer_needs_natural_trump
            and self.dealer_hand is not None
            and not any(card.suit is self.turn_up.suit for card in self.dealer_hand)
        ):
            raise IllegalBidError(
                f"{bid.seat} (dealer) takes up {self.turn_up} without a natural "
                f"{self.turn_up.suit}",
                bid.seat, fault=BidFault.NO_NATURAL_TRUMP, card=self.turn_up,
                suit=self.turn_up.suit,
            )

    def can_bid(self, bid: Bid) -> bool:
        """Whether `bid` may be made now (out of turn counts as possible, and penalized)."""
        try:
            self.verify_bid(bid)
        except IllegalBidError:
            return False
        return True

    # --- doing it ------------------------------------------------------------
    def bid(self, bid: Bid) -> BidMade:
        """Make `bid`: advance the turn, make trump, or record an irregularity."""
        self.verify_bid(bid)
        if self._pending_penalty is not None:
            # bidding goes on: the non-offending side chose to void the bid
            self._void_pending_penalty()
        index = len(self._log) + 1
        if bid.seat is not self._turn:
            made = BidMade(bid, index, self._out_of_turn(bid, index))
        elif bid.call is Call.NAME and bid.suit is self.turn_up.suit:
            self._barred.add(bid.seat.team)
            made = BidMade(
                bid,
                index,
                Irregularity(
                    IrregularityKind.TURNED_DOWN_SUIT_NAMED,
                    bid.seat,
                    Ruling.VOID_SIDE_BARRED,
                    bid=index,
                ),
            )
            self._advance()
        elif bid.call is Call.PASS:
            made = BidMade(bid, index)
            self._advance()
        else:
            made = BidMade(bid, index, contract=self._contract_for(bid))
            self.contract = made.contract
        self._log.append(made)
        return made

    def _out_of_turn(self, bid: Bid, index: int) -> Irregularity:
        turn_down = self.round == 1 and bid.seat is self.dealer
        if bid.call is Call.PASS and not (
            self.profile.pass_out_of_turn_is_bid
            or (turn_down and self.profile.turn_down_out_of_turn_is_bid)
        ):
            ruling = Ruling.NO_PENALTY
        elif self.profile.bid_out_of_turn is OutOfTurnBidRuling.PENALTY:
            ruling = Ruling.PENALTY
        else:
            ruling = Ruling.VOID_SIDE_BARRED
            self._barred.add(bid.seat.team)
        irregularity = Irregularity(IrregularityKind.BID_OUT_OF_TURN, bid.seat, ruling, bid=index)
        if ruling is Ruling.PENALTY:
            self._pending_penalty = irregularity
        return irregularity

    def _void_pending_penalty(self) -> None:
        pending = self._pending_penalty
        assert pending is not None and pending.bid is not None
        entry = self._log[pending.bid - 1]
        voided = Irregularity(
            pending.kind, pending.seat, Ruling.VOIDED_BY_OPPONENTS, bid=pending.bid
        )
        self._log[pending.bid - 1] = BidMade(entry.bid, entry.index, voided)
        self._pending_penalty = None

    def _advance(self) -> None:
        assert self._turn is not None
        if self._turn is not self.dealer:
            self._turn = self._turn.left
        elif self.round == 1:
            self.round = 2
            self._turn = self.dealer.left
        else:
            self.passed_out = True
            self._turn = None

    def _contract_for(self, bid: Bid) -> Contract:
        if bid.call is Call.ORDER:
            forced = (
                bid.seat is self.dealer.partner and self.profile.dealer_partner_order_forces_alone
            )
            return Contract(self.turn_up.suit, bid.seat, bid.alone or forced, True)
        assert bid.suit is not None
        return Contract(bid.suit, bid.seat, bid.alone, False)
