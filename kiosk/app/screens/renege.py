"""Renege alert: what was seen, the trick, the card that proves it; call the director;
the profile's penalty or the non-offending side's choice, put again before it counts.
On a small screen what happened and what to do are two pages."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.image import Image

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.views import RenegeView
from kiosk.app.widgets import load_kv


class RenegeScreen(KioskScreen):
    headline = StringProperty("")
    story = StringProperty("")
    failed_card = StringProperty("")
    proof_card = StringProperty("")
    trick = NumericProperty(0)
    proven_at = NumericProperty(0)
    director_called = BooleanProperty(False)
    chooser = StringProperty("")
    confirm_question = StringProperty("")
    #: a small screen shows one part at a time: 'story' or 'choose'
    compact = BooleanProperty(False)
    page = StringProperty("story")

    def on_kv_post(self, *_args: object) -> None:
        self.compact = bar.SHORT or bar.PORTRAIT
        ids = self.ids
        # the widgets themselves (ids are weak): a part off the screen is kept alive here
        self._story, self._choose = ids.story_part.__self__, ids.choose_part.__self__
        for part in (self._story, self._choose):
            part.parent.remove_widget(part)
        if self.compact:
            for column in (ids.failed, ids.proof, ids.frames):
                column.parent.remove_widget(column)  # the story names both cards
        else:
            ids.turn_page.parent.remove_widget(ids.turn_page)  # one page: nothing to turn
        self.turn("story")

    def turn(self, page: str) -> None:
        """Show what happened, or what to do (both at once on a large screen)."""
        self.page = page
        main = self.ids.main
        main.clear_widgets()
        if not self.compact:
            main.add_widget(self._story)
            main.add_widget(self._choose)
        else:
            main.add_widget(self._story if page == "story" else self._choose)

    def show(self) -> None:
        v = self.presenter.renege_view()
        if (v, self.four_colour) == getattr(self, "_shown", None):
            return  # nothing changed: keep the widgets (rebuilding them is slow)
        before: tuple[RenegeView, bool] | None = getattr(self, "_shown", None)
        if before is None or v.headline != before[0].headline:
            self.turn("story")  # a new renege: what happened first
        self._shown = (v, self.four_colour)
        self.headline = v.headline
        self.story = "\n".join(v.story)
        self.failed_card = v.failed_card or ""
        self.proof_card = v.proof_card or ""
        self.trick = v.trick
        self.proven_at = v.proven_at
        self.director_called = v.director_called
        self.chooser = v.chooser
        self.confirm_question = f"{v.confirm}: is that right?" if v.confirm else ""
        box = self.ids.options
        box.clear_widgets()
        if v.confirm:
            if self.compact and self.page != "choose":
                self.turn("choose")
            yes = Factory.GreenButton(text="Yes: score it", height=bar.BUTTON)
            yes.bind(on_release=lambda _b: self.presenter.confirm_renege(True))
            no = Factory.MutedButton(text="No: back to the choices", height=bar.BUTTON)
            no.bind(on_release=lambda _b: self.presenter.confirm_renege(False))
            box.add_widget(yes)
            box.add_widget(no)
        else:
            for o in v.options:
                button = Factory.BigButton(text=o.label, height=bar.BUTTON)
                button.bind(on_release=lambda _b, i=o.index:
                            self.presenter.tap_renege_option(i))
                box.add_widget(button)
        if not self.compact:
            frames = self.ids.frames
            frames.clear_widgets()
            for path in v.frames:
                frames.add_widget(Image(source=path, fit_mode="contain"))


load_kv(__file__)
