"""The door every request passes: names, header sizes, body size and pace, answers' headers.

An ASGI middleware in front of the Starlette app, so no view can forget a
check:

- **Host** must name this server (its LAN address, the public URL's host,
  loopback names, this computer's name). A page on another site that points
  its own name at this laptop (DNS rebinding) is refused before any page or
  CSRF token is shown.
- **Headers**: at most `MAX_HEADERS` headers of at most `MAX_HEADER_VALUE`
  bytes each (uvicorn's h11 parser already caps the whole head).
- **Body**: read here, at most `body_limit(path)` bytes however it is framed
  (Content-Length or chunked), each piece within `BODY_PIECE_SECONDS`, so a
  stalled sender costs a coroutine for seconds, not a thread for ever. The
  app then sees the body as one piece.
- **Answers** carry nosniff, a CSP without inline script, frame-ancestors
  'none' and no-store unless the view says otherwise.
- **Failures**: an exception in a view is logged to stderr with its
  traceback and answered with one plain sentence (500); the traceback never
  reaches the client.

Every refusal is a 4xx with one sentence (JSON for the API, text for pages),
and the kiosk's outbox treats it as final (docs/director-api.md).
"""

from __future__ import annotations

import asyncio
import html
import json
import sys
import traceback
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kiosk.director.web import wants_json

MAX_HEADERS = 64
MAX_HEADER_VALUE = 8 * 1024
#: a finished game with its hand records and renege frames (2 MB each)
RESULT_BODY = 16 * 1024 * 1024
#: forms and small API calls: the set-up form with 2000 players fits easily
OTHER_BODY = 512 * 1024
#: seconds allowed for each piece of a body to arrive
BODY_PIECE_SECONDS = 10.0

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


#: a deck profile's upload (the Decks page, or a kiosk's offer): the profile's own limit
#: (kiosk/deck_bytes.py, 3 MB) is checked by the view, which says so on its page
DECK_BODY = 4 * 1024 * 1024
DECK_PATHS = ("/decks", "/api/v1/deck")
#: a layout photo the director's laptop learns a deck from (a phone's photo is 2-8 MB)
LAYOUT_BODY = 12 * 1024 * 1024
LAYOUT_PATH = "/decks/learn"


def body_limit(path: str) -> int:
    if path == "/api/v1/results":
        return RESULT_BODY
    if path == LAYOUT_PATH:
        return LAYOUT_BODY
    return DECK_BODY if path in DECK_PATHS else OTHER_BODY


def host_name(host: str) -> str:
    """The name in a Host header, without the port, lower case.

    >>> host_name("192.168.1.5:8555"), host_name("[::1]:8555"), host_name("Laptop.LOCAL")
    ('192.168.1.5', '::1', 'laptop.local')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        return host.partition(":")[0]
    return host


class TurnedAway(Exception):
    """A request turned away at the door: status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Guard:
    """The middleware; `hosts()` says which names this server answers to (it may change)."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Callable[[], Iterable[str]],
        errors: list[str] | None = None,
    ) -> None:
        self.app = app
        self.hosts = hosts
        #: the last unexpected errors (at most 20), also printed to stderr
        self.errors = errors if errors is not None else []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        try:
            self._check_head(scope)
            replay = await self._read_body(scope, receive, path)
            await self.app(scope, replay, send_guarded)
        except TurnedAway as refusal:
            if not started:
                await _answer(send_guarded, path, refusal.status, refusal.message,
                              self._back(scope))
        except Exception:
            self.errors[:] = [*self.errors[-19:], traceback.format_exc()]
            print(self.errors[-1], file=sys.stderr, flush=True)
            if not started:
                await _answer(send_guarded, path, 500, "the director hit an unexpected error")

    def _back(self, scope: Scope) -> str:
        """Where a refused page's "Go back" leads: the page the form was on, if it is one
        of this server's (the Referer), else the front door."""
        referer = next((v for k, v in scope.get("headers", []) if k == b"referer"), b"")
        parts = urllib.parse.urlsplit(referer.decode("latin-1"))
        if parts.path.startswith("/") and host_name(parts.netloc) in {
            h.lower() for h in self.hosts()
        }:
            return parts.path
        return "/"

    def _check_head(self, scope: Scope) -> None:
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        if len(headers) > MAX_HEADERS:
            raise TurnedAway(431, f"too many headers (at most {MAX_HEADERS})")
        for _name, value in headers:
            if len(value) > MAX_HEADER_VALUE:
                raise TurnedAway(431, f"a header is too long (at most {MAX_HEADER_VALUE} bytes)")
        host = next((v for k, v in headers if k == b"host"), b"").decode("latin-1")
        if host_name(host) not in {h.lower() for h in self.hosts()}:
            raise TurnedAway(400, "this director does not answer to that host name")

    async def _read_body(self, scope: Scope, receive: Receive, path: str) -> Receive:
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return receive  # no body expected; /events uses receive to see a disconnect
        limit = body_limit(path)
        declared = next((v for k, v in scope.get("headers", []) if k == b"content-length"), None)
        too_large = TurnedAway(413, f"the request body is too large (at most {_size(limit)})")
        if declared is not None and int(declared) > limit:  # (digits: the parser checked)
            raise too_large
        pieces: list[bytes] = []
        size = 0
        while True:
            try:
                async with asyncio.timeout(BODY_PIECE_SECONDS):  # cheaper than anyio's scopes
                    message = await receive()
            except TimeoutError:
                raise TurnedAway(408, "the request body stopped arriving; send it again") from None
            if message["type"] == "http.disconnect":
                raise TurnedAway(400, "the client went away mid-request")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_large
            pieces.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(pieces)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay


def _size(limit: int) -> str:
    """
    >>> _size(4 * 1024 * 1024), _size(512 * 1024)
    ('4 MB', '512 KB')
    """
    return f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1024} KB"


PAGE = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    '<title>{title}</title><link rel="stylesheet" href="/static/director.css"></head>\n'
    '<body><main><h1>{title}</h1><div class="notice bad" role="alert">{said}</div>\n'
    '<p><a href="{back}">Go back</a> and try again.</p></main></body></html>\n'
)


async def _answer(send: Send, path: str, status: int, message: str, back: str = "/") -> None:
    """One plain sentence: JSON on the API, a small page with a way back for a browser."""
    if wants_json(path):
        body = json.dumps({"error": message, "status": status}).encode()
        kind = b"application/json"
    else:
        said = message[:1].upper() + message[1:] + "."
        if status == 413:  # (a volunteer's words: a "request body" is what they sent)
            said = said.replace("The request body is", "What you sent is")
            said += " Choose a smaller file, or send less at once."
        title = "Too large" if status == 413 else "That did not go through"
        body = PAGE.format(title=title, said=html.escape(said),
                           back=html.escape(back)).encode()
        kind = b"text/html; charset=utf-8"
    headers: list[Any] = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    if status in (408, 413):
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
