"""The accessibility bar the kiosk's screens are held to, as numbers (docs/accessibility.md).

Sizes are physical: a 75-year-old's finger and eyes do not scale with the screen's
pixels. `PX_PER_MM` is the screen's density; the 10-inch 1280x800 tablet the
kiosk is built for has about 6 (a Pi's 7-inch 800x480 screen about 5.2). Set
`KIOSK_PX_PER_MM` for another screen. The kv files take every size from here, and
the screen audit (`kiosk.app.audit`) measures the rendered screens against it.
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
