"""Test helpers for the director: an in-process client, paired kiosks, result builders.

The in-process client calls `App` directly with `Request` values (no socket),
the way datasette's tests use an ASGI transport.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bs4 import BeautifulSoup

from kiosk.director.app import App
from kiosk.director.web import Request, Response, make_server

TEAMS = ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal", "Ivy & Jo", "Kim & Lou"]


@dataclass
class Client:
    """Calls the app in process, as a browser or a kiosk on `remote` would."""

    app: App
    remote: str = "127.0.0.1"
    cookies: str = ""

    def request(
        self,
        method: str,
        target: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
    ) -> Response:
        h = dict(headers or {})
        if self.cookies:
            h.setdefault("Cookie", self.cookies)
        return self.app(Request.build(method, target, h, body, self.remote))

    def get(self, target: str, headers: dict[str, str] | None = None) -> Response:
        return self.request("GET", target, headers=headers)

    def post_json(self, target: str, value: Any, headers: dict[str, str] | None = None) -> Response:
        return self.request("POST", target, json.dumps(value).encode(), headers)

    def post_form(self, target: str, form: dict[str, str], csrf: bool = True) -> Response:
        fields = dict(form)
        if csrf:
            fields.setdefault("csrf", self.app.csrf())
        body = urllib.parse.urlencode(fields).encode()
        return self.request(
            "POST", target, body, {"Content-Type": "application/x-www-form-urlencoded"}
        )

    def soup(self, target: str) -> BeautifulSoup:
        response = self.get(target)
        assert response.status == 200, (target, response.status, response.text[:300])
        return BeautifulSoup(response.text, "html.parser")


@dataclass
class Kiosk:
    """A paired table: posts with its bearer token."""

    client: Client
    table: int
    token: str

    def headers(self, key: str | None = None) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        if key:
            h["Idempotency-Key"] = key
        return h

    def post(self, result: dict[str, Any], key: str) -> Response:
        return self.client.post_json("/api/v1/results", result, self.headers(key))

    def info(self) -> dict[str, Any]:
        response = self.client.get("/api/v1/table", self.headers())
        assert response.status == 200, response.text
        return dict(response.json())


def setup_form(**overrides: str) -> dict[str, str]:
    form = {
        "name": "Spring Fling",
        "profile": "alberta55",
        "format": "round_robin",
        "entry": "teams",
        "entrants": "\n".join(TEAMS),
    }
    form.update(overrides)
    return form


def pair(client: Client, table: int) -> Kiosk:
    code = next(
        t["code"] for t in client.get("/tables.json").json()["tables"] if t["table_no"] == table
    )
    response = Client(client.app, remote="10.1.2.50").post_json("/api/v1/pair", {"code": code})
    assert response.status == 200, response.text
    return Kiosk(Client(client.app, remote="10.1.2.50"), table, response.json()["token"])


def result(rnd: int, teams: list[str], points: list[int], **extra: Any) -> dict[str, Any]:
    return {"round": rnd, "teams": teams, "points": points} | extra


def game_at(client: Client, rnd: int, table: int) -> dict[str, Any]:
    for game in client.get("/sheet.json").json()["games"]:
        if game["round"] == rnd and game["table"] == table:
            return dict(game)
    raise AssertionError(f"no game {rnd}/{table}")


@contextmanager
def serve_in_thread(app: App) -> Iterator[str]:
    """The app behind the real threading HTTP server on 127.0.0.1 (any free port)."""
    server = make_server(app, "127.0.0.1", 0)
    port = server.server_address[1]
    app.public_url = f"http://127.0.0.1:{port}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    try:
        yield app.public_url
    finally:
        server.shutdown()
        server.server_close()
