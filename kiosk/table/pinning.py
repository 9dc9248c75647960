"""The kiosk talks to its director over TLS, to the one certificate the pairing QR code named.

Why: the director makes its own certificate (no certificate authority knows a
laptop on a hall's Wi-Fi), so the usual check of a certificate by its name
cannot work. Instead the QR code on the director's Tables page carries the
SHA-256 fingerprint of that certificate, and the kiosk sends its token only
to a server whose certificate has that fingerprint: someone else on the
Wi-Fi can neither read the token nor pose as the director.

The pins are kept in a small registry by server address (`pin`), filled at
pairing and from the outbox's stored settings at start-up, so every request
the kiosk makes to an ``https://`` director (results, seating, deck files)
goes through `request` without each caller carrying the fingerprint. A
director on plain ``http://`` (a trusted network, ``--no-tls``) is reached
as before.
"""

from __future__ import annotations

import hashlib
import http.client
import ssl
import threading
import urllib.parse

_PINS: dict[str, str] = {}
_LOCK = threading.Lock()


class PinError(ConnectionError):
    """The server is not the director this kiosk paired with (or has no pin): not sent."""


def origin(url: str) -> str:
    """The part of a URL a pin belongs to.

    >>> origin("https://10.0.0.5:8556/api/v1/results")
    'https://10.0.0.5:8556'
    """
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def normalize(fingerprint: str) -> str:
    """A fingerprint as 64 lower-case hex digits, however it was written (colons, case).

    >>> normalize("AB:cd:" + "0" * 60)
    'abcd000000000000000000000000000000000000000000000000000000000000'
    """
    return "".join(ch for ch in fingerprint.lower() if ch in "0123456789abcdef")


def pin(server: str, fingerprint: str) -> None:
    """Trust, for `server`, only the certificate with this SHA-256 fingerprint."""
    value = normalize(fingerprint)
    if len(value) != 64:
        raise ValueError("a certificate fingerprint is 64 hex digits")
    with _LOCK:
        _PINS[origin(server)] = value


def pinned(server: str) -> str:
    """The fingerprint pinned for `server` ('' if none)."""
    with _LOCK:
        return _PINS.get(origin(server), "")


def request(method: str, url: str, body: bytes | None, headers: dict[str, str],
            timeout: float) -> tuple[int, bytes]:
    """One HTTPS request to a pinned director: (status, body). Raises PinError when the
    certificate is not the pinned one (before anything is sent), OSError when the
    director cannot be reached."""
    expected = pinned(url)
    if not expected:
        raise PinError("this kiosk has no fingerprint for the director at "
                       f"{origin(url)}: pair again with the table's QR code")
    parts = urllib.parse.urlsplit(url)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False  # the fingerprint below is the check
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection(parts.hostname or "", parts.port or 443,
                                             timeout=timeout, context=context)
    try:
        connection.connect()
        sock = connection.sock
        der = sock.getpeercert(binary_form=True) if isinstance(sock, ssl.SSLSocket) else None
        if der is None or hashlib.sha256(der).hexdigest() != expected:
            raise PinError(f"the server at {origin(url)} is not the director this kiosk "
                           "paired with (its certificate differs): nothing was sent")
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method, target or "/", body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    except http.client.HTTPException as broken:
        raise ConnectionError(f"the answer was cut off: {broken!r}") from broken
    finally:
        connection.close()
