"""What the trick reader tells the table session, and nothing more.

The reader only reports what the camera saw (a card in a seat's zone, a card
of a trick already taken in read again as another, the trick complete, the
trick pushed away, the turn-up on the kitty shown, taken or turned down, a
warning); the table session decides what that means for the game. These values
cross into the session's journal, so each has a stable JSON form (`to_json` /
`event_from_json`) and a `key` that is the same every time the same sighting is
reported: a reader that restarts and sends an event again is then not counted twice.

`t` is the reader's clock in seconds (video time or camera time since start),
not wall time: it orders events and makes their keys unique.

>>> e = CardPlayed(seat="N", card="JH", t=12.5, confidence=0.93)
>>> event_from_json(e.to_json()) == e
True
>>> e.key
'card:N:JH:12.500'
>>> r = CardReread(trick=1, seat="N", card="TH", was="9H", t=40.0, confidence=0.8)
>>> event_from_json(r.to_json()) == r
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from kiosk.rules.cards import Card, Seat


@dataclass(frozen=True)
class CardPlayed:
    """A card came to rest in a seat's zone and stayed there for a few frames."""

    seat: str
    card: str
    t: float
    confidence: float
    kind: ClassVar[str] = "card_played"

    @property
    def key(self) -> str:
        """Idempotency key: the same sighting reported twice has the same key."""
        return f"card:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class CardReread:
    """A card of a trick already taken in (``trick``, 1 = the hand's first) is now read
    as ``card``, not ``was``: ``was`` was read far more surely on a later card, and
    ``card`` had also been read on this one. The session fixes its record, as a player's
    tap would; the reader asks the players to check it (a ``ReaderWarning`` with
    ``trick``)."""

    trick: int
    seat: str
    card: str
    was: str
    t: float
    confidence: float
    kind: ClassVar[str] = "card_reread"

    @property
    def key(self) -> str:
        return f"reread:{self.trick}:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class TrickComplete:
    """Every seat that plays this hand has a card down (the trick is full)."""

    t: float
    kind: ClassVar[str] = "trick_complete"

    @property
    def key(self) -> str:
        return f"complete:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class TrickCleared:
    """The cards of the trick left the play area (raked in by the winner)."""

    t: float
    kind: ClassVar[str] = "trick_cleared"

    @property
    def key(self) -> str:
        return f"cleared:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


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

    >>> e = KittySeen(seat="N", card="9H", change=KittyChange.TAKEN, t=8.0, confidence=0.9)
    >>> event_from_json(e.to_json()) == e, e.key
    (True, 'kitty:taken:N:9H:8.000')
    """

    seat: str
    card: str
    change: KittyChange
    t: float
    confidence: float
    kind: ClassVar[str] = "kitty"

    @property
    def key(self) -> str:
        return f"kitty:{self.change}:{self.seat}:{self.card}:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self), "change": str(self.change)}


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
    in one zone, a card it cannot name. `kind` is a short code (:class:`WarningKind`,
    or another such as `camera_lost`). `trick` (1 = the hand's first) is set when the
    warning is about a trick already taken in rather than the one on the table:
    a card read twice in a hand means one of the two reads is wrong, and the
    earlier one may be it.

    The reader's warnings carry facts, and :attr:`message` says them in words
    (:func:`kiosk.vision.wording.narrate`): `card` the card it is about, `other` the other
    card it names (the second name read, the card taken back, the name read before),
    `other_seat` the other seat it names (the seat whose turn it was; for `seen_twice`,
    the other seat showing the card), `other_trick` the trick that other card is in.
    `note` is a sentence given by whoever raised a warning without such facts (a camera
    check), and wins over the narration. `seat` stays a seat letter, as the table session
    reads it.

    >>> w = ReaderWarning(WarningKind.CARD_REPLACED, "", "E", 4.0,
    ...                   card=Card.parse("TS"), other=Card.parse("9C"))
    >>> w.message
    'East took back the nine of clubs and played the ten of spades instead.'
    >>> event_from_json(w.to_json()) == w
    True
    """

    kind: str
    note: str
    seat: str | None
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

    def to_json(self) -> dict[str, Any]:
        # `kind` is a field here, so the JSON tag goes under its own name.
        data: dict[str, Any] = {"kind": "reader_warning", "warning": str(self.kind),
                                "message": self.message, "seat": self.seat, "t": self.t}
        if self.trick is not None:
            data["trick"] = self.trick
        for name in ("card", "other", "other_seat"):
            value = getattr(self, name)
            if value is not None:
                data[name] = str(value)
        if self.other_trick is not None:
            data["other_trick"] = self.other_trick
        return data


_KINDS = frozenset(kind.value for kind in WarningKind)


def _warning_from_json(data: dict[str, Any]) -> ReaderWarning:
    """A warning from its JSON; its words are its facts' narration, unless the words kept
    say otherwise (a camera check's sentence, or a journal written before the facts)."""
    seat, trick, other_trick = data.get("seat"), data.get("trick"), data.get("other_trick")
    card, other, other_seat = data.get("card"), data.get("other"), data.get("other_seat")
    kind = str(data["warning"])
    warning = ReaderWarning(
        kind=WarningKind(kind) if kind in _KINDS else kind,
        note="", seat=None if seat is None else str(seat), t=float(data["t"]),
        trick=None if trick is None else int(trick),
        card=None if card is None else Card.parse(card),
        other=None if other is None else Card.parse(other),
        other_seat=None if other_seat is None else Seat.parse(other_seat),
        other_trick=None if other_trick is None else int(other_trick))
    said = str(data.get("message", ""))
    return warning if said == warning.message else replace(warning, note=said)


VisionEvent = (CardPlayed | CardReread | TrickComplete | TrickCleared | ReaderWarning
               | KittySeen)


def event_from_json(data: dict[str, Any]) -> VisionEvent:
    """Rebuild an event from its `to_json()` form (the journal's payload)."""
    kind = data.get("kind")
    if kind == "card_played":
        return CardPlayed(seat=str(data["seat"]), card=str(data["card"]),
                          t=float(data["t"]), confidence=float(data["confidence"]))
    if kind == "card_reread":
        return CardReread(trick=int(data["trick"]), seat=str(data["seat"]),
                          card=str(data["card"]), was=str(data["was"]), t=float(data["t"]),
                          confidence=float(data["confidence"]))
    if kind == "trick_complete":
        return TrickComplete(t=float(data["t"]))
    if kind == "trick_cleared":
        return TrickCleared(t=float(data["t"]))
    if kind == "reader_warning":
        return _warning_from_json(data)
    if kind == "kitty":
        return KittySeen(seat=str(data["seat"]), card=str(data["card"]),
                         change=KittyChange(data["change"]), t=float(data["t"]),
                         confidence=float(data["confidence"]))
    raise ValueError(f"not a vision event: {data!r}")
