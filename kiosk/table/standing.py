"""Where a table's game stands, read from the session's state (never stored): its phase,
which chooses the screen, and what the trick reader must be told to follow the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.rules.cards import Team
from kiosk.table import referee
from kiosk.table.phases import Phase
from kiosk.table.turn_up import ordered_by

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

SIDES = tuple(Team)


def phase_of(table: TableSession) -> Phase:
    """Where the table is; each phase has its screen."""
    if table.setup is None:
        return Phase.SETUP
    if table.submitted or table.confirmed >= set(SIDES):
        return Phase.CONFIRMED
    if table.game_ended:
        return Phase.GAME_OVER
    if table.hand is None:
        return Phase.READY
    view = table.hand.view
    assert view is not None
    if view.phase == "bidding":
        return Phase.BIDDING
    settled = referee.settle(view, table.hand.renege_choice)
    if settled.needs_players:
        # a renege is never flagged on the camera's word alone: a card it hangs on
        # that may be its twin is put to the players first (kiosk.table.twins)
        suggestion = table.hand.suggestion
        return Phase.PLAYING if suggestion is not None and suggestion.twin else Phase.RENEGE
    return Phase.HAND_OVER if settled.over else Phase.PLAYING


def reader_context(table: TableSession) -> dict[str, Any]:
    """What the trick reader needs to follow the hand (kiosk.vision.reader.TrickReader):
    the hand number (a new hand: a new reader), the dealer (whose kitty shows the turn-up),
    the leader of the trick to come, trump, the seat sitting out, the turn-up and who may
    still play it (the dealer if ordered up). None values: not known yet (bidding)."""
    hand = table.hand
    view = hand.view if hand else None
    playing = view is not None and view.phase != "bidding"
    return {
        "hand": hand.number if hand else None,
        "dealer": hand.dealer if hand else None,
        "leader": view.to_play if playing and view and table.phase == Phase.PLAYING else None,
        "trump": view.trump if view else None,
        "sitting_out": view.sitting_out if view else None,
        "turn_up": hand.turn_up if hand and playing else None,
        "kept_by": hand.dealer if hand and playing and ordered_by(hand.bids) else None,
    }
