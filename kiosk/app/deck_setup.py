"""The deck set-up screen's logic, without Kivy: lay the pack in the grid, read it, learn it.

Why: the table's own deck under its own camera reads better once the kiosk has learnt it
(kiosk.vision.decks.deck_profile), and laying the 24 cards and the two 5s in the grid the screen
draws over the camera's picture labels every card by its place, so nobody types a name.
Reading the layout also checks the pack (a card missing, or a place holding plainly
another card: the rule books' misdeal) and the picture (too far, blurred, dark, washed
out: kiosk.vision.camera.camera_check), each said in plain words. "Learn this deck" fits the
profile in seconds and keeps it beside the table's calibration; the detector reads with
it at once, and the next start of the kiosk at this table finds it there. A paired kiosk
also offers it to the director, who can hand it to the tables that play the same deck
(kiosk.table.deck_handout); the screen says which profile is in use and where it came
from, so players know whether the director's or their own is reading their cards.

Coordinates are the picture's own, 0..1 across and down (kiosk.vision.decks.deck_layout); the
screen draws what `view()` returns.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.app import words
from kiosk.rules.cards import Card
from kiosk.table.deck_keeping import DIRECTOR, TABLE, deck_path, learnt_here, read_origin

#: what each place shows on the screen: still to read, its card seen, nothing there, or
#: another card there
UNREAD, SEEN, MISSING, WRONG = "unread", "seen", "missing", "wrong"


@dataclass(frozen=True)
class PlaceView:
    box: tuple[float, float, float, float]  #: x1, y1, x2, y2 in the picture (0..1)
    words: str  #: the card that belongs there, in plain words ("Nine of clubs")
    state: str  #: UNREAD, SEEN, MISSING or WRONG


@dataclass(frozen=True)
class DeckView:
    status: str  #: what to do now, or what was read, in plain words
    advice: tuple[str, ...]  #: what to change about the camera, if anything
    places: tuple[PlaceView, ...]
    can_read: bool
    can_learn: bool
    in_use: str = ""  #: the profile the camera reads with and where it came from


__all__ = ["DeckSetup", "DeckView", "PlaceView", "deck_path", "load_deck_for_table"]


def load_deck_for_table(session: Any) -> Any:
    """This table's saved deck profile, or None (none saved, or unreadable)."""
    from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError

    path = deck_path(session)
    if path is None or not path.is_file():
        return None
    try:
        return DeckProfile.load(path)
    except ProfileError:
        return None


class DeckSetup:
    """One table's deck enrolment in the making."""

    def __init__(self, session: Any, on_change: Callable[[], None] | None = None) -> None:
        self.session = session
        self.on_change = on_change or (lambda: None)
        self.frame: Any = None  #: the latest camera picture (BGR numpy), set by the app
        self.detector: Any = None  #: the card detector, set where the kiosk has one
        self.readings: list[Any] = []  #: layout readings since the screen opened
        self.advice: tuple[str, ...] = ()
        self.note = ""
        #: learning in the background (:meth:`learn_soon`) is under way
        self.learning = False
        #: runs a function on the screen's thread (the app: Kivy's clock); by default at
        #: once, on the thread that learnt
        self.deliver: Callable[[Callable[[], None]], None] = lambda done: done()
        self._loaded_for: object = None  # the table whose saved profile was looked for
        #: where the profile the detector reads with came from: DIRECTOR, TABLE, or ""
        #: (none, or given on the command line)
        self.source = ""
        self.source_name = ""  #: the director's name for it
        #: called once the table's own profile was looked for (the presenter asks the
        #: director for the table's deck then)
        self.on_table: Callable[[], object] = lambda: None

    def table_known(self) -> None:
        """Read with the deck profile this table keeps (learnt here at an earlier set-up),
        once the table's number is known, unless the detector already reads with one
        (``kiosk run --deck``); looked for once per table. A profile learnt on other
        networks is left unused: the detector reads without it."""
        setup = getattr(self.session, "setup", None)
        table = None if setup is None else setup.table
        if table is None or table == self._loaded_for or not self.available:
            return
        self._loaded_for = table
        if self.detector.deck is None:
            from kiosk.vision.cards.detector import ModelError

            profile = load_deck_for_table(self.session)
            if profile is not None:
                with contextlib.suppress(ModelError):
                    self.detector.use_deck(profile)
                    origin = read_origin(self.session)
                    self.source = origin.source if origin is not None else TABLE
                    self.source_name = origin.name if origin is not None else ""
        self.on_table()

    def read_with(self, profile: Any) -> None:
        """Read with ``profile`` from now on (None: without one), or raise ProfileError
        with one line and read as before (a profile learnt on other networks)."""
        if not self.available:
            return
        from kiosk.vision.cards.detector import ModelError
        from kiosk.vision.decks.deck_profile import ProfileError

        before = self.detector.deck
        try:
            self.detector.use_deck(profile)
        except ModelError as problem:
            with contextlib.suppress(ModelError):
                self.detector.use_deck(before)
            raise ProfileError(str(problem)) from None

    def handed(self, source: str, name: str = "") -> None:
        """The profile in use changed by the director's word (kiosk.table.deck_handout)."""
        self.source, self.source_name = source, name
        self.on_change()

    def opened(self) -> None:
        self.readings, self.advice, self.note = [], (), ""
        self.on_change()

    @property
    def available(self) -> bool:
        """Whether this kiosk can learn a deck (a trained detector whose classifier gives
        its features; the scripted demo has none)."""
        namer = getattr(self.detector, "namer", None)
        return namer is not None and bool(getattr(namer, "has_features", False))

    def read(self) -> None:
        """Read the layout in the latest picture (each read adds a photo to learn from)."""
        if self.frame is None or not self.available or self.learning:
            return
        from kiosk.vision.camera.camera_check import check_picture
        from kiosk.vision.decks.enrolment import read_layout

        reading = read_layout(self.detector, self.frame)
        self.readings = [*self.readings, reading][-5:]  # the latest few: a handful teaches
        self.advice = check_picture(self.frame, [b for r in reading.places for b in r.boxes]
                                    ).advice
        self.note = ""
        self.on_change()

    def learn_soon(self) -> threading.Thread | None:
        """Learn in the background (about five to ten seconds on a kiosk's CPU) while the
        screen says so, so that the screen never freezes under a player's finger; the
        result reaches the screen through :attr:`deliver`. A second tap meanwhile does
        nothing. Returns the thread (None when there was nothing to start)."""
        if self.learning or not self.readings or not self.available:
            return None
        self.learning = True
        self.note = "Learning this deck: a few seconds..."
        self.on_change()

        def work() -> None:
            try:
                self.learn(announce=False)
            except Exception as problem:  # a full disk, a detector gone: said, not raised
                note = f"The deck could not be learnt ({problem}). Tap 'Learn this deck' again."
                self.note = note
            finally:
                self.deliver(self._learnt)

        thread = threading.Thread(target=work, name="learn-deck", daemon=True)
        thread.start()
        return thread

    def _learnt(self) -> None:
        self.learning = False
        self.on_change()

    def learn(self, announce: bool = True) -> str:
        """Learn the deck from the readings, keep the profile for this table and read with
        it from now on; returns the file it went to ("" when there was nothing to learn)."""
        from kiosk.vision.decks.enrolment import learn_deck

        photos = [r.photo for r in self.readings if r.photo.labels]
        path = deck_path(self.session)
        if not photos or path is None or not self.available:
            return ""
        profile = learn_deck(self.detector, photos, deck=f"table {self.session.setup.table}")
        path.parent.mkdir(parents=True, exist_ok=True)
        profile.save(path)
        learnt_here(self.session)
        self.detector.use_deck(profile)
        self.source, self.source_name = TABLE, ""
        self.note = (f"Learnt this deck ({len(profile.enrolled)} cards). The camera reads "
                     "with it now, and at this table from now on." + self._offer(path))
        if announce:
            self.on_change()
        return str(path)

    def _offer(self, path: Path) -> str:
        """Offer the profile just learnt to the director, where the kiosk is paired; the
        words that say how it went ("" when not paired)."""
        from kiosk.table.deck_handout import HandoutError, offer_deck

        outbox = getattr(self.session, "outbox", None)
        config = outbox.config() if outbox is not None else {}
        if not (config.get("server") and config.get("token")):
            return ""
        try:
            offer_deck(config["server"], config["token"], path,
                       f"Table {self.session.setup.table}'s deck")
        except HandoutError as problem:
            return f" It did not reach the director: {words.director_problem_words(problem)}"
        return " The director has it too, to hand to the other tables."

    def in_use(self) -> str:
        """Which profile the camera reads with, and where it came from, in plain words."""
        deck = getattr(self.detector, "deck", None)
        if not self.available:
            return ""
        if deck is None:
            return "This deck is not learnt yet."
        if self.source == DIRECTOR:
            return f"Handed out by the director: {self.source_name or deck.deck}."
        if self.source == TABLE:
            return f"Learnt at this table ({len(deck.enrolled)} cards)."
        return f"{deck.deck or 'A deck profile'}, given when the kiosk started."

    def view(self) -> DeckView:
        from kiosk.vision.decks.enrolment import pack_places, pack_sentence

        places = tuple(_place_view(r, bool(self.readings)) for r in pack_places(self.readings))
        if not self.available:
            status = ("This kiosk has no card detector that can learn a deck (the demo "
                      "plays without one).")
        elif self.frame is None:
            status = "No camera picture yet: is the camera connected?"
        elif self.note:
            status = self.note
        elif not self.readings:
            status = ("Lay the 24 cards and the two fives face up, each in its place as "
                      "drawn, then tap 'Read the cards'.")
        else:
            status = pack_words(places, pack_sentence(self.readings))
        seen = sum(1 for p in places if p.state == SEEN)
        # learning helps only from a pack mostly read right: a few cards teach it nothing
        can_learn = (seen >= LEARN_FROM * len(places) and self.available
                     and any(r.photo.labels for r in self.readings) and not self.learning)
        can_read = self.frame is not None and self.available and not self.learning
        return DeckView(status, self.advice, places, can_read, can_learn, self.in_use())


#: the share of the pack's places read right before learning is offered
LEARN_FROM = 0.75


def pack_words(places: tuple[PlaceView, ...], sentence: tuple[str, bool]) -> str:
    """What a read of the pack found, short: the picture shows each place green (right)
    or red (missing, or another card). The reader's own sentence (`sentence`: its words
    and whether the pack is complete) names one or two cards to put right; more are
    left to the picture, never listed in a paragraph.

    >>> pack_words((PlaceView((0, 0, 1, 1), "King of diamonds", MISSING),) * 3,
    ...            ("0 of 26 cards seen. ...", False))[:60]
    '0 of 3 cards read right: the red places on the picture are m'
    """
    words, complete = sentence
    if complete:
        return f"{words} Tap 'Learn this deck'."
    problems = sum(1 for p in places if p.state in (MISSING, WRONG))
    seen = sum(1 for p in places if p.state == SEEN)
    if problems <= 2:
        detail = words.split(": ", 1)[-1].rstrip(".")  # the reader's list of what is wrong
        return (f"{seen} of {len(places)} cards seen: {detail}. Put it right, then tap "
                "'Read the cards'.")
    return (f"{seen} of {len(places)} cards read right: the red places on the picture are "
            "missing or hold another card. Put them right and tap 'Read the cards' again.")


def _place_view(reading: Any, read: bool) -> PlaceView:
    """A place as the screen draws it: its card in words (a 5 as its suit was read), and
    what the photos showed there (nothing yet, before any was read)."""
    from kiosk.vision.decks.deck_layout import FIVE

    place = reading.place
    if reading.other is not None:
        state = WRONG
    elif reading.card is not None:
        state = SEEN
    else:
        state = MISSING if read else UNREAD
    if place.card != FIVE:
        words = _capital(place.words)
    elif state == SEEN:
        words = _capital(Card.parse(reading.card).words)
    else:
        words = "A five"
    return PlaceView(place.box, words, state)


def _capital(words: str) -> str:
    """ "the nine of clubs" -> "Nine of clubs" (a place's label on the screen)."""
    text = words.removeprefix("the ")
    return text[:1].upper() + text[1:]
