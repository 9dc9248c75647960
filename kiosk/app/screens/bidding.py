"""Bidding: the dealer, the turn-up, and one big button per bid the seat on turn may say."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.views import ButtonView
from kiosk.app.widgets import fill_card_picker, load_kv, suit_markup

SUIT_OF_WORD = {"Clubs": "\u2663", "Diamonds": "\u2666", "Hearts": "\u2665", "Spades": "\u2660"}


class BiddingScreen(KioskScreen):
    title = StringProperty("")
    dealer = StringProperty("")
    turn_up = StringProperty("")
    turn_up_words = StringProperty("")
    round = NumericProperty(1)
    history = StringProperty("")
    explain = StringProperty("")
    hint = StringProperty("")
    need_turn_up = BooleanProperty(False)
    undo = StringProperty("")
    score = StringProperty("")
    director_called = BooleanProperty(False)
    turn_up_note = StringProperty("")

    def show(self) -> None:
        v = self.presenter.bidding_view()
        if (v, self.four_colour) == getattr(self, "_shown", None):
            return  # nothing changed: keep the widgets (rebuilding them is slow)
        self._shown = (v, self.four_colour)
        self.title = v.title
        self.dealer = v.dealer
        self.turn_up = v.turn_up or ""
        self.turn_up_words = v.turn_up_words
        self.round = v.round
        self.history = "\n".join(v.history)
        self.explain = v.explain
        self.hint = v.hint
        self.need_turn_up = v.turn_up is None
        self.undo = v.undo
        self.director_called = v.director_called
        self.turn_up_note = v.turn_up_note
        self.score = "Score: " + ", ".join(f"{v.teams[side]} {v.scores[side]}"
                                           for side in ("NS", "EW"))
        box = self.ids.bids
        box.clear_widgets()
        # round 1: pass, order, alone in a row; round 2: the suits, the suits alone, and
        # Pass across the whole row below
        cols = 3 if v.round == 1 else 4
        # height 0 until its buttons come: an empty grid must take no room from the picker
        grid = Factory.GridLayout(cols=cols, spacing=bar.GAP, size_hint_y=None, height=0)
        grid.bind(minimum_height=grid.setter("height"))
        box.add_widget(grid)
        for b in v.buttons:
            button = self._bid_button(b)
            (box if v.round == 2 and b.label == "Pass" else grid).add_widget(button)
        if self.need_turn_up:
            fill_card_picker(self.ids.picker, self.four_colour, self.presenter.tap_turn_up)
        else:
            self.ids.picker.clear_widgets()

    def _bid_button(self, b: ButtonView) -> Any:
        label = b.label
        for word, symbol in SUIT_OF_WORD.items():
            if label.startswith(word):
                label = f"{symbol} {label}"
        # a suit's symbol sits on a dark button in its light ink (never red on blue)
        factory = (Factory.SuitButton if label[:1] in SUIT_OF_WORD.values() else
                   Factory.AloneButton if "alone" in label else
                   Factory.MutedButton if b.label == "Pass" else Factory.BigButton)
        button = factory(text=suit_markup(label, self.four_colour),
                         height=bar.LARGE_BUTTON, disabled=not b.allowed)
        button.bind(on_release=lambda _b, i=b.index: self.presenter.tap_bid(i))
        return button


load_kv(__file__)
