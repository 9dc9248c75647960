"""The real director as a subprocess on 127.0.0.1, and plain HTTP helpers to drive it.

The end-to-end tests talk to it only as a kiosk and the director's browser
would: over loopback sockets, through its documented pages and API
(docs/director-api.md). Nothing here reaches past 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devtools import director_process as process
from devtools.director_process import free_port, http


class DirectorProcess(process.DirectorProcess):
    """The real director, plus what the end-to-end tests ask of it as its browser."""

    # -- as the director's browser on this computer (loopback is trusted) ----

    def get_json(self, path: str) -> Any:
        status, raw = http("GET", self.url + path)
        assert status == 200, (path, status, raw[:300])
        return json.loads(raw)

    def post_setup(self, form: dict[str, str]) -> int:
        status = super().post_setup(form)
        assert status == 200, status  # urllib follows the 303 to /seating?done=setup
        return status


@pytest.fixture
def director(tmp_path: Path) -> Iterator[DirectorProcess]:
    """A fresh director on a free loopback port with its own data folder; always stopped."""
    data = tmp_path / "director"
    data.mkdir()
    server = DirectorProcess(data, free_port(), "--poll", "60",
                             log=tmp_path / "director.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.kill()
