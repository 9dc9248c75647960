"""What the session keeps of a game: the hand in play, the hands finished, the players'
corrections and the notices shown to them. Plain values, rebuilt from the journal."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kiosk.rules.bidding import Bid
from kiosk.rules.cards import Card, Seat
from kiosk.rules.record import SeatCard
from kiosk.table import referee
from kiosk.vision.events import KittyChange


@dataclass
class HandLog:
    """What was seen and tapped during one hand; the referee turns it into a game."""

    number: int
    dealer: Seat
    turn_up: Card | None = None
    turn_up_source: str = ""  #: 'camera' when the camera read it, else who tapped it
    #: what the camera saw become of the turn-up: taken, turned down (None: not seen)
    kitty_seen: KittyChange | None = None
    bids: list[Bid] = field(default_factory=list)
    plays: list[SeatCard] = field(default_factory=list)  # in play order
    pending: dict[Seat, Card] = field(default_factory=dict)  # seen before that seat's turn
    renege_choice: str | None = None
    director_called: bool = False
    cleared: int = 0  # completed tricks the camera saw pushed away
    view: referee.HandView | None = None
    #: journal seq of the last change to the cards on the table: a notice older than it
    #: speaks of a table that has moved on
    changed_at: int = 0
    #: (trick, seat) -> the card the players set there (fixed, or kept against the
    #: camera): it outranks every later camera read of that card
    fixed: dict[tuple[int, Seat], Card] = field(default_factory=dict)
    #: the camera's second thought about a card of a finished trick, put to the players
    suggestion: Suggestion | None = None
    #: a camera read of a later card that waits on the players' answer to `suggestion`
    held_back: SeatCard | None = None


@dataclass(frozen=True)
class Suggestion:
    """The camera now reads a card of a finished trick as another card: asked, never
    applied by itself (kiosk.table.fixing)."""

    trick: int
    seat: Seat
    card: Card  # what the camera reads now
    was: Card  # what the record holds
    #: the table's own question, not the camera's: a renege hangs on this card, and would
    #: vanish were it its same-colour twin (``card``; kiosk.table.twins)
    twin: bool = False


@dataclass(frozen=True)
class FinishedHand:
    number: int
    dealer: Seat
    record: dict[str, Any]
    result: dict[str, Any]
    points: dict[str, int]


@dataclass(frozen=True)
class Correction:
    hand: int
    trick: int
    seat: Seat
    was: Card | None
    card: Card
    seq: int
    #: the seq of the fix this one takes back (0: a fix of its own)
    undo_of: int = 0

    def to_json(self) -> dict[str, object]:
        """As the director's result lists it (CONTRACTS: ``corrections``)."""
        return {"hand": self.hand, "trick": self.trick, "seat": str(self.seat),
                "was": None if self.was is None else str(self.was), "card": str(self.card),
                "seq": self.seq, "undo_of": self.undo_of}


class NoticeAbout(StrEnum):
    """What a notice to the players is about."""

    READER = "reader"  #: the reader's own warning (``words``: its message)
    UNNAMED = "unnamed"  #: something in front of ``seat`` the camera cannot name
    READ_AGAIN = "read_again"  #: ``seat``'s card in the open trick read as ``card``, not ``other``
    BEFORE_LEAD = "before_lead"  #: ``seat``'s card came before ``leader`` led
    REFUSED = "refused"  #: a card seen that the rules refuse (``refusal``: why)
    #: ``seat``'s card in ``trick`` read as ``card`` now, which the rules refuse (``refusal``)
    REREAD_REFUSED = "reread_refused"


@dataclass(frozen=True)
class Notice:
    """A message for the players, as facts (a camera warning, a reading the table made
    or refused); kiosk.app.words.notice_words says it."""

    about: NoticeAbout
    seat: Seat | None
    seq: int
    hand: int
    kind: str = ""  #: the reader's warning kind ('camera_moved', ...), '' for the session's
    card: Card | None = None
    other: Card | None = None  #: the card the record held (READ_AGAIN)
    leader: Seat | None = None  #: the seat to lead (BEFORE_LEAD)
    trick: int | None = None
    words: str = ""  #: the reader's message (READER)
    #: what the rules refuse (REFUSED, REREAD_REFUSED)
    refusal: referee.Refusal | None = None


def corrected_plays(hand: HandLog, trick: int, seat: Seat, card: Card
                    ) -> tuple[list[SeatCard], dict[Seat, Card], Card | None]:
    """The hand's plays and early sightings with one card fixed (or added), and the card
    it replaced (None: the card was added)."""
    assert hand.view is not None
    plays = list(hand.plays)
    pending = dict(hand.pending)
    index = referee.play_index(hand.view, trick, seat)
    was: Card | None = None
    if index is not None:
        was = plays[index][1]
        plays[index] = (seat, card)
        pending.pop(seat, None)
    elif hand.view.to_play == seat:
        plays.append((seat, card))
    else:
        pending[seat] = card
    return plays, pending, was
