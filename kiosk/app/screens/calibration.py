"""Calibration: the camera picture with the four seat zones, until the trick reader's
own calibration (kiosk.vision) is wired in here."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class CalibrationScreen(KioskScreen):
    status = StringProperty("No camera: the demo hand needs no calibration.")
    frame: Any = ObjectProperty(None, allownone=True)

    def show(self) -> None:
        if self.presenter.camera:
            self.status = ("Lay one card in front of each player. Each should show inside "
                           "that player's zone.")


load_kv(__file__)
