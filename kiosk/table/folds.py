"""How each kind of journal entry changes the table's state: one fold per entry type,
found in one table (:data:`FOLDS`), used live and on replay alike
(kiosk.table.session's `_apply`).

A fold only changes state from what the entry says; the intent that recorded it has
already checked it. Entries of a hand no longer in play change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kiosk.table import hand_keeping
from kiosk.table.entries import (
    BidSpoken,
    CardFixed,
    Confirmed,
    DirectorCalled,
    DirectorCancelled,
    FivesAnswered,
    FivesRead,
    GameEnded,
    GameStarted,
    HandEnded,
    JournalEvent,
    NewGame,
    RenegeChosen,
    SetupChosen,
    Submitted,
    TurnUpSeen,
    Unconfirmed,
    Undone,
    VisionSeen,
    read_entry,
)
from kiosk.table.hand_keeping import is_current
from kiosk.table.journal import Entry

if TYPE_CHECKING:
    from kiosk.table.session import TableSession


def fold(table: TableSession, entry: Entry) -> None:
    """Fold one journal entry into the state (live and on replay alike)."""
    table.last_seq = entry.seq
    event: JournalEvent = read_entry(entry.kind, entry.payload)
    FOLDS[type(event)](table, event, entry)


def _set_up(table: TableSession, event: SetupChosen, entry: Entry) -> None:
    table.setup = event.setup


def _started(table: TableSession, event: GameStarted, entry: Entry) -> None:
    table.started_at = entry.wall
    table.first_dealer = event.dealer
    hand_keeping.new_hand(table, 1, event.dealer)
    table.undoable.append((entry.seq, entry.kind))


def _turned_up(table: TableSession, event: TurnUpSeen, entry: Entry) -> None:
    if is_current(table, event.hand):
        assert table.hand is not None
        table.hand.turn_up = event.card
        table.hand.turn_up_source = event.source
        hand_keeping.rebuild(table)
        table.undoable.append((entry.seq, entry.kind))


def _bid(table: TableSession, event: BidSpoken, entry: Entry) -> None:
    if is_current(table, event.hand):
        assert table.hand is not None
        table.hand.bids.append(event.bid)
        hand_keeping.rebuild(table)
        table.undoable.append((entry.seq, entry.kind))


def _take_back(table: TableSession, event: Undone, entry: Entry) -> None:
    table.replay()  # the state as if the step had never been tapped


def _seen(table: TableSession, event: VisionSeen, entry: Entry) -> None:
    table.camera.take(event.event, entry.seq)


def _fixed(table: TableSession, event: CardFixed, entry: Entry) -> None:
    if is_current(table, event.hand):
        hand_keeping.apply_correction(table, event, entry.seq)


def _renege_chosen(table: TableSession, event: RenegeChosen, entry: Entry) -> None:
    if is_current(table, event.hand):
        assert table.hand is not None
        table.hand.renege_choice = event.choice
        hand_keeping.rebuild(table)


def _director(table: TableSession, event: DirectorCalled | DirectorCancelled,
              entry: Entry) -> None:
    called = isinstance(event, DirectorCalled)
    if table.hand is not None:
        table.hand.director_called = called
    else:
        table.called_between_hands = called


def _fives_read(table: TableSession, event: FivesRead, entry: Entry) -> None:
    table.markers.read(event, entry.seq)


def _fives_answered(table: TableSession, event: FivesAnswered, entry: Entry) -> None:
    table.markers.answered(event)


def _hand_ended(table: TableSession, event: HandEnded, entry: Entry) -> None:
    if is_current(table, event.hand):
        hand_keeping.finish_hand(table)


def _game_ended(table: TableSession, event: GameEnded, entry: Entry) -> None:
    if table.current_points() is not None:
        hand_keeping.finish_hand(table, deal_next=False)  # the last hand counts
    table.game_ended = True


def _confirmed(table: TableSession, event: Confirmed, entry: Entry) -> None:
    table.confirmed.add(str(event.side))


def _unconfirmed(table: TableSession, event: Unconfirmed, entry: Entry) -> None:
    table.confirmed.discard(str(event.side))
    table.taken_back += 1


def _submitted(table: TableSession, event: Submitted, entry: Entry) -> None:
    table.submitted = True


def _new_game(table: TableSession, event: NewGame, entry: Entry) -> None:
    setup = table.setup
    table.forget_game()
    table.game_number += 1
    table.last_seq = entry.seq
    if setup is not None:
        table.setup = replace(setup, round=setup.round + 1, team_ns="", team_ew="")


#: how each kind of journal entry is folded into the session
FOLDS: dict[type, Callable[[TableSession, Any, Entry], None]] = {
    SetupChosen: _set_up,
    GameStarted: _started,
    TurnUpSeen: _turned_up,
    BidSpoken: _bid,
    Undone: _take_back,
    VisionSeen: _seen,
    CardFixed: _fixed,
    RenegeChosen: _renege_chosen,
    DirectorCalled: _director,
    DirectorCancelled: _director,
    FivesRead: _fives_read,
    FivesAnswered: _fives_answered,
    HandEnded: _hand_ended,
    GameEnded: _game_ended,
    Confirmed: _confirmed,
    Unconfirmed: _unconfirmed,
    Submitted: _submitted,
    NewGame: _new_game,
}
