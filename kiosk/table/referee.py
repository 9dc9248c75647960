"""The table's one door to the rules engine.

The session knows what was *seen* (dealer, turn-up, bids, cards in order);
the rules engine (`kiosk.rules`) knows what that *means*. This module
replays what was seen through the engine and returns a `HandView`: plain
values a screen can show, with the engine's refusals turned into plain words
for the players. No euchre rule is decided here: every answer comes from
`kiosk.rules.play` and `kiosk.rules.scoring`.

Rebuilding a hand from scratch on every change (at most 20 cards) keeps
corrections trivial: fix a card in the list and replay.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.rules.bidding import Bid, BidFault, Call, IllegalBidError
from kiosk.rules.cards import Card, CardParseError, Seat, Suit
from kiosk.rules.game import add_hand_points
from kiosk.rules.play import HandState, IllegalPlayError, PlayFault
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile
from kiosk.rules.record import HandRecord
from kiosk.rules.renege import RenegeProof
from kiosk.rules.tricks import effective_suit

DEFAULT_PROFILE = "tournament"

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SIDE_NAMES = {"NS": "North-South", "EW": "East-West"}


def seat_name(seat: Seat | str | None) -> str:
    """A seat by name ('E' -> 'East', from `Seat.words`); what is no seat as it is."""
    try:
        return Seat.parse(str(seat)).words
    except ValueError:
        return str(seat)


def normalize_card(token: str) -> str:
    """`jh` -> `JH`; a card outside the euchre pack or a bad token raises ValueError."""
    try:
        card = Card.parse(token)
    except CardParseError as problem:
        raise ValueError(str(problem)) from None
    if not card.is_euchre:
        raise ValueError(f"{card} is not in a euchre pack (9 to ace only)")
    return str(card)


def card_words(token: str) -> str:
    """`TH` -> 'ten of hearts': a card in a sentence a player reads."""
    return Card.parse(token).words


@dataclass(frozen=True)
class TrickView:
    leader: str
    cards: tuple[tuple[str, str], ...]  # (seat, card) in play order
    winner: str | None  # None while the trick is open


@dataclass(frozen=True)
class ProvenRenege:
    """A proven failure to follow suit, with the cards that show it."""

    seat: str
    trick: int  # 1-based trick where the seat failed to follow
    proven_at: int  # 1-based trick whose play proves it
    led_suit: str | None
    failed_card: str | None  # what the seat played instead of following
    proof_card: str | None  # the card of the led suit it had (played later)


@dataclass(frozen=True)
class HandView:
    """One hand as the engine sees it, for the screens."""

    dealer: str
    turn_up: str | None
    phase: str  # 'bidding', 'playing', 'over'
    bidding_round: int = 1
    to_bid: str | None = None
    trump: str | None = None
    maker: str | None = None
    alone: bool = False
    sitting_out: str | None = None
    to_play: str | None = None
    tricks: tuple[TrickView, ...] = ()
    tricks_won: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    renege: ProvenRenege | None = None
    result: dict[str, Any] | None = None
    record: dict[str, Any] = field(default_factory=dict)
    needs_choice: bool = False
    problem: str | None = None  # a seen card the engine refused, in plain words
    #: the provisional verdict when a renege is proven and play may go on (alberta55)
    penalty_now: dict[str, Any] | None = None
    hint: str = ""  # a reminder for the bidder the camera cannot check
    #: the engine's own state, for questions about the next card (not compared)
    state: HandState | None = field(default=None, compare=False, repr=False)

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or last played)."""
        return max(1, len(self.tricks))


@dataclass(frozen=True)
class BidOption:
    """One button of the bidding screen."""

    call: str  # 'pass', 'order', 'name'
    suit: str | None
    alone: bool
    label: str
    allowed: bool
    reason: str  # why not, in plain words ('' when allowed)


@dataclass(frozen=True)
class BidCheck:
    allowed: bool
    reason: str = ""


@dataclass(frozen=True)
class RenegeOption:
    choice: str
    label: str
    points: dict[str, int]


@dataclass(frozen=True)
class ProfileInfo:
    id: str
    name: str
    points_to_win: int
    minutes: int
    at_time: str  # what happens when the clock runs out, in plain words
    notes: str = ""


def play_index(view: HandView, trick: int, seat: str) -> int | None:
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


PROFILE_WORDS = {
    "alberta55": "Alberta 55+",
    "general": "General rules",
    "ssc": "SSC",
    "tournament": "Tournament",
}


def profile_info(profile: str) -> ProfileInfo:
    """A profile's set-up defaults and notes in plain words; KeyError if unknown."""
    if profile not in PROFILES:
        raise KeyError(f"Unknown rules {profile!r}.")
    p = get_profile(profile)
    notes = []
    if p.stick_the_dealer:
        notes.append("Stick the dealer.")
    if p.dealer_needs_natural_trump:
        notes.append("The dealer needs a natural trump to pick up.")
    if p.dealer_partner_order_forces_alone:
        notes.append("The dealer's partner who orders it up plays alone.")
    if p.game_minutes:
        notes.append(f"{p.game_minutes}-minute games.")
    return ProfileInfo(
        id=profile, name=PROFILE_WORDS.get(profile, profile), points_to_win=p.points_to_win,
        minutes=p.game_minutes or 0,
        at_time="Time is up: finish the hand being played, then the game ends with the "
                "score as it stands.",
        notes=" ".join(notes),
    )


def _profile(profile: str | RuleProfile) -> RuleProfile:
    return profile if isinstance(profile, RuleProfile) else get_profile(profile)


def _bid(data: dict[str, Any]) -> Bid:
    suit = data.get("suit")
    return Bid(Seat.parse(data["seat"]), Call(data["call"]),
               None if suit is None else Suit.parse(suit), bool(data.get("alone", False)))


def _plain(problem: Exception) -> str:
    """The engine's refusal in players' words, made from the facts the error carries
    (its fault, seats and cards): seats by name, cards in words. An error without such
    facts (a malformed record) is said as it is.

    >>> from kiosk.rules.play import IllegalPlayError, PlayFault
    >>> _plain(IllegalPlayError("S plays twice in trick 2", Seat.S,
    ...                         fault=PlayFault.TWICE_IN_TRICK, trick=2))
    'South plays twice in trick 2.'
    """
    words = None
    if isinstance(problem, IllegalPlayError) and problem.fault is not None:
        words = _play_refusal(problem)
    elif isinstance(problem, IllegalBidError) and problem.fault is not BidFault.MALFORMED:
        words = _bid_refusal(problem)
    text = str(problem) if words is None else words
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _the(card: Card | None) -> str:
    """'the ace of spades'; a card outside the euchre pack by its code, as the engine
    wrote it."""
    assert card is not None
    return f"the {card.words}" if card.is_euchre else str(card)


def _play_refusal(error: IllegalPlayError) -> str:
    seats, card = error.seats, error.card
    who = seats[0].words if seats else ""
    other = seats[1].words if len(seats) > 1 else ""
    plays = f"{who} plays {_the(card)}" if card is not None else ""
    words: dict[PlayFault, Callable[[], str]] = {
        PlayFault.PASSED_OUT: lambda: "no trump was made: the hand was passed out",
        PlayFault.BEFORE_TRUMP: lambda: f"{plays} before trump is made",
        PlayFault.AFTER_THE_HAND: lambda: f"{plays} after all five tricks",
        PlayFault.NOT_EUCHRE: lambda: f"{plays}, which is not a euchre card",
        PlayFault.SITS_OUT: lambda: f"{who} plays, but sits out ({other} plays alone)",
        PlayFault.TWICE_IN_TRICK: lambda: f"{who} plays twice in trick {error.trick}",
        PlayFault.CARD_TWICE: lambda: (f"{_the(card)} is played twice (by {who} in trick "
                                       f"{error.trick})"),
        PlayFault.TURNED_DOWN: lambda: f"{plays}, the turn-up turned down in the kitty",
        PlayFault.DISCARD: lambda: f"{plays}, the dealer's discard",
        PlayFault.TAKEN_UP: lambda: f"{plays}, taken up by {other}",
        PlayFault.DEALT_TO: lambda: f"{plays}, dealt to {other}",
        PlayFault.NOT_IN_HAND: lambda: f"{plays}, which is not in {who}'s hand",
        PlayFault.NO_NATURAL_TRUMP: lambda: (
            f"{who} (dealer) took up {_the(card)} without a natural "
            f"{'' if card is None else card.suit} (dealt "
            f"{' '.join(_the(c) for c in error.cards)}, discarded {_the(error.discard)})"),
    }
    assert error.fault is not None
    return words[error.fault]()


def _bid_refusal(error: IllegalBidError) -> str:
    who = error.seats[0].words if error.seats else ""
    words: dict[BidFault, Callable[[], str]] = {
        BidFault.BIDDING_OVER: lambda: (
            f"bidding is over ({'passed out' if error.passed_out else 'trump is made'}),"
            f" {who} cannot bid"),
        BidFault.NAME_IN_ROUND_ONE: lambda: (
            f"{who} names a suit in round one (round one is 'pass' or 'order')"),
        BidFault.ORDER_IN_ROUND_TWO: lambda: (
            f"{who} orders up in round two, after the turn-up was turned down"),
        BidFault.SIDE_BARRED: lambda: (
            f"{who}'s side may not make trump after its void declaration"),
        BidFault.STICK_THE_DEALER: lambda: (
            f"stick the dealer: {who} (dealer) must name trump, not pass"),
        BidFault.TURNED_DOWN_SUIT: lambda: (
            f"{who} names {error.suit}, the turned-down suit, which cannot be trump"),
        BidFault.NO_NATURAL_TRUMP: lambda: (
            f"{who} (dealer) takes up {_the(error.card)} without a natural {error.suit}"),
    }
    return words[error.fault]()


def replay(profile: str, dealer: str, turn_up: str | None, bids: Sequence[dict[str, Any]],
           plays: Sequence[tuple[str, str]], renege_choice: str | None = None) -> HandView:
    """Rebuild one hand from what was seen, through the rules engine."""
    rules = _profile(profile)
    dealer_seat = Seat.parse(dealer)
    if turn_up is None:
        return HandView(dealer=dealer, turn_up=None, phase="bidding",
                        to_bid=str(dealer_seat.left))
    state = HandState(rules, dealer_seat, Card.parse(turn_up))
    problem = None
    for data in bids:
        try:
            state.bid(_bid(data))
        except (IllegalBidError, ValueError) as refused:  # recorded under other rules
            problem = _plain(refused)
    if state.contract is None and not state.is_over:
        return HandView(dealer=dealer, turn_up=turn_up, phase="bidding",
                        bidding_round=state.auction.round,
                        to_bid=None if state.turn is None else str(state.turn),
                        hint=_bid_hint(rules, state), state=state, problem=problem)
    for seat, card in plays:
        try:
            state.play(Seat.parse(seat), Card.parse(card))
        except IllegalPlayError as refused:
            problem = _plain(refused)
    return _view(rules, dealer, turn_up, state, problem, renege_choice)


def _view(rules: RuleProfile, dealer: str, turn_up: str, state: HandState,
          problem: str | None, choice: str | None) -> HandView:
    from kiosk.rules.scoring import score_state

    contract = state.contract
    tricks = [TrickView(leader=str(t.plays[0][0]),
                        cards=tuple((str(s), str(c)) for s, c in t.plays), winner=str(t.winner))
              for t in state.tricks]
    if state.current:
        tricks.append(TrickView(leader=str(state.current[0][0]),
                                cards=tuple((str(s), str(c)) for s, c in state.current),
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
        dealer=dealer, turn_up=turn_up, phase="over" if state.is_over else "playing",
        bidding_round=state.auction.round,
        trump=None if contract is None else str(contract.trump),
        maker=None if contract is None else str(contract.maker),
        alone=bool(contract and contract.alone),
        sitting_out=None if contract is None or contract.sitting_out is None
        else str(contract.sitting_out),
        to_play=None if state.turn is None or state.is_over else str(state.turn),
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
    return ProvenRenege(seat=str(proof.seat), trick=proof.trick, proven_at=proof.proven_at,
                      led_suit=None if led is None else str(led),
                      failed_card=None if failed is None else str(failed),
                      proof_card=None if proof_card is None else str(proof_card))


def _bid_hint(rules: RuleProfile, state: HandState) -> str:
    turn = state.auction.turn
    if turn is None:
        return ""
    suit = SUIT_NAMES[str(state.turn_up.suit)]
    if state.auction.round == 1 and turn is state.dealer and rules.dealer_needs_natural_trump:
        return (f"The dealer may pick it up only with a natural {suit[:-1]} in hand "
                "(the left bower does not count).")
    if state.auction.round == 2:
        return f"{suit.capitalize()} were turned down and cannot be trump."
    return ""


def bid_options(profile: str, view: HandView) -> list[BidOption]:
    """Every bid the seat on turn could tap, each allowed or explained in plain words."""
    state = view.state
    if state is None or state.auction.turn is None or view.phase != "bidding":
        return []
    seat = state.auction.turn
    if state.auction.round == 1:
        take = "Pick it up" if seat is state.dealer else "Order it up"
        candidates = [(Bid(seat, Call.PASS), "Pass"), (Bid(seat, Call.ORDER), take),
                      (Bid(seat, Call.ORDER, alone=True), f"{take} alone")]
    else:
        candidates = [(Bid(seat, Call.PASS), "Pass")]
        for alone in (False, True):
            for suit in Suit:
                word = SUIT_NAMES[str(suit)].capitalize()
                candidates.append((Bid(seat, Call.NAME, suit, alone),
                                   f"{word} alone" if alone else word))
    return [_option(state, bid, label) for bid, label in candidates]


def _option(state: HandState, bid: Bid, label: str) -> BidOption:
    suit = None if bid.suit is None else str(bid.suit)
    turned_down = SUIT_NAMES[str(state.turn_up.suit)]
    if not state.can_bid(bid):
        if bid.call is Call.PASS:
            reason = ("Stick the dealer: everyone else passed, so the dealer must name a suit.")
        elif state.auction.barred_teams and bid.seat.team in state.auction.barred_teams:
            reason = "Your side made a void call this hand, so it can no longer make trump."
        elif bid.suit is state.turn_up.suit:
            reason = f"{turned_down.capitalize()} were turned down, so they cannot be trump now."
        else:
            try:
                state.verify_bid(bid)
                reason = "That bid is not possible now."
            except IllegalBidError as refused:
                reason = _plain(refused)
        return BidOption(bid.call.value, suit, bid.alone, label, False, reason)
    trial = copy.deepcopy(state.auction)
    made = trial.bid(bid)
    if made.irregularity is not None and bid.suit is state.turn_up.suit:
        return BidOption(bid.call.value, suit, bid.alone, label, False,
                         f"{turned_down.capitalize()} were turned down: naming them is void "
                         "and your side could no longer make trump.")
    if made.contract is not None and made.contract.alone and not bid.alone:
        return BidOption(bid.call.value, suit, bid.alone, label, False,
                         "The dealer's partner who orders it up must play alone: "
                         "tap 'Order it up alone'.")
    return BidOption(bid.call.value, suit, bid.alone, label, True, "")


def check_play(view: HandView, seat: str, card: str) -> str | None:
    """Why the engine cannot take this card from this seat now (plain words), or None."""
    state = view.state
    if state is None:
        return "Trump is not made yet."
    try:
        state.verify_play(Seat.parse(seat), Card.parse(card))
    except IllegalPlayError as refused:
        return _plain(refused) + " Tap the card to fix it if the camera misread it."
    return None


def _points_words(points: dict[str, Any]) -> str:
    parts = [f"{SIDE_NAMES[side]} {int(n):+d}" for side, n in points.items() if int(n)]
    return ", ".join(parts) or "no points"


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
        opts = [RenegeOption(o["option"], _option_words(o["option"], o["points"]),
                             _ints(o["points"])) for o in _all_penalty_options(now)]
        for o in opts:
            if o.choice == choice:
                return Settlement(False, True, o.points)
        if choice == "play_on":
            return Settlement(False, False, None)
        opts.append(RenegeOption("play_on", "Play the hand out and choose at the end", {}))
        return Settlement(True, False, None, tuple(opts))
    if view.result.get("penalty_options") is not None:
        played = RenegeOption("as_played", "Score the hand as played: "
                              + _points_words(view.result["points"]),
                              _ints(view.result["points"]))
        opts = [played] + [RenegeOption(o["option"], _option_words(o["option"], o["points"]),
                                        _ints(o["points"]))
                           for o in view.result["penalty_options"]]
    else:
        opts = [RenegeOption("accept", "Accept the penalty: "
                             + _points_words(view.result["points"]),
                             _ints(view.result["points"]))]
    for o in opts:
        if o.choice == choice:
            return Settlement(False, True, o.points)
    return Settlement(True, False, None, tuple(opts))


def _all_penalty_options(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Mid-hand, `points` holds the penalty added and the options the rest."""
    first = {"option": "penalty_added", "points": result.get("points", {})}
    return [first, *(result.get("penalty_options") or [])]


def _option_words(option: str, points: dict[str, Any]) -> str:
    words = {"penalty_added": "Add the penalty to our score",
             "penalty_deducted": "Take the penalty from their score"}.get(
        option, option.replace("_", " ").capitalize())
    return f"{words}: {_points_words(points)}"


def _ints(points: dict[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in points.items()}


def renege_options(profile: str, view: HandView, choice: str | None = None
                   ) -> list[RenegeOption]:
    return list(settle(view, choice).options)


def points_for(view: HandView, choice: str | None) -> dict[str, int]:
    """The hand's points once settled (after the players' choice where they have one)."""
    points = settle(view, choice).points
    return dict(points) if points is not None else {"NS": 0, "EW": 0}


def check_bid(profile: str, view: HandView, call: str, suit: str | None,
              alone: bool) -> BidCheck:
    """Whether the seat on turn may make this bid, and if not why, in plain words."""
    for option in bid_options(profile, view):
        if option.call == call and option.suit == suit and option.alone == alone:
            return BidCheck(option.allowed, option.reason)
    return BidCheck(False, "That bid is not possible now.")
