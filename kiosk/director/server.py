"""uvicorn, set up for a hall of kiosks: connection caps, timeouts, bounded heads.

- `limits.CONNECTIONS_PER_CLIENT` open connections per client address (the
  laptop itself is not limited): one more is answered 429 and closed, so one
  device cannot take the connections everyone else needs.
- `MAX_CONNECTIONS` open connections and tasks at most, all clients together;
  beyond that uvicorn answers 503 at once, which the kiosk's outbox retries
  after a pause. The file-descriptor limit is raised to fit (`raise_file_limit`).
- A connection must finish sending its request head within `HEAD_SECONDS`
  (uvicorn alone would wait for ever for a half-sent head); an idle
  keep-alive connection is closed after `KEEP_ALIVE_SECONDS`. Bodies have
  their own per-piece timeout in `guard`.
- The head (request line and headers together) is at most `MAX_HEAD` bytes.
- HTTP/1.1 with keep-alive and chunked bodies, from h11.
- With a certificate (kiosk/director/tls.py), a second listener serves the same
  app over TLS in the same event loop: kiosks and signed-in devices use it,
  the laptop and the players' read-only pages may stay on plain HTTP.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from kiosk.director.app import App
from kiosk.director.limits import MAX_CONNECTIONS, RESERVE, ClientConnections
from kiosk.director.routes import asgi
from kiosk.director.tls import Certificate

HEAD_SECONDS = 10.0
KEEP_ALIVE_SECONDS = 5
MAX_HEAD = 32 * 1024


HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n"
                  b"connection: close\r\n\r\n")


class Guarded:
    """What the director adds to uvicorn's HTTP protocols: a deadline for the request
    head (a half-sent head is closed, not kept), a bound on its size, and a share of
    connections per client address (`clients`, one per director)."""

    clients: ClientConnections = ClientConnections()
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _counted: str | None = None
    # (uvicorn's protocols have these)
    cycle: Any
    client: tuple[str, int] | None
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        peer = self.client[0] if self.client else ""
        refusal = self.clients.open(peer)
        if refusal:
            transport.write(refusal)
            transport.close()
            return
        self._counted = peer
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._counted is None:  # refused: closing
            return
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting:
            self._arm()
        before = self.cycle
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not before:  # a whole head arrived: its request is under way
            self._disarm()
            self._head_bytes = 0
        elif waiting:  # still no whole head: it may not grow past MAX_HEAD
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD and not self.transport.is_closing():
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted is not None:
            self.clients.close(self._counted)
            self._counted = None
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if (self.cycle is None or self.cycle.response_complete) and not (
            self.transport.is_closing()
        ):
            self.transport.close()


class GuardedH11Protocol(Guarded, H11Protocol):  # type: ignore[misc]
    """h11 (pure Python): the parser used where httptools is not installed."""


@functools.cache
def protocol_class() -> type[Guarded]:
    """httptools (llhttp, in C) where it is installed, else h11 (pure Python): the profile
    of 2,000 kiosks posting at once put h11's parsing among the event loop's largest
    costs (docs/director-stack.md)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return GuardedH11Protocol

    class GuardedHttpToolsProtocol(Guarded, HttpToolsProtocol):  # type: ignore[misc]
        """httptools with the director's guards."""

    return GuardedHttpToolsProtocol


def config(app: App, verbose: bool = False,
           certificate: Certificate | None = None) -> uvicorn.Config:
    """uvicorn's settings for the director (the socket is bound by the caller); with a
    `certificate`, for its TLS listener."""
    protocol = type("DirectorProtocol", (protocol_class(),), {"clients": app.connections})
    return uvicorn.Config(
        asgi(app),
        http=protocol,
        lifespan="off",
        log_level="info" if verbose else "warning",
        access_log=verbose,
        # (the director counts connections itself: limits.ClientConnections; uvicorn's own
        # cap, over every client alike, stays far above it, for tasks)
        limit_concurrency=MAX_CONNECTIONS + RESERVE + 2000,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=3,
        h11_max_incomplete_event_size=MAX_HEAD,
        server_header=False,
        date_header=True,
        proxy_headers=False,
        ssl_certfile=str(certificate.certfile) if certificate else None,
        ssl_keyfile=str(certificate.keyfile) if certificate else None,
    )


def raise_file_limit(wanted: int = MAX_CONNECTIONS + RESERVE + 256) -> int:
    """Raise this process's open-file limit towards `wanted` (each connection is a file;
    many laptops start at 1024); returns the limit now in force."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: any free port); OSError when the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class Server(uvicorn.Server):
    """uvicorn's server that ends the live streams first when asked to stop, and runs the
    TLS listener beside it (`certificate`, on `secure_sockets`) when there is one."""

    def __init__(self, app: App, verbose: bool = False, certificate: Certificate | None = None,
                 secure_sockets: list[socket.socket] | None = None) -> None:
        super().__init__(config(app, verbose))
        self.app = app
        self.secure = (uvicorn.Server(config(app, verbose, certificate))
                       if certificate is not None and secure_sockets else None)
        self.secure_sockets = secure_sockets

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.app.changes.close()
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if self.secure is not None:
            self.secure.should_exit = True

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        if self.secure is None:
            await super().serve(sockets)
            return
        # The TLS listener shares this loop and this server's signals (uvicorn's
        # _serve is serve without taking the signal handlers).
        secure = asyncio.create_task(self.secure._serve(self.secure_sockets))
        try:
            await super().serve(sockets)
        finally:
            self.secure.should_exit = True
            await secure

    @property
    def all_started(self) -> bool:
        return self.started and (self.secure is None or self.secure.started)


@contextmanager
def serve_in_thread(app: App, host: str = "127.0.0.1",
                    certificate: Certificate | None = None) -> Iterator[str]:
    """The app on a real uvicorn server on `host` (any free port), for tests and tools;
    with a `certificate`, its TLS listener too (on another free port: `app.secure_url`)."""
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    app.public_url = f"http://{host}:{port}"
    secure = [bind(host, 0)] if certificate is not None else None
    if certificate is not None and secure:
        app.secure_url = f"https://{host}:{secure[0].getsockname()[1]}"
        app.fingerprint = certificate.fingerprint
    server = Server(app, certificate=certificate, secure_sockets=secure)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.all_started and thread.is_alive():
            threading.Event().wait(0.01)
        yield app.public_url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        for extra in secure or []:
            extra.close()

