"""How much of the server one client may hold: connections and live streams per address.

Why: uvicorn's own cap (`limit_concurrency`) counts every open connection of
every client together, so one device on the hall's Wi-Fi holding a thousand
half-sent requests or idle streams made the server answer 503 to every kiosk
and phone. Counting per address instead lets one device use its share and
no more; the kiosks (one address each) and the director's pages keep
getting through. The director's own laptop (the loopback addresses below)
is never limited: it is the director, and the load test speaks from it.

All clients together may hold `MAX_CONNECTIONS`; past that a new connection
is answered 503 and closed, except from an address the director knows (a
paired kiosk that has posted or asked with its token, a device signed in
with the PIN): those have `RESERVE` more, so many devices flooding together
still leave room for the kiosks' posts and the director's own pages.
"""

from __future__ import annotations

import threading

#: the director's own computer: never limited
UNLIMITED = frozenset({"127.0.0.1", "::1"})
#: open connections per client address: a browser opens at most 6 to one server, a kiosk 1 or 2
CONNECTIONS_PER_CLIENT = 32
#: open connections of all clients together (each is a file: see server.raise_file_limit)
MAX_CONNECTIONS = 4000
#: more connections, past MAX_CONNECTIONS, for known kiosks and signed-in devices only
RESERVE = 1000
#: what a client over its share is told, before its connection is closed
_SAID = (b'{"error": "this device has too many connections open to the director;'
         b' close some", "status": 429}')
TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_SAID)).encode() + b"\r\n\r\n" + _SAID
)
_BUSY = b'{"error": "the director is busy; try again in a moment", "status": 503}'
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 2\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_BUSY)).encode() + b"\r\n\r\n" + _BUSY
)


class ClientConnections:
    """Open connections by client address, shared by every listener of one director."""

    def __init__(self, per_client: int = CONNECTIONS_PER_CLIENT,
                 total: int = MAX_CONNECTIONS, reserve: int = RESERVE) -> None:
        self.per_client = per_client
        self.total = total
        self.reserve = reserve
        self._open: dict[str, int] = {}
        self._count = 0
        #: addresses of paired kiosks and signed-in devices (see `known`)
        self._known: set[str] = set()
        self._lock = threading.Lock()

    def open(self, client: str) -> bytes:
        """Count a new connection from `client`: b"" when it may stay, else the answer
        to send before closing it (429: over its own share; 503: the server is full)."""
        with self._lock:
            held = self._open.get(client, 0)
            if client not in UNLIMITED:
                if held >= self.per_client:
                    return TOO_MANY
                room = self.total + (self.reserve if client in self._known else 0)
                if self._count >= room:
                    return BUSY
            self._open[client] = held + 1
            self._count += 1
            return b""

    def close(self, client: str) -> None:
        with self._lock:
            held = self._open.get(client, 0) - 1
            self._count -= 1
            if held > 0:
                self._open[client] = held
            else:
                self._open.pop(client, None)

    def known(self, client: str) -> None:
        """`client` proved itself (a kiosk's token, a director's session): it keeps room
        when the server is full. At most one entry per kiosk or device, never a guess."""
        with self._lock:
            if client not in self._known and len(self._known) < 20_000:
                self._known.add(client)

    def held(self, client: str) -> int:
        with self._lock:
            return self._open.get(client, 0)
