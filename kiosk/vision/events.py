"""What the trick reader tells the table session, and nothing more.

The reader only reports what the camera saw (a card in a seat's zone, a card
of a trick already taken in read again as another, the trick complete, the
trick pushed away, the turn-up on the kitty shown, taken or turned down, a
warning); the table session decides what that means for the game. These values
cross into the session's journal, so each has a stable JSON form (`to_json` /
`from_json`, and :func:`event_from_json` for any of them) and a `key` that is the
same every time the same sighting is reported: a reader that restarts and sends an
event again is then not counted twice.

A seat is a :class:`Seat`. A card's face is a :data:`Face`: the rules engine's
:class:`Card` when the detector's name is one, else the detector's own name (what is
not a card, such as ``back``), kept as read. The JSON writes both as their codes.

`t` is the reader's clock in seconds (video time or camera time since start),
not wall time: it orders events and makes their keys unique.

>>> e = CardPlayed(seat=Seat.N, card=face("JH"), t=12.5, confidence=0.93)
>>> event_from_json(e.to_json()) == e, e.card
(True, Card.parse('JH'))
>>> e.key
'card:N:JH:12.500'
>>> r = CardReread(trick=1, seat=Seat.N, card=face("TH"), was=face("9H"), t=40.0,
...                confidence=0.8)
>>> event_from_json(r.to_json()) == r
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from kiosk.rules.cards import Card, CardParseError, Seat

#: A JSON object as the journal keeps it.
JsonObject = dict[str, object]

#: What the detector named a card's face: a `Card`, or its own name for what is none.
Face = Card | str


def face(name: str) -> Face:
    """The face the detector named ``name``: a `Card` when the name is one, written as the
    card writes itself (so the event's key and JSON are the name as read), else the name.

    >>> face("AS"), face("back"), face("10H")
    (Card.parse('AS'), 'back', '10H')
    """
    try:
        card = Card.parse(name)
    except CardParseError:
        return name
    return card if str(card) == name else name


def as_card(seen: Face) -> Card | None:
    """The card a face shows, read as a player's tap would be ('10H', 'jh'); None when
    it is no card at all.

    >>> as_card(face("10H")), as_card("back")
    (Card.parse('TH'), None)
    """
    if isinstance(seen, Card):
        return seen
    try:
        return Card.parse(seen)
    except CardParseError:
        return None


def _number(data: JsonObject, name: str) -> float:
    value = data[name]
    assert isinstance(value, int | float), f"{name} is not a number: {value!r}"
    return float(value)


def _text(data: JsonObject, name: str) -> str:
    return str(data[name])


def _int_or_none(value: object) -> int | None:
    return None if value is None else int(str(value))


@dataclass(frozen=True)
class CardPlayed:
    """A card came to rest in a seat's zone and stayed there for a few frames."""

    seat: Seat
    card: Face
    t: float
    confidence: float
    kind: ClassVar[str] = "card_played"

    @property
    def key(self) -> str:
        """Idempotency key: the same sighting reported twice has the same key."""
        return f"card:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "seat": str(self.seat), "card": str(self.card),
                "t": self.t, "confidence": self.confidence}

    @classmethod
    def from_json(cls, data: JsonObject) -> CardPlayed:
        return cls(seat=Seat.parse(_text(data, "seat")), card=face(_text(data, "card")),
                   t=_number(data, "t"), confidence=_number(data, "confidence"))


@dataclass(frozen=True)
class CardReread:
    """A card of a trick already taken in (``trick``, 1 = the hand's first) is now read
    as ``card``, not ``was``: ``was`` was read far more surely on a later card, and
    ``card`` had also been read on this one. The session fixes its record, as a player's
    tap would; the reader asks the players to check it (a ``ReaderWarning`` with
    ``trick``)."""

    trick: int
    seat: Seat
    card: Face
    was: Face
    t: float
    confidence: float
    kind: ClassVar[str] = "card_reread"

    @property
    def key(self) -> str:
        return f"reread:{self.trick}:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "trick": self.trick, "seat": str(self.seat),
                "card": str(self.card), "was": str(self.was), "t": self.t,
                "confidence": self.confidence}

    @classmethod
    def from_json(cls, data: JsonObject) -> CardReread:
        return cls(trick=int(_number(data, "trick")), seat=Seat.parse(_text(data, "seat")),
                   card=face(_text(data, "card")), was=face(_text(data, "was")),
                   t=_number(data, "t"), confidence=_number(data, "confidence"))


@dataclass(frozen=True)
class TrickComplete:
    """Every seat that plays this hand has a card down (the trick is full)."""

    t: float
    kind: ClassVar[str] = "trick_complete"

    @property
    def key(self) -> str:
        return f"complete:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "t": self.t}

    @classmethod
    def from_json(cls, data: JsonObject) -> TrickComplete:
        return cls(t=_number(data, "t"))


@dataclass(frozen=True)
class TrickCleared:
    """The cards of the trick left the play area (raked in by the winner)."""

    t: float
    kind: ClassVar[str] = "trick_cleared"

    @property
    def key(self) -> str:
        return f"cleared:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "t": self.t}

    @classmethod
    def from_json(cls, data: JsonObject) -> TrickCleared:
        return cls(t=_number(data, "t"))


class KittyChange(StrEnum):
    """What the camera saw happen to the turn-up on the kitty beside the dealer."""

    SHOWN = "shown"  #: a card lies face up on the kitty: the turn-up, read
    TAKEN = "taken"  #: it was carried off the kitty (the dealer picked it up)
    TURNED_DOWN = "turned_down"  #: it was turned face down where it lay


@dataclass(frozen=True)
class KittySeen:
    """The kitty beside the dealer (``seat``), in the band between the dealer's zone and
    the edge, where no card is played: its face-up card ``card`` read, taken or turned
    down (:class:`KittyChange`). The reader says what it saw; the table session weighs it
    against the bids.

    >>> e = KittySeen(seat=Seat.N, card=face("9H"), change=KittyChange.TAKEN, t=8.0,
    ...               confidence=0.9)
    >>> event_from_json(e.to_json()) == e, e.key
    (True, 'kitty:taken:N:9H:8.000')
    """

    seat: Seat
    card: Face
    change: KittyChange
    t: float
    confidence: float
    kind: ClassVar[str] = "kitty"

    @property
    def key(self) -> str:
        return f"kitty:{self.change}:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "seat": str(self.seat), "card": str(self.card),
                "change": str(self.change), "t": self.t, "confidence": self.confidence}

    @classmethod
    def from_json(cls, data: JsonObject) -> KittySeen:
        return cls(seat=Seat.parse(_text(data, "seat")), card=face(_text(data, "card")),
                   change=KittyChange(_text(data, "change")), t=_number(data, "t"),
                   confidence=_number(data, "confidence"))


class WarningKind(StrEnum):
    """What a ``ReaderWarning`` is about; its value is the code the journal keeps."""

    AMBIGUOUS = "ambiguous"  #: two names fight for one seat's card
    UNREADABLE = "unreadable"  #: something lies in a seat that cannot be read
    SEEN_TWICE = "seen_twice"  #: a card already played this hand is read again
    NOT_EUCHRE = "not_euchre"  #: a card outside the euchre deck holds a seat
    OUT_OF_TURN = "out_of_turn"  #: a card came down out of turn
    CARD_REPLACED = "card_replaced"  #: a card was taken back and another played instead
    MISSING_CARD = "missing_card"  #: a trick was taken in without a seat's card
    OCCLUDED = "occluded"  #: the trick's cards are hidden too long
    UNSURE = "unsure"  #: a card reported on thin evidence
    CAMERA_MOVED = "camera_moved"  #: the camera no longer sees the mat where it was


@dataclass(frozen=True)
class ReaderWarning:
    """Something the reader could not settle alone: a blocked view, two cards
    in one zone, a card it cannot name. `kind` says which (:class:`WarningKind`).
    `trick` (1 = the hand's first) is set when the warning is about a trick already
    taken in rather than the one on the table: a card read twice in a hand means one
    of the two reads is wrong, and the earlier one may be it.

    The reader's warnings carry facts, and :attr:`message` says them in words
    (:func:`kiosk.vision.wording.narrate`): `seat` the seat it is about, `card` the card
    it is about, `other` the other card it names (the second name read, the card taken
    back, the name read before), `other_seat` the other seat it names (the seat whose
    turn it was; for `seen_twice`, the other seat showing the card), `other_trick` the
    trick that other card is in. `note` is a sentence given by whoever raised a warning
    without such facts (a camera check), and wins over the narration.

    >>> w = ReaderWarning(WarningKind.CARD_REPLACED, "", Seat.E, 4.0,
    ...                   card=Card.parse("TS"), other=Card.parse("9C"))
    >>> w.message
    'East took back the nine of clubs and played the ten of spades instead.'
    >>> event_from_json(w.to_json()) == w
    True
    """

    kind: WarningKind
    note: str
    seat: Seat | None
    t: float
    trick: int | None = None
    card: Card | None = None
    other: Card | None = None
    other_seat: Seat | None = None
    other_trick: int | None = None

    @property
    def message(self) -> str:
        """Plain words a player can act on."""
        if self.note:
            return self.note
        from kiosk.vision.wording import narrate  # (the words need the facts' names)

        return narrate(self)

    @property
    def key(self) -> str:
        about = "" if self.trick is None else f":trick{self.trick}"
        return f"warning:{self.kind}:{self.seat or '-'}{about}:{self.t:.3f}"

    def to_json(self) -> JsonObject:
        # `kind` is a field here, so the JSON tag goes under its own name. The words go
        # with the facts: a kiosk that reads the journal later says what was shown.
        data: JsonObject = {"kind": "reader_warning", "warning": str(self.kind),
                            "message": self.message,
                            "seat": None if self.seat is None else str(self.seat),
                            "t": self.t}
        if self.trick is not None:
            data["trick"] = self.trick
        for name, value in (("card", self.card), ("other", self.other),
                            ("other_seat", self.other_seat)):
            if value is not None:
                data[name] = str(value)
        if self.other_trick is not None:
            data["other_trick"] = self.other_trick
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> ReaderWarning:
        """A warning from its JSON; its words are its facts' narration, unless the words
        kept say otherwise (a camera check's sentence, or a journal written before the
        facts)."""
        seat, card, other, other_seat = (data.get(name) for name in
                                         ("seat", "card", "other", "other_seat"))
        warning = cls(
            kind=WarningKind(_text(data, "warning")), note="",
            seat=None if seat is None else Seat.parse(str(seat)), t=_number(data, "t"),
            trick=_int_or_none(data.get("trick")),
            card=None if card is None else Card.parse(str(card)),
            other=None if other is None else Card.parse(str(other)),
            other_seat=None if other_seat is None else Seat.parse(str(other_seat)),
            other_trick=_int_or_none(data.get("other_trick")))
        said = str(data.get("message", ""))
        return warning if said == warning.message else replace(warning, note=said)


VisionEvent = (CardPlayed | CardReread | TrickComplete | TrickCleared | ReaderWarning
               | KittySeen)

#: each event's JSON tag, and how to read it back
_FROM_JSON: dict[str, Callable[[JsonObject], VisionEvent]] = {
    CardPlayed.kind: CardPlayed.from_json,
    CardReread.kind: CardReread.from_json,
    TrickComplete.kind: TrickComplete.from_json,
    TrickCleared.kind: TrickCleared.from_json,
    KittySeen.kind: KittySeen.from_json,
    "reader_warning": ReaderWarning.from_json,
}


def event_from_json(data: JsonObject) -> VisionEvent:
    """Rebuild an event from its `to_json()` form (the journal's payload)."""
    read = _FROM_JSON.get(str(data.get("kind")))
    if read is None:
        raise ValueError(f"not a vision event: {data!r}")
    return read(data)
