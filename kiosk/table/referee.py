"""The table's one door to the rules engine.

The session knows what was *seen* (dealer, turn-up, bids, cards in order);
the rules engine (`kiosk.rules`) knows what that *means*. This module
replays what was seen through the engine and returns a `HandView`: plain
values a screen can show, the engine's refusals among them as the facts its
errors carry (`Refusal`; the players' words are kiosk.app.words'). No euchre
rule is decided here: every answer comes from `kiosk.rules.play` and
`kiosk.rules.scoring`.

Rebuilding a hand from scratch on every change (at most 20 cards) keeps
corrections trivial: fix a card in the list and replay.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kiosk.rules.bidding import Bid, BidFault, Call, IllegalBidError
from kiosk.rules.cards import Card, CardParseError, Seat, Suit
from kiosk.rules.game import add_hand_points
from kiosk.rules.play import HandState, IllegalPlayError, PlayFault
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile
from kiosk.rules.record import HandRecord, SeatCard
from kiosk.rules.renege import RenegeProof
from kiosk.rules.tricks import effective_suit

DEFAULT_PROFILE = "tournament"


def euchre_card(token: Card | str) -> Card:
    """The card a tap or a camera names (`jh` -> JH); a card outside the euchre pack or a
    bad token raises ValueError."""
    try:
        card = token if isinstance(token, Card) else Card.parse(token)
    except CardParseError as problem:
        raise ValueError(str(problem)) from None
    if not card.is_euchre:
        raise ValueError(f"{card} is not in a euchre pack (9 to ace only)")
    return card


@dataclass(frozen=True)
class Refusal:
    """The engine's refusal of a bid or a card, as the facts its error carries: the
    fault, the seats it names (the one playing or bidding first), and the cards, trick
    or suit it is about. Equal refusals are the same refusal."""

    play: PlayFault | None = None
    bid: BidFault | None = None
    seats: tuple[Seat, ...] = ()
    card: Card | None = None
    cards: tuple[Card, ...] = ()  #: a dealer's hand dealt, for a take-up refused
    discard: Card | None = None
    trick: int | None = None
    suit: Suit | None = None
    passed_out: bool = False
    #: the engine's own message: for logs, and said as written by an error without
    #: facts (a malformed record)
    message: str = ""

    @classmethod
    def of(cls, error: Exception) -> Refusal:
        if isinstance(error, IllegalPlayError) and error.fault is not None:
            return cls(play=error.fault, seats=error.seats, card=error.card,
                       cards=error.cards, discard=error.discard, trick=error.trick,
                       message=str(error))
        if isinstance(error, IllegalBidError) and error.fault is not BidFault.MALFORMED:
            return cls(bid=error.fault, seats=error.seats, card=error.card,
                       suit=error.suit, passed_out=error.passed_out, message=str(error))
        return cls(message=str(error))

    def __str__(self) -> str:
        return self.message


class BidBar(StrEnum):
    """Why a bid the seat on turn might tap cannot be made now."""

    DEALER_MUST_NAME = "dealer_must_name"  #: stick the dealer: the dealer may not pass
    SIDE_BARRED = "side_barred"  #: the side made a void call this hand
    TURNED_DOWN = "turned_down"  #: the suit turned down cannot be trump
    NAMING_VOID = "naming_void"  #: naming the turned-down suit is void and bars the side
    MUST_GO_ALONE = "must_go_alone"  #: the dealer's partner who orders it up plays alone
    REFUSED = "refused"  #: the engine refuses it (the option's `refusal`)
    NOT_POSSIBLE = "not_possible"


class HandPhase(StrEnum):
    """Where one hand stands: bidding, cards being played, or over."""

    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


class BidHint(StrEnum):
    """A reminder for the bidder on turn that the camera cannot check."""

    NATURAL_TRUMP = "natural_trump"  #: the dealer picks up only with a natural trump
    TURNED_DOWN = "turned_down"  #: round two: the turn-up's suit cannot be trump


@dataclass(frozen=True)
class TrickView:
    leader: Seat
    cards: tuple[SeatCard, ...]
    winner: Seat | None  # None while the trick is open


@dataclass(frozen=True)
class ProvenRenege:
    """A proven failure to follow suit, with the cards that show it."""

    seat: Seat
    trick: int  # 1-based trick where the seat failed to follow
    proven_at: int  # 1-based trick whose play proves it
    led_suit: Suit | None
    failed_card: Card | None  # what the seat played instead of following
    proof_card: Card | None  # the card of the led suit it had (played later)


@dataclass(frozen=True)
class HandView:
    """One hand as the engine sees it, for the screens."""

    dealer: Seat
    turn_up: Card | None
    phase: HandPhase
    bidding_round: int = 1
    to_bid: Seat | None = None
    trump: Suit | None = None
    maker: Seat | None = None
    alone: bool = False
    sitting_out: Seat | None = None
    to_play: Seat | None = None
    tricks: tuple[TrickView, ...] = ()
    tricks_won: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    renege: ProvenRenege | None = None
    result: dict[str, Any] | None = None
    record: dict[str, Any] = field(default_factory=dict)
    needs_choice: bool = False
    problem: Refusal | None = None  # what the engine refused of what was seen
    #: the provisional verdict when a renege is proven and play may go on (alberta55)
    penalty_now: dict[str, Any] | None = None
    hint: BidHint | None = None  # a reminder for the bidder the camera cannot check
    #: the engine's own state, for questions about the next card (not compared)
    state: HandState | None = field(default=None, compare=False, repr=False)

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or last played)."""
        return max(1, len(self.tricks))


@dataclass(frozen=True)
class BidOption:
    """One button of the bidding screen: a bid the seat on turn could make, and if it
    cannot, why (`bar`, with the engine's `refusal` where the engine said no)."""

    call: Call
    suit: Suit | None
    alone: bool
    allowed: bool
    bar: BidBar | None = None
    refusal: Refusal | None = None
    by_dealer: bool = False  #: the seat on turn deals (round one's order is a pick-up)
    turned_down: Suit | None = None  #: the turn-up's suit, which some bars are about


@dataclass(frozen=True)
class RenegeOption:
    choice: str
    points: dict[str, int]


@dataclass(frozen=True)
class ProfileInfo:
    """A rule book's set-up defaults, and the rules its words describe."""

    id: str
    points_to_win: int
    minutes: int
    rules: RuleProfile


def plays_of(*played: str) -> list[SeatCard]:
    """Plays written as a person writes them ('E AS', 'S 9S', ...): for examples and tests.

    >>> plays_of("E AS")
    [(<Seat.E: 'E'>, Card.parse('AS'))]
    """
    out: list[SeatCard] = []
    for text in played:
        seat, card = text.split()
        out.append((Seat.parse(seat), Card.parse(card)))
    return out


def play_index(view: HandView, trick: int, seat: Seat) -> int | None:
    """Where (trick, seat)'s card sits in the flat list of plays, if played."""
    index = 0
    for number, t in enumerate(view.tricks, start=1):
        for s, _card in t.cards:
            if number == trick and s == seat:
                return index
            index += 1
    return None


# --------------------------------------------------------------------------
# The engine binding: every answer below comes from kiosk.rules.


def game_score(profile: str, hands: Sequence[dict[str, int]]) -> dict[str, int]:
    """A game's score from its hands' points, as the profile adds them up.

    A penalty deducted from a side's score stops at zero where the profile says so.

    >>> game_score("alberta55", [{"NS": 1, "EW": 0}, {"NS": -2, "EW": 0}])
    {'NS': 0, 'EW': 0}
    """
    floor = _profile(profile).scores_floor_at_zero
    total = {"NS": 0, "EW": 0}
    for points in hands:
        total = add_hand_points(total, points, floor)
    return total


def profile_ids() -> list[str]:
    return sorted(PROFILES)


def profile_info(profile: str) -> ProfileInfo:
    """A profile's set-up defaults; KeyError if unknown."""
    if profile not in PROFILES:
        raise KeyError(f"Unknown rules {profile!r}.")
    p = get_profile(profile)
    return ProfileInfo(id=profile, points_to_win=p.points_to_win,
                       minutes=p.game_minutes or 0, rules=p)


def _profile(profile: str | RuleProfile) -> RuleProfile:
    return profile if isinstance(profile, RuleProfile) else get_profile(profile)


def replay(profile: str, dealer: Seat, turn_up: Card | None, bids: Sequence[Bid],
           plays: Sequence[SeatCard], renege_choice: str | None = None) -> HandView:
    """Rebuild one hand from what was seen, through the rules engine."""
    rules = _profile(profile)
    if turn_up is None:
        return HandView(dealer=dealer, turn_up=None, phase=HandPhase.BIDDING,
                        to_bid=dealer.left)
    state = HandState(rules, dealer, turn_up)
    problem: Refusal | None = None
    for bid in bids:
        try:
            state.bid(bid)
        except (IllegalBidError, ValueError) as refused:  # recorded under other rules
            problem = Refusal.of(refused)
    if state.contract is None and not state.is_over:
        return HandView(dealer=dealer, turn_up=turn_up, phase=HandPhase.BIDDING,
                        bidding_round=state.auction.round, to_bid=state.turn,
                        hint=_bid_hint(rules, state), state=state, problem=problem)
    for seat, card in plays:
        try:
            state.play(seat, card)
        except IllegalPlayError as refused:
            problem = Refusal.of(refused)
    return _view(rules, dealer, turn_up, state, problem, renege_choice)


def _view(rules: RuleProfile, dealer: Seat, turn_up: Card, state: HandState,
          problem: Refusal | None, choice: str | None) -> HandView:
    from kiosk.rules.scoring import score_state

    contract = state.contract
    tricks = [TrickView(leader=t.plays[0][0], cards=tuple(t.plays), winner=t.winner)
              for t in state.tricks]
    if state.current:
        tricks.append(TrickView(leader=state.current[0][0], cards=tuple(state.current),
                                winner=None))
    reneges = state.reneges
    renege = _proven_renege(state, reneges[0]) if reneges else None
    result = None
    penalty_now = None
    if state.is_over:
        result = score_state(state).to_json()
    elif reneges:
        penalty_now = score_state(state).to_json()
    record = HandRecord(
        dealer=state.dealer, turn_up=state.turn_up,
        bids=tuple(made.bid for made in state.auction.log),
        tricks=tuple(t.plays for t in state.tricks) + ((tuple(state.current),)
                                                        if state.current else ()),
    ).to_json()
    return HandView(
        dealer=dealer, turn_up=turn_up,
        phase=HandPhase.OVER if state.is_over else HandPhase.PLAYING,
        bidding_round=state.auction.round,
        trump=None if contract is None else contract.trump,
        maker=None if contract is None else contract.maker,
        alone=bool(contract and contract.alone),
        sitting_out=None if contract is None else contract.sitting_out,
        to_play=None if state.is_over else state.turn,
        tricks=tuple(tricks), tricks_won=state.tricks_won(), renege=renege, result=result,
        record=record, needs_choice=bool(result and result.get("penalty_options")),
        problem=problem, state=state, penalty_now=penalty_now,
    )


def _proven_renege(state: HandState, proof: RenegeProof) -> ProvenRenege:
    contract = state.contract
    assert contract is not None
    by_trick: dict[int, dict[Seat, Card]] = {}
    leads: dict[int, Card] = {}
    for played in state.plays:
        by_trick.setdefault(played.trick, {})[played.seat] = played.card
        if played.position == 0:
            leads[played.trick] = played.card
    lead = leads.get(proof.trick)
    led = None if lead is None else effective_suit(lead, contract.trump)
    failed = by_trick.get(proof.trick, {}).get(proof.seat)
    proof_card = by_trick.get(proof.proven_at, {}).get(proof.seat)
    return ProvenRenege(seat=proof.seat, trick=proof.trick, proven_at=proof.proven_at,
                        led_suit=led, failed_card=failed, proof_card=proof_card)


def _bid_hint(rules: RuleProfile, state: HandState) -> BidHint | None:
    turn = state.auction.turn
    if turn is None:
        return None
    if state.auction.round == 1 and turn is state.dealer and rules.dealer_needs_natural_trump:
        return BidHint.NATURAL_TRUMP
    if state.auction.round == 2:
        return BidHint.TURNED_DOWN
    return None


def bid_options(profile: str, view: HandView) -> list[BidOption]:
    """Every bid the seat on turn could tap, each allowed or barred (and why)."""
    state = view.state
    if state is None or state.auction.turn is None or view.phase is not HandPhase.BIDDING:
        return []
    seat = state.auction.turn
    if state.auction.round == 1:
        bids = [Bid(seat, Call.PASS), Bid(seat, Call.ORDER), Bid(seat, Call.ORDER, alone=True)]
    else:
        bids = [Bid(seat, Call.PASS)] + [Bid(seat, Call.NAME, suit, alone)
                                         for alone in (False, True) for suit in Suit]
    return [_option(state, bid) for bid in bids]


def _option(state: HandState, bid: Bid) -> BidOption:
    def option(bar: BidBar | None = None, refusal: Refusal | None = None) -> BidOption:
        return BidOption(bid.call, bid.suit, bid.alone, bar is None, bar, refusal,
                         by_dealer=bid.seat is state.dealer, turned_down=state.turn_up.suit)

    if not state.can_bid(bid):
        if bid.call is Call.PASS:
            return option(BidBar.DEALER_MUST_NAME)
        if state.auction.barred_teams and bid.seat.team in state.auction.barred_teams:
            return option(BidBar.SIDE_BARRED)
        if bid.suit is state.turn_up.suit:
            return option(BidBar.TURNED_DOWN)
        try:
            state.verify_bid(bid)
        except IllegalBidError as refused:
            return option(BidBar.REFUSED, Refusal.of(refused))
        return option(BidBar.NOT_POSSIBLE)
    trial = copy.deepcopy(state.auction)
    made = trial.bid(bid)
    if made.irregularity is not None and bid.suit is state.turn_up.suit:
        return option(BidBar.NAMING_VOID)
    if made.contract is not None and made.contract.alone and not bid.alone:
        return option(BidBar.MUST_GO_ALONE)
    return option()


def check_play(view: HandView, seat: Seat, card: Card) -> Refusal | None:
    """What the engine says against this card from this seat now, or None."""
    state = view.state
    if state is None:
        return Refusal(play=PlayFault.BEFORE_TRUMP, message="trump is not made yet")
    try:
        state.verify_play(seat, card)
    except IllegalPlayError as refused:
        return Refusal.of(refused)
    return None


@dataclass(frozen=True)
class Settlement:
    """Where a hand stands once reneges are taken into account."""

    needs_players: bool  # a renege waits for the players (accept, choose, play on)
    over: bool
    points: dict[str, int] | None
    options: tuple[RenegeOption, ...] = ()


def settle(view: HandView, choice: str | None) -> Settlement:
    """Is the hand over, what does it score, and what must the players decide?"""
    if view.renege is None:
        if view.result is None:
            return Settlement(False, False, None)
        return Settlement(False, True, _ints(view.result["points"]))
    if view.result is None:
        # Proven mid-hand, and the profile lets play go on (the offended side chooses).
        now = view.penalty_now or {}
        opts = [RenegeOption(o["option"], _ints(o["points"]))
                for o in _all_penalty_options(now)]
        for o in opts:
            if o.choice == choice:
                return Settlement(False, True, o.points)
        if choice == "play_on":
            return Settlement(False, False, None)
        opts.append(RenegeOption("play_on", {}))
        return Settlement(True, False, None, tuple(opts))
    played = RenegeOption("as_played" if view.result.get("penalty_options") is not None
                          else "accept", _ints(view.result["points"]))
    opts = [played] + [RenegeOption(o["option"], _ints(o["points"]))
                       for o in view.result.get("penalty_options") or []]
    for o in opts:
        if o.choice == choice:
            return Settlement(False, True, o.points)
    return Settlement(True, False, None, tuple(opts))


def _all_penalty_options(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Mid-hand, `points` holds the penalty added and the options the rest."""
    first = {"option": "penalty_added", "points": result.get("points", {})}
    return [first, *(result.get("penalty_options") or [])]


def _ints(points: dict[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in points.items()}


def renege_options(profile: str, view: HandView, choice: str | None = None
                   ) -> list[RenegeOption]:
    return list(settle(view, choice).options)


def points_for(view: HandView, choice: str | None) -> dict[str, int]:
    """The hand's points once settled (after the players' choice where they have one)."""
    points = settle(view, choice).points
    return dict(points) if points is not None else {"NS": 0, "EW": 0}


def check_bid(profile: str, view: HandView, call: Call, suit: Suit | None,
              alone: bool) -> BidOption | None:
    """The seat on turn's option for this bid (allowed or barred), or None: no such
    bid now."""
    for option in bid_options(profile, view):
        if option.call == call and option.suit == suit and option.alone == alone:
            return option
    return None
