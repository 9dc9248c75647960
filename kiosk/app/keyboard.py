"""The kiosk's own on-screen keyboard, held to the screens' bar (docs/accessibility.md).

Kivy's docked keyboard draws 11 x 9 mm keys with grey legends on grey, its Shift works
only while held by a second finger, and its Caps Lock turns digits into symbols. This
one, docked across the window's width: keys at least 12.5 mm on their short side,
white legends at the bar's text size on dark keys, one tap on "ABC / abc" for capitals
(digits stay digits), and a "Done" key. Standing up, a layout of six keys a row keeps
the keys that wide. The window pans so that the field typed in stays above it
(`Window.softinput_mode = "below_target"`, set by the app).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.uix.vkeyboard import VKeyboard

from kiosk.app import bar

LAYOUTS = Path(__file__).with_name("keyboards")
#: a key's height, and its width at the least (each layout's width in keys is its `cols`)
KEY_MM = 13.5


def layout_file() -> str:
    """The layout for this window's shape."""
    return str(LAYOUTS / ("kiosk_narrow.json" if bar.PORTRAIT else "kiosk_wide.json"))


class KioskKeyboard(VKeyboard):
    """Kivy's virtual keyboard with the kiosk's layout, sizes and colours."""

    def __init__(self, **kwargs: Any) -> None:
        import json

        from kivy.core.window import Window

        path = layout_file()
        rows = int(json.loads(Path(path).read_text(encoding="utf-8"))["rows"])
        kwargs.setdefault("layout", path)
        # the window's width, so that docking scales it by 1: the keys keep their size
        kwargs.setdefault("size", (Window.width, rows * bar.mm(KEY_MM)))
        kwargs.setdefault("font_size", bar.TEXT)
        kwargs.setdefault("margin_hint", [0.03, 0.03, 0.03, 0.03])
        kwargs.setdefault("background_color", (0.05, 0.06, 0.07, 1))
        # tints the key image (a light grey) to a dark grey: white legends at 7:1 and more
        kwargs.setdefault("key_background_color", (0.3, 0.32, 0.36, 1))
        super().__init__(**kwargs)

    def setup_mode_dock(self, *args: Any) -> None:
        super().setup_mode_dock(*args)
        self._pan()

    def on_parent(self, _widget: Any, _parent: Any) -> None:
        self._pan()  # shown or put away: the window pans up, or back

    @staticmethod
    def _pan() -> None:
        """Have the window move its picture up by what the keyboard would cover of the
        field (Kivy works it out, but only when told the keyboard changed)."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        Clock.schedule_once(lambda _dt: Window.trigger_keyboard_height(), 0)


__all__ = ["KEY_MM", "KioskKeyboard", "layout_file"]
