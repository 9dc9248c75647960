"""Correction: tap a card the camera misread, then tap the right one. Every fix is logged."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.label import Label

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import CardFace, fill_card_picker, load_kv


class CorrectionScreen(KioskScreen):
    prompt = StringProperty("")
    log = StringProperty("")

    def show(self) -> None:
        v = self.presenter.correction_view()
        if (v, self.four_colour) == getattr(self, "_shown", None):
            return  # nothing changed: keep the widgets (rebuilding them is slow)
        self._shown = (v, self.four_colour)
        self.prompt = v.prompt
        self.log = "\n".join(v.log[-2:]) or "No corrections in this hand."
        grid = self.ids.tricks
        grid.clear_widgets()
        grid.add_widget(Label(text="", size_hint_x=None, width=bar.mm(22)))
        for name in ("North", "East", "South", "West"):
            grid.add_widget(Label(text=name, font_size=bar.TEXT, bold=True))
        for number, cards in v.rows:
            grid.add_widget(Label(text=f"Trick {number}", font_size=bar.TEXT,
                                  size_hint_x=None, width=bar.mm(22)))
            shown = dict(cards)
            for seat in ("N", "E", "S", "W"):
                if seat not in shown:  # the partner of a lone player sits out
                    out = Label(text="sits out", font_size=bar.TEXT, halign="center")
                    out.bind(size=lambda w, _s: setattr(w, "text_size", w.size))
                    grid.add_widget(out)
                    continue
                card = shown[seat]
                # an empty place says what a tap on it does: add the card
                face = CardFace(card=card or "", caption="add", four_colour=self.four_colour,
                                highlight=v.selected == (number, seat))
                face.bind(on_release=lambda _f, t=number, s=seat:
                          self.presenter.select_slot(t, s))
                grid.add_widget(face)
        fill_card_picker(self.ids.picker, self.four_colour, self.presenter.pick_card,
                         disabled=v.selected is None)


load_kv(__file__)
