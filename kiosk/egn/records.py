"""One EGN deal to a hand record and back, each checked by the kiosk's rules engine.

An EGN trick lists cards in the order they fell and no seats: the first trick is led
by the seat the rules say (the dealer's left, or per ``loner_lead``), and each later
one by the winner of the one before.  `play_deal` feeds the cards to `HandState` one
by one, each from the seat whose turn it is, so the seats in the hand record are the
engine's reading of the file, and anything the ruleset forbids (stick the dealer, a
card played twice, a lone player's partner playing) is an `EgnError` naming the call
or card.  `deal_of` goes the other way and refuses what EGN cannot hold: a bid or a
card out of turn.

>>> from kiosk.egn.game import Bidding, TrickPlay
>>> from kiosk.rules.profiles import get_profile
>>> deal = EgnDeal(0, Seat.N, "9h", Bidding(("Pass", "Pass", "Order")),
...                TrickPlay((("As", "9s", "Ks", "Ts"),)))
>>> played = play_deal(deal, get_profile("tournament"), "$.deals[0]")
>>> played.record.tricks[0]
((<Seat.E: 'E'>, Card.parse('AS')), (<Seat.S: 'S'>, Card.parse('9S')), \
(<Seat.W: 'W'>, Card.parse('KS')), (<Seat.N: 'N'>, Card.parse('TS')))
>>> deal_of(played.record, 0, get_profile("tournament")) == deal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.egn.game import Bidding, DealNotes, EgnDeal, EgnGame, TrickPlay
from kiosk.egn.notation import (
    ORDER,
    PASS,
    SEATS,
    UNPLAYABLE_CALLS,
    EgnError,
    card_token,
    parse_card,
    seat_number,
    suit_call,
)
from kiosk.egn.ruleset import EgnRuleset
from kiosk.rules.bidding import Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.play import TRICKS_PER_HAND, HandState, IllegalPlayError, InvalidDealError
from kiosk.rules.profiles import RuleProfile
from kiosk.rules.record import HandRecord, SeatCard


@dataclass(frozen=True)
class DealPlayed:
    """An EGN deal as a hand record, and the engine's state after playing it."""

    record: HandRecord
    state: HandState


def play_deal(deal: EgnDeal, profile: RuleProfile, where: str) -> DealPlayed:
    """Play a deal through the rules engine; `where` is its JSON path (``$.deals[3]``)."""
    up_card = parse_card(deal.up_card, f"{where}.initialState.upCard")
    hands = _dealt(deal, where)
    try:
        state = HandState(profile, deal.dealer, up_card, hands)
    except InvalidDealError as problem:
        raise EgnError(f"{where}.initialState: {problem}") from None
    bids: list[Bid] = []
    discard: Card | None = None
    if deal.bidding is not None:
        bids = _bid(state, deal.bidding, f"{where}.phases[0]")
        if deal.bidding.discard is not None:
            at = f"{where}.phases[0].discard"
            discard = parse_card(deal.bidding.discard, at)
            try:
                state.set_discard(discard)
            except InvalidDealError as problem:
                raise EgnError(f"{at}: {problem}") from None
    tricks: list[tuple[SeatCard, ...]] = []
    if deal.play is not None and deal.play.tricks:
        tricks = _play(state, deal.play, f"{where}.phases[1]")
    if deal.initial_lead is not None and tricks and tricks[0][0][0] is not deal.initial_lead:
        raise EgnError(
            f"{where}.phases[1].initialLead: {seat_number(deal.initial_lead)}"
            f" ({deal.initial_lead}), but the rules have {tricks[0][0][0]} lead"
        )
    record = HandRecord(deal.dealer, up_card, tuple(bids), tuple(tricks), hands, discard)
    return DealPlayed(record, state)


def _dealt(deal: EgnDeal, where: str) -> dict[Seat, tuple[Card, ...]] | None:
    """The dealt hands the file knows (a seat with no cards listed is unknown)."""
    if not deal.player_cards or not any(deal.player_cards):
        return None
    at = f"{where}.initialState.playerCards"
    return {
        SEATS[s]: tuple(parse_card(card, f"{at}[{s}][{c}]") for c, card in enumerate(hand))
        for s, hand in enumerate(deal.player_cards)
        if hand
    }


def _bid(state: HandState, bidding: Bidding, where: str) -> list[Bid]:
    bids = []
    seats = state.dealer.left.clockwise()
    for i, call in enumerate(bidding.calls):
        at = f"{where}.calls[{i}]"
        if call in UNPLAYABLE_CALLS:
            raise EgnError(f"{at}: {call!r}: {UNPLAYABLE_CALLS[call]}")
        seat = seats[i % 4]
        if call == PASS:
            bid = Bid(seat, Call.PASS)
        elif call == ORDER:
            bid = Bid(seat, Call.ORDER, alone=bidding.alone)
        else:
            bid = Bid(seat, Call.NAME, Suit.parse(call), alone=bidding.alone)
        try:
            state.bid(bid)
        except IllegalBidError as problem:
            raise EgnError(f"{at}: {problem}") from None
        bids.append(bid)
    contract = state.contract
    if contract is not None and contract.alone and not bidding.alone:
        raise EgnError(
            f"{where}.isAlone: canadian: {contract.maker}, the dealer's partner, ordered up"
            " and so plays alone, but isAlone is false"
        )
    return bids


def _play(state: HandState, play: TrickPlay, where: str) -> list[tuple[SeatCard, ...]]:
    contract = state.contract
    if contract is None:
        why = "the deal was passed out" if state.auction.passed_out else "bidding is unfinished"
        raise EgnError(f"{where}.tricks: cards played, but {why}")
    if len(play.tricks) > TRICKS_PER_HAND:
        raise EgnError(f"{where}.tricks: {len(play.tricks)} tricks (a deal has five)")
    players = len(state.active_seats)
    tricks = []
    for t, trick in enumerate(play.tricks):
        at = f"{where}.tricks[{t}]"
        last = t == len(play.tricks) - 1
        if len(trick) > players or (len(trick) < players and not last):
            raise EgnError(f"{at}: {len(trick)} cards, but {players} players play to each trick")
        plays = []
        for c, token in enumerate(trick):
            card = parse_card(token, f"{at}[{c}]", contract.trump)
            seat = state.turn
            assert seat is not None  # five tricks at most, each no longer than the players
            try:
                state.play(seat, card)
            except IllegalPlayError as problem:
                raise EgnError(f"{at}[{c}]: {problem}") from None
            plays.append((seat, card))
        tricks.append(tuple(plays))
    return tricks


def deal_of(
    record: HandRecord, number: int, profile: RuleProfile, notes: DealNotes | None = None
) -> EgnDeal:
    """The EGN deal of a hand record, played through the rules to check it can be written:
    every bid and card in turn.  An `EgnError` names the hand (1-based) and the problem."""
    where = f"hand {number + 1}"
    notes = notes or DealNotes()
    try:
        state = HandState(profile, record.dealer, record.turn_up, record.hands)
    except InvalidDealError as problem:
        raise EgnError(f"{where}: {problem}") from None
    calls = []
    for index, bid in enumerate(record.bids, 1):
        turn = state.auction.turn
        if bid.seat is not turn:
            raise EgnError(f"{where}: bid {index} is {bid.seat}'s, out of turn ({turn} to bid);"
                           " EGN records bids in turn only")
        try:
            state.bid(bid)
        except IllegalBidError as problem:
            raise EgnError(f"{where}: bid {index}: {problem}") from None
        calls.append(_call(bid))
    if record.discard is not None:
        try:
            state.set_discard(record.discard)
        except InvalidDealError as problem:
            raise EgnError(f"{where}: {problem}") from None
    tricks = []
    for number_in_hand, trick in enumerate(record.tricks, 1):
        for seat, card in trick:
            turn = state.turn
            if seat is not turn:
                raise EgnError(f"{where}: trick {number_in_hand}: {seat} plays {card} out of"
                               f" turn ({turn} to play); EGN lists cards in turn only")
            try:
                state.play(seat, card)
            except IllegalPlayError as problem:
                raise EgnError(f"{where}: trick {number_in_hand}: {problem}") from None
        tricks.append(tuple(card_token(card) for _seat, card in trick))
    contract = state.contract
    bidding = Bidding(
        calls=tuple(calls),
        alone=contract.alone if contract is not None else False,
        discard=None if record.discard is None else card_token(record.discard),
        annotations=notes.call_annotations,
    )
    play = None
    if tricks or notes.play_annotations is not None:
        play = TrickPlay(tricks=tuple(tricks), annotations=notes.play_annotations)
    player_cards = notes.player_cards
    if record.hands is not None:
        player_cards = tuple(
            tuple(card_token(card) for card in record.hands.get(seat, ())) for seat in SEATS
        )
    return EgnDeal(
        number=number if notes.number is None else notes.number,
        dealer=record.dealer,
        up_card=card_token(record.turn_up),
        bidding=bidding,
        play=play,
        player_cards=player_cards,
        alternatives=notes.alternatives,
    )


def _call(bid: Bid) -> str:
    if bid.call is Call.PASS:
        return PASS
    if bid.call is Call.ORDER:
        return ORDER
    assert bid.suit is not None
    return suit_call(bid.suit)


def records_of_game(
    game: EgnGame, base: RuleProfile | None = None
) -> list[tuple[HandRecord, DealNotes]]:
    """Each deal of a game as a hand record, with the notes a record cannot hold."""
    profile = game.ruleset.profile(base)
    out = []
    for index, deal in enumerate(game.deals):
        played = play_deal(deal, profile, f"$.deals[{index}]")
        unknown_hands = deal.player_cards is not None and not any(deal.player_cards)
        out.append((played.record, DealNotes.of(deal, with_hands=unknown_hands)))
    return out


def game_of_records(
    hands: Sequence[tuple[HandRecord, DealNotes | None]],
    metadata: dict[str, Any],
    base: RuleProfile | None = None,
) -> EgnGame:
    """One EGN game of hand records in order, under the ruleset in `metadata` laid over
    `base`; checked as a reader would read it, so what comes out is valid EGN.

    >>> from kiosk.rules.profiles import get_profile
    >>> record = HandRecord.from_json({"dealer": "N", "turn_up": "9H", "tricks": [],
    ...     "bids": [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "order"}]})
    >>> game = game_of_records([(record, None)], {"players": ["A", "B", "C", "D"],
    ...     "initialScore": [0, 0], "ruleset": {"std": False, "canadian": True}})
    >>> game.deals[0].bidding
    Bidding(calls=('Pass', 'Order'), alone=True, discard=None, annotations=None, number=0)
    """
    ruleset = EgnRuleset.from_json(metadata.get("ruleset"))
    profile = ruleset.profile(base)
    deals = tuple(deal_of(record, i, profile, notes) for i, (record, notes) in enumerate(hands))
    game = EgnGame(dict(metadata), ruleset, deals)
    return EgnGame.from_json(game.to_json())  # the reader's checks: names, lengths, limits
