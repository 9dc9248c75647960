"""Renege alert: what was seen, the trick, the card that proves it; call the director;
apply the profile's penalty or the non-offending side's choice."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.image import Image

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
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

    def show(self) -> None:
        v = self.presenter.renege_view()
        if (v, self.four_colour) == getattr(self, "_shown", None):
            return  # nothing changed: keep the widgets (rebuilding them is slow)
        self._shown = (v, self.four_colour)
        self.headline = v.headline
        self.story = "\n".join(v.story)
        self.failed_card = v.failed_card or ""
        self.proof_card = v.proof_card or ""
        self.trick = v.trick
        self.proven_at = v.proven_at
        self.director_called = v.director_called
        self.chooser = v.chooser
        box = self.ids.options
        box.clear_widgets()
        for o in v.options:
            button = Factory.BigButton(text=o.label, height=bar.BUTTON)
            button.bind(on_release=lambda _b, i=o.index: self.presenter.tap_renege_option(i))
            box.add_widget(button)
        frames = self.ids.frames
        frames.clear_widgets()
        for path in v.frames:
            frames.add_widget(Image(source=path, fit_mode="contain"))


load_kv(__file__)
