"""Pairing with the director: by the QR code held up to the camera, or typed."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class PairingScreen(KioskScreen):
    pairing = StringProperty("")
    paired = BooleanProperty(False)

    def show(self) -> None:
        self.pairing = self.presenter.pairing_status()
        self.paired = self.presenter.paired()

    def pair(self) -> None:
        if self.presenter.pair(self.ids.server.text, self.ids.code.text):
            self.ids.code.text = ""


load_kv(__file__)
