"""The director as a separate process on 127.0.0.1, for the load test and end-to-end tests
(a development tool: no kiosk or director install carries it).

Both need the real server (its own process, so it can be killed with SIGKILL
and started again on the same port and data folder) and plain HTTP to drive it
as a kiosk or the director's browser would. Nothing here reaches past loopback.
"""

from __future__ import annotations

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
from pathlib import Path

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A loopback port nobody listens on now; reused on restart, so kiosks' addresses hold."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def http(method: str, url: str, body: bytes | None = None,
         headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, bytes]:
    """One request; any HTTP status is an answer, not an exception."""
    request = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return int(response.status), response.read()
    except urllib.error.HTTPError as answer:
        return int(answer.code), answer.read()


class DirectorProcess:
    """`python -m kiosk director` on 127.0.0.1: start, SIGKILL, start again on the same data."""

    def __init__(self, data: Path, port: int, *extra_args: str, log: Path | None = None) -> None:
        self.data, self.port, self.extra_args = data, port, extra_args
        self.url = f"http://{HOST}:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log or data / "director.log"

    def start(self, timeout: float = 30.0) -> float:
        """Start the server and wait until it answers; returns the seconds that took."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        began = time.monotonic()
        env = os.environ | {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        # The TLS listener on any free port unless the caller names one (the harness
        # speaks plain HTTP from this computer, which the director allows).
        tls = [] if any(a.startswith(("--tls-port", "--no-tls")) for a in self.extra_args) \
            else ["--tls-port", "0"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kiosk", "director", "--data", str(self.data),
                 "--host", HOST, "--port", str(self.port), *tls, *self.extra_args],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        while time.monotonic() - began < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the director exited: {self._log_tail()}")
            try:
                if http("GET", self.url + "/api/v1/health", timeout=1.0)[0] == 200:
                    return time.monotonic() - began
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the director did not come up in time: {self._log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no chance to flush anything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """A clean stop (SIGTERM), killed if it does not end in 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def post_setup(self, form: dict[str, str]) -> int:
        """Send the set-up form the way the /setup page posts it (with its CSRF token);
        returns the HTTP status after urllib follows the 303 to the seating page."""
        status, page = http("GET", self.url + "/setup")
        match = re.search(rb'name="csrf" value="([^"]+)"', page)
        if status != 200 or not match:
            raise RuntimeError(f"the set-up page (HTTP {status}) carries no CSRF token")
        body = urllib.parse.urlencode(form | {"csrf": match.group(1).decode()}).encode()
        return http("POST", self.url + "/setup", body,
                    {"Content-Type": "application/x-www-form-urlencoded"})[0]

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return f"(no log at {self.log})"
