"""Score: both sides' points, as numbers and as the two 5s; the game clock."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class ScoreScreen(KioskScreen):
    teams = DictProperty({"NS": "", "EW": ""})
    scores = DictProperty({"NS": 0, "EW": 0})
    points_to_win = NumericProperty(10)
    summary = StringProperty("")
    clock = StringProperty("")
    clock_note = StringProperty("")
    hands = StringProperty("")
    can_next = BooleanProperty(False)
    can_end = BooleanProperty(False)
    in_play = BooleanProperty(False)

    def show(self) -> None:
        v = self.presenter.score_view()
        self.teams = v.teams
        self.scores = v.scores
        self.points_to_win = v.points_to_win
        self.summary = v.hand_summary
        self.clock = v.clock
        self.clock_note = v.clock_note
        self.hands = "\n".join(v.hands)
        self.can_next = v.can_next
        self.can_end = v.can_end
        self.in_play = self.presenter.overlay == "score"
        # Only the buttons that can be used now are shown.
        p = self.presenter
        wanted = []
        if self.can_next:
            wanted.append(("Next hand", "BigButton", p.next_hand))
        if self.can_end:
            wanted.append(("End the game", "GreenButton", p.end_game))
        if self.in_play:
            wanted.append(("Back to the hand", "MutedButton", lambda: p.open(None)))
        elif not self.can_end:
            wanted.append(("Fix a card", "MutedButton", lambda: p.open("correction")))
        row = self.ids.buttons
        if [w.text for w in reversed(row.children)] != [t for t, _c, _a in wanted]:
            row.clear_widgets()
            for text, cls, action in wanted:
                button = Factory.get(cls)(text=text, height=bar.LARGE_BUTTON)
                button.bind(on_release=lambda _b, a=action: a())
                row.add_widget(button)

    def tick(self) -> None:
        if self.presenter is not None:
            self.clock = self.presenter.clock()


load_kv(__file__)
