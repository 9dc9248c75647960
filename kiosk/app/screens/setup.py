"""Table set-up: the tournament, the table and the teams, then the first deal; the rules
on a screen of their own (chosen once, by the director or a captain)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import load_kv


class SetupScreen(KioskScreen):
    rules = StringProperty("")
    rules_short = StringProperty("")
    pairing = StringProperty("")
    pairing_short = StringProperty("")
    voice = StringProperty("")
    #: a small screen shows one page: 'hub' (the buttons and the dealer) or 'teams' (the
    #: names); a large one shows both as 'all'
    compact = BooleanProperty(False)
    page = StringProperty("all")

    def on_kv_post(self, *_args: object) -> None:
        self.compact = bar.SHORT or bar.PORTRAIT
        ids = self.ids
        # the widgets themselves (ids are weak): a part off the screen is kept alive here
        self._parts = {name: getattr(ids, name).__self__
                       for name in ("fields", "buttons", "dealers", "teams_done")}
        for part in self._parts.values():
            part.parent.remove_widget(part)
        if bar.PORTRAIT:  # the round gets a row of its own
            label, field = ids.round_label.__self__, ids.round.__self__
            for widget in (label, field):
                widget.parent.remove_widget(widget)
            label.width = bar.mm(36)
            fields = self._parts["fields"]
            fields.add_widget(label, index=4)
            fields.add_widget(field, index=4)
        if not self.compact:
            self._parts["buttons"].remove_widget(ids.teams_button)
        self.turn("hub" if self.compact else "all")

    def turn(self, page: str) -> None:
        """Show a page of the set-up (a small screen's hub or names; a large one all)."""
        self.page = page
        body = self.ids.body
        body.clear_widgets()
        parts = self._parts
        if page == "all":
            row = BoxLayout(spacing=bar.PAD * 2)
            for part, share in ((parts["fields"], 0.55), (parts["buttons"], 0.45)):
                if part.parent is not None:
                    part.parent.remove_widget(part)
                column = BoxLayout(orientation="vertical", size_hint_x=share)
                column.add_widget(part)
                column.add_widget(Widget())
                row.add_widget(column)
            body.add_widget(row)
            body.add_widget(parts["dealers"])
        elif page == "teams":
            body.add_widget(parts["fields"])
            body.add_widget(Widget())
            body.add_widget(parts["teams_done"])
        else:
            body.add_widget(parts["buttons"])
            body.add_widget(Widget())
            body.add_widget(parts["dealers"])

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
        self.rules_short = self.presenter.rules_words(short=True)
        self.voice = self.presenter.voice.settings.words()
        self.pairing = v.pairing
        self.pairing_short = ("Director: paired" if self.presenter.paired()
                              else "Director: not paired")

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
    #: a paired kiosk plays the director's rules: said, and the rule buttons refuse
    locked = BooleanProperty(False)
    compact = BooleanProperty(False)
    page = StringProperty("all")

    def on_kv_post(self, *_args: object) -> None:
        self.compact = bar.SHORT or bar.PORTRAIT
        ids = self.ids
        self._parts = {name: getattr(ids, name).__self__ for name in ("book", "numbers")}
        for part in self._parts.values():
            part.parent.remove_widget(part)
        self.turn("book" if self.compact else "all")

    def turn(self, page: str) -> None:
        """A small screen shows the rule book, or the points, time and colours."""
        self.page = page
        body = self.ids.body
        body.clear_widgets()
        for name in ("book", "numbers"):
            if page in (name, "all"):
                body.add_widget(self._parts[name])

    def show(self) -> None:
        v = self.presenter.setup_view()
        ids = self.ids
        self.locked = self.presenter.rules_locked()
        self.profile = v.profile
        # a paired table says whose rules these are before anyone tries to change them
        self.profile_notes = ("Set by the director. " if self.locked else "") + v.profile_notes
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
