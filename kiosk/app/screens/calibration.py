"""Calibration: the camera picture, the four corners tapped or the mat found, the seat
zones drawn over it; the logic is kiosk.app.camera_setup, this only draws and forwards taps."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty

from kiosk.app import bar
from kiosk.app.screens.base import PictureScreen, frame_texture
from kiosk.app.widgets import PictureLabel, load_kv
from kiosk.rules.cards import Seat

#: one colour per seat zone, bright on the felt and on a white mat
ZONE_COLOURS = {"N": (1, 0.8, 0.15, 1), "E": (0.2, 0.85, 1, 1), "S": (1, 0.5, 0.5, 1),
                "W": (0.78, 0.62, 1, 1)}


class CalibrationScreen(PictureScreen):
    status = StringProperty("")
    warning = StringProperty("")
    can_save = BooleanProperty(False)
    has_picture = BooleanProperty(False)

    def show(self) -> None:
        setup = self.presenter.camera_setup
        if self.frame is None and setup.frame is not None:
            self.frame = frame_texture(None, setup.frame)  # the latest picture, until the next
        v = setup.view()
        self.status = v.status
        self.warning = v.warning or " ".join(v.advice)
        self.can_save = v.can_save
        self.has_picture = v.image_size is not None
        self._view = v
        self._draw()

    def show_frame(self, frame: Any) -> None:
        super().show_frame(frame)
        if not self.has_picture:
            self.refresh()

    def _shown_rect(self) -> tuple[float, float, float, float] | None:
        """Where the picture is drawn: left, top, width, height (aspect kept, centred)."""
        picture = self.ids.picture
        if self.frame is None:
            return None
        w, h = picture.norm_image_size
        left = picture.center_x - w / 2
        top = picture.center_y + h / 2
        return left, top, w, h

    def _to_screen(self, x: float, y: float) -> tuple[float, float]:
        rect = self._shown_rect()
        v = getattr(self, "_view", None)
        assert rect is not None and v is not None and v.image_size is not None
        left, top, w, h = rect
        return left + x / v.image_size[0] * w, top - y / v.image_size[1] * h

    def _draw(self, *_args: Any) -> None:
        area = self.ids.area
        area.canvas.after.clear()
        for label in [c for c in area.children if isinstance(c, PictureLabel)]:
            area.remove_widget(label)
        v = getattr(self, "_view", None)
        if v is None or v.image_size is None or self._shown_rect() is None:
            return
        with area.canvas.after:
            for seat, outline in v.zones.items():
                Color(*ZONE_COLOURS[seat])
                points = [c for p in outline for c in self._to_screen(*p)]
                Line(points=points, close=True, width=dp(2))
            Color(1, 0.8, 0.15, 1)
            r = dp(9)
            for x, y in v.taps:
                sx, sy = self._to_screen(x, y)
                Ellipse(pos=(sx - r, sy - r), size=(2 * r, 2 * r))
            if len(v.taps) > 1:
                Line(points=[c for p in v.taps for c in self._to_screen(*p)], width=dp(2))
        for seat, outline in v.zones.items():
            xs = [self._to_screen(*p) for p in outline]
            cx = sum(p[0] for p in xs) / len(xs)
            cy = sum(p[1] for p in xs) / len(xs)
            label = PictureLabel(text=Seat.parse(seat).words, font_size=bar.TEXT,
                                 color=ZONE_COLOURS[seat], size_hint=(None, None))
            label.texture_update()
            label.size = label.texture_size
            label.center = (cx, cy)
            area.add_widget(label)

    def on_touch_down(self, touch: Any) -> bool:
        if self.ids.area.collide_point(*touch.pos) and self.tap_picture(touch):
            return True
        return bool(super().on_touch_down(touch))

    def tap_picture(self, touch: Any) -> bool:
        """A touch on the picture -> the picture's own pixel (x right, y down)."""
        rect = self._shown_rect()
        v = getattr(self, "_view", None)
        if rect is None or v is None or v.image_size is None:
            return False
        left, top, w, h = rect
        if not (left <= touch.x <= left + w and top - h <= touch.y <= top):
            return False
        x = (touch.x - left) / w * v.image_size[0]
        y = (top - touch.y) / h * v.image_size[1]
        self.presenter.camera_setup.tap(x, y)
        return True


load_kv(__file__)
