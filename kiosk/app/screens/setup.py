"""Table set-up: the tournament, the table and the teams, then the first deal; the rules
on a screen of their own (chosen once, by the director or a captain)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import ListProperty, NumericProperty, StringProperty

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class SetupScreen(KioskScreen):
    rules = StringProperty("")
    pairing = StringProperty("")
    voice = StringProperty("")

    def show(self) -> None:
        v = self.presenter.setup_view()
        ids = self.ids
        # Fill the fields only when the saved set-up changed, never over typing.
        if v != getattr(self, "_shown", None):
            self._shown = v
            ids.tournament.text = v.tournament
            ids.table.text = v.table
            ids.round.text = v.round
            ids.team_ns.text = v.team_ns
            ids.team_ew.text = v.team_ew
        self.rules = self.presenter.rules_words()
        self.voice = self.presenter.voice.settings.words()
        self.pairing = v.pairing

    def save(self) -> bool:
        ids = self.ids
        return bool(self.presenter.update_setup(
            tournament=ids.tournament.text, table=ids.table.text, round_=ids.round.text,
            team_ns=ids.team_ns.text, team_ew=ids.team_ew.text))

    def start(self, seat: str) -> None:
        if self.save():
            self.presenter.start(seat)


class RulesScreen(KioskScreen):
    """The rule book, the points to win, the time limit and the four-colour pack."""

    profile = StringProperty("")
    profile_notes = StringProperty("")
    points_to_win = NumericProperty(10)
    minutes = NumericProperty(0)
    profiles = ListProperty([])

    def show(self) -> None:
        v = self.presenter.setup_view()
        ids = self.ids
        self.profile = v.profile
        self.profile_notes = v.profile_notes
        self.points_to_win = v.points_to_win
        self.minutes = v.minutes
        ids.four_colour.state = "down" if v.four_colour else "normal"
        if [p for p, _n in v.profiles] != self.profiles:
            self.profiles = [p for p, _n in v.profiles]
            box = ids.profiles
            box.clear_widgets()
            for pid, name in v.profiles:
                button = Factory.ChoiceButton(text=name, group="profile")
                button.profile_id = pid
                button.bind(on_release=lambda b: self.choose_profile(b.profile_id))
                box.add_widget(button)
        for button in ids.profiles.children:
            button.state = "down" if button.profile_id == v.profile else "normal"

    def choose_profile(self, pid: str) -> None:
        self.profile = pid
        self.points_to_win, self.minutes = self.presenter.profile_defaults(pid)
        self.save()

    def bump(self, what: str, by: int) -> None:
        if what == "points":
            self.points_to_win = max(1, min(31, self.points_to_win + by))
        else:
            self.minutes = max(0, min(180, self.minutes + by))
        self.save()

    def save(self) -> bool:
        return bool(self.presenter.update_setup(
            profile=self.profile, points_to_win=int(self.points_to_win),
            minutes=int(self.minutes), four_colour=self.ids.four_colour.state == "down"))


load_kv(__file__)
