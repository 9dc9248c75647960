"""The director's web app: the route table in one place, and who may call what.

`App` is a callable from `Request` to `Response`. Each route names its view
function (one module per page type under `views/`) and what it needs:

- `DIRECTOR`: the director only: this computer, or a device signed in with
  the PIN. POST forms must also carry the CSRF token.
- `KIOSK`: a paired kiosk's bearer token; the view gets its table number.

Pages that only show the sheet are open to anyone on the network, so players
can follow the standings on their phones. `/x.json` serves the page `/x` as
JSON.
"""

from __future__ import annotations

import re
import sys
import traceback
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.director import auth
from kiosk.director.tournament import Director
from kiosk.director.views import api, audit, exports, game, login, seating, setup, sheet, tables
from kiosk.director.web import Request, Response, error_json, html_response, redirect

DIRECTOR = 1
KIOSK = 2

View = Callable[..., Response]


def home(app: App, request: Request) -> Response:
    """Straight to the set-up form the first time, to the sheet afterwards."""
    return redirect("/sheet" if app.director.settings() else "/setup")


#: (method, path pattern, view, needs). Patterns match the whole path.
ROUTES: list[tuple[str, str, View, int]] = [
    ("GET", r"/", home, 0),
    ("GET", r"/setup", setup.show, DIRECTOR),
    ("POST", r"/setup", setup.submit, DIRECTOR),
    ("GET", r"/tables(?P<fmt>\.json)?", tables.show, DIRECTOR),
    ("POST", r"/tables/(?P<table>\d+)/revoke", tables.revoke, DIRECTOR),
    ("GET", r"/pair", tables.pair_page, 0),
    ("GET", r"/seating(?P<fmt>\.json)?", seating.show, 0),
    ("POST", r"/seating/cut", seating.cut, DIRECTOR),
    ("GET", r"/sheet(?P<fmt>\.json)?", sheet.show, 0),
    ("GET", r"/standings(?P<fmt>\.json)?", sheet.standings, 0),
    ("GET", r"/print", sheet.print_page, 0),
    ("GET", r"/game/(?P<rnd>\d+)/(?P<table>\d+)(?P<fmt>\.json)?", game.show, 0),
    ("POST", r"/game/(?P<rnd>\d+)/(?P<table>\d+)/correct", game.correct, DIRECTOR),
    ("GET", r"/frames/(?P<frame>\d+)", game.frame, 0),
    ("GET", r"/audit(?P<fmt>\.json)?", audit.show, 0),
    ("GET", r"/export/(?P<name>sheet|games|standings)\.csv", exports.csv_export, 0),
    ("GET", r"/export/tournament\.xlsx", exports.xlsx_export, 0),
    ("GET", r"/login", login.show, 0),
    ("POST", r"/login", login.submit, 0),
    ("GET", r"/api/v1/health", api.health, 0),
    ("POST", r"/api/v1/pair", api.pair, 0),
    ("GET", r"/api/v1/table", api.table, KIOSK),
    ("POST", r"/api/v1/results", api.post_result, KIOSK),
    ("POST", r"/api/v1/cut", api.cut, KIOSK),
    ("POST", r"/api/v1/calls", api.call, KIOSK),
    ("POST", r"/calls/(?P<call>\d+)/answer", sheet.answer_call, DIRECTOR),
]

_COMPILED = [(m, re.compile(p + r"\Z"), v, n) for m, p, v, n in ROUTES]


@dataclass
class App:
    """The director's app: routes requests to views, with the checks each route needs."""

    director: Director
    #: how kiosks reach this server, e.g. http://192.168.1.5:8555 (goes into the QR codes)
    public_url: str = "http://127.0.0.1:8555"
    #: how often the live master sheet asks for news
    poll_seconds: float = 3.0
    #: the last unexpected errors (at most 20), also printed to stderr; tests look at it
    last_error: list[str] = field(default_factory=list)

    def is_director(self, request: Request) -> bool:
        """This computer, or a device that signed in with the PIN."""
        if auth.is_loopback(request.remote):
            return True
        cookie = request.cookies().get("director_session", "")
        return bool(cookie) and cookie == auth.session_value(self.director.secret)

    def who(self, request: Request) -> str:
        """The name the director last signed a correction with, for the audit trail."""
        name = urllib.parse.unquote(request.cookies().get("director_name", ""))
        return " ".join(name.split())[:80] or "Director"

    def csrf(self) -> str:
        return auth.csrf_token(self.director.secret)

    def __call__(self, request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        allowed: list[str] = []
        for route_method, pattern, view, needs in _COMPILED:
            match = pattern.match(request.path)
            if match is None:
                continue
            if route_method != method:
                allowed.append(route_method)
                continue
            params: dict[str, Any] = {k: v for k, v in match.groupdict().items()}
            denied = self._check(request, needs, params)
            if denied is not None:
                return denied
            try:
                return view(self, request, **params)
            except Exception:  # one bad request must not stop the server
                self.last_error[:] = [*self.last_error[-19:], traceback.format_exc()]
                print(self.last_error[-1], file=sys.stderr, flush=True)
                if wants_json(request):
                    return error_json(500, "the director hit an unexpected error")
                return html_response("<h1>Something went wrong</h1><p>Please try again.</p>", 500)
        if allowed:
            return Response(405, b"", [("Allow", ", ".join(sorted(set(allowed))))])
        if wants_json(request):
            return error_json(404, "no such address")
        return html_response('<h1>Not found</h1><p><a href="/">Go to the master sheet</a></p>', 404)

    def _check(self, request: Request, needs: int, params: dict[str, Any]) -> Response | None:
        if needs == KIOSK:
            token = request.bearer()
            table = self.director.authenticate(token) if token else None
            if table is None:
                return error_json(401, "this kiosk is not paired, or its pairing was revoked")
            params["kiosk_table"] = table
        if needs == DIRECTOR:
            if not self.is_director(request):
                if request.method == "GET" and not wants_json(request):
                    return redirect(f"/login?next={request.path}")
                return error_json(401, "sign in as the director first")
            if request.method == "POST" and request.form().get("csrf") != self.csrf():
                return html_response(
                    "<h1>Please try again</h1><p>This form is out of date. "
                    '<a href="/">Go back</a> and send it again.</p>',
                    403,
                )
        return None


def wants_json(request: Request) -> bool:
    return request.path.startswith("/api/") or request.path.endswith(".json")
