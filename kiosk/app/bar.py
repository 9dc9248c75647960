"""The accessibility bar the kiosk's screens are held to, as numbers (docs/accessibility.md).

Sizes are physical: a 75-year-old's finger and eyes do not scale with the screen's
pixels. `PX_PER_MM` is the screen's density; the 10-inch 1280x800 tablet the
kiosk is built for has about 6 (a Pi's 7-inch 800x480 screen about 5.2). Set
`KIOSK_PX_PER_MM` for another screen. The kv files take every size from here, and
the screen audit (`devtools/screen_audit.py`, a test tool) measures the rendered screens against it.
"""

from __future__ import annotations

import os

PX_PER_MM = float(os.environ.get("KIOSK_PX_PER_MM", "6.0"))

#: every tap target, on its short side (WCAG 2.5.5 asks 44 CSS px, about 9 mm: more here)
TARGET_MM = 12.0
#: capital height of any text a player reads
CAP_MM = 4.0
#: WCAG 2.2 contrast: text 4.5:1 (1.4.3), symbols and the parts of a control 3:1 (1.4.11)
TEXT_CONTRAST = 4.5
SYMBOL_CONTRAST = 3.0
#: a second tap on the same place sooner than this is a tremor or a double tap, not a wish
REPEAT_TAP_S = 0.7
#: how near the first a second tap must land to count as the same tap
REPEAT_REACH_MM = 20.0
#: Roboto's capital height as a fraction of the font size (1456/2048 font units)
CAP_HEIGHT = 0.711


def mm(n: float) -> float:
    """Millimetres on this screen, in pixels."""
    return n * PX_PER_MM


def font(cap_mm: float) -> float:
    """The font size (px) whose capitals stand `cap_mm` tall."""
    return round(cap_mm * PX_PER_MM / CAP_HEIGHT)


#: font sizes: running text, headings, the screen's title, the big numbers
TEXT = font(CAP_MM + 0.15)
HEADING = font(5.0)
TITLE = font(6.0)
HUGE = font(11.0)
#: heights of the controls: a button row, a text field, the dealer and bid buttons
BUTTON = mm(14)
FIELD = mm(13)
LARGE_BUTTON = mm(16)
#: the gap between two targets, so that a finger between them touches neither
GAP = mm(2.5)
PAD = mm(3)

#: the smallest picture the bar is laid out for, in millimetres (long side, short side):
#: the 7-inch Raspberry Pi Touch Display 2 (720x1280 at about 8.3 px/mm, 87 x 154 mm),
#: either way round; a window smaller than this shows one message instead of the game
SMALLEST_MM = (150.0, 85.0)
#: the coarsest screen the bar is drawn on: below 6 px/mm a 4 mm capital has fewer than
#: 24 px and a card's suit symbol blurs (the old 7-inch 800x480 Pi screen has 5.2)
COARSEST_PX_PER_MM = 5.9
#: screens the kiosk is laid out and audited for, named on the too-small message
SCREENS_THAT_WORK = ("a 10-inch 1280x800 screen", "the 7-inch Touch Display 2 (1280x720, "
                     "or 720x1280 standing up)")

#: the window's shape, set by the app (`set_window`) before its screens are built; the kv
#: files choose their arrangement by it
PORTRAIT = False
#: a landscape window under about 110 mm tall (the 7-inch screens): headings, words and
#: buttons stand in a column beside the content rather than above and below it
SHORT = False


def window_mm(width_px: float, height_px: float) -> tuple[float, float]:
    """The window's size in millimetres on this screen."""
    return width_px / PX_PER_MM, height_px / PX_PER_MM


def holds_bar(width_px: float, height_px: float) -> bool:
    """Whether a window of this size can show the kiosk's screens at the bar.

    >>> holds_bar(1280, 800), holds_bar(800, 480)
    (True, False)
    """
    w, h = window_mm(width_px, height_px)
    long_side, short_side = max(w, h), min(w, h)
    return (long_side >= SMALLEST_MM[0] and short_side >= SMALLEST_MM[1]
            and PX_PER_MM >= COARSEST_PX_PER_MM)


def set_window(width_px: float, height_px: float) -> None:
    """Choose the arrangement for this window (before any screen is built). A 7-inch
    screen keeps the bar itself (12 mm targets, 4 mm capitals, 2.5 mm between targets)
    and gives up the comfort above it: controls 12.5 mm tall, 2 mm margins, headings at
    5 mm."""
    global PORTRAIT, SHORT, BUTTON, FIELD, LARGE_BUTTON, PAD, TITLE
    w, h = window_mm(width_px, height_px)
    PORTRAIT = h > w
    SHORT = not PORTRAIT and h < 110
    if SHORT or PORTRAIT:
        BUTTON = FIELD = mm(12.5)
        LARGE_BUTTON = mm(13.5)
        PAD = mm(2)
        TITLE = HEADING
