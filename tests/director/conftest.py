"""Fixtures: a director on a real SQLite file behind a real uvicorn server, and clients.

Every test talks HTTP to the server on 127.0.0.1. A client that plays
another device on the hall's network (a kiosk, a phone) names its address
in X-Forwarded-For, which only this test server (`trust_forwarded`) believes,
and only from loopback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` run without `python -m`: make `tests.` importable
    sys.path.insert(0, str(ROOT))

from kiosk.director.app import App  # noqa: E402
from kiosk.director.server import serve_in_thread  # noqa: E402
from kiosk.director.store import Database  # noqa: E402
from kiosk.director.tournament import Director  # noqa: E402
from tests.director.helpers import Client, setup_form  # noqa: E402


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(tmp_path / "director.sqlite3")
    yield database
    database.close()


@pytest.fixture
def director(db: Database) -> Director:
    return Director(db)


@pytest.fixture
def app(director: Director) -> App:
    return App(director, public_url="http://10.1.2.3:8555", trust_forwarded=True)


@pytest.fixture
def server(app: App) -> Iterator[str]:
    """The app on a real uvicorn server on 127.0.0.1 (any free port); its base URL."""
    public = app.public_url
    with serve_in_thread(app) as url:
        app.public_url = public  # the kiosks' address stays the hall's (QR codes, pairing)
        yield url


@pytest.fixture
def client(app: App, server: str) -> Iterator[Client]:
    with Client(app, server) as c:
        yield c


@pytest.fixture
def tournament(client: Client) -> Client:
    """A client whose director has set up six teams on three tables (alberta55)."""
    response = client.post_form("/setup", setup_form())
    assert response.status == 303, response.text
    return client


@pytest.fixture
def live_server(app: App, server: str) -> str:
    """The same server, with the QR codes naming it (a real kiosk can pair through them)."""
    app.public_url = server
    return server
