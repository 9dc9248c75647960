"""The twin question: a renege depends on a card the camera may have read as its
same-colour twin. The two cards stand side by side, each a large face over a large
button saying it; one tap on either answers (kiosk.app.twin_question)."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class TwinScreen(KioskScreen):
    headline = StringProperty("")
    question = StringProperty("")
    detail = StringProperty("")
    first = StringProperty("")
    first_label = StringProperty("")
    second = StringProperty("")
    second_label = StringProperty("")
    director_called = BooleanProperty(False)

    def on_kv_post(self, *_args: object) -> None:
        if bar.SHORT:  # a 7-inch screen lying down: the cards keep the height
            detail = self.ids.detail
            detail.parent.remove_widget(detail)

    def show(self) -> None:
        v = self.presenter.twins.view()
        if v is None:
            return
        self.headline, self.question, self.detail = v.headline, v.question, v.detail
        (self.first, self.first_label), (self.second, self.second_label) = (
            (c.card, c.label) for c in v.choices)
        self.director_called = self.presenter.session.director_called

    def tap(self, card: str) -> None:
        self.presenter.twins.answer(card)

    def fix(self) -> None:
        """Neither card: the correction screen, at this card's place."""
        v = self.presenter.twins.view()
        if v is not None:
            self.presenter.open("correction")
            self.presenter.select_slot(v.trick, v.seat)


load_kv(__file__)
