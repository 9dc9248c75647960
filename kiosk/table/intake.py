"""What the camera saw, taken into the game: the trick reader's events are observations,
recorded first and interpreted here. A card in turn is played; one seen early waits for
its turn; a later card for a seat replaces the one it showed in the open trick (taken
back, or misread); a card the rules cannot take becomes a notice for the players. A card
the players set is never changed by the camera, and one of a finished trick is only
put to the players (kiosk.table.fixing)."""

from __future__ import annotations

from typing import Protocol

from kiosk.rules.cards import Card, Seat
from kiosk.table import fixing, referee
from kiosk.table.hand_log import HandLog, Notice, NoticeAbout, Suggestion
from kiosk.table.phases import Phase
from kiosk.table.referee import HandPhase
from kiosk.vision.events import (
    CardPlayed,
    CardReread,
    KittyChange,
    KittySeen,
    ReaderWarning,
    TrickCleared,
    TrickComplete,
    VisionEvent,
    as_card,
)


class IntakeTable(Protocol):
    """What the camera's part needs of the table session it serves."""

    hand: HandLog | None
    #: (seq, kind) of the hand's set-up steps Undo may take back (a turn-up seen is one)
    undoable: list[tuple[int, str]]

    @property
    def phase(self) -> Phase: ...

    @property
    def profile(self) -> str: ...

    def add_notice(self, notice: Notice) -> None: ...

    def rebuild_hand(self) -> None: ...


class CameraIntake:
    """The table session's part that takes the camera's events into its hand
    (kiosk.table.session keeps the journal; this part only folds events in)."""

    def __init__(self, table: IntakeTable) -> None:
        self._table = table

    def _notice(self, about: NoticeAbout, seat: Seat | None, seq: int, *, kind: str = "",
                card: Card | None = None, other: Card | None = None,
                leader: Seat | None = None, trick: int | None = None, words: str = "",
                refusal: referee.Refusal | None = None) -> None:
        hand = self._table.hand
        self._table.add_notice(Notice(about, seat, seq, hand.number if hand else 0, kind=kind,
                                      card=card, other=other, leader=leader, trick=trick,
                                      words=words, refusal=refusal))

    def take(self, event: VisionEvent, seq: int) -> None:
        """Fold one camera event (journal entry ``seq``) into the hand."""
        hand = self._table.hand
        if isinstance(event, ReaderWarning):
            self._notice(NoticeAbout.READER, event.seat, seq, kind=str(event.kind),
                         words=event.message)
            return
        if hand is None or hand.view is None:
            return
        if isinstance(event, TrickCleared):
            # The referee knows when a trick is full; the clear only tells the
            # screen to stop showing it.
            hand.cleared = sum(1 for t in hand.view.tricks if t.winner is not None)
        elif isinstance(event, TrickComplete):
            return
        elif isinstance(event, CardReread):
            self._apply_reread(event, seq)
        elif isinstance(event, KittySeen):
            self._apply_kitty(event, seq)
        else:
            assert isinstance(event, CardPlayed)
            self._apply_played(event, seq)

    def _apply_played(self, event: CardPlayed, seq: int) -> None:
        """A card the camera saw put down at a seat."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        view = hand.view
        seat = event.seat
        card = as_card(event.card)
        if card is None or not card.is_euchre:
            self._notice(NoticeAbout.UNNAMED, seat, seq)
            return
        if view.phase is HandPhase.BIDDING:
            if not hand.bids and hand.turn_up is None and seat == hand.dealer:
                # Before any bid, a card at the dealer's place is the turn-up.
                hand.turn_up = card
                hand.turn_up_source = "camera"
                self._table.rebuild_hand()
                self._table.undoable.append((seq, "turn_up"))
            return
        if self._table.phase != Phase.PLAYING:
            return  # the hand is settled or waits for the players: later cards change nothing
        doubt = hand.suggestion
        if (doubt is not None and not doubt.twin
                and (seat, card) == (doubt.seat, doubt.was)):
            # the card the camera doubts in an earlier trick, seen again: a later play of
            # it (if the players agree it was misread there) waits for their answer
            hand.held_back = (seat, card)
            return
        if (seat, card) in hand.plays or hand.pending.get(seat) == card:
            return  # the same card seen again (the reader re-reported it)
        if self._replaced_in_trick(seat, card, seq):
            return
        trick_empty = not view.tricks or view.tricks[-1].winner is not None
        if view.to_play != seat and trick_empty and not hand.pending:
            self._notice(NoticeAbout.BEFORE_LEAD, seat, seq, leader=view.to_play)
        problem = referee.check_play(view, seat, card)
        if problem:
            self._notice(NoticeAbout.REFUSED, seat, seq, refusal=problem)
            return
        self._play_seen(seat, card, seq)

    def _replaced_in_trick(self, seat: Seat, card: Card, seq: int) -> bool:
        """The reader's rule: a later card for a seat that already played in the trick on
        the table replaces the earlier one (taken back, or misread), but never a card the
        players set, nor one of a finished trick (asked instead). False: `seat` has no card
        there, and this one is a play of its own."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        view = hand.view
        index = self._visible_play(seat)
        if index is None:
            return False
        if view.tricks[-1].winner is not None and view.to_play == seat:
            # a new card from the finished trick's winner: the next trick's lead (the
            # clear was missed), never a change to the finished trick
            hand.cleared = len(view.tricks)
            return False
        was = hand.plays[index][1]
        trick = len(view.tricks)
        if self._outranked(trick, seat, card, was, seq):
            return True
        hand.plays[index] = (seat, card)
        hand.changed_at = seq
        self._notice(NoticeAbout.READ_AGAIN, seat, seq, card=card, other=was)
        self._table.rebuild_hand()
        return True

    def _play_seen(self, seat: Seat, card: Card, seq: int) -> None:
        """A card the camera saw, which the rules take: played, or waiting for its turn."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        if hand.view.to_play == seat:
            hand.plays.append((seat, card))
        else:
            hand.pending[seat] = card
        hand.changed_at = seq
        self._table.rebuild_hand()

    def release_held_back(self, seq: int) -> None:
        """The players answered the camera's question: a card it held back is seen now."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        if hand.held_back is None or hand.suggestion is not None:
            return
        seat, card = hand.held_back
        hand.held_back = None
        if self._table.phase == Phase.PLAYING and not referee.check_play(hand.view, seat, card):
            self._play_seen(seat, card, seq)

    def _apply_kitty(self, event: KittySeen, seq: int) -> None:
        """The camera read the dealer's kitty: its face-up card is the turn-up (until the
        first bid; a player's tap wins over it), and what became of that card (taken,
        turned down) is kept, to be weighed against the bids (kiosk.table.turn_up)."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        if event.seat is not hand.dealer:
            return  # another hand's kitty
        card = as_card(event.card)
        if card is None or not card.is_euchre:
            return
        if event.change == KittyChange.SHOWN:
            if (hand.view.phase is HandPhase.BIDDING and not hand.bids
                    and hand.turn_up_source in ("", "camera") and hand.turn_up != card):
                hand.turn_up, hand.turn_up_source = card, "camera"
                self._table.rebuild_hand()
                self._table.undoable.append((seq, "turn_up"))
            return
        if hand.turn_up in (None, card):
            hand.kitty_seen = event.change

    def _apply_reread(self, event: CardReread, seq: int) -> None:
        """The camera now reads a card of an earlier trick as another card (its name was
        read far more surely on a later card): the players are asked (the trick is
        finished: its winner may change). Not when the record no longer holds the card it
        replaces, nor when the players set that card, nor when the rules refuse the change
        (said in a notice); the reader's own question about the card follows either way."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        if self._table.phase not in (Phase.PLAYING, Phase.RENEGE):
            return
        card, was, seat = as_card(event.card), as_card(event.was), event.seat
        if card is None or was is None or not (card.is_euchre and was.is_euchre):
            return
        index = referee.play_index(hand.view, event.trick, seat)
        if index is None or hand.plays[index] != (seat, was):
            return
        if (event.trick, seat) in hand.fixed:
            return  # the players set this card: no camera read changes it
        plays = list(hand.plays)
        plays[index] = (seat, card)
        trial = referee.replay(self._table.profile, hand.dealer, hand.turn_up, hand.bids, plays,
                               hand.renege_choice)
        if trial.problem:
            self._notice(NoticeAbout.REREAD_REFUSED, seat, seq, card=card, trick=event.trick,
                         refusal=trial.problem)
            return
        if fixing.is_finished(hand, event.trick):
            self._suggest(Suggestion(event.trick, seat, card, was), seq)
            return
        hand.plays = plays
        hand.changed_at = seq
        self._table.rebuild_hand()

    def _outranked(self, trick: int, seat: Seat, card: Card, was: Card, seq: int) -> bool:
        """A camera read of `seat`'s card in `trick` (the record holds `was`) that must not
        change the record by itself: the players set that card (the read is dropped), or
        the trick is finished (the read is put to the players)."""
        hand = self._table.hand
        assert hand is not None
        if (trick, seat) in hand.fixed:
            return True
        if fixing.is_finished(hand, trick):
            self._suggest(Suggestion(trick, seat, card, was), seq)
            return True
        return False

    def _suggest(self, suggestion: Suggestion, seq: int) -> None:
        hand = self._table.hand
        assert hand is not None
        if hand.suggestion != suggestion:
            hand.suggestion = suggestion
            hand.changed_at = seq  # the screen asks: older notices make way

    def _visible_play(self, seat: Seat) -> int | None:
        """Where `seat`'s card in the trick still on the table sits in `plays`."""
        hand = self._table.hand
        assert hand is not None and hand.view is not None
        tricks = hand.view.tricks
        if not tricks:
            return None
        done = sum(1 for t in tricks if t.winner is not None)
        last = tricks[-1]
        if last.winner is not None and hand.cleared >= done:
            return None  # raked in: a new card starts the next trick
        return referee.play_index(hand.view, len(tricks), seat)
