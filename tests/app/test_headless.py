"""`kiosk run` where there is no screen: it says so, plays the demo on a virtual screen,
tells the game on the console, saves each screen, and stops by itself at the end."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.app.headless import screenless

ROOT = Path(__file__).resolve().parents[2]
KIOSK = [sys.executable, "-m", "kiosk"]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return dict(env, PYTHONPATH=str(ROOT), KIVY_HOME=str(tmp_path / "kivy"))


def test_no_display_on_linux_is_screenless_but_a_pi_or_a_desktop_is_not() -> None:
    assert screenless({}, "linux")
    assert not screenless({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not screenless({}, "linux", kiosk_device=True)
    assert not screenless({}, "win32")


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_make_run_without_a_screen_plays_the_demo_to_the_end_and_stops(
        tmp_path: Path) -> None:
    done = subprocess.run([*KIOSK, "run", "--demo-pace", "0.1"], cwd=tmp_path,
                          env=_env(tmp_path), capture_output=True, text=True, timeout=600)
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    lines = out.splitlines()
    assert lines[0].startswith("No screen here (no DISPLAY): playing the demo on a virtual "
                               "screen"), lines[0]
    assert "Cards read by the" in lines[1]  # which detector, in plain words
    for expected in ("  Bid: West: order it up", "  Trick 1: East played AS (ace of spades).",
                     "  Trick 5 to West. Tricks: Ann & Bob 1, Cy & Di 4.",
                     "Hand 1 over: Cy & Di made it: Cy & Di +1.",
                     "Both teams agreed: the result is saved for the director.", "Done."):
        assert any(line.startswith(expected) for line in lines), expected
    shots = tmp_path / "var" / "kiosk" / "screens"
    for name in ("setup", "bidding", "live", "score", "game_end"):
        found = list(shots.glob(f"*-{name}.png"))
        assert found and found[0].stat().st_size > 10_000, name
        assert f"Screen '{name}' saved: " in out
    assert "Traceback" not in done.stderr


def test_an_unreadable_video_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "hand.mp4"
    bad.write_bytes(b"not a video at all")
    done = subprocess.run([*KIOSK, "run", "--headless", "--video", str(bad)], cwd=tmp_path,
                          env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot open video" in done.stderr, done.stderr
