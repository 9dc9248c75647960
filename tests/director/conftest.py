"""Fixtures: a director in process, a client that speaks to it, a live server."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` run without `python -m`: make `tests.` importable
    sys.path.insert(0, str(ROOT))

from kiosk.director.app import App  # noqa: E402
from kiosk.director.store import Database  # noqa: E402
from kiosk.director.tournament import Director  # noqa: E402
from tests.director.helpers import Client, serve_in_thread, setup_form  # noqa: E402


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
    return App(director, public_url="http://10.1.2.3:8555")


@pytest.fixture
def client(app: App) -> Client:
    return Client(app)


@pytest.fixture
def tournament(client: Client) -> Client:
    """A client whose director has set up six teams on three tables (alberta55)."""
    response = client.post_form("/setup", setup_form())
    assert response.status == 303, response.text
    return client


@pytest.fixture
def live_server(app: App) -> Iterator[str]:
    """The app behind the real threading HTTP server on 127.0.0.1."""
    with serve_in_thread(app) as url:
        yield url
