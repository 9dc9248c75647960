"""Repeat taps: a double tap on Pass passes once; a deliberate second tap counts."""

from __future__ import annotations

from kiosk.app.taps import TapGuard


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_second_tap_on_the_same_place_within_the_window_is_dropped() -> None:
    clock = Clock()
    guard = TapGuard(window_s=0.7, reach_px=100, clock=clock)
    assert guard.accept(500, 300)
    clock.now += 0.15
    assert not guard.accept(505, 302)  # the double tap on Pass
    assert guard.dropped == 1
    clock.now += 0.7
    assert guard.accept(505, 302)  # the next player's own tap, later


def test_a_tap_elsewhere_is_a_new_tap_however_soon() -> None:
    clock = Clock()
    guard = TapGuard(window_s=0.7, reach_px=100, clock=clock)
    assert guard.accept(100, 100)
    clock.now += 0.2
    assert guard.accept(600, 100)


def test_the_window_runs_from_the_last_accepted_tap_not_the_dropped_ones() -> None:
    clock = Clock()
    guard = TapGuard(window_s=0.7, reach_px=100, clock=clock)
    assert guard.accept(0, 0)
    for _ in range(3):  # a tremor: taps every 0.3 s
        clock.now += 0.3
        guard.accept(0, 0)
    # 0.9 s after the first: the tremor's third tap came after the window
    assert guard.dropped == 2
