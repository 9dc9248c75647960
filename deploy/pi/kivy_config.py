"""Write Kivy's own settings for a kiosk on a Raspberry Pi's touch screen.

    KIVY_HOME=/var/lib/euchre-kiosk/kivy python kivy_config.py [--rotation 0|90|180|270]

Run with the kiosk's Python (setup-pi.sh does, as the kiosk's user): Kivy writes its
default config.ini in $KIVY_HOME, and this sets the keys below in it through Kivy's own
Config, leaving every other key as Kivy wrote it. Nothing here is the kiosk's: `kiosk
run` still sets the window's size, full screen and mouse itself when it starts.

- [kivy] keyboard_mode = systemanddock: a text field brings up Kivy's keyboard docked
  at the bottom of the screen (team names, the director's address), and a USB keyboard
  plugged in types too.
- [graphics] show_cursor = 0, allow_screensaver = 0: no arrow on a touch screen, and a
  screen that stays lit through a long hand. rotation: for a screen mounted turned.
- [input]: the touch screen is read once. SDL (the window) already turns each touch
  into a click; Kivy's own reading of the same device (its default ``probesysfs``
  provider) would make every tap land twice, so that provider is taken out.
"""

from __future__ import annotations

import argparse
import os
import sys

SETTINGS = {
    ("kivy", "keyboard_mode"): "systemanddock",
    ("kivy", "keyboard_layout"): "qwerty",
    ("kivy", "exit_on_escape"): "0",
    ("graphics", "fullscreen"): "auto",
    ("graphics", "show_cursor"): "0",
    ("graphics", "allow_screensaver"): "0",
    ("input", "mouse"): "mouse",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rotation", choices=("0", "90", "180", "270"), default="0",
                        help="turn the picture for a screen mounted turned (default: 0)")
    args = parser.parse_args(argv)
    if not os.environ.get("KIVY_HOME"):
        print("KIVY_HOME is not set: say where the kiosk's Kivy settings live", file=sys.stderr)
        return 2
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_ENV_CONFIG="1")
    from kivy.config import Config

    for (section, key), value in {**SETTINGS, ("graphics", "rotation"): args.rotation}.items():
        Config.set(section, key, value)
    for key in list(Config.options("input")):
        if "probesysfs" in Config.get("input", key):
            Config.remove_option("input", key)
    Config.write()
    print(f"Kivy settings written: {Config.filename}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
