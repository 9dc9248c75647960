"""Table set-up: tournament, table, teams, rules, points, time; then the first deal."""

from __future__ import annotations

from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.togglebutton import ToggleButton

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class SetupScreen(KioskScreen):
    profile = StringProperty("")
    profile_notes = StringProperty("")
    points_to_win = NumericProperty(10)
    minutes = NumericProperty(0)
    profiles = ListProperty([])
    pairing = StringProperty("")

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
        self.profile = v.profile
        self.profile_notes = v.profile_notes
        self.pairing = v.pairing
        self.points_to_win = v.points_to_win
        self.minutes = v.minutes
        ids.four_colour.state = "down" if v.four_colour else "normal"
        if [p for p, _n in v.profiles] != self.profiles:
            self.profiles = [p for p, _n in v.profiles]
            box = ids.profiles
            box.clear_widgets()
            for pid, name in v.profiles:
                button = ToggleButton(text=name, group="profile", font_size="22sp",
                                      allow_no_selection=False)
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
        ids = self.ids
        return self.presenter.save_setup(
            tournament=ids.tournament.text, table=ids.table.text, round_=ids.round.text,
            team_ns=ids.team_ns.text, team_ew=ids.team_ew.text, profile=self.profile,
            points_to_win=int(self.points_to_win), minutes=int(self.minutes),
            four_colour=ids.four_colour.state == "down")

    def pair(self) -> None:
        self.save()  # keep what was typed above
        if self.presenter.pair(self.ids.server.text, self.ids.code.text):
            self.ids.code.text = ""

    def pair_by_qr(self) -> None:
        self.save()  # keep what was typed above
        self.presenter.pair_from_camera()

    def start(self, seat: str) -> None:
        if self.save():
            self.presenter.start(seat)


load_kv(__file__)
