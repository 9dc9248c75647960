"""One hand from the first bid to the last trick, fed as it happens.

The table session feeds `HandState` the bids players tap and the cards the
camera sees.  For every card it answers the referee's questions at once: is
the play legal as far as can be known, does it prove an earlier renege, is it
an irregularity, whose turn is it now.  Layers as in STYLE.md: `verify_play`
raises `IllegalPlayError` for a card that cannot be played at all (a card
twice, a seat playing twice in a trick, a lone player's partner), `can_play`
is the bool, `play` does it and returns a frozen `Played`.  Reneges and
plays out of turn are not illegal here: they happen at real tables, and the
profile scores them.

A record of everything seen must replay, so cards played after an
irregularity ended the hand are still checked and recorded; `ended_by` says
what settled the hand.

>>> from kiosk.rules.profiles import get_profile
>>> from kiosk.rules.bidding import Bid, Call
>>> hand = HandState(get_profile("general"), dealer=Seat.N, turn_up=Card.parse("9H"))
>>> for seat in "ES":
...     _ = hand.bid(Bid(Seat(seat), Call.PASS))
>>> _ = hand.bid(Bid(Seat.W, Call.ORDER, alone=True))
>>> hand.turn, hand.active_seats          # E sits out, so S (next left) leads
(<Seat.S: 'S'>, (<Seat.S: 'S'>, <Seat.W: 'W'>, <Seat.N: 'N'>))
>>> hand.play(Seat.S, Card.parse("AS")).known_legal
True
>>> hand.can_play(Seat.E, Card.parse("KS"))
False
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kiosk.rules.bidding import Auction, Bid, BidMade, Contract
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.irregularities import Irregularity, IrregularityKind, Ruling
from kiosk.rules.profiles import LoneLead, OutOfTurnLeadRuling, RuleProfile
from kiosk.rules.renege import RenegeProof, RenegeWatch
from kiosk.rules.tricks import effective_suit, trick_winner

TRICKS_PER_HAND = 5


class PlayFault(enum.Enum):
    """Why a card cannot be played at all: what an `IllegalPlayError` is about."""

    PASSED_OUT = "passed_out"  #: no trump was made
    BEFORE_TRUMP = "before_trump"  #: played while the bidding goes on
    AFTER_THE_HAND = "after_the_hand"  #: played after all five tricks
    NOT_EUCHRE = "not_euchre"  #: a card outside the euchre pack
    SITS_OUT = "sits_out"  #: the seat sits out a lone hand (``seats[1]`` plays alone)
    TWICE_IN_TRICK = "twice_in_trick"  #: the seat already played in trick ``trick``
    CARD_TWICE = "card_twice"  #: the card was played by ``seats[0]`` in trick ``trick``
    TURNED_DOWN = "turned_down"  #: the turn-up, turned down in the kitty
    DISCARD = "discard"  #: the dealer's discard
    TAKEN_UP = "taken_up"  #: the turn-up, taken up by ``seats[1]``
    DEALT_TO = "dealt_to"  #: a card dealt to ``seats[1]``
    NOT_IN_HAND = "not_in_hand"  #: not in the seat's known hand
    #: the dealer took up the turn-up ``card`` without a natural trump: dealt ``cards``
    #: and discarded ``discard``
    NO_NATURAL_TRUMP = "no_natural_trump"


class IllegalPlayError(ValueError):
    """A card that cannot be played at all (not merely a renege or out of turn).

    The error carries its facts: `fault` (:class:`PlayFault`), `seats` (the seats it
    names: the one playing first), `card` (the card played), `trick`, and for a dealer's
    take-up without a natural trump the `cards` dealt and the `discard`. Words for a
    player come from these (kiosk.table.referee), never from the message, which is for
    logs.

    >>> error = IllegalPlayError("S plays twice in trick 2", Seat.S,
    ...                          fault=PlayFault.TWICE_IN_TRICK, trick=2)
    >>> error.seats, error.fault, error.trick
    ((<Seat.S: 'S'>,), <PlayFault.TWICE_IN_TRICK: 'twice_in_trick'>, 2)
    """

    def __init__(self, message: str, *seats: Seat, fault: PlayFault | None = None,
                 card: Card | None = None, trick: int | None = None,
                 cards: tuple[Card, ...] = (), discard: Card | None = None) -> None:
        super().__init__(message)
        self.seats: tuple[Seat, ...] = seats
        self.fault = fault
        self.card = card
        self.trick = trick
        self.cards = cards
        self.discard = discard


class InvalidDealError(ValueError):
    """Dealt hands, turn-up or discard that cannot be a euchre deal."""


@dataclass(frozen=True)
class Played:
    """One card played, and the referee's verdict on it."""

    seat: Seat
    card: Card
    #: 1-based trick number, and 0-based place in the trick (0 = the lead)
    trick: int
    position: int
    #: whether the card follows the led suit; None on a lead
    followed_suit: bool | None
    #: True/False when the hands known prove it; None when it cannot be known yet
    known_legal: bool | None
    proofs: tuple[RenegeProof, ...] = ()
    irregularity: Irregularity | None = None


@dataclass(frozen=True)
class Trick:
    """A completed trick: the plays in order, and who took it."""

    number: int
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat


class _Holding:
    """What is known of one player's cards: a pool they hold `size` cards of,
    or at least the cards they certainly hold (the dealer's turn-up)."""

    def __init__(self, pool: Iterable[Card] | None, size: int) -> None:
        self.pool = None if pool is None else set(pool)
        self.size = size
        self.certain: set[Card] = set()

    def certainly_holds(self, suit: Suit, trump: Suit) -> bool:
        if any(effective_suit(card, trump) is suit for card in self.certain):
            return True  # the turn-up taken up, whatever the pool (the discard may be unseen)
        if self.pool is None:
            return False
        in_suit = sum(1 for card in self.pool if effective_suit(card, trump) is suit)
        return in_suit > len(self.pool) - self.size

    def certainly_void(self, suit: Suit, trump: Suit) -> bool:
        return self.pool is not None and not any(
            effective_suit(card, trump) is suit for card in self.pool
        )

    def remove(self, card: Card) -> None:
        if self.pool is not None:
            self.pool.discard(card)
        self.certain.discard(card)
        self.size -= 1


def first_leader(
    dealer: Seat, sitting_out: Seat | None = None, lone_lead: LoneLead = LoneLead.DEALERS_LEFT
) -> Seat:
    """Who leads the first trick: the dealer's left, skipping a lone maker's partner; or,
    where the profile says so, the lone maker's left.

    >>> str(first_leader(Seat.N)), str(first_leader(Seat.N, sitting_out=Seat.E))
    ('E', 'S')
    >>> str(first_leader(Seat.N, sitting_out=Seat.N, lone_lead=LoneLead.LONERS_LEFT))
    'W'
    """
    if sitting_out is not None and lone_lead is LoneLead.LONERS_LEFT:
        return sitting_out.partner.left
    return next(seat for seat in dealer.left.clockwise() if seat is not sitting_out)


class HandState:
    """Bidding then play of one hand, under one profile."""

    def __init__(
        self,
        profile: RuleProfile,
        dealer: Seat,
        turn_up: Card,
        hands: Mapping[Seat, Sequence[Card]] | None = None,
    ) -> None:
        self.profile = profile
        self.dealer = dealer
        self.turn_up = turn_up
        self.hands: dict[Seat, tuple[Card, ...]] = {
            seat: tuple(cards) for seat, cards in (hands or {}).items()
        }
        self._check_deal()
        self.auction = Auction(profile, dealer, turn_up, self.hands.get(dealer))
        self.discard: Card | None = None
        self.tricks: list[Trick] = []
        self.current: list[tuple[Seat, Card]] = []
        self.plays: list[Played] = []
        self._leader: Seat | None = None
        self._watch: RenegeWatch | None = None
        self._holdings: dict[Seat, _Holding] = {}
        self._owner: dict[Card, Seat] = {
            card: seat for seat, cards in self.hands.items() for card in cards
        }
        self._play_irregularities: list[Irregularity] = []
        self._ended_by: Irregularity | RenegeProof | None = None
        self._active: tuple[Seat, ...] | None = None
        self._played: dict[Card, Played] = {}

    def _check_deal(self) -> None:
        if not self.turn_up.is_euchre:
            raise InvalidDealError(f"turn-up {self.turn_up} is not a euchre card")
        seen: dict[Card, str] = {self.turn_up: "the turn-up"}
        for seat, cards in self.hands.items():
            if len(cards) != TRICKS_PER_HAND:
                raise InvalidDealError(f"{seat} is dealt {len(cards)} cards, not {TRICKS_PER_HAND}")
            for card in cards:
                if not card.is_euchre:
                    raise InvalidDealError(f"{seat} is dealt {card}, which is not a euchre card")
                if card in seen:
                    raise InvalidDealError(f"{card} is dealt twice ({seen[card]} and {seat})")
                seen[card] = str(seat)

    # --- bidding (delegated to the auction) ---------------------------------
    def verify_bid(self, bid: Bid) -> None:
        """Raise `IllegalBidError` if `bid` cannot be made now."""
        self.auction.verify_bid(bid)

    def can_bid(self, bid: Bid) -> bool:
        """Whether `bid` may be made now."""
        return self.auction.can_bid(bid)

    def bid(self, bid: Bid) -> BidMade:
        """Make a bid; when it makes trump, play is set up (first leader, known hands)."""
        made = self.auction.bid(bid)
        if made.contract is not None:
            self._start_play(made.contract)
        return made

    @property
    def contract(self) -> Contract | None:
        """Trump, maker and lone hand, once made."""
        return self.auction.contract

    def set_discard(self, card: Card) -> None:
        """Record the dealer's discard after taking up the turn-up (when seen)."""
        contract = self.contract
        if contract is None or not contract.dealer_took_up:
            raise InvalidDealError(f"discard {card} given, but the dealer did not take up")
        if self.discard is not None or self.plays:
            raise InvalidDealError("the discard is set once, before the first lead")
        if not card.is_euchre:
            raise InvalidDealError(f"discard {card} is not a euchre card")
        if card == self.turn_up:
            raise InvalidDealError(f"the dealer discards {card}, the turn-up just taken up")
        dealt = self.hands.get(self.dealer)
        if dealt is not None and card not in dealt:
            raise InvalidDealError(
                f"the dealer discards {card}, which is not in {self.dealer}'s hand"
            )
        if dealt is None and card in self._owner:
            raise InvalidDealError(f"the dealer discards {card}, dealt to {self._owner[card]}")
        self.discard = card
        self._owner[card] = self.dealer
        holding = self._holdings[self.dealer]
        if holding.pool is not None:
            holding.pool.discard(card)

    def _start_play(self, contract: Contract) -> None:
        self._watch = RenegeWatch(contract.trump)
        self._leader = first_leader(self.dealer, contract.sitting_out, self.profile.lone_lead)
        for seat in Seat:
            dealt = self.hands.get(seat)
            holding = _Holding(dealt, TRICKS_PER_HAND)
            if seat is self.dealer and contract.dealer_took_up:
                if holding.pool is not None:
                    holding.pool.add(self.turn_up)
                holding.certain.add(self.turn_up)
            self._holdings[seat] = holding
        if contract.dealer_took_up:
            self._owner[self.turn_up] = self.dealer

    # --- state -----------------------------------------------------------------
    @property
    def active_seats(self) -> tuple[Seat, ...]:
        """The seats that play, clockwise from the dealer's left (three in a lone hand)."""
        if self._active is None:
            contract = self.contract
            out = contract.sitting_out if contract else None
            active = tuple(seat for seat in self.dealer.left.clockwise() if seat is not out)
            if contract is None:
                return active
            self._active = active  # fixed once trump is made
        return self._active

    @property
    def trick_number(self) -> int:
        """The 1-based number of the trick being played (6 once all five are done)."""
        return len(self.tricks) + 1

    @property
    def leader(self) -> Seat | None:
        """Who should lead the current trick (None before trump is made)."""
        return self._leader

    @property
    def turn(self) -> Seat | None:
        """Who bids or plays next; None when bidding failed or all five tricks are played."""
        if not self.auction.is_over:
            return None if self.auction.pending_penalty else self.auction.turn
        if self.contract is None or len(self.tricks) == TRICKS_PER_HAND:
            return None
        if not self.current:
            return self._leader
        played = {seat for seat, _card in self.current}
        # the next seat clockwise from the trick's first card that has not played,
        # so one card followed out of order does not put everyone after it out of turn
        return next(
            seat
            for seat in self.current[0][0].clockwise()
            if seat in self.active_seats and seat not in played
        )

    @property
    def reneges(self) -> list[RenegeProof]:
        """Every proven renege, in the order proven."""
        return [] if self._watch is None else list(self._watch.proofs)

    @property
    def irregularities(self) -> list[Irregularity]:
        """The irregularities of bidding and play, in order."""
        return self.auction.irregularities + self._play_irregularities

    @property
    def ended_by(self) -> Irregularity | RenegeProof | None:
        """The first event that settled the hand under the profile, if any."""
        pending = self.auction.pending_penalty
        return pending if pending is not None else self._ended_by

    @property
    def play_complete(self) -> bool:
        """All five tricks are played."""
        return len(self.tricks) == TRICKS_PER_HAND

    @property
    def is_over(self) -> bool:
        """Nothing more decides the score: passed out, settled, or five tricks played."""
        return self.auction.passed_out or self.ended_by is not None or self.play_complete

    # --- play --------------------------------------------------------------------
    def verify_play(self, seat: Seat, card: Card) -> None:
        """Raise `IllegalPlayError` if `seat` cannot put down `card` now."""
        contract = self.contract
        if contract is None:
            if self.auction.passed_out:
                raise IllegalPlayError("no trump was made: the hand was passed out",
                                       fault=PlayFault.PASSED_OUT)
            raise IllegalPlayError(f"{seat} plays {card} before trump is made", seat,
                                   fault=PlayFault.BEFORE_TRUMP, card=card)
        if self.play_complete:
            raise IllegalPlayError(f"{seat} plays {card} after all five tricks", seat,
                                   fault=PlayFault.AFTER_THE_HAND, card=card)
        if not card.is_euchre:
            raise IllegalPlayError(f"{seat} plays {card}, which is not a euchre card", seat,
                                   fault=PlayFault.NOT_EUCHRE, card=card)
        if seat is contract.sitting_out:
            raise IllegalPlayError(f"{seat} plays, but sits out ({contract.maker} plays alone)",
                                   seat, contract.maker, fault=PlayFault.SITS_OUT, card=card)
        if any(played is seat for played, _card in self.current):
            raise IllegalPlayError(f"{seat} plays twice in trick {self.trick_number}", seat,
                                   fault=PlayFault.TWICE_IN_TRICK, card=card,
                                   trick=self.trick_number)
        earlier = self._played.get(card)
        if earlier is not None:
            raise IllegalPlayError(
                f"{card} is played twice (by {earlier.seat} in trick {earlier.trick})",
                earlier.seat, fault=PlayFault.CARD_TWICE, card=card, trick=earlier.trick,
            )
        if card == self.turn_up and not contract.dealer_took_up:
            raise IllegalPlayError(f"{seat} plays {card}, the turn-up turned down in the kitty",
                                   seat, fault=PlayFault.TURNED_DOWN, card=card)
        if card == self.discard:
            raise IllegalPlayError(f"{seat} plays {card}, the dealer's discard", seat,
                                   fault=PlayFault.DISCARD, card=card)
        owner = self._owner.get(card)
        if owner is not None and owner is not seat:
            taken = card == self.turn_up
            where = "taken up by" if taken else "dealt to"
            raise IllegalPlayError(f"{seat} plays {card}, {where} {owner}", seat, owner,
                                   fault=PlayFault.TAKEN_UP if taken else PlayFault.DEALT_TO,
                                   card=card)
        pool = self._holdings[seat].pool
        if pool is not None and card not in pool:
            raise IllegalPlayError(f"{seat} plays {card}, which is not in {seat}'s hand",
                                   seat, seat, fault=PlayFault.NOT_IN_HAND, card=card)
        if seat is self.dealer:
            self._verify_natural_trump(contract, card)

    def _verify_natural_trump(self, contract: Contract, card: Card) -> None:
        """With the dealt hands unseen, the discard and the dealer's other four cards played
        are the dealer's hand as dealt: check the natural trump the take-up needed."""
        if not (
            self.profile.dealer_needs_natural_trump
            and contract.dealer_took_up
            and contract.maker is self.dealer
            and self.discard is not None
            and self.dealer not in self.hands
        ):
            return
        played = [p.card for p in self.plays if p.seat is self.dealer] + [card]
        dealt = [c for c in played if c != self.turn_up] + [self.discard]
        if len(dealt) == TRICKS_PER_HAND and not any(c.suit is self.turn_up.suit for c in dealt):
            raise IllegalPlayError(
                f"{self.dealer} (dealer) took up {self.turn_up} without a natural"
                f" {self.turn_up.suit} (dealt {' '.join(map(str, dealt[:-1]))},"
                f" discarded {self.discard})",
                self.dealer, fault=PlayFault.NO_NATURAL_TRUMP, card=self.turn_up,
                cards=tuple(dealt[:-1]), discard=self.discard,
            )

    def can_play(self, seat: Seat, card: Card) -> bool:
        """Whether `seat` can put down `card` now (renege and out of turn count as possible)."""
        try:
            self.verify_play(seat, card)
        except IllegalPlayError:
            return False
        return True

    def play(self, seat: Seat, card: Card) -> Played:
        """Play a card: check it, rule on it, and close the trick when all have played."""
        self.verify_play(seat, card)
        contract = self.contract
        assert contract is not None and self._watch is not None
        trump = contract.trump
        trick = self.trick_number
        expected = self.turn
        irregularity = None
        if seat is not expected:
            irregularity = self._out_of_turn(seat, trick, lead=not self.current)
        holding = self._holdings[seat]
        led = effective_suit(self.current[0][1], trump) if self.current else None
        followed = None if led is None else effective_suit(card, trump) is led
        held_led = led is not None and holding.certainly_holds(led, trump)
        if led is None or followed:
            known_legal: bool | None = True
        elif held_led:
            known_legal = False
        else:
            known_legal = True if holding.certainly_void(led, trump) else None
        proofs = self._watch.observe(seat, card, trick, led, held_led_suit=held_led)
        holding.remove(card)
        played = Played(
            seat, card, trick, len(self.current), followed, known_legal, tuple(proofs), irregularity
        )
        self.plays.append(played)
        self._played[card] = played
        self.current.append((seat, card))
        if self._ended_by is None:
            if irregularity is not None and irregularity.ends_hand:
                self._ended_by = irregularity
            elif proofs and self.profile.renege_ends_hand:
                self._ended_by = proofs[0]
        if len(self.current) == len(self.active_seats):
            winner = trick_winner(self.current, trump)
            self.tricks.append(Trick(trick, tuple(self.current), winner))
            self.current = []
            self._leader = winner
        return played

    def _out_of_turn(self, seat: Seat, trick: int, *, lead: bool) -> Irregularity:
        if not lead:
            kind, ruling = IrregularityKind.PLAY_OUT_OF_TURN, Ruling.NO_PENALTY
        elif self.profile.lead_out_of_turn is OutOfTurnLeadRuling.PENALTY:
            kind, ruling = IrregularityKind.LEAD_OUT_OF_TURN, Ruling.PENALTY
        else:
            kind, ruling = IrregularityKind.LEAD_OUT_OF_TURN, Ruling.TRICK_STANDS
        irregularity = Irregularity(kind, seat, ruling, trick=trick)
        self._play_irregularities.append(irregularity)
        return irregularity

    # --- results -------------------------------------------------------------------
    def tricks_won(self) -> dict[str, int]:
        """Completed tricks taken by each partnership."""
        counts = {"NS": 0, "EW": 0}
        for trick in self.tricks:
            counts[trick.winner.team] += 1
        return counts
