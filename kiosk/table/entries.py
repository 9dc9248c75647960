"""What the table's journal holds: one typed value per kind of entry, each with its one
JSON form (`to_json` / `from_json`). The session records these and folds them back in
(kiosk.table.session), live and on replay alike, through one table of kinds
(:data:`ENTRY_TYPES`) rather than a chain of string tests.

The JSON of each is the payload the journal has always kept under its kind (``bid``,
``vision``, ``markers`` ...): journals written before these types replay unchanged
(tests/table/test_old_journals.py).

>>> bid = BidSpoken(hand=1, bid=Bid(Seat.E, Call.NAME, Suit.SPADES))
>>> bid.to_json()
{'hand': 1, 'seat': 'E', 'call': 'name', 'alone': False, 'suit': 'S'}
>>> read_entry("bid", bid.to_json()) == bid
True
>>> read_entry("vision", {"source": "cam", "event": {"kind": "trick_cleared", "t": 3.0}})
VisionSeen(source='cam', event=TrickCleared(t=3.0))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import Card, Seat, Suit, Team
from kiosk.table.setup import TableSetup
from kiosk.vision.events import JsonObject, VisionEvent, event_from_json


def _int(data: Mapping[str, object], name: str) -> int:
    return int(str(data[name]))


def _seat(data: Mapping[str, object], name: str = "seat") -> Seat:
    return Seat.parse(str(data[name]))


def _card(data: Mapping[str, object], name: str = "card") -> Card:
    return Card.parse(str(data[name]))


def _object(value: object) -> JsonObject:
    assert isinstance(value, dict), f"not a JSON object: {value!r}"
    return {str(k): v for k, v in value.items()}


@dataclass(frozen=True)
class SetupChosen:
    """What the table plays (``setup``)."""

    setup: TableSetup
    kind: ClassVar[str] = "setup"

    def to_json(self) -> JsonObject:
        return dict(self.setup.to_json())

    @classmethod
    def from_json(cls, data: JsonObject) -> SetupChosen:
        return cls(TableSetup.from_json(data))


@dataclass(frozen=True)
class GameStarted:
    """The first dealer was drawn; the clock starts (``start``)."""

    dealer: Seat
    kind: ClassVar[str] = "start"

    def to_json(self) -> JsonObject:
        return {"dealer": str(self.dealer)}

    @classmethod
    def from_json(cls, data: JsonObject) -> GameStarted:
        return cls(_seat(data, "dealer"))


@dataclass(frozen=True)
class TurnUpSeen:
    """The turn-up of hand ``hand``, tapped in or read by the camera (``turn_up``)."""

    hand: int
    card: Card
    source: str = "tap"
    kind: ClassVar[str] = "turn_up"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand, "card": str(self.card), "source": self.source}

    @classmethod
    def from_json(cls, data: JsonObject) -> TurnUpSeen:
        return cls(_int(data, "hand"), _card(data), str(data.get("source", "tap")))


@dataclass(frozen=True)
class BidSpoken:
    """The seat on turn spoke (``bid``): ``pass``, ``order`` or ``name`` a suit."""

    hand: int
    bid: Bid
    kind: ClassVar[str] = "bid"

    def to_json(self) -> JsonObject:
        bid = self.bid
        data: JsonObject = {"hand": self.hand, "seat": str(bid.seat), "call": bid.call.value,
                            "alone": bid.alone}
        if bid.suit is not None:
            data["suit"] = str(bid.suit)
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> BidSpoken:
        suit = data.get("suit")
        return cls(_int(data, "hand"),
                   Bid(_seat(data), Call(str(data["call"])),
                       None if suit is None else Suit.parse(str(suit)),
                       bool(data.get("alone", False))))


@dataclass(frozen=True)
class Undone:
    """A set-up step taken back (``undo``): the entry ``seq`` no longer counts."""

    seq: int
    kind: ClassVar[str] = "undo"

    def to_json(self) -> JsonObject:
        return {"seq": self.seq}

    @classmethod
    def from_json(cls, data: JsonObject) -> Undone:
        return cls(_int(data, "seq"))


@dataclass(frozen=True)
class VisionSeen:
    """What the trick reader of run ``source`` reported (``vision``)."""

    source: str
    event: VisionEvent
    kind: ClassVar[str] = "vision"

    def to_json(self) -> JsonObject:
        return {"source": self.source, "event": self.event.to_json()}

    @classmethod
    def from_json(cls, data: JsonObject) -> VisionSeen:
        return cls(str(data["source"]), event_from_json(_object(data["event"])))


@dataclass(frozen=True)
class CardFixed:
    """The players set ``seat``'s card in ``trick`` (``correct``): a fix, a card added,
    a card kept against the camera, or (``undo_of``: that fix's seq) a fix taken back."""

    hand: int
    trick: int
    seat: Seat
    card: Card
    undo_of: int = 0
    kind: ClassVar[str] = "correct"

    def to_json(self) -> JsonObject:
        data: JsonObject = {"hand": self.hand, "trick": self.trick, "seat": str(self.seat),
                            "card": str(self.card)}
        if self.undo_of:
            data["undo_of"] = self.undo_of
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> CardFixed:
        return cls(_int(data, "hand"), _int(data, "trick"), _seat(data), _card(data),
                   int(str(data.get("undo_of", 0))))


@dataclass(frozen=True)
class RenegeChosen:
    """How the players settled a proven renege (``renege_choice``)."""

    hand: int
    choice: str
    kind: ClassVar[str] = "renege_choice"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand, "choice": self.choice}

    @classmethod
    def from_json(cls, data: JsonObject) -> RenegeChosen:
        return cls(_int(data, "hand"), str(data["choice"]))


@dataclass(frozen=True)
class DirectorCalled:
    """The players called the director during hand ``hand`` (0: between hands)."""

    hand: int
    kind: ClassVar[str] = "director_called"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand}

    @classmethod
    def from_json(cls, data: JsonObject) -> DirectorCalled:
        return cls(_int(data, "hand"))


@dataclass(frozen=True)
class DirectorCancelled:
    """The players withdrew their call (``director_cancelled``)."""

    hand: int
    kind: ClassVar[str] = "director_cancelled"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand}

    @classmethod
    def from_json(cls, data: JsonObject) -> DirectorCancelled:
        return cls(_int(data, "hand"))


@dataclass(frozen=True)
class FivesRead:
    """What the camera read of each side's 5s after ``hand`` hands were scored (None: not
    read), with the kiosk's score then (``markers``; kiosk.table.markers)."""

    hand: int
    fives: Mapping[Team, int | None]
    kiosk: Mapping[Team, int]
    kind: ClassVar[str] = "markers"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand, "fives": {str(k): v for k, v in self.fives.items()},
                "kiosk": {str(k): v for k, v in self.kiosk.items()}}

    @classmethod
    def from_json(cls, data: JsonObject) -> FivesRead:
        fives, kiosk = _object(data["fives"]), _object(data["kiosk"])
        return cls(_int(data, "hand"),
                   {Team(k): (None if v is None else int(str(v))) for k, v in fives.items()},
                   {Team(k): int(str(v)) for k, v in kiosk.items()})


@dataclass(frozen=True)
class FivesAnswered:
    """The players' answer for a side's 5s that differ: ``kiosk`` or ``fives``
    (``markers_answer``)."""

    hand: int
    side: Team
    answer: str
    kind: ClassVar[str] = "markers_answer"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand, "side": str(self.side), "answer": self.answer}

    @classmethod
    def from_json(cls, data: JsonObject) -> FivesAnswered:
        return cls(_int(data, "hand"), Team(str(data["side"])), str(data["answer"]))


@dataclass(frozen=True)
class HandEnded:
    """Hand ``hand`` is scored; the deal passes to the left (``next_hand``)."""

    hand: int
    kind: ClassVar[str] = "next_hand"

    def to_json(self) -> JsonObject:
        return {"hand": self.hand}

    @classmethod
    def from_json(cls, data: JsonObject) -> HandEnded:
        return cls(_int(data, "hand"))


@dataclass(frozen=True)
class _Bare:
    """An entry that is its kind alone (an empty payload)."""

    kind: ClassVar[str] = ""

    def to_json(self) -> JsonObject:
        return {}


@dataclass(frozen=True)
class GameEnded(_Bare):
    """Play stopped: a side won, or time is up between hands (``end_game``)."""

    kind: ClassVar[str] = "end_game"

    @classmethod
    def from_json(cls, data: JsonObject) -> GameEnded:
        return cls()


@dataclass(frozen=True)
class Submitted(_Bare):
    """The confirmed result went to the outbox (``submitted``)."""

    kind: ClassVar[str] = "submitted"

    @classmethod
    def from_json(cls, data: JsonObject) -> Submitted:
        return cls()


@dataclass(frozen=True)
class NewGame(_Bare):
    """The table starts its next game in the same journal (``new_game``)."""

    kind: ClassVar[str] = "new_game"

    @classmethod
    def from_json(cls, data: JsonObject) -> NewGame:
        return cls()


@dataclass(frozen=True)
class Confirmed:
    """A team agrees with the final score (``confirm``)."""

    side: Team
    kind: ClassVar[str] = "confirm"

    def to_json(self) -> JsonObject:
        return {"side": str(self.side)}

    @classmethod
    def from_json(cls, data: JsonObject) -> Confirmed:
        return cls(Team(str(data["side"])))


@dataclass(frozen=True)
class Unconfirmed:
    """A team takes its agreement back (``unconfirm``)."""

    side: Team
    kind: ClassVar[str] = "unconfirm"

    def to_json(self) -> JsonObject:
        return {"side": str(self.side)}

    @classmethod
    def from_json(cls, data: JsonObject) -> Unconfirmed:
        return cls(Team(str(data["side"])))


JournalEvent = (SetupChosen | GameStarted | TurnUpSeen | BidSpoken | Undone | VisionSeen
                | CardFixed | RenegeChosen | DirectorCalled | DirectorCancelled | FivesRead
                | FivesAnswered | HandEnded | GameEnded | Confirmed | Unconfirmed | Submitted
                | NewGame)

#: every kind of entry, by the name the journal keeps it under
ENTRY_TYPES: dict[str, Callable[[JsonObject], JournalEvent]] = {
    cls.kind: cls.from_json for cls in (
        SetupChosen, GameStarted, TurnUpSeen, BidSpoken, Undone, VisionSeen, CardFixed,
        RenegeChosen, DirectorCalled, DirectorCancelled, FivesRead, FivesAnswered,
        HandEnded, GameEnded, Confirmed, Unconfirmed, Submitted, NewGame)
}


def read_entry(kind: str, payload: JsonObject) -> JournalEvent:
    """The typed value of one journal entry; ValueError for a kind no kiosk wrote."""
    read = ENTRY_TYPES.get(kind)
    if read is None:
        raise ValueError(f"unknown journal entry {kind!r}")
    return read(payload)
