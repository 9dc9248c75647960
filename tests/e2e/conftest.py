"""The real director as a subprocess on 127.0.0.1, and plain HTTP helpers to drive it.

The end-to-end tests talk to it only as a kiosk and the director's browser
would: over loopback sockets, through its documented pages and API
(docs/director-api.md). Nothing here reaches past 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nobody listens on now; reused on restart, so the kiosk's address stays valid."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http(method: str, url: str, body: bytes | None = None,
         headers: dict[str, str] | None = None, timeout: float = 5.0) -> tuple[int, bytes]:
    """One request; any HTTP status is an answer (no exception)."""
    request = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return int(response.status), response.read()
    except urllib.error.HTTPError as answer:
        return int(answer.code), answer.read()


class DirectorProcess:
    """`kiosk director` in a subprocess: start, SIGKILL, start again on the same port and data."""

    def __init__(self, data: Path, port: int) -> None:
        self.data = data
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data.parent / "director.log"

    def start(self, timeout: float = 20.0) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kiosk", "director", "--data", str(self.data),
                 "--port", str(self.port), "--host", "127.0.0.1", "--poll", "60"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"the director exited: {self.log.read_text()[-2000:]}")
            try:
                status, _ = http("GET", self.url + "/api/v1/health", timeout=1.0)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the director did not come up: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as when the laptop's lid is closed mid-answer."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()

    # -- as the director's browser on this computer (loopback is trusted) ----

    def get_json(self, path: str) -> Any:
        status, raw = http("GET", self.url + path)
        assert status == 200, (path, status, raw[:300])
        return json.loads(raw)

    def post_setup(self, form: dict[str, str]) -> None:
        """Fill in and send the set-up form the way the /setup page posts it (with its CSRF)."""
        status, page = http("GET", self.url + "/setup")
        assert status == 200, status
        match = re.search(rb'name="csrf" value="([^"]+)"', page)
        assert match, "the set-up page carries no CSRF token"
        body = urllib.parse.urlencode(form | {"csrf": match.group(1).decode()}).encode()
        status, answer = http("POST", self.url + "/setup", body,
                              {"Content-Type": "application/x-www-form-urlencoded"})
        # urllib follows the 303 to /seating?done=setup
        assert status == 200, (status, answer[:500])


@pytest.fixture
def director(tmp_path: Path) -> Iterator[DirectorProcess]:
    """A fresh director on a free loopback port with its own data folder; always stopped."""
    data = tmp_path / "director"
    data.mkdir()
    server = DirectorProcess(data, free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.kill()
