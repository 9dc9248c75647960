"""What the session keeps of a game: the hand in play, the hands finished, the players'
corrections and the notices shown to them. Plain values, rebuilt from the journal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kiosk.table import referee
from kiosk.vision import wording


@dataclass
class HandLog:
    """What was seen and tapped during one hand; the referee turns it into a game."""

    number: int
    dealer: str
    turn_up: str | None = None
    turn_up_source: str = ""  #: 'camera' when the camera read it, else who tapped it
    #: what the camera saw become of the turn-up: 'taken', 'turned_down' ('' not seen)
    kitty_seen: str = ""
    bids: list[dict[str, Any]] = field(default_factory=list)
    plays: list[tuple[str, str]] = field(default_factory=list)  # (seat, card) in play order
    pending: dict[str, str] = field(default_factory=dict)  # seen before that seat's turn
    renege_choice: str | None = None
    director_called: bool = False
    cleared: int = 0  # completed tricks the camera saw pushed away
    view: referee.HandView | None = None
    #: journal seq of the last change to the cards on the table: a notice older than it
    #: speaks of a table that has moved on
    changed_at: int = 0
    #: (trick, seat) -> the card the players set there (fixed, or kept against the
    #: camera): it outranks every later camera read of that card
    fixed: dict[tuple[int, str], str] = field(default_factory=dict)
    #: the camera's second thought about a card of a finished trick, put to the players
    suggestion: Suggestion | None = None
    #: a camera read of a later card that waits on the players' answer to `suggestion`
    held_back: tuple[str, str] | None = None


@dataclass(frozen=True)
class Suggestion:
    """The camera now reads a card of a finished trick as another card: asked, never
    applied by itself (kiosk.table.fixing)."""

    trick: int
    seat: str
    card: str  # what the camera reads now
    was: str  # what the record holds
    #: the table's own question, not the camera's: a renege hangs on this card, and would
    #: vanish were it its same-colour twin (``card``; kiosk.table.twins)
    twin: bool = False


@dataclass(frozen=True)
class FinishedHand:
    number: int
    dealer: str
    record: dict[str, Any]
    result: dict[str, Any]
    points: dict[str, int]


@dataclass(frozen=True)
class Correction:
    hand: int
    trick: int
    seat: str
    was: str | None
    card: str
    seq: int
    #: the seq of the fix this one takes back (0: a fix of its own)
    undo_of: int = 0


class NoticeAbout(StrEnum):
    """What a notice to the players is about."""

    READER = "reader"  #: the reader's own warning (``words``: its message)
    UNNAMED = "unnamed"  #: something in front of ``seat`` the camera cannot name
    READ_AGAIN = "read_again"  #: ``seat``'s card in the open trick read as ``card``, not ``other``
    BEFORE_LEAD = "before_lead"  #: ``seat``'s card came before ``other`` (a seat) led
    REFUSED = "refused"  #: a card seen that the rules refuse (``words``: why)
    #: ``seat``'s card in ``trick`` read as ``card`` now, which the rules refuse (``words``)
    REREAD_REFUSED = "reread_refused"


@dataclass(frozen=True)
class Notice:
    """A message for the players, as facts (a camera warning, a reading the table made
    or refused); :attr:`text` says it (kiosk.vision.wording)."""

    about: NoticeAbout
    seat: str | None
    seq: int
    hand: int
    kind: str = ""  #: the reader's warning kind ('camera_moved', ...), '' for the session's
    card: str | None = None
    other: str | None = None
    trick: int | None = None
    words: str = ""  #: the reader's message, or the rules' refusal in words

    @property
    def text(self) -> str:
        """The notice in words a player can act on."""
        return _SAY[self.about](self)


def _need(value: str | int | None) -> str:
    assert value is not None, "a notice lacks a fact its words need"
    return str(value)


_SAY: dict[NoticeAbout, Callable[[Notice], str]] = {
    NoticeAbout.READER: lambda n: n.words,
    NoticeAbout.REFUSED: lambda n: n.words,
    NoticeAbout.UNNAMED: lambda n: wording.unnamed_card(_need(n.seat)),
    NoticeAbout.READ_AGAIN: lambda n: wording.read_again(_need(n.seat), _need(n.card),
                                                         _need(n.other)),
    NoticeAbout.BEFORE_LEAD: lambda n: wording.before_the_lead(_need(n.seat), _need(n.other)),
    NoticeAbout.REREAD_REFUSED: lambda n: wording.reread_refused(
        _need(n.seat), int(_need(n.trick)), _need(n.card), n.words),
}


def corrected_plays(hand: HandLog, trick: int, seat: str, card: str
                    ) -> tuple[list[tuple[str, str]], dict[str, str], str | None]:
    """The hand's plays and early sightings with one card fixed (or added), and the card
    it replaced (None: the card was added)."""
    assert hand.view is not None
    plays = list(hand.plays)
    pending = dict(hand.pending)
    index = referee.play_index(hand.view, trick, seat)
    was: str | None = None
    if index is not None:
        was = plays[index][1]
        plays[index] = (seat, card)
        pending.pop(seat, None)
    elif hand.view.to_play == seat:
        plays.append((seat, card))
    else:
        pending[seat] = card
    return plays, pending, was
