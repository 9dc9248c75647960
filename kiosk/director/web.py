"""Request and response values, and the threading HTTP server that carries them.

The app (`kiosk.director.app.App`) is a plain function from `Request` to
`Response`, so tests call it in process, without a socket; `serve()` puts the
very same app behind the standard library's ThreadingHTTPServer (a thread per
connection is plenty for a room of kiosks and one director).
"""

from __future__ import annotations

import json
import socket
import sys
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY = 16 * 1024 * 1024


@dataclass
class Request:
    """One HTTP request, already read off the socket."""

    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names
    body: bytes = b""
    remote: str = "127.0.0.1"

    @classmethod
    def build(
        cls,
        method: str,
        target: str,
        headers: dict[str, str] | None = None,
        body: bytes = b"",
        remote: str = "127.0.0.1",
    ) -> Request:
        """A request from a method and a target such as `/sheet?part=live`."""
        parts = urllib.parse.urlsplit(target)
        query = {k: v for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)}
        lowered = {k.lower(): v for k, v in (headers or {}).items()}
        return cls(method.upper(), parts.path or "/", query, lowered, body, remote)

    def form(self) -> dict[str, str]:
        """The fields of a urlencoded form (the last value of a repeated name)."""
        text = self.body.decode("utf-8", errors="replace")
        return dict(urllib.parse.parse_qsl(text, keep_blank_values=True))

    def json(self) -> Any:
        """The body as JSON (raises ValueError when it is not)."""
        return json.loads(self.body.decode("utf-8"))

    def cookies(self) -> dict[str, str]:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(self.headers.get("cookie", ""))
        except Exception:  # a mangled cookie is no cookie
            return {}
        return {k: m.value for k, m in jar.items()}

    def bearer(self) -> str:
        """The token of `Authorization: Bearer <token>`, or ''."""
        scheme, _, token = self.headers.get("authorization", "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" else ""


@dataclass
class Response:
    """What the app answers: status, headers, body bytes."""

    status: int = 200
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


def html_response(text: str, status: int = 200) -> Response:
    return Response(status, text.encode(), [("Content-Type", "text/html; charset=utf-8")])


def json_response(value: Any, status: int = 200) -> Response:
    body = json.dumps(value, ensure_ascii=False, indent=1).encode()
    return Response(status, body, [("Content-Type", "application/json; charset=utf-8")])


def redirect(location: str, status: int = 303) -> Response:
    return Response(status, b"", [("Location", location)])


def error_json(status: int, message: str) -> Response:
    return json_response({"error": message, "status": status}, status)


class _Handler(BaseHTTPRequestHandler):
    """Reads a request, hands it to the app, writes the answer. No logic here."""

    server_version = "EuchreDirector/1"
    app: Callable[[Request], Response]
    quiet = True

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._write(error_json(413, "request body too large"))
            return
        body = self.rfile.read(length) if length else b""
        request = Request.build(
            self.command,
            self.path,
            dict(self.headers.items()),
            body,
            self.client_address[0],
        )
        self._write(self.app(request))

    def _write(self, response: Response) -> None:
        self.send_response(response.status, HTTPStatus(response.status).phrase)
        names = {k.lower() for k, _ in response.headers}
        for key, value in response.headers:
            self.send_header(key, value)
        if "cache-control" not in names:
            self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    do_GET = do_POST = do_HEAD = _serve

    def log_message(self, format: str, *args: Any) -> None:  # the stdlib's name
        if not self.quiet:
            super().log_message(format, *args)


class DirectorServer(ThreadingHTTPServer):
    """ThreadingHTTPServer with a deep accept queue: 200 kiosks may knock at once."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A kiosk that hangs up mid-answer (Wi-Fi gone) is normal here, not a traceback."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


def make_server(
    app: Callable[[Request], Response], host: str, port: int, quiet: bool = True
) -> DirectorServer:
    """Bind (port 0: any free port) and return the server; `serve_forever()` runs it."""
    handler = type("Handler", (_Handler,), {"app": staticmethod(app), "quiet": quiet})
    return DirectorServer((host, port), handler)


def lan_address() -> str:
    """This computer's address on the local network, for the kiosks (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
