"""The hand in play, kept by the session: dealt, rebuilt from what was seen each time
something changes, corrected by the players, and finished into the game's record.

The session holds no euchre rules: each hand is rebuilt from what was seen (dealer,
turn-up, bids, cards) by `kiosk.table.referee`, which asks the rules engine. A corrected
card simply rebuilds the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.rules.cards import Seat
from kiosk.table import referee, twins
from kiosk.table.entries import CardFixed
from kiosk.table.hand_log import (
    Correction,
    FinishedHand,
    HandLog,
    Suggestion,
    corrected_plays,
)

if TYPE_CHECKING:
    from kiosk.table.session import TableSession


def is_current(table: TableSession, hand: int) -> bool:
    """Hand number ``hand`` is the one in play (an entry of another hand changes nothing)."""
    return table.hand is not None and hand == table.hand.number


def new_hand(table: TableSession, number: int, dealer: Seat) -> None:
    """Deal hand ``number`` by ``dealer``: nothing seen yet, nothing to undo."""
    table.hand = HandLog(number=number, dealer=dealer)
    table.undoable = []
    rebuild(table)


def finish_hand(table: TableSession, deal_next: bool = True) -> None:
    """Put the scored hand into the game's record, then deal the next (or none: the
    game ended)."""
    hand = table.hand
    assert hand is not None and hand.view is not None
    points = referee.points_for(hand.view, hand.renege_choice)
    result = dict(hand.view.result or hand.view.penalty_now or {})
    if hand.renege_choice:
        result["chosen"] = hand.renege_choice
    table.finished.append(FinishedHand(number=hand.number, dealer=hand.dealer,
                                       record=hand.view.record, result=result,
                                       points=points))
    if deal_next:
        new_hand(table, hand.number + 1, hand.dealer.left)
    else:
        table.hand = None


def rebuild(table: TableSession) -> None:
    """Ask the referee what the seen cards mean, then play any card that was
    seen early (out of turn, or before the trick was cleared) now in turn."""
    hand = table.hand
    assert hand is not None
    hand.view = referee.replay(table.profile, hand.dealer, hand.turn_up, hand.bids,
                               hand.plays, hand.renege_choice)
    while hand.pending and hand.view.to_play in hand.pending:
        seat = hand.view.to_play
        card = hand.pending.pop(seat)
        hand.plays.append((seat, card))
        hand.view = referee.replay(table.profile, hand.dealer, hand.turn_up, hand.bids,
                                   hand.plays, hand.renege_choice)
    _ask_about_twins(table)


def _ask_about_twins(table: TableSession) -> None:
    """Before a renege is flagged, put to the players the first card it hangs on that
    may be its same-colour twin (a card they set is never asked about again)."""
    hand = table.hand
    assert hand is not None
    if hand.suggestion is not None and not hand.suggestion.twin:
        return  # the camera's own question comes first
    asked = None
    if hand.view is not None and hand.view.renege is not None:
        questions = twins.renege_questions(
            table.profile, hand.dealer, hand.turn_up, hand.bids, hand.plays,
            settled=set(hand.fixed), pack=table.deck_pack(),
            renege_choice=hand.renege_choice)
        if questions:
            q = questions[0]
            asked = Suggestion(q.trick, q.seat, card=q.twin, was=q.card, twin=True)
    hand.suggestion = asked


def apply_correction(table: TableSession, fix: CardFixed, seq: int) -> None:
    """The players set a card (journal entry ``seq``): it outranks the camera from now on,
    answers the camera's question about it, and releases a card held back for that."""
    hand = table.hand
    assert hand is not None
    trick, seat, card = fix.trick, fix.seat, fix.card
    hand.plays, hand.pending, was = corrected_plays(hand, trick, seat, card)
    table.corrections.append(Correction(hand=hand.number, trick=trick, seat=seat,
                                        was=was, card=card, seq=seq, undo_of=fix.undo_of))
    hand.fixed[(trick, seat)] = card
    s = hand.suggestion
    if s is not None and (s.trick, s.seat) == (trick, seat):
        hand.suggestion = None
    hand.changed_at = seq
    rebuild(table)
    table.camera.release_held_back(seq)
