"""Game end: both teams confirm the result before it goes to the director."""

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

    def show(self) -> None:
        v = self.presenter.game_end_view()
        self.headline = v.headline
        self.teams = v.teams
        self.scores = v.scores
        self.confirmed = v.confirmed
        self.note = v.note
        self.sent = v.sent
        self.both_confirmed = all(v.confirmed.values())

    def tick(self) -> None:
        self.refresh()  # the outbox sends in the background: show when the director has it


load_kv(__file__)
