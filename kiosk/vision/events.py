"""What the trick reader tells the table session, and nothing more.

The reader only reports what the camera saw (a card in a seat's zone, a card
of a trick already taken in read again as another, the trick complete, the
trick pushed away, a warning); the table session decides
what that means for the game. These values cross into the session's journal,
so each has a stable JSON form (`to_json` / `event_from_json`) and a `key`
that is the same every time the same sighting is reported: a reader that
restarts and sends an event again is then not counted twice.

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

from dataclasses import asdict, dataclass
from typing import Any, ClassVar


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


@dataclass(frozen=True)
class ReaderWarning:
    """Something the reader could not settle alone: a blocked view, two cards
    in one zone, a card it cannot name. `kind` is a short code such as
    `occluded`, `ambiguous`, `unreadable`, `camera_lost`; `message` is plain
    words a player can act on. `trick` (1 = the hand's first) is set when the
    warning is about a trick already taken in rather than the one on the table:
    a card read twice in a hand means one of the two reads is wrong, and the
    earlier one may be it."""

    kind: str
    message: str
    seat: str | None
    t: float
    trick: int | None = None

    @property
    def key(self) -> str:
        about = "" if self.trick is None else f":trick{self.trick}"
        return f"warning:{self.kind}:{self.seat or '-'}{about}:{self.t:.3f}"

    def to_json(self) -> dict[str, Any]:
        # `kind` is a field here, so the JSON tag goes under its own name.
        data: dict[str, Any] = {"kind": "reader_warning", "warning": self.kind,
                                "message": self.message, "seat": self.seat, "t": self.t}
        if self.trick is not None:
            data["trick"] = self.trick
        return data


VisionEvent = CardPlayed | CardReread | TrickComplete | TrickCleared | ReaderWarning


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
        seat, trick = data.get("seat"), data.get("trick")
        return ReaderWarning(kind=str(data["warning"]), message=str(data["message"]),
                             seat=None if seat is None else str(seat), t=float(data["t"]),
                             trick=None if trick is None else int(trick))
    raise ValueError(f"not a vision event: {data!r}")
