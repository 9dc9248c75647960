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
    #: a 7-inch screen: the words in one banner, the card beside the bids, the buttons
    #: below (kiosk.app.bar.SHORT, PORTRAIT)
    compact = BooleanProperty(False)

    def on_kv_post(self, *_args: Any) -> None:
        self.compact = bar.SHORT or bar.PORTRAIT
        if self.compact:
            self._rearrange()

    def _rearrange(self) -> None:
        """The small screens' arrangement of the same widgets."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.widget import Widget

        ids = self.ids
        w = {name: getattr(ids, name).__self__ for name in (
            "title", "score", "banner", "card_box", "picker", "bids", "undo", "director")}
        layout = ids.layout
        for name in ("left", "right"):
            layout.remove_widget(getattr(ids, name).__self__)
        for widget in w.values():
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
        layout.orientation = "vertical"
        layout.spacing = bar.GAP
        w["title"].max_lines = 2
        self._middle = BoxLayout(spacing=bar.GAP)
        bottom = BoxLayout(size_hint_y=None, height=bar.BUTTON, spacing=bar.GAP)
        if bar.PORTRAIT:
            top = BoxLayout(size_hint_y=None, height=bar.mm(22), spacing=bar.GAP)
            w["card_box"].size_hint_x, w["card_box"].width = None, bar.mm(16)
            w["title"].font_size = bar.TEXT  # two lines of it over the score
            words = BoxLayout(orientation="vertical", spacing=bar.GAP)
            words.add_widget(w["title"])
            words.add_widget(w["score"])
            words.add_widget(Widget())
            top.add_widget(w["card_box"])
            top.add_widget(words)
            self._top = top
            layout.add_widget(top)
            layout.add_widget(w["banner"])
            self._middle.orientation = "vertical"
            self._middle.add_widget(w["picker"])
            self._middle.add_widget(w["bids"])
            self._spring = Widget()
            self._middle.add_widget(self._spring)
        else:
            top = BoxLayout(size_hint_y=None, height=w["banner"].height, spacing=bar.PAD)
            w["title"].size_hint = (0.35, 1)
            w["title"].font_size = bar.TEXT  # two lines of it beside the banner
            top.add_widget(w["title"])
            top.add_widget(w["banner"])
            layout.add_widget(top)
            w["card_box"].size_hint_x = 0.22
            self._middle.add_widget(w["card_box"])
            column = BoxLayout(orientation="vertical", spacing=bar.GAP)
            column.add_widget(w["picker"])
            column.add_widget(w["bids"])
            self._spring = Widget()
            column.add_widget(self._spring)
            self._middle.add_widget(column)
            w["score"].size_hint = (1.4, 1)
            bottom.add_widget(w["score"])
        layout.add_widget(self._middle)
        for name in ("undo", "director"):
            w[name].size_hint_y = 1
            bottom.add_widget(w[name])
        layout.add_widget(bottom)
        self._card_box = w["card_box"]

    def _show_card(self, shown: bool) -> None:
        """A small screen gives the turn-up's picker the card's room until it is known."""
        box = self._card_box
        holder = self._top if bar.PORTRAIT else self._middle
        if bar.PORTRAIT:
            # standing up, the picker needs the height; the bids leave room for the card
            # and a reason of three lines
            self._top.height = bar.mm(30 if shown else 22)
            self.ids.banner.lines = 3 if shown else 2
        if shown and box.parent is None:
            holder.add_widget(box, index=len(holder.children))
        elif not shown and box.parent is not None:
            holder.remove_widget(box)

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
        self.history = "\n".join(v.history[-4:])
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
        if self.compact and bar.PORTRAIT:
            cols = 1 if v.round == 1 else 2
        else:
            cols = 3 if v.round == 1 else 4
        # height 0 until its buttons come: an empty grid must take no room from the picker
        grid = Factory.GridLayout(cols=cols, spacing=bar.GAP, size_hint_y=None, height=0)
        grid.bind(minimum_height=grid.setter("height"))
        box.add_widget(grid)
        for b in v.buttons:
            button = self._bid_button(b)
            (box if v.round == 2 and b.label == "Pass" else grid).add_widget(button)
        if self.compact:
            # lying down, round 2's eight suits need the card's room (it was turned down)
            self._show_card(not self.need_turn_up and (bar.PORTRAIT or v.round == 1))
            # the picker takes the room while it is shown; the bids sit at the top
            self._spring.size_hint_y = 0.001 if self.need_turn_up else 1
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
