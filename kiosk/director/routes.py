"""The route table and the Starlette application around it.

Each route names its view (one module per page type under `views/`), what
the caller must be (`app.DIRECTOR`, `app.KIOSK` or anyone) and whether it is
also served as `/x.json`. Views are plain functions run on a worker thread
(they talk to SQLite); `/events` is the one async view (it waits for
changes). Starlette does the routing, 404 and 405; `guard.Guard` stands in
front of everything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request as StarletteRequest
from starlette.responses import StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from kiosk.director.app import DIRECTOR, KIOSK, App, remote_address
from kiosk.director.guard import Guard
from kiosk.director.limits import UNLIMITED
from kiosk.director.live import event_stream
from kiosk.director.timing import Timed
from kiosk.director.views import (
    api,
    audit,
    deck_api,
    decks,
    devices,
    egn_export,
    exports,
    game,
    login,
    pages,
    seating,
    setup,
    sheet,
    tables,
)
from kiosk.director.web import BadRequest, Request, Response, error_json, wants_json
from kiosk.director.workers import in_worker

View = Callable[..., Response]
#: a number in an address (a round, a table, a frame) larger than this names nothing; SQLite
#: keeps 64-bit integers, and Starlette's int convertor takes any run of digits
MAX_PATH_NUMBER = 10**9
STATIC = Path(__file__).resolve().parent / "static"

#: (method, path, view, who may call it, also as /path.json)
ROUTES: list[tuple[str, str, View, int, bool]] = [
    ("GET", "/", pages.home, 0, False),
    ("GET", "/setup", setup.show, DIRECTOR, False),
    ("POST", "/setup", setup.submit, DIRECTOR, False),
    ("GET", "/tables", tables.show, DIRECTOR, True),
    ("POST", "/tables/{table:int}/revoke", tables.revoke, DIRECTOR, False),
    ("GET", "/pair", tables.pair_page, 0, False),
    ("GET", "/decks", decks.show, DIRECTOR, True),
    ("POST", "/decks", decks.upload, DIRECTOR, False),
    ("POST", "/decks/learn", decks.learn, DIRECTOR, False),
    ("POST", "/decks/{deck:int}/hand", decks.hand, DIRECTOR, False),
    ("POST", "/decks/{deck:int}/name", decks.rename, DIRECTOR, False),
    ("POST", "/decks/{deck:int}/remove", decks.remove, DIRECTOR, False),
    ("POST", "/decks/tables/{table:int}/take-back", decks.take_back, DIRECTOR, False),
    ("GET", "/seating", seating.show, 0, True),
    ("POST", "/seating/cut", seating.cut, DIRECTOR, False),
    ("GET", "/sheet", sheet.show, 0, True),
    ("GET", "/standings", sheet.standings, 0, True),
    ("GET", "/print", sheet.print_page, 0, False),
    ("GET", "/game/{rnd:int}/{table:int}", game.show, 0, True),
    ("POST", "/game/{rnd:int}/{table:int}/correct", game.correct, DIRECTOR, False),
    ("GET", "/frames/{frame:int}", game.frame, 0, False),
    ("GET", "/audit", audit.show, 0, True),
    ("GET", "/export/{name:str}.csv", exports.csv_export, 0, False),
    ("GET", "/export/tournament.xlsx", exports.xlsx_export, 0, False),
    ("GET", "/game/{rnd:int}/{table:int}.egn", egn_export.game_file, 0, False),
    ("GET", "/export/games-egn.zip", egn_export.event_zip, 0, False),
    ("GET", "/login", login.show, 0, False),
    ("POST", "/login", login.submit, 0, False),
    ("POST", "/logout", login.sign_out, DIRECTOR, False),
    ("GET", "/devices", devices.show, DIRECTOR, True),
    ("POST", "/devices/{session:int}/revoke", devices.revoke, DIRECTOR, False),
    ("POST", "/devices/revoke-all", devices.revoke_all, DIRECTOR, False),
    ("POST", "/devices/forgive", devices.forgive, DIRECTOR, False),
    ("POST", "/calls/{call:int}/answer", sheet.answer_call, DIRECTOR, False),
    ("GET", "/api/v1/health", api.health, 0, False),
    ("GET", "/timings.json", api.timings, DIRECTOR, False),
    ("POST", "/api/v1/pair", api.pair, 0, False),
    ("GET", "/api/v1/table", api.table, KIOSK, False),
    ("POST", "/api/v1/results", api.post_result, KIOSK, False),
    ("POST", "/api/v1/cut", api.cut, KIOSK, False),
    ("POST", "/api/v1/calls", api.call, KIOSK, False),
    ("GET", "/api/v1/deck", deck_api.deck, KIOSK, False),
    ("GET", "/api/v1/deck/file", deck_api.deck_file, KIOSK, False),
    ("POST", "/api/v1/deck", deck_api.offer, KIOSK, False),
]


def _endpoint(app: App, view: View, needs: int, as_json: bool) -> Callable[..., Any]:
    async def endpoint(request: StarletteRequest) -> Response:
        params: dict[str, Any] = dict(request.path_params)
        if any(isinstance(v, int) and v > MAX_PATH_NUMBER for v in params.values()):
            return await _http_error(request, HTTPException(404))
        request_value = await view_request(app, request)
        if as_json:
            params["fmt"] = ".json"

        def run() -> Response:
            denied = app.check(request_value, needs, params)
            if denied is not None:
                return denied
            try:
                return view(app, request_value, **params)
            except BadRequest as problem:
                return error_json(400, str(problem))

        return await in_worker(run)

    return endpoint


async def view_request(app: App, request: StarletteRequest) -> Request:
    """The small request value the views take, its body read (the guard bounded it).

    Read from the ASGI scope itself: Starlette's `request.url` builds and parses a
    whole URL, which a hall of kiosks posting at once pays for on the event loop."""
    scope = request.scope
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
    client = scope.get("client")
    peer = client[0] if client else "127.0.0.1"
    return Request(
        method=request.method,
        path=scope["path"],
        query=dict(request.query_params) if scope.get("query_string") else {},
        headers=headers,
        body=await request.body(),
        remote=remote_address(app, peer, headers),
        scheme=scope.get("scheme", "http"),
        peer=peer,
    )


def _events(app: App) -> Callable[..., Any]:
    async def events(request: StarletteRequest) -> Response:
        peer = request.client.host if request.client else "127.0.0.1"
        client = remote_address(app, peer, {k.lower(): v for k, v in request.headers.items()})
        if not app.streams.take(client, unlimited=client in UNLIMITED):
            return error_json(429, "too many live pages are open; this page checks for "
                                   "news every few seconds instead")
        since = request.headers.get("last-event-id") or request.query_params.get("since", "")
        stream = event_stream(app.changes, app.director.version,
                              int(since) if since.isascii() and since.isdigit() else None)

        return CountedStream(stream, lambda: app.streams.give_back(client))

    return events


class CountedStream(StreamingResponse):
    """An event stream that gives its slot back however it ends (even never started)."""

    def __init__(self, stream: AsyncIterator[str], release: Callable[[], None]) -> None:
        super().__init__(stream, media_type="text/event-stream",
                         headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


async def _http_error(request: StarletteRequest, problem: Exception) -> Response:
    status = problem.status_code if isinstance(problem, HTTPException) else 500
    words = {404: "no such address", 405: "that method is not allowed here"}
    message = words.get(status, "the request could not be served")
    if wants_json(request.url.path) or status != 404:
        response = error_json(status, message)
    else:
        response = pages.not_found()
    if isinstance(problem, HTTPException) and problem.headers:
        response.headers.update(problem.headers)
    return response


#: routes taken straight to their view, past Starlette's middleware and router: a hall of
#: kiosks posting at once spent a third of the event loop's time there (issue 59)
DIRECT = {("POST", "/api/v1/results"), ("GET", "/api/v1/health")}


class Direct:
    """ASGI: the `DIRECT` routes to their endpoints, everything else to Starlette."""

    def __init__(self, starlette: ASGIApp, endpoints: dict[tuple[str, str], Any]) -> None:
        self.starlette = starlette
        self.endpoints = endpoints

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = (self.endpoints.get((scope.get("method", ""), scope.get("path", "")))
                    if scope["type"] == "http" else None)
        if endpoint is None:
            await self.starlette(scope, receive, send)
            return
        response = await endpoint(StarletteRequest(scope, receive))
        await response(scope, receive, send)


def asgi(app: App) -> Timed:
    """The whole application: Starlette's routes behind the guard."""
    routes: list[BaseRoute] = []
    direct: dict[tuple[str, str], Any] = {}
    for method, path, view, needs, json_too in ROUTES:
        if (method, path) in DIRECT:
            direct[(method, path)] = _endpoint(app, view, needs, False)
        routes.append(Route(path, _endpoint(app, view, needs, False), methods=[method]))
        if json_too:
            routes.append(Route(path + ".json", _endpoint(app, view, needs, True),
                                methods=[method]))
    routes.append(Route("/events", _events(app), methods=["GET"]))
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    starlette = Starlette(
        routes=routes,
        exception_handlers={404: _http_error, 405: _http_error},
    )
    return Timed(Guard(Direct(starlette, direct), app.hosts, app.last_error), app.timings)
