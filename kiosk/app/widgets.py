"""Widgets drawn by the kiosk itself: card faces, the two 5s, the big buttons.

Card faces are drawn (rank and suit symbol in large type, in the suit's
colour) rather than taken from a card-art package, so the kiosk looks the
same on any machine and the four-colour pack is one flag. Suit symbols come
from DejaVuSans, which ships inside Kivy itself.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.graphics import (
    Color,
    Ellipse,
    Line,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Rotate,
    RoundedRectangle,
    Translate,
)
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.app.palette import BACKGROUND, FELT, GOLD, hex_colour, suit_colour, suit_light
from kiosk.app.words import RANK_LABELS, SUIT_SYMBOLS
from kiosk.rules.cards import EUCHRE_DECK
from kiosk.vision.fives import poses as markers

SYMBOL_FONT = "DejaVuSans"
__all__ = ["BACKGROUND", "FELT", "GOLD", "CardFace", "FiveMarker", "PictureLabel",
           "TrumpMark", "suit_markup"]


def load_kv(py_file: str) -> None:
    """Load the .kv file next to a module once, by absolute path (never the cwd)."""
    path = str(Path(py_file).with_suffix(".kv").resolve())
    if path not in Builder.files:
        Builder.load_file(path)


def suit_markup(text: str, four_colour: bool = False) -> str:
    """Wrap suit symbols in their font and their light ink for a markup label on a dark
    button: 'Hearts ♥' reads right in Roboto with a DejaVu heart, never an empty box."""

    def paint(match: re.Match[str]) -> str:
        symbol = match.group(0)
        suit = next(s for s, sym in SUIT_SYMBOLS.items() if sym == symbol)
        return (f"[font={SYMBOL_FONT}][color={hex_colour(suit_light(suit, four_colour))}]"
                f"{symbol}[/color][/font]")

    return re.sub("[\u2660\u2663\u2665\u2666]", paint, text)


class CardFace(ButtonBehavior, FloatLayout):
    """A card drawn as large rank over suit; empty (`card=''`) draws a place."""

    card = StringProperty("")
    four_colour = BooleanProperty(False)
    highlight = BooleanProperty(False)
    caption = StringProperty("")
    rank_text = StringProperty("")
    suit_text = StringProperty("")
    ink = ListProperty([0, 0, 0, 1])

    def on_card(self, *_args: object) -> None:
        self._update()

    def on_four_colour(self, *_args: object) -> None:
        self._update()

    def _update(self) -> None:
        card = self.card
        if len(card) == 2 and card[1] in SUIT_SYMBOLS:
            self.rank_text = RANK_LABELS.get(card[0], card[0])
            self.suit_text = SUIT_SYMBOLS[card[1]]
            self.ink = list(suit_colour(card[1], self.four_colour))
        else:
            self.rank_text = ""
            self.suit_text = ""


class PictureLabel(Label):
    """Words drawn over the camera's picture (a seat's zone, a place of the deck's
    grid), on a dark plate so that they read on any photo. They name places at the
    picture's own scale: the screen's running text says the same in full size
    (docs/accessibility.md), so the audit holds them to contrast, not to size."""

    annotation = True


class TrumpMark(Widget):
    """Trump's suit in the middle of the felt: its card ink on a white disc, so that
    no suit's colour is lost on the green."""

    symbol = StringProperty("")
    ink = ListProperty([0, 0, 0, 1])


def fill_card_picker(grid: Any, four_colour: bool, on_pick: Callable[[str], Any],
                     disabled: bool = False) -> None:
    """Lay the 24 cards of the euchre pack in `grid`, clubs first, each a tap target that
    calls `on_pick` with its name (the turn-up and the correction pickers)."""
    grid.clear_widgets()
    for card in (str(c) for c in EUCHRE_DECK):
        face = CardFace(card=card, four_colour=four_colour, disabled=disabled)
        face.bind(on_release=lambda _f, c=card: on_pick(c))
        grid.add_widget(face)


class FiveMarker(Widget):
    """One side's score as the two 5s (see kiosk.vision.fives.poses for the geometry)."""

    points = NumericProperty(0)
    red = BooleanProperty(True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, points=self._draw, red=self._draw)

    def _draw(self, *_args: object) -> None:
        m = markers.marker(int(self.points))
        # Fit the stack (the bottom card plus every pose of the top card) in the widget.
        x0, y0, x1, y1 = markers.span()
        span_w, span_h = x1 - x0, y1 - y0
        unit = min(self.width / span_w, self.height / span_h)
        self.canvas.clear()
        if unit < 2:
            return  # not laid out yet
        ox = self.x + (self.width - span_w * unit) / 2 - x0 * unit
        oy = self.y + (self.height - span_h * unit) / 2 - y0 * unit
        ink = (0.8, 0.05, 0.1, 1) if self.red else (0.08, 0.08, 0.1, 1)
        with self.canvas:
            self._card(ox, oy, unit, face=True, ink=ink)
            PushMatrix()
            cx = ox + (markers.CARD_W / 2 + m.offset[0]) * unit
            cy = oy + (markers.CARD_H / 2 + m.offset[1]) * unit
            Translate(cx, cy)
            Rotate(angle=m.tilt, origin=(0, 0))
            Translate(-markers.CARD_W / 2 * unit, -markers.CARD_H / 2 * unit)
            self._card(0, 0, unit, face=m.top_face_up, ink=ink)
            PopMatrix()

    @staticmethod
    def _card(x: float, y: float, unit: float, face: bool, ink: tuple[float, ...]) -> None:
        w, h = markers.CARD_W * unit, markers.CARD_H * unit
        Color(0, 0, 0, 0.35)
        RoundedRectangle(pos=(x + 0.03 * unit, y - 0.03 * unit), size=(w, h),
                         radius=[0.08 * unit])
        Color(1, 1, 1, 1)
        RoundedRectangle(pos=(x, y), size=(w, h), radius=[0.08 * unit])
        if face:
            Color(*ink)
            r = markers.PIP_RADIUS * unit
            for px, py in markers.PIPS:
                Ellipse(pos=(x + px * unit - r, y + py * unit - r), size=(2 * r, 2 * r))
        else:
            Color(0.12, 0.25, 0.6, 1)
            m = 0.07 * unit
            Rectangle(pos=(x + m, y + m), size=(w - 2 * m, h - 2 * m))
            Color(0.55, 0.68, 0.95, 1)
            step = 0.14 * unit
            n = int((w + h) / step) + 1
            for i in range(n):
                # a lattice of diagonals, clipped by hand to the inner rectangle
                for sign in (1, -1):
                    pts = _diagonal(x + m, y + m, w - 2 * m, h - 2 * m, i * step, sign)
                    if pts:
                        Line(points=pts, width=1)
        Color(0.3, 0.3, 0.3, 1)
        Line(rounded_rectangle=(x, y, w, h, 0.08 * unit), width=1.2)


def _diagonal(x: float, y: float, w: float, h: float, d: float,
              sign: int) -> list[float] | None:
    """The part of the line x' + sign*y' = d (local coordinates) inside a w*h box."""
    pts = []
    if sign == 1:
        for px, py in ((d, 0.0), (0.0, d), (w, d - w), (d - h, h)):
            if -1e-6 <= px <= w + 1e-6 and -1e-6 <= py <= h + 1e-6:
                pts.append((px, py))
    else:
        for px, py in ((w - d, 0.0), (w, d), (0.0, d - w), (w - d + h, h)):
            if -1e-6 <= px <= w + 1e-6 and -1e-6 <= py <= h + 1e-6:
                pts.append((px, py))
    pts = sorted(set((round(a, 3), round(b, 3)) for a, b in pts))
    if len(pts) < 2:
        return None
    (ax, ay), (bx, by) = pts[0], pts[-1]
    if math.hypot(bx - ax, by - ay) < 1:
        return None
    return [x + ax, y + ay, x + bx, y + by]


load_kv(__file__)
