"""Live hand: the table from above, the card read in each seat, whose turn, tricks won."""

from __future__ import annotations

from typing import Any

from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    ObjectProperty,
    StringProperty,
)

from kiosk.app.palette import suit_colour
from kiosk.app.screens.base import KioskScreen, frame_texture
from kiosk.app.widgets import load_kv, suit_markup
from kiosk.app.words import SUIT_SYMBOLS


class LiveScreen(KioskScreen):
    title = StringProperty("")
    trump = StringProperty("")
    contract = StringProperty("")
    tricks = StringProperty("")
    score = StringProperty("")
    clock = StringProperty("")
    notices = StringProperty("")
    cards = DictProperty({"N": "", "E": "", "S": "", "W": ""})
    turn_seat = StringProperty("")
    sitting_out = StringProperty("")
    camera = BooleanProperty(False)
    director_called = BooleanProperty(False)
    trump_symbol = StringProperty("")
    trump_ink = ListProperty([0, 0, 0, 1])
    frame: Any = ObjectProperty(None, allownone=True)
    teams = DictProperty({"NS": "", "EW": ""})
    trick_counts = DictProperty({"NS": "0", "EW": "0"})
    points = DictProperty({"NS": "0", "EW": "0"})
    turn = StringProperty("")
    undo = StringProperty("")
    recalibrate = BooleanProperty(False)
    ask = StringProperty("")

    def show(self) -> None:
        v = self.presenter.live_view()
        self.title = v.title
        self.trump = suit_markup(v.trump, self.four_colour)
        self.trump_symbol = SUIT_SYMBOLS.get(v.trump_suit, "")
        if v.trump_suit:
            # drawn in its card ink on a white disc: the felt takes no suit's colour away
            self.trump_ink = list(suit_colour(v.trump_suit, self.four_colour))
        self.contract = (" · " + v.contract) if v.contract else ""
        self.cards = {s.seat: s.card or "" for s in v.seats}
        self.turn_seat = next((s.seat for s in v.seats if s.on_turn), "")
        self.sitting_out = next((s.seat for s in v.seats if s.sitting_out), "")
        self.tricks = "\n".join(f"{v.teams[side]}: [b]{v.tricks[side]}[/b] trick"
                                + ("" if v.tricks[side] == 1 else "s") for side in ("NS", "EW"))
        self.score = "Score  " + "  ".join(f"{v.teams[side]} {v.scores[side]}"
                                           for side in ("NS", "EW"))
        self.teams = dict(v.teams)
        self.trick_counts = {side: str(v.tricks[side]) for side in ("NS", "EW")}
        self.points = {side: str(v.scores[side]) for side in ("NS", "EW")}
        self.turn = v.turn
        self.undo = v.undo
        self.recalibrate = v.recalibrate
        self.clock = v.clock
        self.ask = v.ask
        self._camera_note = v.camera_note
        # one message at a time, the most pressing first: the banner keeps its size
        self.notices = v.camera_note or v.ask_note or (v.notices[-1] if v.notices else "")
        # a camera that sends nothing shows the table's places to tap, not its last picture
        self.camera = v.camera and not v.camera_note
        self.director_called = v.director_called

    def tick(self) -> None:
        if self.presenter is not None:
            self.clock = self.presenter.clock()
            if self.presenter.camera_note() != getattr(self, "_camera_note", ""):
                self.refresh()  # the camera stopped (or came back): say so within seconds

    def show_frame(self, frame: Any) -> None:
        """A BGR camera frame (numpy) in the middle of the table; called on the UI thread."""
        self.frame = frame_texture(self.frame, frame)
        self.property("frame").dispatch(self)  # same texture, new pixels: redraw


load_kv(__file__)
