"""The Kivy app: one ScreenManager, one screen per phase, refreshed from the presenter.

Import this module only after Kivy's configuration is set (kiosk.commands.run
does it): importing Kivy's Window opens it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.app import widgets  # noqa: F401  (registers CardFace, FiveMarker, styles)
from kiosk.app.demo import DemoDriver
from kiosk.app.presenter import TablePresenter
from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.bidding import BiddingScreen
from kiosk.app.screens.calibration import CalibrationScreen
from kiosk.app.screens.correction import CorrectionScreen
from kiosk.app.screens.game_end import GameEndScreen
from kiosk.app.screens.live import LiveScreen
from kiosk.app.screens.renege import RenegeScreen
from kiosk.app.screens.score import ScoreScreen
from kiosk.app.screens.setup import SetupScreen
from kiosk.table.feed import FrameFeed, save_frame

SCREENS: dict[str, type[KioskScreen]] = {
    "setup": SetupScreen,
    "calibration": CalibrationScreen,
    "bidding": BiddingScreen,
    "live": LiveScreen,
    "renege": RenegeScreen,
    "correction": CorrectionScreen,
    "score": ScoreScreen,
    "game_end": GameEndScreen,
}


class KioskApp(App):
    """Shows the presenter's current screen; camera events reach it on the UI thread."""

    title = "Euchre table"

    def __init__(self, presenter: TablePresenter, demo: DemoDriver | None = None,
                 feed: FrameFeed | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.presenter = presenter
        self.demo = demo
        self.feed = feed
        self.manager: ScreenManager | None = None

    def build(self) -> ScreenManager:
        Window.clearcolor = widgets.BACKGROUND
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
            Clock.schedule_interval(lambda dt: self.demo.tick(dt) if self.demo else None, 0.1)
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

    def _each_second(self, _dt: float) -> None:
        if self.manager is not None:
            screen = self.manager.current_screen
            if isinstance(screen, KioskScreen):
                screen.tick()
            if self.presenter.session.time_is_up() and self.presenter.screen == "score":
                self._refresh()

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
        def show(_dt: float) -> None:
            if self.manager is not None:
                live = self.manager.get_screen("live")
                assert isinstance(live, LiveScreen)
                live.show_frame(frame)

        Clock.schedule_once(show)

    def on_stop(self) -> None:
        if self.feed is not None:
            self.feed.stop()
