"""Hand records (CONTRACTS.md): load, validate, replay, dump.

`HandRecord.from_json` checks the shape of a record and reads its names;
`replay` feeds it through `HandState`, which checks it against the rules of a
profile.  Anything that cannot be a hand raises `HandRecordError` with a
one-line message naming the problem and where it is; what the rules merely
penalize (a renege, a lead out of turn) replays and is scored.

>>> record = HandRecord.from_json({
...     "dealer": "N", "turn_up": "9H",
...     "bids": [{"seat": "E", "call": "order", "alone": False}],
...     "tricks": [["E:AS", "S:9S", "W:KS", "N:TS", "E:QS"]]})
Traceback (most recent call last):
...
kiosk.rules.record.HandRecordError: trick 1 has 5 cards (at most 4)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.rules.bidding import Bid, Call, IllegalBidError
from kiosk.rules.cards import Card, CardParseError, Seat, Suit
from kiosk.rules.play import TRICKS_PER_HAND, HandState, IllegalPlayError, InvalidDealError
from kiosk.rules.profiles import RuleProfile

SeatCard = tuple[Seat, Card]


class HandRecordError(ValueError):
    """A record that cannot be a hand; the message is one line naming the problem."""


@dataclass(frozen=True)
class HandRecord:
    """One hand as played, in the CONTRACTS format."""

    dealer: Seat
    turn_up: Card
    bids: tuple[Bid, ...]
    tricks: tuple[tuple[SeatCard, ...], ...]
    hands: Mapping[Seat, tuple[Card, ...]] | None = None
    discard: Card | None = None

    @classmethod
    def from_json(cls, data: object) -> HandRecord:
        """Read a decoded JSON object; raise `HandRecordError` on a malformed record.

        Fields other than those of CONTRACTS are ignored (`kiosk read-video`
        adds `result`, for one).
        """
        if not isinstance(data, dict):
            raise HandRecordError(f"a hand record is a JSON object, not {_kind(data)}")
        for key in ("dealer", "turn_up", "bids", "tricks"):
            if key not in data:
                raise HandRecordError(f"the record has no {key!r}")
        dealer = _seat(data["dealer"], "dealer")
        turn_up = _card(data["turn_up"], "turn_up")
        bids = tuple(
            _bid(entry, index) for index, entry in enumerate(_list(data["bids"], "bids"), 1)
        )
        tricks = tuple(
            _trick(entry, number) for number, entry in enumerate(_list(data["tricks"], "tricks"), 1)
        )
        if len(tricks) > TRICKS_PER_HAND:
            raise HandRecordError(
                f"the record has {len(tricks)} tricks (a hand has {TRICKS_PER_HAND})"
            )
        hands: dict[Seat, tuple[Card, ...]] | None = None
        if data.get("hands") is not None:
            raw = data["hands"]
            if not isinstance(raw, dict):
                raise HandRecordError(f"'hands' is an object of seats, not {_kind(raw)}")
            hands = {}
            for seat_text, cards in raw.items():
                seat = _seat(seat_text, "hands")
                if seat in hands:
                    raise HandRecordError(f"'hands' gives {seat} twice")
                hands[seat] = tuple(
                    _card(token, f"hands.{seat_text}")
                    for token in _list(cards, f"hands.{seat_text}")
                )
        discard = None if data.get("discard") is None else _card(data["discard"], "discard")
        return cls(dealer, turn_up, bids, tricks, hands, discard)

    def to_json(self) -> dict[str, Any]:
        """The CONTRACTS form; `from_json(record.to_json()) == record`."""
        out: dict[str, Any] = {
            "dealer": self.dealer.value,
            "turn_up": str(self.turn_up),
            "bids": [bid.to_json() for bid in self.bids],
            "tricks": [[f"{seat}:{card}" for seat, card in trick] for trick in self.tricks],
        }
        if self.hands is not None:
            out["hands"] = {
                seat.value: [str(card) for card in cards]
                for seat, cards in sorted(
                    self.hands.items(), key=lambda item: list(Seat).index(item[0])
                )
            }
        if self.discard is not None:
            out["discard"] = str(self.discard)
        return out


def load_hand_record(text: str) -> HandRecord:
    """Parse JSON text into a record; bad JSON is a `HandRecordError` too.

    >>> load_hand_record('{"dealer": "N"')
    Traceback (most recent call last):
    ...
    kiosk.rules.record.HandRecordError: not valid JSON: Expecting ',' delimiter (line 1, column 15)
    """
    try:
        data = decode_json(text)
    except JsonTextError as problem:
        raise HandRecordError(str(problem)) from None
    return HandRecord.from_json(data)


class JsonTextError(ValueError):
    """Text that is not JSON Python can decode; the message is one line for the user."""


def decode_json(text: str) -> Any:
    """JSON text to Python values, every failure a one-line `JsonTextError`.

    Besides malformed JSON, that covers well-formed JSON past what Python decodes:
    a number of more than 4300 digits, or arrays nested too deep.

    >>> decode_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    kiosk.rules.record.JsonTextError: not valid JSON: nested too deeply
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise JsonTextError(
            f"not valid JSON: {problem.msg} (line {problem.lineno}, column {problem.colno})"
        ) from None
    except RecursionError:
        raise JsonTextError("not valid JSON: nested too deeply") from None
    except ValueError as problem:
        raise JsonTextError(f"not valid JSON: {str(problem).split(':')[0]}") from None


def dump_hand_record(record: HandRecord) -> str:
    """The record as JSON text, one line."""
    return json.dumps(record.to_json())


def replay(record: HandRecord, profile: RuleProfile) -> HandState:
    """Play a record through the rules; raise `HandRecordError` where it cannot be a hand.

    >>> from kiosk.rules.profiles import get_profile
    >>> record = HandRecord.from_json({"dealer": "N", "turn_up": "9H", "tricks": [],
    ...     "bids": [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "order"}]})
    >>> replay(record, get_profile("alberta55")).active_seats   # N sits out: S must go alone
    (<Seat.E: 'E'>, <Seat.S: 'S'>, <Seat.W: 'W'>)
    """
    try:
        state = HandState(profile, record.dealer, record.turn_up, record.hands)
    except InvalidDealError as problem:
        raise HandRecordError(str(problem)) from None
    for index, bid in enumerate(record.bids, 1):
        try:
            state.bid(bid)
        except IllegalBidError as problem:
            raise HandRecordError(f"bid {index}: {problem}") from None
    if not state.auction.is_over and state.auction.pending_penalty is None:
        raise HandRecordError(
            f"bidding is unfinished after {len(record.bids)} bids ({state.auction.turn} to bid)"
        )
    if record.discard is not None:
        try:
            state.set_discard(record.discard)
        except InvalidDealError as problem:
            raise HandRecordError(str(problem)) from None
    if record.tricks and state.contract is None:
        why = "the hand was passed out" if state.auction.passed_out else "no trump was made"
        raise HandRecordError(f"the record has tricks, but {why}")
    for number, trick in enumerate(record.tricks, 1):
        for seat, card in trick:
            try:
                state.play(seat, card)
            except IllegalPlayError as problem:
                raise HandRecordError(f"trick {number}: {problem}") from None
        if (state.current or not trick) and number < len(record.tricks):
            raise HandRecordError(
                f"trick {number} has {len(trick)} cards,"
                f" but {len(state.active_seats)} players play to each trick"
            )
    return state


# --- reading the pieces --------------------------------------------------------
def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "null" if value is None else "a number"
    )


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise HandRecordError(f"{where!r} is a list, not {_kind(value)}")
    return value


def _seat(value: object, where: str) -> Seat:
    try:
        return Seat.parse(value)  # type: ignore[arg-type]
    except ValueError as problem:
        raise HandRecordError(f"{where}: {problem}") from None


def _card(value: object, where: str) -> Card:
    try:
        return Card.parse(value)  # type: ignore[arg-type]
    except CardParseError as problem:
        raise HandRecordError(f"{where}: {problem}") from None


def _bid(entry: object, index: int) -> Bid:
    where = f"bid {index}"
    if not isinstance(entry, dict):
        raise HandRecordError(f'{where} is an object like {{"seat": "E", "call": "pass"}}')
    seat = _seat(entry.get("seat"), where)
    try:
        call = Call(entry.get("call"))
    except ValueError:
        raise HandRecordError(
            f"{where}: call {entry.get('call')!r} is not one of pass, order, name"
        ) from None
    suit = None
    if entry.get("suit") is not None:
        try:
            suit = Suit.parse(entry["suit"])
        except CardParseError as problem:
            raise HandRecordError(f"{where}: {problem}") from None
    alone = entry.get("alone", False)
    if not isinstance(alone, bool):
        raise HandRecordError(f"{where}: 'alone' is true or false, not {alone!r}")
    try:
        return Bid(seat, call, suit, alone)
    except IllegalBidError as problem:
        raise HandRecordError(f"{where}: {problem}") from None


def _trick(entry: object, number: int) -> tuple[SeatCard, ...]:
    plays = _list(entry, f"trick {number}")
    if len(plays) > 4:
        raise HandRecordError(f"trick {number} has {len(plays)} cards (at most 4)")
    out = []
    for token in plays:
        if not isinstance(token, str) or token.count(":") != 1:
            raise HandRecordError(f"trick {number}: {token!r} is not SEAT:CARD")
        seat_text, card_text = token.split(":")
        out.append((_seat(seat_text, f"trick {number}"), _card(card_text, f"trick {number}")))
    return tuple(out)
