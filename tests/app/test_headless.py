"""`kiosk run` where there is no screen. The demo played to its end on a virtual screen is
tests/packaging/test_wheel.py's, by the kiosk installed from its wheel as a fresh machine
runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_an_unreadable_video_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "hand.mp4"
    bad.write_bytes(b"not a video at all")
    done = subprocess.run([*KIOSK, "run", "--headless", "--video", str(bad)], cwd=tmp_path,
                          env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot open video" in done.stderr, done.stderr
