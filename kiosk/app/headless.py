"""Running the kiosk where there is no screen: notice it, and bring a virtual one.

Why: the README's first command is `make run`, and people try it over SSH or
in a container. Kivy there either fails obscurely or draws into nothing for
ever. Instead `kiosk run` says in one line that there is no screen, starts an
Xvfb virtual screen of its own, plays the demo on it, tells the game on the
console (kiosk.app.narrator), saves a picture of each screen, and stops when
the game is over.

A Raspberry Pi or a tablet has no DISPLAY either when Kivy draws straight to
the panel, so those are never called screenless.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping


class NoVirtualScreen(RuntimeError):
    """Xvfb is missing or would not start; the message is one line for the user."""


def screenless(environ: Mapping[str, str] | None = None, platform: str | None = None,
               kiosk_device: bool = False) -> bool:
    """True on a Linux desktop or server with no X or Wayland display to draw on.

    >>> screenless({}, "linux"), screenless({"DISPLAY": ":0"}, "linux")
    (True, False)
    >>> screenless({}, "linux", kiosk_device=True), screenless({}, "darwin")
    (False, False)
    """
    env = os.environ if environ is None else environ
    if not (platform or sys.platform).startswith("linux") or kiosk_device:
        return False
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


class VirtualScreen:
    """An Xvfb server this process started (and stops): `DISPLAY` points at it."""

    def __init__(self, process: subprocess.Popen[bytes], display: str) -> None:
        self.process = process
        self.display = display

    @classmethod
    def start(cls, width: int, height: int, timeout: float = 10.0) -> VirtualScreen:
        """Start Xvfb on a free display number (Xvfb picks it: -displayfd)."""
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise NoVirtualScreen("no screen, and no Xvfb to make a virtual one: install it "
                                  "with scripts/install-system-packages.sh (or run where "
                                  "there is a screen)")
        read_fd, write_fd = os.pipe()
        process = subprocess.Popen(
            [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        deadline = time.monotonic() + timeout
        try:
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                ready, _w, _x = select.select([read_fd], [], [], max(left, 0))
                chunk = os.read(read_fd, 16) if ready else b""
                if not chunk:
                    break
                number += chunk
        finally:
            os.close(read_fd)
        if not number.strip().isdigit():
            process.kill()
            process.wait()
            raise NoVirtualScreen("Xvfb would not start a virtual screen")
        display = f":{number.strip().decode()}"
        os.environ["DISPLAY"] = display
        return cls(process, display)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
