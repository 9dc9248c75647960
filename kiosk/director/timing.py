"""How long the director takes to answer, as the director itself measures it.

Why: a load test run from the same laptop times the client as much as the
server (issue 59: the 500 simulated kiosks cost more than the director). So
the director keeps its own clock: from the moment a request reaches the app
(its head parsed) to the moment the last byte of the answer is handed to the
socket, per kind of request, over the last `KEPT` requests of each kind.
`GET /timings.json` (the director only) gives the percentiles; the load
scripts print them beside what the clients saw.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: requests kept per kind (a ring: the newest win)
KEPT = 20_000


def percentile(values: list[float], q: float) -> float:
    """The `q` quantile of `values` by the nearest rank (0.0 for none).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0], 0.99), percentile([], 0.5)
    (3.0, 5.0, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def kind(method: str, path: str) -> str:
    """The kind a request is timed under: the API by path, pages by their first part.

    >>> kind("POST", "/api/v1/results"), kind("GET", "/game/2/3"), kind("GET", "/sheet.json")
    ('POST /api/v1/results', 'GET /game', 'GET /sheet')
    """
    if path.startswith("/api/"):
        return f"{method} {path}"
    first = path.split("/")[1] if path.count("/") else ""
    return f"{method} /{first.removesuffix('.json')}"


class Timings:
    """Seconds per kind of request, newest `KEPT` of each; safe from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds: dict[str, deque[tuple[float, float]]] = {}

    def add(self, what: str, seconds: float) -> None:
        with self._lock:
            self._seconds.setdefault(what, deque(maxlen=KEPT)).append((time.time(), seconds))

    def report(self, since: float = 0.0) -> dict[str, dict[str, Any]]:
        """Per kind: count, p50, p90, p99 and max in milliseconds, of the requests that
        ended after `since` (a Unix time)."""
        with self._lock:
            kept = {k: [s for at, s in v if at >= since] for k, v in self._seconds.items()}
        kept = {k: v for k, v in kept.items() if v}
        return {
            k: {"count": len(v)}
            | {name: round(percentile(v, q) * 1000, 1)
               for name, q in (("p50_ms", 0.5), ("p90_ms", 0.9), ("p99_ms", 0.99))}
            | {"max_ms": round(max(v) * 1000, 1)}
            for k, v in sorted(kept.items())
        }


class Timed:
    """ASGI middleware: times each request into `timings` (live streams are not timed:
    they last minutes by design)."""

    def __init__(self, app: ASGIApp, timings: Timings) -> None:
        self.app = app
        self.timings = timings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or path == "/events":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def timed_send(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.timings.add(kind(str(scope.get("method", "")), path),
                                 time.perf_counter() - began)

        await self.app(scope, receive, timed_send)
