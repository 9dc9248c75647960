"""Drive the real Kivy app with touches (run under Xvfb by test_ui.py, or by hand):

    xvfb-run -a python tests/app/ui_run.py JOURNAL SHOTS_DIR [PREFIX]

(`... var/ui.sqlite3 docs app-` refreshes the README's screenshots.)

Taps through set-up, bidding (with a forbidden bid explained), a whole hand read
from camera events, the score, a renege and its choice, and the game end; saves
a screenshot of each screen in SHOTS_DIR and prints `UI OK <scores>` at the end.
"""

from __future__ import annotations

import math
import os
import sys
import time
import traceback
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.config import Config  # noqa: E402

# the 10-inch tablet the bar is written for; KIOSK_UI_SIZE=800x480 (with KIOSK_PX_PER_MM=5.2)
# tries a Raspberry Pi's 7-inch touch screen
_WIDTH, _HEIGHT = os.environ.get("KIOSK_UI_SIZE", "1280x800").split("x")
Config.set("graphics", "width", _WIDTH)
Config.set("graphics", "height", _HEIGHT)
Config.set("graphics", "fullscreen", "0")
Config.set("kivy", "keyboard_mode", "systemanddock")  # as on a touch-only Pi (--keyboard)

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from kiosk.app import bar  # noqa: E402
from kiosk.app.demo import load_record, script  # noqa: E402
from kiosk.app.main import KioskApp  # noqa: E402
from kiosk.app.presenter import TablePresenter  # noqa: E402
from kiosk.app.voice import VoiceSettings  # noqa: E402
from kiosk.app.words import card_words  # noqa: E402
from kiosk.rules.cards import Card, Seat  # noqa: E402
from kiosk.table.session import TableSession  # noqa: E402
from kiosk.vision.events import CardPlayed, KittyChange, KittySeen, TrickCleared, face  # noqa: E402


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from walk(child)


class Driver:
    def __init__(self, app: KioskApp, shots: Path, prefix: str = "") -> None:
        self.app = app
        self.shots = shots
        self.prefix = prefix
        self.last_tap = 0.0
        self.last_at = (-1e9, -1e9)  # where the last tap landed (window pixels)
        self.tap_flips = 0  # frames the window had drawn when the last tap landed
        #: what the audit found on each screen the run saved (devtools.screen_audit)
        self.findings: dict[str, list[str]] = {}

    @property
    def screen(self) -> Any:
        assert self.app.manager is not None
        return self.app.manager.current_screen

    def find(self, text: str | None = None, card: str | None = None, within: str = "") -> Any:
        root = self.screen.ids[within] if within else self.screen
        for w in walk(root):
            if card is not None and getattr(w, "card", None) == card and hasattr(w, "caption"):
                return w
            if text is not None and getattr(w, "text", None) is not None and hasattr(
                    w, "on_release") and _plain(w.text) == text:
                return w
        raise AssertionError(f"no {text or card!r} on the {self.screen.name} screen")

    def tap(self, text: str | None = None, card: str | None = None,
            within: str = "") -> Iterator[float]:
        """Tap a widget once it is on screen and laid out (software GL can be slow); near
        the last tap, no sooner after it than a player would, since the app's tap guard
        (kiosk.app.taps) drops a repeat there. A tap elsewhere goes at once, as a
        player's next button does."""
        yield 0.05  # the frame after: a screen rebuilt by the last tap is laid out
        widget = yield from self._laid_out(text, card, within)
        x, y = widget.to_window(*widget.center)
        guard = self.app.taps
        if math.hypot(x - self.last_at[0], y - self.last_at[1]) <= guard.reach_px:
            while time.monotonic() < self.last_tap + guard.window_s + 0.1:
                yield 0.05
            widget = yield from self._laid_out(text, card, within)
            x, y = widget.to_window(*widget.center)
        assert not widget.disabled, f"{text or card!r} is disabled"
        self.last_tap, self.last_at = time.monotonic(), (x, y)
        self.tap_flips = self.app.frames_drawn
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def _laid_out(self, text: str | None, card: str | None, within: str
                  ) -> Generator[float, None, Any]:
        """The widget once it is laid out: found with the same place on two frames running
        (a screen rebuilt by the last tap places its buttons over a frame or two)."""
        seen: tuple[Any, tuple[float, float]] | None = None
        for _ in range(200):  # 10 s: a busy machine's software renderer can be slow
            try:
                widget = self.find(text, card, within)
            except (AssertionError, KeyError):
                widget = None
            if widget is not None and not (list(widget.size) == [100, 100]
                                           and list(widget.pos) == [0, 0]):
                place = (widget, tuple(widget.to_window(*widget.center)))
                if place == seen:
                    return widget
                seen = place
            yield 0.05
        raise AssertionError(f"no {text or card!r} on the {self.screen.name} screen")

    def double_tap(self, text: str) -> Iterator[float]:
        """Two taps on one button as a trembling finger gives them: the second lands
        before the screen has even redrawn (a frame of the software renderer here can
        outlast the 0.7 s window, so a timed gap would prove nothing)."""
        yield from self.tap(text)
        widget = self.find(text)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.last_tap, self.last_at = time.monotonic(), (x, y)

    def place(self, text: str) -> tuple[float, float]:
        widget = self.find(text)
        return tuple(widget.to_window(*widget.pos))  # type: ignore[return-value]

    def until(self, screen: str) -> Iterator[float]:
        for _ in range(100):
            if self.screen.name == screen:
                return
            yield 0.1
        raise AssertionError(f"on {self.screen.name}, expected {screen}")

    def shot(self, name: str, report: bool = True) -> Iterator[float]:
        """Save what a player sees, once the last tap's redraw has landed, and measure it
        against the accessibility bar."""
        import cv2

        from devtools.screen_audit import audit

        # the last tap's redraw has landed: two frames drawn since it; a screen with
        # nothing more to draw draws no frame, hence the ceiling
        since = time.monotonic()
        yield 0.15
        while self.app.frames_drawn < self.tap_flips + 2 and time.monotonic() < since + 0.6:
            yield 0.05
        target = self.shots / f"{self.prefix}{name}.png"
        saved = Window.screenshot(str(target))
        os.replace(saved, target)  # Kivy numbers the file
        picture = cv2.cvtColor(cv2.imread(str(target)), cv2.COLOR_BGR2RGB)
        self.findings[name] = [str(f) for f in audit(self.screen, picture)]
        found = self.findings[name]
        if report:
            print(f"AUDIT {name}: {len(found)} finding(s)", *found, sep="\n  ", flush=True)

    def expect(self, name: str) -> None:
        assert self.screen.name == name, f"on {self.screen.name}, expected {name}"


def _plain(text: str) -> str:
    import re

    return re.sub(r"\[/?[^\]]*\]", "", text).strip()


def camera(session: TableSession, hand: int, seat_cards: list[str], t0: float) -> None:
    t = t0
    for play in seat_cards:
        if play == "clear":
            session.feed(TrickCleared(t), source=f"ui:h{hand}")
        else:
            seat, card = play.split(":")
            session.feed(CardPlayed(Seat.parse(seat), face(card), t, 0.95),
                         source=f"ui:h{hand}")
        t += 1


def demo_frame() -> Any:
    """The bundled demo video's first picture (the printed mat on a table), if built."""
    video = Path(__file__).resolve().parents[2] / "kiosk" / "assets" / "demo-hand.mp4"
    if not video.is_file():
        return None
    import cv2

    capture = cv2.VideoCapture(str(video))
    ok, image = capture.read()
    capture.release()
    return image if ok else None


def tap_at(d: Driver, x: float, y: float) -> None:
    """A tap on a place rather than a button (a corner of the mat, a text field)."""
    d.last_tap, d.last_at, d.tap_flips = time.monotonic(), (x, y), d.app.frames_drawn
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def calibrate(d: Driver, frame: Any) -> Iterator[float]:
    """Camera set-up: two corners tapped, then the mat found and saved."""
    d.app._frame(frame)  # what the camera's feed does, on the frame thread
    yield 0.3
    yield from d.tap("Camera set-up")
    yield from d.until("calibration")
    yield 0.5
    h, w = frame.shape[:2]
    yield 0.8  # as a player would: a tap too soon where the last button was is dropped
    for x, y in [(0.25 * w, 0.09 * h), (0.77 * w, 0.08 * h)]:
        tap_at(d, *d.screen._to_screen(x, y))
        yield 0.2
    assert len(d.app.presenter.camera_setup.taps) == 2, "the corner taps did not land"
    yield from d.shot("calibration-taps")
    yield from d.tap("Find the mat")
    yield 0.3
    yield from d.shot("calibration")
    yield from d.tap("Save")
    yield 0.2
    yield from learn_the_deck(d, frame)
    yield from d.tap("Done")
    yield from d.until("setup")


def layout_frame() -> Any:
    """A rendered layout of a deck no network trained on, as the deck screen's camera
    would see it; None without the card art."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from datasets import cards_art

    if "kde-standard" not in cards_art.held_out_decks() or not cards_art.card_art_installed():
        return None
    from tests.layout_images import layout_image

    return layout_image("kde-standard", 21, missing=["KD"])


def learn_the_deck(d: Driver, camera_frame: Any) -> Iterator[float]:
    """Deck set-up from the calibration screen: the pack laid in the grid, read (one
    card missing, said in its place), learnt; then back to the camera's own picture."""
    layout = layout_frame()
    if layout is None:
        return
    from kiosk.vision.cards.detector import Detector

    detector = Detector(threads=1)
    d.app.presenter.deck_setup.detector = detector
    yield from d.tap("Learn the deck")
    yield from d.until("deck")
    d.app._frame(layout)
    yield 0.5
    yield from d.shot("deck")
    yield from d.tap("Read the cards")
    yield 0.5
    assert "the king of diamonds is missing" in d.screen.status, d.screen.status
    yield from d.shot("deck-read")
    yield from d.tap("Learn this deck")
    yield 0.3
    assert "Learning this deck" in d.screen.status, d.screen.status  # the screen says so
    for _ in range(900):  # learnt behind the screen: seconds (more on a busy machine)
        if "Learnt this deck" in d.screen.status:
            break
        yield 0.2
    assert detector.deck is not None and "Learnt this deck" in d.screen.status
    yield from d.shot("deck-learnt")
    d.app._frame(camera_frame)
    yield 0.3


def too_small(d: Driver) -> Iterator[float]:
    """A window below the bar: one message, naming the screens that work, and no game."""
    import cv2

    from devtools.screen_audit import audit

    yield 1.0
    label = d.app.root
    assert "too small" in label.text and "1280x800" in label.text, label.text
    target = d.shots / f"{d.prefix}too-small.png"
    os.replace(Window.screenshot(str(target)), target)
    picture = cv2.cvtColor(cv2.imread(str(target)), cv2.COLOR_BGR2RGB)
    found = [str(f) for f in audit(label, picture)]
    print(f"AUDIT too-small: {len(found)} finding(s)", *found, sep="\n  ", flush=True)
    assert not found
    print("UI TOO SMALL", flush=True)


def steps(d: Driver, session: TableSession) -> Iterator[float]:
    yield 0.5
    if d.app.manager is None:  # the window is below what the bar can hold
        yield from too_small(d)
        return
    yield from d.until("setup")
    compact = d.screen.compact  # a 7-inch screen: the set-up's pages one at a time
    yield from d.tap("Rules: first to 10" if compact else
                     "Rules: Tournament: first to 10, 25 minutes")
    yield from d.until("rules")
    yield from d.tap("Alberta 55+")
    if compact:
        yield from d.shot("rules")
        yield from d.tap("Points, time and colours")
    for _ in range(8):
        yield from d.tap("fewer")  # points to win: 10 -> 2
    yield from d.shot("rules-points" if compact else "rules")
    yield from d.tap("Done")
    yield from d.until("setup")
    before = d.place("North")
    d.app.presenter._say("A message for the players, long enough to take two lines on this "
                         "screen: the buttons below must stay where they are.")
    yield 0.3
    assert d.place("North") == before, "the message moved the dealer buttons"
    d.app.presenter._say("")
    yield from d.shot("setup")
    # a touch-only screen: a tap on a text field brings up the docked keyboard
    if compact:
        yield from d.tap("Teams and table")
        yield 0.3
        yield from d.shot("setup-teams")
    field = d.screen.ids.team_ns
    tap_at(d, *field.to_window(*field.center))
    yield 2.0  # the keyboard comes up and the window pans (half a second each)
    from kivy.uix.vkeyboard import VKeyboard

    keyboards = [w for w in Window.children if isinstance(w, VKeyboard)]
    assert keyboards, "no on-screen keyboard came up"
    board = keyboards[0]
    layout = board.available_layouts[board.layout] if isinstance(board.layout, str) else {}
    rows, cols = int(layout.get("rows", 5)), float(layout.get("cols", 15))
    key_height = board.height * board.scale / rows  # docked: scaled to the window
    key_width = board.width * board.scale / cols
    least = bar.mm(bar.TARGET_MM) - 1
    assert min(key_height, key_width) >= least, (
        f"the keyboard's keys are {key_width:.0f} x {key_height:.0f} px")
    assert board.font_size >= bar.TEXT, f"the keys' legends are {board.font_size} px"
    # the window pans: the whole keyboard on the screen, the field typed in just above it
    pan = Window._kheight
    x0, y0 = field.to_window(field.x, field.y)
    assert board.y + pan >= -1, f"the keyboard runs {-(board.y + pan):.0f} px off the screen"
    assert y0 >= board.top - 1 and y0 + field.height + pan <= Window.height + 1, (
        "the field is covered or off the screen", y0, pan, board.top)
    yield from d.shot("setup-keyboard")
    field.focus = False
    yield 0.5
    if compact:
        yield from d.tap("Done")
        yield 0.3
    yield from d.tap("Voice: off")  # a player who cannot read the screen well
    yield from d.until("voice")
    yield from d.tap("Voice OFF: tap to turn on" if bar.SHORT else
                     "The voice is OFF: tap to turn it on")
    yield from d.tap("slower")
    yield from d.shot("voice")
    yield from d.tap("Done")
    yield from d.until("setup")
    assert d.app.presenter.voice.settings == VoiceSettings(enabled=True, rate=125)
    yield from d.tap("Director: not paired" if compact else
                     "Not paired with the director yet: results wait on this kiosk.")
    yield from d.until("pairing")
    yield from d.shot("pairing")
    yield from d.tap("Done")
    frame = demo_frame()
    if frame is not None:
        yield from calibrate(d, frame)
    yield from d.tap("North")
    yield 0.3
    yield from d.until("bidding")
    yield from d.shot("bidding-turn-up")
    yield from d.tap(card="9H", within="picker")
    yield 0.3
    bids = len(session.hand.bids) if session.hand else 0
    yield from d.double_tap("Pass")  # East, with a trembling finger
    yield 0.5
    assert session.hand is not None and len(session.hand.bids) == bids + 1, (
        "a double tap passed twice")
    yield from d.shot("bidding-explained")  # South, the dealer's partner, must go alone here
    assert d.find("Order it up").disabled
    yield from d.tap("Pass")  # South
    yield 0.2
    yield from d.tap("Pass")  # West meant to order it up...
    yield 0.3
    yield from d.tap("Undo West's pass")  # ... and takes the pass back
    yield 0.3
    yield from d.shot("bidding-undo")
    yield from d.tap("Order it up")  # West
    yield 0.3
    yield from d.until("live")
    record = load_record("N")
    seen = []
    for step in script(record)[1:]:  # what the camera reports, the turn-up aside
        if isinstance(step.event, CardPlayed):
            seen.append(f"{step.event.seat}:{step.event.card}")
        elif isinstance(step.event, TrickCleared):
            seen.append("clear")
    assert seen[6] == "S:QH"
    misread = [*seen[:6], "S:QD"]  # trick 1, then trick 2 with South's queen misread
    camera(session, 1, misread, 100)
    yield 0.4
    yield from d.shot("live")
    yield from d.tap(card="QD", within="table")  # the queen of diamonds? No: tap it
    yield from d.until("correction")
    assert d.app.presenter.selected == (2, Seat.S)
    yield from d.shot("correction")
    yield from d.tap(card="QH", within="picker")  # the queen of hearts it was
    yield 0.3
    assert session.hand.plays[-1] == (Seat.S, Card.parse("QH")), session.hand.plays
    yield from fix_a_finished_trick(d, session)
    yield from d.tap("Done")
    yield from d.until("live")
    yield from camera_stops(d)
    camera(session, 1, seen[7:], 200)
    yield 0.4
    yield from d.until("score")
    d.app.presenter.voice.voice.wait()
    spoken = d.app.presenter.voice.voice.spoken
    assert "East, ace of spades." in spoken and "Trick 1 to East." in spoken, spoken
    yield from d.shot("score-hand-1")
    yield from d.tap("Next hand")
    yield 0.3
    # the camera reads the players' 5s: Cy & Di's show a point more than the kiosk has
    kiosk = session.scores
    session.see_markers({"NS": kiosk["NS"], "EW": kiosk["EW"] + 1})
    yield 0.4
    yield from d.until("fives")
    assert d.screen.question.startswith(f"Your fives show {kiosk['EW'] + 1}; the kiosk has")
    yield from d.shot("fives")
    yield from d.tap(f"The kiosk: {kiosk['EW']}")
    yield 0.3
    assert session.markers.open() == [] and session.markers.unsettled() == []
    # Hand 2, East deals; South leads AS, West trumps with QH although holding 9S,
    # then leads 9S: a renege, proven.
    yield from d.until("bidding")
    # the camera reads the turn-up on East's kitty
    session.feed(KittySeen(Seat.E, face("9H"), KittyChange.SHOWN, 290.0, 0.95), source="ui:h2")
    yield 0.4
    assert d.screen.turn_up == "9H" and d.screen.turn_up_note.startswith("Turn-up: nine of hearts")
    yield from d.shot("bidding-camera-turn-up")
    yield from d.tap("Pass")  # South
    yield from d.tap("Pass")  # West
    yield from d.tap("Order it up")  # North
    yield 0.3
    # ... and sees East pick it up, as the bids say: nothing to ask
    session.feed(KittySeen(Seat.E, face("9H"), KittyChange.TAKEN, 296.0, 1.0), source="ui:h2")
    yield 0.4
    assert not d.app.presenter.live_view().notices
    camera(session, 2, ["S:AS", "W:QH", "N:KS", "E:QS", "clear", "W:9S"], 300)
    yield 0.4
    yield from twin_questions(d, session)
    yield from d.until("renege")
    yield from d.tap("Call the director")  # not paired: the players are told so
    yield 0.3
    assert "not paired" in d.app.presenter.message, d.app.presenter.message
    yield from d.shot("renege")
    if d.screen.compact:  # a small screen: what happened, then what to do
        yield from d.tap("What to do now")
        yield 0.3
    yield from d.tap("Give Ann & Bob 2 points")
    yield 0.3
    assert session.hand is not None and session.hand.renege_choice is None  # not yet
    yield from d.shot("renege-confirm")
    yield from d.tap("Yes: score it")
    yield 0.4
    yield from d.until("score")
    yield from d.shot("score-game-won")
    yield from d.tap("End the game")
    yield 0.3
    yield from d.until("game_end")
    yield from d.tap("Ann & Bob: tap to agree")
    yield 0.3
    yield from d.shot("game-end-agree")
    yield from d.tap("Yes: we agree")
    yield 0.3
    assert session.confirmed == {"NS"}
    yield from d.tap("\u2713 Ann & Bob agree: tap to take it back")  # a second thought
    yield 0.3
    assert session.confirmed == set()
    for team in ("Ann & Bob", "Cy & Di"):
        yield from d.tap(f"{team}: tap to agree")
        yield from d.tap("Yes: we agree")
        yield 0.3
    yield from d.shot("game-end")
    yield from audit_can_fail(d)
    failed = {name: found for name, found in d.findings.items() if found}
    assert not failed, f"screens below the bar: {sorted(failed)}"
    print("UI OK", session.scores, flush=True)


def twin_questions(d: Driver, session: TableSession) -> Iterator[float]:
    """Before the renege is called, each card it depends on that may be its same-colour
    twin is put to the players: the two cards, and one tap on the one that lies there
    (here each card as the camera read it: the renege stands)."""
    yield from d.until("twin")
    assert d.screen.question.startswith("The "), d.screen.question
    yield from d.shot("twin")
    first = True
    for _ in range(4):
        hand = session.hand
        if d.screen.name != "twin" or hand is None or hand.suggestion is None:
            break
        asked = hand.suggestion
        place = (asked.trick, asked.seat)
        if first:  # the words under the card, then the card's own face
            yield from d.tap(card_words(asked.was).capitalize())
        else:
            yield from d.tap(card=str(asked.was))
        first = False
        yield 0.4
        assert session.hand is not None and session.hand.fixed.get(place) == asked.was, (
            "one tap did not answer the twin question")


def fix_a_finished_trick(d: Driver, session: TableSession) -> Iterator[float]:
    """A card of trick 1 (finished) changed: what it changes is said first, and only a
    yes makes the change, which Undo takes back."""
    yield from d.tap("Back to the tricks")  # the picker offers West's card next
    yield 0.3
    yield from d.tap(card="QS", within="tricks")  # North's queen of spades, trick 1
    yield 0.3
    yield from d.tap(card="9C", within="picker")
    yield 0.3
    assert session.hand is not None and (Seat.N, Card.parse("QS")) in session.hand.plays  # not yet
    assert "Trick 1, North: the queen of spades becomes the nine of clubs" in (
        d.screen.question), d.screen.question
    yield from d.shot("correction-question")
    yield from d.tap("Yes: change it")
    yield 0.3
    assert (Seat.N, Card.parse("9C")) in session.hand.plays
    yield from d.shot("correction-undo")
    yield from d.tap("Undo the change")
    yield 0.3
    assert (Seat.N, Card.parse("QS")) in session.hand.plays
    assert (Seat.N, Card.parse("9C")) not in session.hand.plays


def camera_stops(d: Driver) -> Iterator[float]:
    """A camera that sends no more pictures is said within seconds, with what to do."""
    p = d.app.presenter
    p.camera, p.frame_at = True, time.monotonic() - 10
    d.app.manager.current_screen.tick()
    yield 0.5
    assert "No camera" in d.screen.notices, d.screen.notices
    yield from d.shot("live-camera-stopped")
    p.camera = False
    p._changed()
    yield 0.3


def audit_can_fail(d: Driver) -> Iterator[float]:
    """The audit finds what it is there to find: a small, faint button that prints a card
    code, a suit symbol in Roboto, a label past the window's edge, a sentence spilling
    out of its box and one cut to its first line (Kivy's max_lines), laid on the game's
    end screen for one picture."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    bad = Button(text="AS", font_size=14, size_hint=(None, None), size=(40, 40),
                 pos=(10, 10), color=(0.3, 0.3, 0.3, 1), background_normal="",
                 background_color=(0.2, 0.2, 0.2, 1))
    box = Label(text="Trump: \u2665", font_size=40, size_hint=(None, None), size=(300, 60),
                pos=(60, 10))
    beyond = Label(text="Beyond the edge", font_size=40, size_hint=(None, None),
                   size=(300, 60), pos=(Window.width - 100, 10))
    spilling = Label(text="A sentence far too long for the two lines it was given to hold",
                     font_size=40, size_hint=(None, None), size=(300, 90), pos=(400, 300))
    spilling.text_size = (300, None)
    cut = Label(text="Please raise a hand or fetch the director now", font_size=40,
                size_hint=(None, None), size=(300, 60), pos=(400, 420), max_lines=1)
    cut.text_size = (300, None)
    d.screen.add_widget(bad)
    d.screen.add_widget(cut)
    d.screen.add_widget(box)
    d.screen.add_widget(beyond)
    d.screen.add_widget(spilling)
    yield from d.shot("audit-check", report=False)
    found = d.findings.pop("audit-check")
    d.screen.remove_widget(bad)
    d.screen.remove_widget(box)
    d.screen.remove_widget(beyond)
    d.screen.remove_widget(spilling)
    d.screen.remove_widget(cut)
    assert sum("overflow" in f for f in found) >= 2, f"the audit missed a line cut: {found}"
    for rule in ("target", "text size", "contrast", "card code", "empty box", "off screen",
                 "overflow"):
        assert any(f.startswith(rule) for f in found), f"the audit missed a {rule}: {found}"
    (d.shots / f"{d.prefix}audit-check.png").unlink()


def main() -> int:
    journal, shots = Path(sys.argv[1]), Path(sys.argv[2])
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    shots.mkdir(parents=True, exist_ok=True)
    from kiosk.table.outbox import Outbox
    from kiosk.table.setup import TableSetup

    session = TableSession.open(journal, outbox=Outbox(journal.with_name("outbox.sqlite3")))

    session.configure(TableSetup(tournament="Spring open", table=3, round=2,
                                 team_ns="Ann & Bob", team_ew="Cy & Di", profile="tournament",
                                 points_to_win=10, minutes=25))
    # the voice speaks into a list here: a test machine has no loudspeaker
    presenter = TablePresenter(session, voice_path=journal.with_name("voice.json"),
                               voice_runner=lambda command: None)
    app = KioskApp(presenter)
    driver = Driver(app, shots, prefix)
    plan = steps(driver, session)
    status = {"code": 1}

    def advance(_dt: float) -> None:
        try:
            wait = next(plan)
        except StopIteration:
            status["code"] = 0
            app.stop()
            return
        except BaseException:
            traceback.print_exc(file=sys.__stderr__)
            Window.screenshot(str(shots / "failure.png"))
            app.stop()
            return
        Clock.schedule_once(advance, wait)

    Clock.schedule_once(advance, 0.5)
    app.run()
    return status["code"]


if __name__ == "__main__":
    sys.exit(main())
