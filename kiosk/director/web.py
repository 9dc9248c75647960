"""The request as the views see it, bounded parsing of what it carries, and response helpers.

Starlette reads the socket (through `guard`, which has already bounded the
body); the views get a small `Request` value instead of Starlette's, so a
view is a plain function that runs on a worker thread and talks to SQLite
without knowing about the event loop.
"""

from __future__ import annotations

import json
import socket
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

from starlette.responses import JSONResponse, RedirectResponse, Response

from kiosk.director import multipart

__all__ = [
    "BadRequest",
    "Request",
    "Response",
    "error_json",
    "html_response",
    "json_response",
    "lan_address",
    "parse_json",
    "redirect",
    "wants_json",
]

#: JSON nested deeper than this is not a game result; Python's parser would
#: hit its recursion limit on a hostile body long before the size limit.
MAX_DEPTH = 32
#: a form field longer than this is not something the director typed
MAX_FIELD = 200_000


class BadRequest(ValueError):
    """A body that cannot be read as asked (HTTP 400); the message is one sentence."""


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply `value` nests (a scalar is 0), counting no further than `limit` + 1.

    >>> depth(1), depth([1, {"a": [2]}]), depth([[[[]]]], limit=2)
    (0, 3, 3)
    """
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if level > limit:
                return deepest
            stack.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(body: bytes) -> Any:
    """The body as JSON, or BadRequest with one plain sentence.

    >>> parse_json(b'{"a": [1]}')
    {'a': [1]}
    >>> parse_json(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    kiosk.director.web.BadRequest: the JSON is nested too deeply (at most 32 levels)
    """
    try:
        value = json.loads(body.decode("utf-8"))
    except RecursionError:
        raise BadRequest(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except UnicodeDecodeError:
        raise BadRequest("the body must be UTF-8 JSON") from None
    except ValueError:
        raise BadRequest("the body must be JSON") from None
    if depth(value) > MAX_DEPTH:
        raise BadRequest(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
    return value


@dataclass
class Request:
    """One HTTP request, its body already read (and bounded) by the guard."""

    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names
    body: bytes = b""
    remote: str = "127.0.0.1"
    #: "https" on the director's TLS listener, "http" on the plain one
    scheme: str = "http"
    #: the address the connection came from (`remote` unless a test names another device)
    peer: str = "127.0.0.1"

    def form(self) -> dict[str, str]:
        """The fields of a urlencoded form (the last value of a repeated name), or the
        text fields of a file upload."""
        content_type = self.headers.get("content-type", "")
        if multipart.is_multipart(content_type):
            upload = multipart.parse(self.body, content_type).fields
            return {k: v[:MAX_FIELD] for k, v in upload.items()}
        text = self.body.decode("utf-8", errors="replace")
        fields = urllib.parse.parse_qsl(text, keep_blank_values=True, max_num_fields=2000)
        return {k: v[:MAX_FIELD] for k, v in fields}

    def files(self) -> dict[str, multipart.Upload]:
        """The files of a file upload (``multipart/form-data``), by field name."""
        content_type = self.headers.get("content-type", "")
        if not multipart.is_multipart(content_type):
            return {}
        return multipart.parse(self.body, content_type).files

    def json(self) -> Any:
        """The body as JSON (raises BadRequest when it is not, or nests too deep)."""
        return parse_json(self.body)

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


def html_response(text: str, status: int = 200) -> Response:
    return Response(text, status, media_type="text/html; charset=utf-8")


def json_response(value: Any, status: int = 200) -> Response:
    return JSONResponse(value, status)


def redirect(location: str, status: int = 303) -> Response:
    return RedirectResponse(location, status)


def error_json(status: int, message: str) -> Response:
    return json_response({"error": message, "status": status}, status)


def wants_json(path: str) -> bool:
    """API paths and `/x.json` pages answer errors in JSON; pages answer in HTML."""
    return path.startswith("/api/") or path.endswith(".json") or path == "/events"


def lan_address() -> str:
    """This computer's address on the local network, for the kiosks (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
