"""The kiosks' API (docs/director-api.md): pair, learn the seating, post results.

An acknowledgement (HTTP 200 with `"acknowledged": true`) is sent only after
the result is committed to disk; the kiosk's outbox may then forget it.
Errors the kiosk cannot fix by retrying are 4xx; anything worth retrying is
5xx or no answer at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.director.text import clean
from kiosk.director.tournament import DirectorError, KeyReusedError, ResultError
from kiosk.director.web import BadRequest, Request, Response, error_json, json_response

if TYPE_CHECKING:
    from kiosk.director.app import App

API_VERSION = 1


def health(app: App, request: Request) -> Response:
    """Is the director up? Also says whether a tournament is set up."""
    settings = app.director.settings()
    return json_response(
        {"ok": True, "api": API_VERSION, "tournament": settings.name if settings else None}
    )


def timings(app: App, request: Request) -> Response:
    """The server's own answer times by kind of request (?since=<Unix time>), and its
    SQLite writer's: what a load test compares with what its clients saw."""
    since = request.query.get("since", "")
    try:
        start = float(since) if since else 0.0
    except ValueError:
        start = 0.0
    return json_response({"requests": app.timings.report(start),
                          "writer": app.director.db.stats.report()})


def pair(app: App, request: Request) -> Response:
    """{"code": "K7P2QX"} -> {"table": 3, "token": "..."}: the code works once."""
    try:
        body = request.json()
    except BadRequest as problem:
        return error_json(400, f'{problem}; send {{"code": "..."}}')
    code = str(body.get("code", ""))[:40] if isinstance(body, dict) else ""
    try:
        table, token = app.director.pair(code, request.remote)
    except DirectorError as problem:
        status = 429 if "too many" in str(problem) else 403
        return error_json(status, str(problem))
    settings = app.director.settings()
    return json_response(
        {
            "table": table,
            "token": token,
            "server": app.kiosk_url(),
            "tournament": settings.name if settings else None,
        }
    )


def table(app: App, request: Request, kiosk_table: int) -> Response:
    """This kiosk's table: settings, seating round by round, the next round to play."""
    try:
        return json_response(app.director.table_info(kiosk_table))
    except DirectorError as problem:
        return error_json(409, str(problem))


def post_result(app: App, request: Request, kiosk_table: int) -> Response:
    """One finished game. Idempotent: the same key and body always get the same answer."""
    try:
        body = request.json()
    except BadRequest as problem:
        return error_json(400, str(problem))
    key = request.headers.get("idempotency-key") or (
        str(body.get("idempotency_key", "")) if isinstance(body, dict) else ""
    )
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k != "idempotency_key"}
    try:
        outcome = app.director.post_result(kiosk_table, key, body)
    except KeyReusedError as problem:
        return error_json(409, str(problem))
    except ResultError as problem:
        return error_json(422, str(problem))
    return json_response(outcome.as_json())


def cut(app: App, request: Request, kiosk_table: int) -> Response:
    """Unmatched players cut for partners: {"a": [p, p], "b": [p, p]}; A is the first dealer's."""
    try:
        body = request.json()
        a, b = [clean(str(p), 80) for p in body["a"]], [clean(str(p), 80) for p in body["b"]]
    except BadRequest as problem:
        return error_json(400, str(problem))
    except (KeyError, TypeError):
        return error_json(422, 'send the two teams: {"a": ["Ann", "Bob"], "b": ["Cy", "Di"]}')
    try:
        app.director.record_cut(kiosk_table, a, b, f"table {kiosk_table} kiosk")
    except DirectorError as problem:
        return error_json(409, str(problem))
    return json_response({"acknowledged": True, "table": kiosk_table})


def call(app: App, request: Request, kiosk_table: int) -> Response:
    """The players want the director at this table."""
    try:
        body = request.json()
    except BadRequest as problem:
        return error_json(400, str(problem))
    key = request.headers.get("idempotency-key") or (
        str(body.get("idempotency_key", "")) if isinstance(body, dict) else ""
    )
    if len(key) > 200:
        return error_json(422, "an idempotency key (1 to 200 characters) is required")
    try:
        call_id = app.director.call(kiosk_table, key, body)
    except ResultError as problem:
        return error_json(422, str(problem))
    return json_response({"acknowledged": True, "call_id": call_id})
