"""ui_run.py is a program the UI test starts under Xvfb, not a module to import here
(importing it opens a Kivy window).

`virtual_screen` starts an Xvfb screen of the size asked for, on a display number Xvfb
picks itself (-displayfd): two test workers starting screens at once never race for one
number, as ``xvfb-run -a`` can (it looks for a free number, then starts Xvfb on it)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator

import pytest

from kiosk.app.headless import VirtualScreen

collect_ignore = ["ui_run.py"]


@pytest.fixture
def virtual_screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], str]]:
    """``virtual_screen("1280x800")``: the DISPLAY of a new virtual screen of that size
    (stopped after the test), else the display there is; skips with neither."""
    started: list[VirtualScreen] = []

    def start(size: str) -> str:
        if shutil.which("Xvfb"):
            monkeypatch.delenv("DISPLAY", raising=False)  # restored after the test
            width, height = (int(v) for v in size.split("x"))
            started.append(VirtualScreen.start(width, height))
            return started[-1].display
        if os.environ.get("DISPLAY"):
            return os.environ["DISPLAY"]
        pytest.skip("needs Xvfb or a display")
        raise AssertionError

    try:
        yield start
    finally:
        for screen in started:
            screen.stop()
