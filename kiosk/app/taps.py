"""Repeat taps ignored: a tremor or a double tap must not pass twice for two players.

A tap that lands within `REPEAT_TAP_S` of the last accepted tap and near it is
dropped before any button sees it. The on-screen keyboard is left alone (a
double letter is typed on purpose).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from kiosk.app import bar


class TapGuard:
    """Says whether a touch is a new tap or a repeat of the last one."""

    def __init__(self, window_s: float = bar.REPEAT_TAP_S,
                 reach_px: float = bar.mm(bar.REPEAT_REACH_MM),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self.reach_px = reach_px
        self.clock = clock
        self._last: tuple[float, float, float] | None = None
        #: how many repeats were dropped (shown in tests and the log)
        self.dropped = 0

    def accept(self, x: float, y: float) -> bool:
        """True for a new tap (and remember it); False for a repeat of the last."""
        now = self.clock()
        last = self._last
        if last is not None:
            t, lx, ly = last
            if now - t < self.window_s and math.hypot(x - lx, y - ly) <= self.reach_px:
                self.dropped += 1
                return False
        self._last = (now, x, y)
        return True
