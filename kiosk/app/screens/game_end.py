"""Game end: both teams agree to the result (each asked again, and able to take it back
until both have) before it goes to the director; the director can be called from here."""

from __future__ import annotations

from kivy.properties import BooleanProperty, DictProperty, StringProperty

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class GameEndScreen(KioskScreen):
    headline = StringProperty("")
    teams = DictProperty({"NS": "", "EW": ""})
    scores = DictProperty({"NS": 0, "EW": 0})
    confirmed = DictProperty({"NS": False, "EW": False})
    note = StringProperty("")
    sent = BooleanProperty(False)
    both_confirmed = BooleanProperty(False)
    question = StringProperty("")
    director_called = BooleanProperty(False)
    paired = BooleanProperty(False)

    def on_kv_post(self, *_args: object) -> None:
        # the widgets themselves (ids are weak): the one off the screen is kept alive here
        self._agree, self._question = self.ids.agree.__self__, self.ids.question.__self__
        self._holder = self._agree.parent
        self._holder.remove_widget(self._question)

    def show(self) -> None:
        v = self.presenter.game_end_view()
        self.headline = v.headline
        self.teams = v.teams
        self.scores = v.scores
        self.confirmed = v.confirmed
        self.note = v.note
        self.sent = v.sent
        self.both_confirmed = all(v.confirmed.values())
        self.question = v.question
        self.director_called = v.director_called
        self.paired = v.paired
        # the teams' buttons, or the question to one team in their place
        shown, hidden = ((self._question, self._agree) if v.question
                         else (self._agree, self._question))
        if shown.parent is None:
            index = self._holder.children.index(hidden)
            self._holder.remove_widget(hidden)
            self._holder.add_widget(shown, index=index)

    def tick(self) -> None:
        self.refresh()  # the outbox sends in the background: show when the director has it


load_kv(__file__)
