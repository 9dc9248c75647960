"""Fixing a card of a finished trick: what the change would do, told before it is made.

A finished trick has a winner, and perhaps a renege verdict hangs on its cards, so a card
in it never changes silently: neither on a tap that meant the next trick, nor by a
later camera read. The players see a `FixPreview` (the trick, the card before and after,
who wins each trick that changes hands, the renege found or cleared) and say yes; the
fix can then be taken back (`TableSession.undo_fix`).

The camera's second thoughts about such a card are a `Suggestion`: put to the players,
never applied by themselves. A card the players set (fixed, or kept against the camera)
outranks every later camera read of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.cards import Card, Seat
from kiosk.table import referee
from kiosk.table.hand_log import Correction, HandLog, Suggestion, corrected_plays

__all__ = ["FixPreview", "Suggestion", "card_in", "is_finished", "latest_change", "preview",
           "refusal"]


@dataclass(frozen=True)
class FixPreview:
    """What one fixed card would change, as facts (the app words them)."""

    trick: int
    seat: Seat
    was: Card | None  # None: the card is added
    card: Card
    #: (trick, winner before, winner after) for each finished trick whose winner changes
    winners: tuple[tuple[int, Seat, Seat | None], ...]
    tricks_before: dict[str, int]
    tricks_after: dict[str, int]
    #: the renege the hand shows before and after: (seat, trick) or None
    renege_before: tuple[Seat, int] | None
    renege_after: tuple[Seat, int] | None
    problem: referee.Refusal | None  # the rules refuse the change (said, and not made)


def is_finished(hand: HandLog, trick: int) -> bool:
    """Whether trick `trick` (1-based) of the hand has a winner."""
    view = hand.view
    return bool(view is not None and 1 <= trick <= len(view.tricks)
                and view.tricks[trick - 1].winner is not None)


def card_in(hand: HandLog, trick: int, seat: Seat) -> Card | None:
    """The card the record holds for `seat` in `trick` (None: none yet)."""
    view = hand.view
    if view is None or not 1 <= trick <= len(view.tricks):
        return None
    return dict(view.tricks[trick - 1].cards).get(seat)


def preview(profile: str, hand: HandLog, trick: int, seat: Seat, card: Card) -> FixPreview:
    """What changing (or adding) `seat`'s card in `trick` to `card` would do."""
    before = hand.view
    assert before is not None
    plays, _pending, was = corrected_plays(hand, trick, seat, card)
    after = referee.replay(profile, hand.dealer, hand.turn_up, hand.bids, plays,
                           hand.renege_choice)
    winners = []
    for number, old in enumerate(before.tricks, start=1):
        new = after.tricks[number - 1] if number <= len(after.tricks) else None
        old_winner, new_winner = old.winner, new.winner if new else None
        if old_winner is not None and old_winner != new_winner:
            winners.append((number, old_winner, new_winner))

    def renege_of(view: referee.HandView) -> tuple[Seat, int] | None:
        return None if view.renege is None else (view.renege.seat, view.renege.trick)

    return FixPreview(trick=trick, seat=seat, was=was, card=card, winners=tuple(winners),
                      tricks_before=dict(before.tricks_won),
                      tricks_after=dict(after.tricks_won),
                      renege_before=renege_of(before), renege_after=renege_of(after),
                      problem=after.problem)


def refusal(profile: str, hand: HandLog, trick: int, seat: Seat, card: Card
            ) -> referee.Refusal | None:
    """What the rules say against setting `seat`'s card in `trick` to `card` (None: the
    hand, replayed with it, stands)."""
    plays, _pending, _was = corrected_plays(hand, trick, seat, card)
    trial = referee.replay(profile, hand.dealer, hand.turn_up, hand.bids, plays,
                           hand.renege_choice)
    return trial.problem or None


def latest_change(corrections: list[Correction], hand: HandLog) -> Correction | None:
    """The players' latest change of a card in `hand` while it still stands: it changed a
    card (not added or kept one), it is not itself an Undo, and the card is as it set it."""
    mine = [c for c in corrections if c.hand == hand.number]
    if not mine:
        return None
    last = mine[-1]
    if last.undo_of or last.was is None or last.was == last.card:
        return None
    if card_in(hand, last.trick, last.seat) != last.card:
        return None  # the card changed again since
    return last
