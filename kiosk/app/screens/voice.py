"""The voice for a low-vision player: a large switch, the language and the speed."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.voice import SPEEDS
from kiosk.app.widgets import load_kv


class VoiceScreen(KioskScreen):
    enabled = BooleanProperty(False)
    language = StringProperty("en")
    speed = StringProperty("")

    def on_kv_post(self, *_args: object) -> None:
        if bar.SHORT:  # a short screen: the language and the speed share a row, and the
            # switch joins the last row
            spacer = self.ids.spacer
            spacer.parent.remove_widget(spacer)
            switch = self.ids.switch.__self__
            switch.parent.remove_widget(switch)
            switch.size_hint_x = 2
            switch.height = bar.BUTTON
            self.ids.bottom.add_widget(switch, index=2)

    def show(self) -> None:
        settings = self.presenter.voice.settings
        self.enabled = settings.enabled
        self.language = settings.language
        self.speed = SPEEDS.get(settings.rate, str(settings.rate))
        if not self.presenter.voice.available and not self.message:
            self.message = ("This kiosk cannot speak: espeak-ng is not installed "
                            "(the README's set-up installs it).")


load_kv(__file__)
