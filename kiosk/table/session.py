"""One table's game: the trick reader's events and the players' taps in,
a referee's view of the game out, and a journal that never loses a play.

How it works, and why:

* Every change enters through one door, `_record()`: the entry (a typed value of
  kiosk.table.entries) is appended to the journal and committed, *then* folded in,
  *then* listeners (the screens) are told. A kill at any point loses nothing that
  was shown.
* State is never saved. `TableSession.open()` replays the journal through
  `_apply()`, the same code the live path uses, so a restart resumes exactly
  where the kiosk stopped. Each kind of entry has its own fold, found in one table
  (kiosk.table.folds).
* The session is composed of parts: the camera's events are taken in by a
  `CameraIntake` (kiosk.table.intake), the players' 5s kept in a `MarkerBook`
  (kiosk.table.markers), the hand in play dealt, rebuilt and finished by
  kiosk.table.hand_keeping; where the game stands (its phase, what the trick reader
  is told) is read from the state by kiosk.table.standing.
* Taps are checked before they are recorded (a bid the profile forbids is
  refused with plain words and never enters the journal). Camera events are
  observations: they are always recorded, then interpreted, and what cannot be
  used becomes a warning for the players.
* Idempotency keys: a re-sent camera event, or a second tap on the same
  bidding turn, has the key of one already recorded and is dropped.
* The session holds no euchre rules: each hand is rebuilt from what was seen
  by `kiosk.table.referee`, which asks the rules engine.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import Card, Seat, Suit, Team
from kiosk.table import (
    egn_file,
    fixing,
    folds,
    hand_keeping,
    markers,
    referee,
    results,
    standing,
)
from kiosk.table.entries import (
    BidSpoken,
    CardFixed,
    Confirmed,
    DirectorCalled,
    DirectorCancelled,
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
)
from kiosk.table.hand_log import Correction, FinishedHand, HandLog, Notice
from kiosk.table.intake import CameraIntake
from kiosk.table.intents import IntentRefused, Why, tapped_card, tapped_seat
from kiosk.table.journal import Entry, Journal
from kiosk.table.markers import MarkerBook
from kiosk.table.outbox import Outbox
from kiosk.table.phases import Phase
from kiosk.table.referee import HandPhase
from kiosk.table.setup import TableSetup, TableSetupError
from kiosk.table.standing import SIDES
from kiosk.vision.brief import HandBrief
from kiosk.vision.events import VisionEvent


class TableSession:
    """The game at one table, rebuilt from and kept in its journal."""

    def __init__(self, journal: Journal, clock: Callable[[], float] = time.time,
                 outbox: Outbox | None = None, frames_dir: str | Path | None = None) -> None:
        self.journal = journal
        self.clock = clock
        self.outbox = outbox
        #: where the camera's frames of played cards are kept (renege evidence)
        self.frames_dir = None if frames_dir is None else Path(frames_dir)
        #: the cards the table's deck holds, where its deck profile knows them (the app
        #: sets it: kiosk.table.twins.enrolled_pack); the pack is evidence for a twin
        self.deck_pack: Callable[[], Collection[Card] | None] = lambda: None
        self._listeners: list[Callable[[TableSession], None]] = []
        self.camera = CameraIntake(self)  # takes the reader's events into the hand
        #: 1 for the journal's first game, one more after each `new_game`
        self.game_number = 1
        self._replaying = False
        self.replay()

    @classmethod
    def open(cls, path: str | Path, clock: Callable[[], float] = time.time,
             outbox: Outbox | None = None, frames_dir: str | Path | None = None) -> TableSession:
        """Open (or create) the journal at `path` and resume the game in it."""
        return cls(Journal(path, clock=clock), clock=clock, outbox=outbox,
                   frames_dir=frames_dir)

    def replay(self) -> None:
        """Build the state from the whole journal, leaving out what was undone (an Undo
        met during a replay changes nothing more: its step is left out already)."""
        if self._replaying:
            return
        entries = list(self.journal.entries())
        #: journal seqs a player took back with Undo (their entries stay, unused)
        self._undone = {e.payload["seq"] for e in entries if e.kind == "undo"}
        self.game_number = 1
        self.forget_game()
        self._replaying = True
        try:
            for entry in entries:
                if entry.seq not in self._undone:
                    self._apply(entry)
        finally:
            self._replaying = False

    # ------------------------------------------------------------------ state

    def forget_game(self) -> None:
        """The state before the game's first entry (a replay, or the next game)."""
        self.setup: TableSetup | None = None
        self.started_at: float | None = None
        self.first_dealer: Seat | None = None
        self.finished: list[FinishedHand] = []
        self.hand: HandLog | None = None
        self.game_ended = False
        self.confirmed: set[str] = set()
        #: agreements taken back (each agreement after one has a key of its own)
        self.taken_back = 0
        #: the director called between hands (at the game's end)
        self.called_between_hands = False
        self.submitted = False
        self.corrections: list[Correction] = []
        self.notices: list[Notice] = []
        self.markers = MarkerBook()  # the players' 5s read (kiosk.table.markers)
        self.last_seq = 0
        #: (seq, kind) of this hand's set-up steps a player may take back, oldest first
        self.undoable: list[tuple[int, str]] = []

    @property
    def profile(self) -> str:
        return self.setup.profile if self.setup else referee.DEFAULT_PROFILE

    @property
    def scores(self) -> dict[str, int]:
        """Points per side: every finished hand, plus the current one once scored."""
        hands = [hand.points for hand in self.finished]
        current = self.current_points()
        if current:
            hands.append(current)
        return referee.game_score(self.profile, hands)

    def current_points(self) -> dict[str, int] | None:
        """The current hand's points once they are settled (None before)."""
        hand = self.hand
        if hand is None or hand.view is None or hand.view.phase is HandPhase.BIDDING:
            return None
        return referee.settle(hand.view, hand.renege_choice).points

    @property
    def phase(self) -> Phase:
        """Where the table is; each phase has its screen (kiosk.table.standing)."""
        return standing.phase_of(self)

    def elapsed(self) -> float:
        """Seconds since the first deal (0 before the game starts)."""
        if self.started_at is None:
            return 0.0
        return max(0.0, self.clock() - self.started_at)

    def time_left(self) -> float | None:
        """Seconds left on the game clock; None when the profile sets no limit."""
        if self.setup is None or self.setup.minutes <= 0:
            return None
        return self.setup.minutes * 60 - self.elapsed()

    def time_is_up(self) -> bool:
        left = self.time_left()
        return left is not None and left <= 0

    def winner(self) -> str | None:
        """The side that reached the points to win, if one has."""
        if self.setup is None:
            return None
        scores = self.scores
        for side in SIDES:
            if scores[side] >= self.setup.points_to_win:
                return side
        return None

    def ended_by_time(self) -> bool:
        """The game was stopped by the clock, with no side at the points to win.

        Not `time_is_up()` at the moment of sending: a game won on points stays
        won on points however long the players take to confirm it, and the
        director writes its winner down with the target (docs/director-api.md).
        """
        return self.game_ended and self.winner() is None

    def game_can_end(self) -> bool:
        """A side has won, or time is up and no hand is in play."""
        if self.winner() is not None:
            return True
        return self.time_is_up() and self.phase in (Phase.HAND_OVER, Phase.READY)

    # ------------------------------------------------- what the screens may offer

    def can_fix_cards(self) -> bool:
        """The hand has cards the players may fix or add (trump is made)."""
        hand = self.hand
        view = hand.view if hand is not None else None
        return view is not None and view.phase is not HandPhase.BIDDING

    def can_tap_cards(self) -> bool:
        """The players may tap a card in at its seat now: the hand is being played."""
        hand = self.hand
        return hand is not None and hand.view is not None and self.phase == Phase.PLAYING

    def fix_needs_yes(self, trick: int, seat: Seat | str, card: Card | str) -> bool:
        """Fixing ``seat``'s card in ``trick`` to ``card`` changes a finished trick: it
        is made only once the players say yes to what it changes (`fix_preview`)."""
        hand = self.hand
        if hand is None:
            return False
        held = fixing.card_in(hand, trick, tapped_seat(seat))
        return fixing.is_finished(hand, trick) and held not in (None, tapped_card(card))

    def can_confirm(self, side: str) -> bool:
        """The team ``side`` may agree with the final score now (it has not yet)."""
        return self.phase == Phase.GAME_OVER and side not in self.confirmed

    def renege_options(self) -> list[referee.RenegeOption]:
        """How the players may settle the proven renege now (none: nothing to settle)."""
        hand = self.hand
        if hand is None or hand.view is None:
            return []
        return referee.renege_options(self.profile, hand.view, hand.renege_choice)

    # -------------------------------------------------------------- listening

    def subscribe(self, listener: Callable[[TableSession], None]) -> None:
        """Call `listener(session)` after every committed change."""
        self._listeners.append(listener)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    # ---------------------------------------------------------------- intents

    def configure(self, setup: TableSetup) -> None:
        """Set (or change, before the first deal) what this table plays."""
        if self.started_at is not None:
            raise IntentRefused(Why.GAME_STARTED)
        try:
            checked = setup.checked()
        except TableSetupError as problem:
            raise IntentRefused(Why.BAD_SETUP, setup=problem.fault) from None
        if checked.profile not in referee.profile_ids():
            raise IntentRefused(Why.UNKNOWN_RULES, detail=checked.profile)
        self._record(SetupChosen(checked), key=f"setup:{uuid.uuid4().hex}")

    def start_game(self, dealer: Seat | str) -> None:
        """The first dealer was drawn (first jack); the clock starts."""
        if self.setup is None:
            raise IntentRefused(Why.NO_SETUP)
        if self.started_at is not None:
            raise IntentRefused(Why.ALREADY_STARTED)
        self._record(GameStarted(tapped_seat(dealer)), key="start" + self._redo())

    def see_turn_up(self, card: Card | str, source: str = "tap") -> None:
        """The turn-up card, seen by the camera or tapped in by a player."""
        hand = self._need_hand(Phase.BIDDING)
        turn_up = tapped_card(card)
        if hand.bids:
            raise IntentRefused(Why.BIDDING_STARTED)
        self._record(TurnUpSeen(hand.number, turn_up, source),
                     key=f"turn_up:{hand.number}:{turn_up}:{uuid.uuid4().hex}")

    def bid_options(self) -> list[referee.BidOption]:
        """Every button of the bidding screen, each allowed or explained."""
        hand = self.hand
        if hand is None or hand.view is None or self.phase != Phase.BIDDING:
            return []
        return referee.bid_options(self.profile, hand.view)

    def bid(self, call: Call | str, suit: Suit | str | None = None, alone: bool = False
            ) -> None:
        """The seat on turn speaks: 'pass', 'order' (round one) or 'name' a suit."""
        hand = self._need_hand(Phase.BIDDING)
        view = hand.view
        assert view is not None
        seat = view.to_bid
        if seat is None:
            raise IntentRefused(Why.NOBODY_TO_BID)
        try:
            spoken = Bid(seat, Call(call), None if suit is None else Suit.parse(str(suit)),
                         alone)
        except ValueError:
            raise IntentRefused(Why.NO_SUCH_BID) from None
        option = referee.check_bid(self.profile, view, spoken.call, spoken.suit, alone)
        if option is None:
            raise IntentRefused(Why.NO_SUCH_BID)
        if not option.allowed:
            raise IntentRefused(Why.BID_BARRED, bid=option)
        # The key names the bidding turn: a double tap on one turn is one bid.
        self._record(BidSpoken(hand.number, spoken),
                     key=f"bid:{hand.number}:{len(hand.bids)}" + self._redo())

    def last_step(self) -> GameStarted | TurnUpSeen | BidSpoken | None:
        """The step Undo would take back now: the first dealer, the turn-up or a bid; None
        once a card is played (the record of play is fixed by correcting cards, not by
        undoing)."""
        hand = self.hand
        if hand is None or not self.undoable or hand.plays or hand.pending:
            return None
        if self.phase not in (Phase.BIDDING, Phase.PLAYING):
            return None
        seq, kind = self.undoable[-1]
        if kind == "start":
            return GameStarted(hand.dealer)
        if kind == "turn_up":
            assert hand.turn_up is not None
            return TurnUpSeen(hand.number, hand.turn_up, hand.turn_up_source)
        return BidSpoken(hand.number, hand.bids[-1])

    def undo(self) -> None:
        """Take back the last bid, the turn-up, or the first dealer (a wrong tap)."""
        if self.last_step() is None:
            raise IntentRefused(Why.CARDS_DOWN if self.hand is not None and self.hand.plays
                                else Why.NOTHING_TO_UNDO)
        seq, _kind = self.undoable[-1]
        self._record(Undone(seq), key=f"undo:{seq}")

    def _redo(self) -> str:
        """A key suffix once anything was undone: the step taken back may be tapped again."""
        return f":u{len(self._undone)}" if self._undone else ""

    def feed(self, event: VisionEvent, source: str = "camera") -> bool:
        """The trick reader's door: record one event; False if already recorded.

        `source` names the reader's run (a camera, a video file, the demo) so
        that `t` only has to be unique within it.
        """
        entry = self._record(VisionSeen(source, event), key=f"vision:{source}:{event.key}")
        return entry is not None

    def correct(self, trick: int, seat: Seat | str, card: Card | str,
                confirmed: bool = False) -> None:
        """A player fixes a misread (or adds a card the camera missed). A card of a
        finished trick changes only with `confirmed`: the players saw what it changes
        (`fix_preview`) and said yes."""
        hand = self.hand
        if hand is None or not self.can_fix_cards():
            raise IntentRefused(Why.NO_CARDS_YET)
        played = tapped_card(card)
        at = tapped_seat(seat)
        if self.fix_needs_yes(trick, at, played) and not confirmed:
            raise IntentRefused(Why.TRICK_FINISHED, trick=trick)
        refused = fixing.refusal(self.profile, hand, trick, at, played)
        if refused:
            raise IntentRefused(Why.RULES_REFUSE, refusal=refused)
        self._record(CardFixed(hand.number, trick, at, played),
                     key=f"correct:{uuid.uuid4().hex}")

    def fix_preview(self, trick: int, seat: Seat | str, card: Card | str
                    ) -> fixing.FixPreview:
        """What fixing `seat`'s card in `trick` to `card` would change (nothing is done)."""
        hand = self.hand
        if hand is None or not self.can_fix_cards():
            raise IntentRefused(Why.NO_CARDS_YET)
        return fixing.preview(self.profile, hand, trick, tapped_seat(seat), tapped_card(card))

    def last_fix(self) -> Correction | None:
        """The players' latest change of a card in this hand, while Undo may take it back:
        it changed a card (not added or kept one), and it is not itself an Undo."""
        hand = self.hand
        if hand is None or self.phase not in (Phase.PLAYING, Phase.RENEGE, Phase.HAND_OVER):
            return None
        return fixing.latest_change(self.corrections, hand)

    def undo_fix(self) -> None:
        """Take back the players' latest change of a card: the card the record held
        before comes back (and whatever followed from it: a winner, a renege)."""
        fix = self.last_fix()
        hand = self.hand
        if fix is None or hand is None or fix.was is None:
            raise IntentRefused(Why.NO_FIX_TO_UNDO)
        refused = fixing.refusal(self.profile, hand, fix.trick, fix.seat, fix.was)
        if refused:
            raise IntentRefused(Why.RULES_REFUSE, refusal=refused)
        self._record(CardFixed(hand.number, fix.trick, fix.seat, fix.was, undo_of=fix.seq),
                     key=f"undo_fix:{fix.seq}")

    def keep_card(self) -> None:
        """The players keep the card the record holds against the camera's suggestion:
        the camera is not asked about that card again."""
        hand = self.hand
        if hand is None or hand.suggestion is None:
            raise IntentRefused(Why.NOTHING_TO_ASK)
        s = hand.suggestion
        self._record(CardFixed(hand.number, s.trick, s.seat, s.was),
                     key=f"keep:{uuid.uuid4().hex}")

    def choose_renege(self, choice: str) -> None:
        """Settle a proven renege: `penalty`, or an option the profile lets the
        non-offending side choose (see `referee.renege_options`)."""
        hand = self.hand
        if hand is None or self.phase != Phase.RENEGE:
            raise IntentRefused(Why.NO_RENEGE)
        assert hand.view is not None
        options = referee.settle(hand.view, hand.renege_choice).options
        if choice not in [o.choice for o in options]:
            raise IntentRefused(Why.NOT_A_CHOICE, detail=choice)
        # Keyed by what was proven: one decision per renege and stage of the hand.
        stage = "end" if hand.view.result is not None else "now"
        self._record(RenegeChosen(hand.number, choice),
                     key=f"renege_choice:{hand.number}:{stage}")

    def call_director(self) -> None:
        """The players want the director: recorded, and told to the outbox if any.
        A second call while one is open changes nothing."""
        hand = self.hand
        number = hand.number if hand else 0
        if self.director_called:
            return
        self._record(DirectorCalled(number), key=f"director:{uuid.uuid4().hex}")
        if self.outbox is not None and hasattr(self.outbox, "call_director"):
            self.outbox.call_director(self.setup.to_json() if self.setup else {}, number)

    def cancel_director_call(self) -> None:
        """The players settled it themselves: the open call is withdrawn."""
        hand = self.hand
        if not self.director_called:
            raise IntentRefused(Why.DIRECTOR_NOT_CALLED)
        number = hand.number if hand else 0
        self._record(DirectorCancelled(number), key=f"director_cancelled:{uuid.uuid4().hex}")
        if self.outbox is not None and hasattr(self.outbox, "call_director"):
            self.outbox.call_director(self.setup.to_json() if self.setup else {}, number,
                                      cancelled=True)

    @property
    def director_called(self) -> bool:
        """A call to the director is open (in this hand, or between hands)."""
        hand = self.hand
        return hand.director_called if hand is not None else self.called_between_hands

    def next_hand(self) -> None:
        """The hand is scored; the deal passes to the left."""
        if self.phase != Phase.HAND_OVER:
            raise IntentRefused(Why.FINISH_THE_HAND)
        if self.game_can_end():
            raise IntentRefused(Why.GAME_OVER)
        assert self.hand is not None
        self._record(HandEnded(self.hand.number), key=f"next:{self.hand.number}")

    def end_game(self) -> None:
        """Stop play: a side has won, or time is up between hands."""
        if not self.game_can_end():
            raise IntentRefused(Why.GAME_NOT_OVER)
        self._record(GameEnded(), key="end_game")

    def confirm(self, side: str) -> None:
        """A team agrees with the final score; both must before it is sent."""
        if self.phase != Phase.GAME_OVER:
            raise IntentRefused(Why.GAME_NOT_OVER)
        if side not in SIDES:
            raise IntentRefused(Why.UNKNOWN_SIDE, detail=side)
        if side in self.confirmed:
            return
        self._record(Confirmed(Team(side)), key=f"confirm:{side}:{self.taken_back}")
        if self.confirmed >= set(SIDES):
            egn_file.keep_game(self)  # the game in Euchre Game Notation, beside the journal
            self.submit()

    def unconfirm(self, side: str) -> None:
        """A team takes back its agreement, while the other team has not agreed yet."""
        if self.phase != Phase.GAME_OVER or side not in self.confirmed:
            raise IntentRefused(Why.NO_AGREEMENT)
        self._record(Unconfirmed(Team(side)), key=f"unconfirm:{side}:{self.taken_back}")

    def new_game(self) -> None:
        """The game is confirmed: the same table starts its next round (the journal
        keeps every game; the set-up carries over with the round moved on)."""
        if self.phase != Phase.CONFIRMED:
            raise IntentRefused(Why.FINISH_THE_GAME)
        self._record(NewGame(), key=f"new_game:{self.last_seq}")

    def submit(self) -> None:
        """Hand the confirmed result to the outbox (which retries until the
        director acknowledges, and never sends one game twice)."""
        if self.outbox is None or not self.confirmed >= set(SIDES):
            return
        self.outbox.submit(self.game_result())
        self._record(Submitted(), key="submitted")

    def see_markers(self, fives: Mapping[Team | str, int | None]) -> bool:
        """What the camera read of each side's 5s after a hand (None: could not read).
        Recorded with the kiosk's score of that moment; False when nothing was read."""
        reading = markers.reading(fives, len(self.finished), self.scores)
        if reading is None:
            return False
        self._record(reading, key=f"markers:{uuid.uuid4().hex}")
        return True

    def answer_markers(self, side: Team | str, answer: str) -> None:
        """The players say which is right for a side's open difference: ``kiosk`` (they
        move their 5s) or ``fives`` (it stays open, for the director); ValueError when
        there is nothing to answer."""
        given, reading_seq = markers.answer(self.markers, side, answer)
        self._record(given, key=f"markers_answer:{reading_seq}:{given.side}")

    def hand_brief(self) -> HandBrief:
        """What the trick reader needs to follow the hand (kiosk.table.standing)."""
        return standing.hand_brief(self)

    # ---------------------------------------------------------------- results

    def game_result(self) -> dict[str, Any]:
        """The result the director records (CONTRACTS: one game of `standings`)."""
        return results.game_result(self)

    def frame_path(self, hand: int, trick: int, seat: Seat) -> Path | None:
        """Where the frame of `seat`'s card in a trick is kept (one folder per game)."""
        if self.frames_dir is None:
            return None
        game = f"game-{int(self.started_at or 0)}"
        return self.frames_dir / game / f"h{hand}-t{trick}-{seat}.jpg"

    def game_id(self) -> str:
        """Stable across restarts: the outbox uses it to never send a game twice."""
        s = self.setup
        assert s is not None
        return f"{s.tournament or 'table'}/r{s.round}/t{s.table}/{int(self.started_at or 0)}"

    # -------------------------------------------------------------- internals

    def _need_hand(self, phase: Phase) -> HandLog:
        if self.phase != phase or self.hand is None:
            raise IntentRefused(Why.NOT_TIME_TO_BID if phase == Phase.BIDDING else Why.NOT_NOW)
        return self.hand

    def _key(self, key: str) -> str:
        """Keys name a moment of this game ('start', 'bid:1:0', 'confirm:NS'): the
        table's next game in the same journal has keys of its own."""
        return key if self.game_number == 1 else f"game{self.game_number}:{key}"

    def has_seen(self, event: VisionEvent, source: str = "camera") -> bool:
        """Whether this game's journal holds the sighting already (a replayed reader)."""
        return self.journal.has(self._key(f"vision:{source}:{event.key}"))

    def _record(self, event: JournalEvent, key: str) -> Entry | None:
        entry = self.journal.append(event.kind, event.to_json(), key=self._key(key))
        if entry is None:
            return None
        self._apply(entry)
        self._notify()
        return entry

    def _apply(self, entry: Entry) -> None:
        """Fold one journal entry into the state (kiosk.table.folds)."""
        folds.fold(self, entry)

    def rebuild_hand(self) -> None:
        """Ask the referee what the hand's seen cards mean (kiosk.table.hand_keeping)."""
        hand_keeping.rebuild(self)

    def add_notice(self, notice: Notice) -> None:
        """A message for the players, as facts (the last 20 are kept)."""
        self.notices.append(notice)
        del self.notices[:-20]
