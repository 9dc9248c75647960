"""Where a table's game stands, read from the session's state (never stored): its phase,
which chooses the screen, and what the trick reader must be told to follow the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.rules.cards import Team
from kiosk.table import referee
from kiosk.table.phases import Phase
from kiosk.table.referee import HandPhase
from kiosk.table.turn_up import ordered_by
from kiosk.vision.brief import HandBrief

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
    if view.phase is HandPhase.BIDDING:
        return Phase.BIDDING
    settled = referee.settle(view, table.hand.renege_choice)
    if settled.needs_players:
        # a renege is never flagged on the camera's word alone: a card it hangs on
        # that may be its twin is put to the players first (kiosk.table.twins)
        suggestion = table.hand.suggestion
        return Phase.PLAYING if suggestion is not None and suggestion.twin else Phase.RENEGE
    return Phase.HAND_OVER if settled.over else Phase.PLAYING


def hand_brief(table: TableSession) -> HandBrief:
    """What the trick reader needs to follow the hand (kiosk.vision.brief): the leader
    only while cards are played, the turn-up and its keeper once bidding is over."""
    hand = table.hand
    if hand is None:
        return HandBrief()
    view = hand.view
    playing = view is not None and view.phase is not HandPhase.BIDDING
    return HandBrief(
        hand=hand.number, dealer=hand.dealer,
        leader=view.to_play if playing and view and table.phase == Phase.PLAYING else None,
        trump=view.trump if view else None,
        sitting_out=view.sitting_out if view else None,
        turn_up=hand.turn_up if playing else None,
        kept_by=hand.dealer if playing and ordered_by(hand.bids) else None,
    )
