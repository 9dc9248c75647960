"""Bidding: the dealer, the turn-up, and one big button per bid the seat on turn may say."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.app.presenter import EUCHRE_RANKS, SUIT_SYMBOLS, card_label
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import CardFace, load_kv, suit_markup

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
        grid = self.ids.bids
        grid.clear_widgets()
        grid.cols = 3 if v.round == 1 else 5
        for b in v.buttons:
            if v.round == 2 and b.index == 5:
                grid.add_widget(Factory.Widget())  # 'alone' row starts under the suits
            label = b.label
            for word, symbol in SUIT_OF_WORD.items():
                if label.startswith(word):
                    label = f"{symbol} {label}"
            button = Factory.BigButton(text=suit_markup(label, self.four_colour),
                                       height="20mm", disabled=not b.allowed)
            if b.label == "Pass":
                button.tint = (0.3, 0.32, 0.36, 1)
            elif "alone" in b.label:
                button.tint = (0.75, 0.4, 0.05, 1)  # forbidden or not, BigButton greys it
            button.bind(on_release=lambda _b, i=b.index: self.presenter.tap_bid(i))
            grid.add_widget(button)
        picker = self.ids.picker
        picker.clear_widgets()
        if self.need_turn_up:
            for suit in SUIT_SYMBOLS:
                for rank in EUCHRE_RANKS:
                    card = rank + suit
                    face = CardFace(card=card, four_colour=self.four_colour)
                    face.bind(on_release=lambda _f, c=card: self.presenter.tap_turn_up(c))
                    picker.add_widget(face)

    @staticmethod
    def label(card: str) -> str:
        return card_label(card) if card else ""


load_kv(__file__)
