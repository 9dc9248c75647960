"""How much of the server one client may hold: connections and live streams per address.

Why: uvicorn's own cap (`limit_concurrency`) counts every open connection of
every client together, so one device on the hall's Wi-Fi holding a thousand
half-sent requests or idle streams made the server answer 503 to every kiosk
and phone. Counting per address instead lets one device use its share and
no more; the kiosks (one address each) and the director's pages keep
getting through. The director's own laptop (the loopback addresses below)
is never limited: it is the director, and the load test speaks from it.
"""

from __future__ import annotations

import threading

#: the director's own computer: never limited
UNLIMITED = frozenset({"127.0.0.1", "::1"})
#: open connections per client address: a browser opens at most 6 to one server, a kiosk 1 or 2
CONNECTIONS_PER_CLIENT = 32
#: what a client over its share is told, before its connection is closed
_SAID = (b'{"error": "this device has too many connections open to the director;'
         b' close some", "status": 429}')
TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_SAID)).encode() + b"\r\n\r\n" + _SAID
)


class ClientConnections:
    """Open connections by client address, shared by every listener of one director."""

    def __init__(self, per_client: int = CONNECTIONS_PER_CLIENT) -> None:
        self.per_client = per_client
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def open(self, client: str) -> bool:
        """Count a new connection from `client`; False (not counted) when over its share."""
        with self._lock:
            held = self._open.get(client, 0)
            if held >= self.per_client and client not in UNLIMITED:
                return False
            self._open[client] = held + 1
            return True

    def close(self, client: str) -> None:
        with self._lock:
            held = self._open.get(client, 0) - 1
            if held > 0:
                self._open[client] = held
            else:
                self._open.pop(client, None)

    def held(self, client: str) -> int:
        with self._lock:
            return self._open.get(client, 0)
