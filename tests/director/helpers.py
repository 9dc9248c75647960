"""Test helpers for the director: an HTTP client for the live server, paired kiosks, results.

`Client` speaks real HTTP to the uvicorn server the fixtures start; `remote`
is the device it plays (X-Forwarded-For, believed by the test server only
from loopback). Answers keep the shape the tests read: status, header(),
text, json().
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import httpx
from bs4 import BeautifulSoup

from kiosk.director.app import App

TEAMS = ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal", "Ivy & Jo", "Kim & Lou"]
LOCAL = "127.0.0.1"


@dataclass
class Answer:
    """An HTTP answer as the tests look at it."""

    status: int
    body: bytes
    headers: httpx.Headers

    def header(self, name: str) -> str | None:
        return self.headers.get(name)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    """A browser or a kiosk on `remote`, speaking HTTP to the live server at `url`."""

    app: App
    url: str
    remote: str = LOCAL
    cookies: str = ""
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    def device(self, remote: str, cookies: str = "") -> Client:
        """Another device on the hall's network, talking to the same server."""
        return Client(self.app, self.url, remote, cookies, self.http)

    def request(
        self,
        method: str,
        target: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
    ) -> Answer:
        h = dict(headers or {})
        if self.cookies:
            h.setdefault("Cookie", self.cookies)
        if self.remote != LOCAL:
            h["X-Forwarded-For"] = self.remote
        answer = self.http.request(method, self.url + target, content=body, headers=h)
        self.http.cookies.clear()  # each Client keeps its own cookies (the `cookies` field)
        return Answer(answer.status_code, answer.content, answer.headers)

    def get(self, target: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", target, headers=headers)

    def post_json(self, target: str, value: Any, headers: dict[str, str] | None = None) -> Answer:
        h = {"Content-Type": "application/json"} | dict(headers or {})
        return self.request("POST", target, json.dumps(value).encode(), h)

    def post_form(self, target: str, form: dict[str, str], csrf: bool = True) -> Answer:
        fields = dict(form)
        if csrf:
            fields.setdefault("csrf", self.csrf())
        body = urllib.parse.urlencode(fields).encode()
        return self.request(
            "POST", target, body, {"Content-Type": "application/x-www-form-urlencoded"}
        )

    def csrf(self) -> str:
        """The CSRF token this device's pages carry (read from a page, as a browser has it)."""
        page = self.get("/devices" if self.remote != LOCAL else "/setup")
        soup = BeautifulSoup(page.text, "html.parser")
        field_ = soup.select_one('input[name="csrf"]')
        return str(field_["value"]) if field_ is not None else ""

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

    def post(self, result: dict[str, Any], key: str) -> Answer:
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
    kiosk = client.device("10.1.2.50")
    response = kiosk.post_json("/api/v1/pair", {"code": code})
    assert response.status == 200, response.text
    return Kiosk(kiosk, table, response.json()["token"])


def result(rnd: int, teams: list[str], points: list[int], **extra: Any) -> dict[str, Any]:
    return {"round": rnd, "teams": teams, "points": points} | extra


def game_at(client: Client, rnd: int, table: int) -> dict[str, Any]:
    for game in client.get("/sheet.json").json()["games"]:
        if game["round"] == rnd and game["table"] == table:
            return dict(game)
    raise AssertionError(f"no game {rnd}/{table}")
