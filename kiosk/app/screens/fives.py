"""The fives' question: a side's 5s show another count than the kiosk's score. Both
counts are drawn as the two 5s, each over the large button that says it is right."""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class FivesScreen(KioskScreen):
    question = StringProperty("")
    detail = StringProperty("")
    fives = NumericProperty(0)
    kiosk = NumericProperty(0)
    kiosk_label = StringProperty("")
    fives_label = StringProperty("")
    red = BooleanProperty(True)  # drawn as the Score screen draws the side's 5s

    def show(self) -> None:
        v = self.presenter.fives.view()
        if v is None:
            return
        self.question = v.question
        self.detail = v.detail
        self.fives, self.kiosk = v.fives, v.kiosk
        self.red = v.side == "NS"
        self.kiosk_label, self.fives_label = (a.label for a in v.answers)

    def tap(self, index: int) -> None:
        self.presenter.fives.answer(index)


load_kv(__file__)
