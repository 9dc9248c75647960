"""Deck set-up: the camera picture with the layout's places drawn over it, each named and
coloured by what was read there; the logic is kiosk.app.deck_setup, this only draws."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, StringProperty
from kivy.utils import escape_markup

from kiosk.app.deck_setup import MISSING, SEEN, UNREAD, WRONG
from kiosk.app.screens.base import PictureScreen, frame_texture
from kiosk.app.widgets import PictureLabel, load_kv

#: a place's outline and label by what was read there: white to fill, green seen, red
#: missing or another card (each 3:1 or more against the felt and a dark table)
STATE_COLOURS = {UNREAD: (1, 1, 1, 1), SEEN: (0.35, 1, 0.45, 1), MISSING: (1, 0.45, 0.4, 1),
                 WRONG: (1, 0.45, 0.4, 1)}
STATE_WORDS = {UNREAD: "", SEEN: "", MISSING: "Missing", WRONG: "Another card"}


class DeckScreen(PictureScreen):
    status = StringProperty("")
    #: the profile the camera reads with and where it came from (the director's, or
    #: learnt here): its name is the director's, so it is shown as typed, not as markup
    in_use = StringProperty("")
    advice = StringProperty("")
    can_read = BooleanProperty(False)
    can_learn = BooleanProperty(False)

    def show(self) -> None:
        setup = self.presenter.deck_setup
        if self.frame is None and setup.frame is not None:
            self.frame = frame_texture(None, setup.frame)
        v = setup.view()
        self.status = v.status
        self.in_use = escape_markup(v.in_use)
        self.advice = " ".join(v.advice)
        self.can_read = v.can_read
        self.can_learn = v.can_learn
        self._view = v
        self._draw()

    def _draw(self, *_args: Any) -> None:
        area = self.ids.area
        area.canvas.after.clear()
        for label in [c for c in area.children if isinstance(c, PictureLabel)]:
            area.remove_widget(label)
        v = getattr(self, "_view", None)
        picture = self.ids.picture
        if v is None:
            return
        w, h = picture.norm_image_size if self.frame is not None else area.size
        left, bottom = area.center_x - w / 2, area.center_y - h / 2
        for place in v.places:
            x1, y1, x2, y2 = place.box
            sx, sy = left + x1 * w, bottom + (1 - y2) * h
            sw, sh = (x2 - x1) * w, (y2 - y1) * h
            colour = STATE_COLOURS[place.state]
            with area.canvas.after:
                Color(*colour)
                Line(rectangle=(sx + dp(2), sy + dp(2), sw - dp(4), sh - dp(4)), width=dp(1.5))
            words = place.words if not STATE_WORDS[place.state] else (
                f"{place.words}\n{STATE_WORDS[place.state]}")
            # at the picture's scale: a place's longest word ("diamonds") fits its width,
            # so that no label runs into the next place's
            size = min(sp(20), (sw - dp(8)) / 5.0)
            label = PictureLabel(text=words, font_size=size, color=colour, halign="center",
                                 size_hint=(None, None), text_size=(sw - dp(8), None))
            label.texture_update()
            label.size = label.texture_size
            label.center = (sx + sw / 2, sy + sh / 2)  # the corners stay in view
            area.add_widget(label)


load_kv(__file__)
