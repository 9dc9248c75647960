"""Who may do what: table tokens, one-time pairing codes, the director's PIN.

- A kiosk pairs by exchanging a one-time code (typed, or read from the QR
  code on the director's Tables page) for a bearer token. Only the token's
  hash is stored, and the code is spent once used: a photo of the QR code
  taken after pairing is worth nothing. The director can revoke a table,
  which clears its token and issues a fresh code.
- The director's pages change things only for the director: requests from
  this computer (loopback) are trusted; another device signs in with the PIN
  printed at start-up and gets its own session (`sessions`). Forms carry a
  CSRF token bound to that session (`app.App.csrf`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import threading
import time

#: Short codes avoid letters and digits that look alike (0/O, 1/I/L, 5/S, 2/Z, 8/B).
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 6


def new_code() -> str:
    """A fresh six-character pairing code, easy to read aloud and to type.

    >>> c = new_code(); len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """What the kiosk typed, made comparable: upper case, no spaces or dashes.

    >>> normalize_code(" k7p-2qx ")
    'K7P2QX'
    """
    return "".join(ch for ch in text.upper() if ch.isalnum())


def new_token() -> str:
    """A bearer token for one table's kiosk."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps instead of the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_pin() -> str:
    """The director's PIN for signing in from another device."""
    return f"{secrets.randbelow(10**6):06d}"


def is_loopback(address: str) -> bool:
    """True for a request from this very computer.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("192.168.1.9")
    (True, True, False)
    """
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class Throttle:
    """At most `limit` failed attempts per `window` seconds per address.

    Six-character codes are guessable by brute force if nothing slows the
    guesser down; a kiosk typing its code wrong a few times is not affected.
    """

    def __init__(self, limit: int = 10, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, address: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._failures.get(address, []) if now - t < self.window]
            self._failures[address] = recent
            return len(recent) >= self.limit

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures.setdefault(address, []).append(time.monotonic())
