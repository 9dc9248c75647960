"""Correction: tap the place of a card (a misread one, or an empty place), then the right
card; a finished trick's card changes only after the players read what that changes and
say yes. One page at a time (the places, the cards, the question), so that every card is
a large target on a small screen too. Every fix is logged, and the last can be undone."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.app import bar
from kiosk.app.screens.base import KioskScreen
from kiosk.app.views import CorrectionView
from kiosk.app.widgets import CardFace, fill_card_picker, load_kv
from kiosk.rules.cards import Seat

SEATS = tuple((str(seat), seat.words) for seat in Seat)


class CorrectionScreen(KioskScreen):
    prompt = StringProperty("")
    log = StringProperty("")
    question = StringProperty("")
    #: 'places', 'cards' or 'question'
    page = StringProperty("places")
    #: the rail's second button: 'Back to the tricks' on the cards' page, else the Undo
    second = StringProperty("")

    def on_kv_post(self, *_args: object) -> None:
        ids = self.ids
        #: each page, kept while another is shown (only the page shown is on the screen)
        self._pages = {"places": ids.places_page.__self__, "cards": ids.picker.__self__,
                       "question": ids.question_page.__self__}
        self._turn_to("places")

    def _turn_to(self, page: str) -> None:
        holder = self.ids.page
        holder.clear_widgets()
        holder.add_widget(self._pages[page])
        self.page = page

    def show(self) -> None:
        v = self.presenter.correction_view()
        page = "question" if v.question else "cards" if v.selected else "places"
        if page != self.page or not self.ids.page.children:
            self._turn_to(page)
        self.prompt = v.prompt if self.page != "question" else "Change a finished trick?"
        self.question = v.question
        self.log = ("Last change: " + v.log[-1]) if v.log else ""
        self.second = ("Back to the tricks" if self.page == "cards" else
                       v.undo if self.page == "places" else "")
        if v.rows != getattr(self, "_rows", None) or v.selected != getattr(
                self, "_selected", None) or self.four_colour != getattr(self, "_four", None):
            self._rows, self._selected = v.rows, v.selected
            self._fill_places(v)
        if self.four_colour != getattr(self, "_four", None):
            self._four = self.four_colour
            # filled once: the cards keep their places and their faces after each pick
            fill_card_picker(self.ids.picker, self.four_colour, self.presenter.pick_card)

    def second_action(self) -> None:
        if self.page == "cards":
            self.presenter.select_none()
        else:
            self.presenter.undo_fix()

    def _fill_places(self, v: CorrectionView) -> None:
        """The tricks' cards: a trick a row standing up, a trick a column lying down."""
        grid = self.ids.tricks
        grid.clear_widgets()
        by_trick = {number: dict(cards) for number, cards in v.rows}
        numbers = [number for number, _cards in v.rows]

        def place(number: int, seat: str) -> Widget:
            cards = by_trick[number]
            if seat not in cards:  # the partner of a lone player sits out
                out = Label(text="sits out", font_size=bar.TEXT, halign="center",
                            valign="middle")
                out.bind(size=lambda w, _s: setattr(w, "text_size", w.size))
                return out
            # an empty place says what a tap on it does: add the card
            face = CardFace(card=cards[seat] or "", caption="add",
                            four_colour=self.four_colour,
                            highlight=v.selected == (number, seat))
            face.bind(on_release=lambda _f, t=number, s=seat:
                      self.presenter.select_slot(t, s))
            return face

        def heading(text: str, width: float | None = None, top: bool = False) -> Label:
            label = Label(text=text, font_size=bar.TEXT, bold=True, halign="center",
                          valign="middle")
            if width is not None:
                label.size_hint_x, label.width = None, width
            if top:  # the row of headings: as tall as its words
                label.size_hint_y = None
                label.height = bar.TEXT * 1.3
            label.bind(size=lambda w, _s: setattr(w, "text_size", w.size))
            return label

        side = bar.mm(16)
        if bar.PORTRAIT:
            grid.cols = 5
            grid.add_widget(heading("", side, top=True))
            for _seat, name in SEATS:
                grid.add_widget(heading(name, top=True))
            for number in numbers:
                grid.add_widget(heading(f"Trick\n{number}", side))
                for seat, _name in SEATS:
                    grid.add_widget(place(number, seat))
        else:
            grid.cols = 1 + max(len(numbers), 1)
            grid.add_widget(heading("", bar.mm(22), top=True))
            for number in numbers:
                grid.add_widget(heading(f"Trick {number}", top=True))
            for seat, name in SEATS:
                grid.add_widget(heading(name, bar.mm(22)))
                for number in numbers:
                    grid.add_widget(place(number, seat))


load_kv(__file__)
