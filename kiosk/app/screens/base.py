"""What every screen shares: the presenter, its message, a refresh."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.app import bar


class KioskScreen(Screen):
    """A screen shows the presenter's view and sends taps back; nothing more."""

    presenter: Any = ObjectProperty(None, allownone=True)
    message = StringProperty("")
    four_colour = BooleanProperty(False)

    def refresh(self) -> None:
        p = self.presenter
        if p is None:
            return
        self.message = p.message
        self.four_colour = p.four_colour
        self.show()

    def show(self) -> None:
        """Copy the presenter's view for this screen into its properties."""

    def tick(self) -> None:
        """Called every second while shown (clocks)."""


def frame_texture(texture: Any, frame: Any) -> Any:
    """A BGR camera frame (numpy) as a Kivy texture, reusing `texture` when it fits."""
    from kivy.graphics.texture import Texture

    h, w = frame.shape[:2]
    if texture is None or tuple(texture.size) != (w, h):
        texture = Texture.create(size=(w, h), colorfmt="bgr")
        texture.flip_vertical()
    texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class PictureScreen(KioskScreen):
    """A set-up screen that shows the camera's picture (``ids.picture``) with drawings
    over it (on ``ids.area``), drawn again whenever the picture or the area moves."""

    frame: Any = ObjectProperty(None, allownone=True)

    def on_kv_post(self, *_args: Any) -> None:
        self.ids.area.bind(pos=self._draw, size=self._draw)
        self.ids.picture.bind(norm_image_size=self._draw)
        if bar.SHORT:
            self._beside_the_picture()

    def _beside_the_picture(self) -> None:
        """A short screen: the title and the words stand in a column beside the picture,
        which keeps the height above the row of buttons."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.widget import Widget

        ids = self.ids
        box = ids.frame_box
        area = ids.area.__self__
        words = [getattr(ids, n).__self__ for n in ("top", "status", "banner")]
        buttons = ids.buttons.__self__
        for part in (*words, area, buttons):
            box.remove_widget(part)
        rail = BoxLayout(orientation="vertical", spacing=bar.GAP, size_hint_x=1)
        for part in words:
            rail.add_widget(part)
        rail.add_widget(Widget())
        row = BoxLayout(spacing=bar.PAD)
        row.add_widget(area)
        row.add_widget(rail)
        box.add_widget(row)
        buttons.cols = len(buttons.children)
        box.add_widget(buttons)

    def show_frame(self, frame: Any) -> None:
        """The camera's latest picture (BGR numpy), shown until the next."""
        self.frame = frame_texture(self.frame, frame)
        self.property("frame").dispatch(self)

    def _draw(self, *_args: Any) -> None:
        """Draw over the picture (each screen its own)."""
