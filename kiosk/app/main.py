"""The Kivy app: one ScreenManager, one screen per phase, refreshed from the presenter.

Import this module only after Kivy's configuration is set (kiosk.commands.run
does it): importing Kivy's Window opens it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.app import bar, widgets  # noqa: F401  (registers CardFace, FiveMarker, styles)
from kiosk.app.demo import DemoDriver
from kiosk.app.presenter import TablePresenter
from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.bidding import BiddingScreen
from kiosk.app.screens.calibration import CalibrationScreen
from kiosk.app.screens.correction import CorrectionScreen
from kiosk.app.screens.deck import DeckScreen
from kiosk.app.screens.fives import FivesScreen
from kiosk.app.screens.game_end import GameEndScreen
from kiosk.app.screens.live import LiveScreen
from kiosk.app.screens.pairing import PairingScreen
from kiosk.app.screens.renege import RenegeScreen
from kiosk.app.screens.score import ScoreScreen
from kiosk.app.screens.setup import RulesScreen, SetupScreen
from kiosk.app.screens.twin import TwinScreen
from kiosk.app.screens.voice import VoiceScreen
from kiosk.app.taps import TapGuard
from kiosk.table.feed import FrameFeed, save_frame

SCREENS: dict[str, type[KioskScreen]] = {
    "setup": SetupScreen,
    "rules": RulesScreen,
    "pairing": PairingScreen,
    "voice": VoiceScreen,
    "calibration": CalibrationScreen,
    "deck": DeckScreen,
    "bidding": BiddingScreen,
    "live": LiveScreen,
    "renege": RenegeScreen,
    "twin": TwinScreen,
    "correction": CorrectionScreen,
    "score": ScoreScreen,
    "game_end": GameEndScreen,
    "fives": FivesScreen,
}


def too_small_words(width: float, height: float) -> str:
    """The one message a screen too small for the bar shows, naming the screens that
    work."""
    w, h = bar.window_mm(width, height)
    return ("This screen is too small for the euchre kiosk.\n\n"
            f"It is {w:.0f} x {h:.0f} mm ({int(width)} x {int(height)} dots): its words and "
            "buttons would be too small to read and tap, or would overlap.\n\n"
            f"Use {bar.SCREENS_THAT_WORK[0]}, or {bar.SCREENS_THAT_WORK[1]}.")


def too_small(width: float, height: float) -> Any:
    """A full-screen message instead of the game (kiosk.app.bar.holds_bar)."""
    from kivy.uix.label import Label

    label = Label(text=too_small_words(width, height), font_size=bar.TEXT,
                  halign="center", color=(1, 1, 1, 1))
    # wrapped to the width, as tall as it needs (a height would cut the last lines)
    label.bind(width=lambda w, _w: setattr(w, "text_size", (w.width - 2 * bar.PAD, None)))
    return label


class KioskApp(App):
    """Shows the presenter's current screen; camera events reach it on the UI thread."""

    title = "Euchre table"

    def __init__(self, presenter: TablePresenter, demo: DemoDriver | None = None,
                 feed: FrameFeed | None = None, shots_dir: Path | None = None,
                 on_shot: Callable[[str, Path], None] | None = None,
                 stop_when: Callable[[], bool] | None = None, **kwargs: Any) -> None:
        """`shots_dir`: save a picture of each screen the first time it shows (a run
        nobody watches); `stop_when`: stop the app once it says so and the last
        picture is saved."""
        super().__init__(**kwargs)
        self.presenter = presenter
        # the deck is learnt on a thread of its own; its result is shown on the UI thread
        presenter.deck_setup.deliver = lambda done: Clock.schedule_once(lambda _dt: done())
        self.demo = demo
        self.feed = feed
        self.shots_dir = shots_dir
        self.on_shot = on_shot
        self.stop_when = stop_when
        self.manager: ScreenManager | None = None
        self._shots: list[str] = []
        self._shooting = 0
        #: frames the window has drawn (a picture needs a drawn frame; a driver that taps
        #: waits for one after its tap)
        self.frames_drawn = 0
        self._stopping = 0
        #: a second tap on the same place within 0.7 s is dropped (kiosk.app.taps)
        self.taps = TapGuard()
        if shots_dir is not None:
            shots_dir.mkdir(parents=True, exist_ok=True)
            for old in shots_dir.glob("*.png"):
                old.unlink()  # pictures of an earlier run would mislead

    def build(self) -> Any:
        Window.clearcolor = widgets.BACKGROUND
        Window.bind(on_flip=self._flipped)
        Window.bind(on_touch_down=self._repeat_tap)
        # the on-screen keyboard pans the screen so that the field typed in stays in view
        Window.softinput_mode = "below_target"
        width, height = Window.size
        if not bar.holds_bar(width, height):
            return too_small(width, height)
        bar.set_window(width, height)
        from kiosk.app.keyboard import KioskKeyboard

        Window.set_vkeyboard_class(KioskKeyboard)  # keys at the bar, if one is docked
        manager = ScreenManager(transition=NoTransition())
        for name, cls in SCREENS.items():
            screen = cls(name=name)
            screen.presenter = self.presenter
            manager.add_widget(screen)
        self.manager = manager
        # Batch refreshes: many events in one frame redraw once.
        self._refresh = Clock.create_trigger(self.refresh, 0)
        self.presenter.subscribe(self._refresh)
        Clock.schedule_interval(self._each_second, 1.0)
        if self.demo is not None:
            # once the window has drawn its first screen (a picture of it may be wanted)
            Clock.schedule_once(lambda _dt: Clock.schedule_interval(
                lambda dt: self.demo.tick(dt) if self.demo else None, 0.1), 1.5)
        if self.feed is not None:
            self.feed.start(on_events=self._from_camera, on_frame=self._frame)
        self.refresh()
        return manager

    def refresh(self, *_args: Any) -> None:
        manager = self.manager
        if manager is None:
            return
        name = self.presenter.screen
        if manager.current != name:
            manager.current = name
        screen = manager.get_screen(name)
        assert isinstance(screen, KioskScreen)
        screen.refresh()
        if self.shots_dir is not None:
            shot = self.presenter.shot_name()
            if shot not in self._shots:
                self._shots.append(shot)
                self._shooting += 1
                # after the layout and, on the live screen, a camera frame or two
                # once the new screen is laid out and drawn (two frames after this one)
                self._shoot_after(shot, self.frames_drawn + 3, Clock.get_time() + 3.0)

    def _repeat_tap(self, window: Any, touch: Any) -> bool:
        """True (the touch stops here) for a repeat of the last tap; the on-screen
        keyboard's keys are never held back."""
        from kivy.uix.vkeyboard import VKeyboard

        if any(isinstance(w, VKeyboard) and w.collide_point(*touch.pos)
               for w in window.children):
            return False
        return not self.taps.accept(*touch.pos)

    def _flipped(self, *_args: Any) -> None:
        self.frames_drawn += 1

    def _shoot_after(self, name: str, flips: int, deadline: float) -> None:
        """Take the picture once the window has drawn `flips` frames (a slow software
        renderer may take a second for the first one), or at the deadline: a screen
        with nothing moving on it draws no more frames."""
        if self.frames_drawn < flips and Clock.get_time() < deadline:
            Clock.schedule_once(lambda _dt: self._shoot_after(name, flips, deadline), 0.05)
            return
        Clock.schedule_once(lambda _dt: self._shoot(name), 0.1)

    def _shoot(self, name: str) -> None:
        """Save the window as it is now, as SHOTS_DIR/NN-name.png."""
        self._shooting -= 1
        assert self.shots_dir is not None
        target = self.shots_dir / f"{self._shots.index(name) + 1:02d}-{name}.png"
        saved = Window.screenshot(str(target))
        if saved:
            os.replace(saved, target)  # Kivy numbers the file it writes
            if self.on_shot is not None:
                self.on_shot(name, target)

    def _each_second(self, _dt: float) -> None:
        if self.feed is not None and self.feed.ended.is_set():
            self.presenter.feed_ended = True  # the live screen says so
        if self.manager is not None:
            screen = self.manager.current_screen
            if isinstance(screen, KioskScreen):
                screen.tick()
            if self.presenter.session.time_is_up() and self.presenter.screen == "score":
                self._refresh()
        if self.stop_when is not None and self.stop_when() and not self._shooting:
            self._stopping += 1
            if self._stopping >= 2:  # a last look at the final screen
                self.stop()

    def _from_camera(self, events: list[Any], source: str, frame: Any) -> None:
        """Called on the frame thread: hop to the UI thread, the journal's one writer."""

        def apply(_dt: float) -> None:
            for event in events:
                if self.presenter.apply(event, source=source):
                    name = self.presenter.frame_name(event)
                    if name is not None:
                        save_frame(name, frame)

        Clock.schedule_once(apply)

    def _frame(self, frame: Any) -> None:
        """Called on the frame thread: show the picture on the UI thread."""

        def show(_dt: float) -> None:
            self.presenter.frame_seen(time.monotonic())  # the camera still sends pictures
            if self.manager is None:
                return
            self.presenter.camera_setup.frame = frame  # the calibration works on it
            self.presenter.deck_setup.frame = frame  # and the deck's enrolment
            for name in ("live", "calibration", "deck"):
                screen = self.manager.get_screen(name)
                if name == "live" or self.manager.current == name:
                    screen.show_frame(frame)

        Clock.schedule_once(show)

    def on_stop(self) -> None:
        if self.feed is not None:
            self.feed.stop()
