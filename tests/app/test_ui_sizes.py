"""The kiosk on the screens clubs buy (issue 58): the same game tapped through under Xvfb
on the 7-inch Raspberry Pi Touch Display 2 (about 8.3 px/mm), lying down and standing up,
passes the accessibility audit on every screen it saves; a window below what the bar can
hold shows one message naming the screens that work. (The 10-inch 1280x800 run is
test_ui.py's.)"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("ui_run.py")
#: screens every size saves, and those the 7-inch screen's own pages add
EVERY_SIZE = ("rules", "setup", "setup-keyboard", "voice", "pairing", "bidding-turn-up",
              "bidding-explained", "live", "correction", "correction-question",
              "live-camera-stopped", "score-hand-1", "twin", "renege", "renege-confirm",
              "game-end-agree", "game-end")
SEVEN_INCH_PAGES = ("rules-points", "setup-teams")


def _run(tmp_path: Path, screen: Callable[[str], str], size: str, px_per_mm: str | None,
         timeout: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path),
               KIOSK_UI_SIZE=size, DISPLAY=screen(size))
    env.pop("KIOSK_PX_PER_MM", None)
    if px_per_mm is not None:
        env["KIOSK_PX_PER_MM"] = px_per_mm
    command = [sys.executable, str(SCRIPT), str(tmp_path / "ui.sqlite3"),
               str(tmp_path / "shots")]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("size", ["1280x720", "720x1280"])
def test_the_seven_inch_screen_passes_the_bar(tmp_path: Path, size: str,
                                              virtual_screen: Callable[[str], str]) -> None:
    done = _run(tmp_path, virtual_screen, size, "8.3", timeout=900)
    assert "UI OK" in done.stdout, done.stderr[-3000:] + done.stdout[-3000:]
    audited = [line for line in done.stdout.splitlines() if line.startswith("AUDIT ")]
    assert audited and all(" 0 finding(s)" in a for a in audited), audited
    for name in (*EVERY_SIZE, *SEVEN_INCH_PAGES):
        assert (tmp_path / "shots" / f"{name}.png").exists(), name


def test_a_screen_below_the_bar_shows_one_message(
        tmp_path: Path, virtual_screen: Callable[[str], str]) -> None:
    """800x480 at the default 6 px/mm is 133 x 80 mm: one message instead of overlapping
    screens."""
    done = _run(tmp_path, virtual_screen, "800x480", None, timeout=120)
    assert "UI TOO SMALL" in done.stdout, done.stderr[-3000:] + done.stdout[-3000:]
    assert "AUDIT too-small: 0 finding(s)" in done.stdout
    assert (tmp_path / "shots" / "too-small.png").exists()
