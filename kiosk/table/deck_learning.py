"""The table's deck keeps being learnt during play: the camera's frames in, the session's
accepted hands in, a better profile out (kiosk.vision.decks.play_learning does the learning).

Three threads meet here, each doing only its own part:

- the frame thread (:meth:`TableDeckLearning.look`, from the camera's reader) hands in
  each frame's boxes that lie in a seat's zone while a hand is in play, and reads with a
  newly adopted profile before its next frame (:meth:`TableDeckLearning.adopt`), so the
  detector never changes under a frame it is reading;
- the screen's thread (:meth:`TableDeckLearning.follow`, on every change of the
  session) notices a hand finished, and which of its cards the players corrected;
- a worker thread settles that hand and refits (a second or two; a deep profile's
  network learns for up to a minute where torch is installed), away from both.

An adopted profile is kept beside the table's calibration (``-learnt.npz`` beside the
set-up profile, which stays as it was learnt), so a restart at this table reads with
what play taught; a learnt profile whose set-up profile changed since is not used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.rules.cards import Card
from kiosk.table.hand_log import Correction
from kiosk.table.learning_notes import HandLearnt, LearningFailed, LearningFault, LearningNote
from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError
from kiosk.vision.decks.play_learning import FEWEST_CARDS, PlayLearning, origin_of

if TYPE_CHECKING:
    from kiosk.table.session import TableSession


def accepted_cards(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(seat, card) of every card a finished hand's record counts.

    >>> accepted_cards({"tricks": [["E:AS", "S:9S"], ["E:JH"]]})
    [('E', 'AS'), ('S', '9S'), ('E', 'JH')]
    """
    out = []
    for trick in record.get("tricks") or []:
        for play in trick:
            seat, _, card = str(play).partition(":")
            out.append((seat, str(Card.parse(card))))
    return out


def corrected_cards(corrections: Iterable[Correction], hand: int) -> list[tuple[str, str]]:
    """(seat, card) of the names before and after each correction the players made in
    hand ``hand``: a card the camera missed and the players added had no name before,
    and one they confirmed kept its name; neither is a correction."""
    out = []
    for c in corrections:
        if c.hand == hand and c.was is not None and c.was != c.card:
            out += [(str(c.seat), str(c.was)), (str(c.seat), str(c.card))]
    return out


class TableDeckLearning:
    """One table's learning during play (see the module's docstring)."""

    def __init__(self, detector: Any, where: Callable[[], Path | None] = lambda: None,
                 start: Callable[[Callable[[], None]], Any] | None = None,
                 say: Callable[[LearningNote], None] = lambda _note: None) -> None:
        """``where()`` is the table's set-up profile file (kiosk.app.deck_setup.deck_path),
        None while the table is not known; play's profile is kept beside it. ``say`` is
        told what each hand that taught something taught, for the console."""
        self.detector = detector
        self.where = where
        self.say = say
        self.learner = PlayLearning(detector.namer, detector.deck)
        self._lock = threading.Lock()
        self._one_worker = threading.Lock()  # hands are settled one at a time
        #: a profile to read with from the next frame, and the one it grew from: it is
        #: read with only if the table still reads with that one (a deck handed out or
        #: enrolled meanwhile wins)
        self._ready: tuple[DeckProfile, DeckProfile | None] | None = None
        self._finished = 0  # the session's finished hands already settled
        self._resumed_for: Path | None = None
        self._start = start or _in_a_thread
        #: the last worker started (tests wait on it)
        self.worker: Any = None
        #: what learning last has to report (None: nothing yet)
        self.last_note: LearningNote | None = None

    @classmethod
    def usable(cls, detector: Any) -> bool:
        """Whether a detector can learn (a trained one whose classifier gives features)."""
        namer = getattr(detector, "namer", None)
        return namer is not None and bool(getattr(namer, "has_features", False))

    # -- the frame thread --------------------------------------------------------------------

    def look(self, hand: Any, pipeline: Any) -> None:
        """The pipeline's last frame, of hand ``hand`` in play: its boxes in seat zones,
        each given the seat the trick reader gives it."""
        picture, found = getattr(pipeline, "last_view", (None, ()))
        reader = getattr(pipeline, "reader", None)
        frame_boxes = list(getattr(pipeline, "last_detections", ()))
        if picture is None or reader is None or not found or len(found) != len(frame_boxes):
            return
        seen: list[tuple[str, str, Sequence[float]]] = [
            (str(seat), d.card, d.box)
            for d, seat in zip(found, reader.seats(frame_boxes), strict=True)
            if seat is not None]
        with self._lock:
            self.learner.look(hand, picture, seen)

    def adopt(self) -> None:
        """Read with a profile the worker adopted since the last frame (frame thread)."""
        with self._lock:
            ready, self._ready = self._ready, None
        if ready is None:
            return
        profile, parent = ready
        if self.detector.deck is not parent:
            return  # the table was given another deck since: what grew from the old goes
        try:
            self.detector.use_deck(profile)
        except Exception as problem:  # a profile the detector refuses: read as before
            self.last_note = LearningFailed(LearningFault.NOT_USED, str(problem))

    # -- the screen's thread -----------------------------------------------------------------

    def follow(self, session: TableSession) -> None:
        """After any change of the session: start again from a profile the table was given
        meanwhile (a deck learnt at set-up, or handed out by the director), resume what
        play taught at this table before, and settle each hand finished since last time."""
        with self._lock:
            reads_with = self.detector.deck
            if reads_with is not self.learner.profile and self._ready is None:
                self.learner = PlayLearning(self.detector.namer, reads_with)
            self._resume()
        finished = list(getattr(session, "finished", []))
        if len(finished) < self._finished:  # a new game: its hands start again
            self._finished = 0
        new, self._finished = finished[self._finished:], len(finished)
        for hand in new:
            accepted = accepted_cards(hand.record)
            corrected = corrected_cards(getattr(session, "corrections", []), hand.number)
            self.worker = self._start(partial(self._settle, hand.number, accepted, corrected))

    def _resume(self) -> None:
        """Once the table is known: read with the profile play taught here before, if it
        grew from the profile the table reads with now (under the lock)."""
        deck_file = self.where()
        if deck_file is None or deck_file == self._resumed_for:
            return
        self._resumed_for = deck_file
        learnt = load_learnt(deck_file, self.learner.profile)
        if learnt is not None:
            self._ready = (learnt, self.detector.deck)
            self.learner = PlayLearning(self.detector.namer, learnt)

    def finish(self, timeout: float = 30.0) -> None:
        """Let a hand being learnt finish before the kiosk closes (its network must not be
        torn down under it), at most ``timeout`` seconds."""
        worker = self.worker
        if isinstance(worker, threading.Thread):
            worker.join(timeout)

    # -- the worker --------------------------------------------------------------------------

    def _settle(self, hand: int, accepted: list[tuple[str, str]],
                corrected: list[tuple[str, str]]) -> None:
        with self._one_worker:
            self._settle_alone(hand, accepted, corrected)

    def _settle_alone(self, hand: int, accepted: list[tuple[str, str]],
                      corrected: list[tuple[str, str]]) -> None:
        with self._lock:
            learner = self.learner
            parent = learner.profile
            added = learner.settle(hand, accepted, corrected)
        if not added:
            return
        tried = len(learner.refits)
        profile = learner.refit()
        note = HandLearnt(hand, added, learner.cards,
                          learner.refits[-1] if len(learner.refits) > tried else None,
                          too_few=learner.cards < FEWEST_CARDS)
        self.last_note = note
        self.say(note)
        if profile is None:
            return
        with self._lock:
            if self.learner is not learner or self.detector.deck is not parent:
                return  # the table was given another deck while this hand was learnt
            self._ready = (profile, parent)
        deck_file = self.where()
        if deck_file is not None:
            try:
                deck_file.parent.mkdir(parents=True, exist_ok=True)
                profile.save(learnt_path(deck_file))
            except OSError as problem:  # a full card: the table reads with it all the same
                self.last_note = LearningFailed(LearningFault.NOT_KEPT, str(problem))


def learnt_path(deck_file: Path) -> Path:
    """Where play's profile is kept, beside the set-up one (``T1-deck.npz`` ->
    ``T1-deck-learnt.npz``)."""
    return deck_file.with_name(deck_file.stem + "-learnt.npz")


def load_learnt(deck_file: Path, setup_profile: DeckProfile | None) -> DeckProfile | None:
    """The profile play taught at this table, if it grew from ``setup_profile`` (the
    set-up profile, or None for the shipped networks); else None."""
    path = learnt_path(deck_file)
    if not path.is_file():
        return None
    try:
        learnt = DeckProfile.load(path)
    except ProfileError:
        return None
    return learnt if learnt.grown_from == origin_of(setup_profile) else None


def _in_a_thread(work: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=work, name="learn-in-play", daemon=True)
    thread.start()
    return thread
