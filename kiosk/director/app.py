"""The director's web app: who may call what, and the route table in one place.

`App` holds what every view needs (the tournament, the sessions, the live
updates, the addresses served) and decides who is asking:

- `DIRECTOR`: the director only: this computer (loopback), or a device
  signed in with the PIN (its own session, see `sessions`). POST forms must
  also carry that session's CSRF token.
- `KIOSK`: a paired kiosk's bearer token; the view gets its table number.

Pages that only show the sheet are open to anyone on the network, so players
can follow the standings on their phones. Where the director also listens
over TLS (`secure_url`, kiosk/director/tls.py), plain HTTP from another
device serves only those read-only pages: a kiosk's token, the PIN and a
director's cookie travel only encrypted; the laptop itself (loopback) needs
no TLS and so never sees a certificate warning. `/x.json` serves the page `/x` as
JSON. `asgi()` builds the Starlette application (`routes.py` lists the
routes) behind `guard.Guard`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from kiosk.director import auth
from kiosk.director.deck_learning import DeckLearning
from kiosk.director.decks import Decks
from kiosk.director.limits import ClientConnections
from kiosk.director.live import Changes, StreamSlots
from kiosk.director.sessions import Session, Sessions
from kiosk.director.text import clean
from kiosk.director.timing import Timings
from kiosk.director.tournament import Director
from kiosk.director.web import Request, Response, error_json, html_response, lan_address, redirect

DIRECTOR = 1
KIOSK = 2
SESSION_COOKIE = "director_session"
DEVICE_COOKIE = "director_device"


@dataclass
class App:
    """What the views share: the tournament, sessions, live updates, the names served."""

    director: Director
    #: how kiosks reach this server, e.g. http://192.168.1.5:8555 (goes into the QR codes)
    public_url: str = "http://127.0.0.1:8555"
    #: the TLS listener kiosks and signed-in devices use, e.g. https://192.168.1.5:8556 ('' = none)
    secure_url: str = ""
    #: the SHA-256 fingerprint of its certificate, carried in the pairing QR codes
    fingerprint: str = ""
    #: how often a page polls where the browser has no EventSource
    poll_seconds: float = 3.0
    #: more host names this server answers to (the --host address, say)
    extra_hosts: set[str] = field(default_factory=set)
    #: tests only: a loopback client may say, in X-Forwarded-For, which device it plays
    trust_forwarded: bool = False
    #: the last unexpected errors (at most 20), also printed to stderr; tests look at it
    last_error: list[str] = field(default_factory=list)
    changes: Changes = field(default_factory=Changes)
    streams: StreamSlots = field(default_factory=StreamSlots)
    connections: ClientConnections = field(default_factory=ClientConnections)
    #: how long the server took to answer, by kind of request (GET /timings.json)
    timings: Timings = field(default_factory=Timings)
    sessions: Sessions = field(init=False)
    decks: Decks = field(init=False)
    #: the director's laptop learning a deck from a layout photo, one at a time
    deck_learning: DeckLearning = field(init=False)

    def __post_init__(self) -> None:
        self.sessions = Sessions(self.director.db, self.director.secret)
        self.decks = Decks(self.director.db)
        self.deck_learning = DeckLearning(self.decks)
        self.director.db.listeners.append(self.changes.notify)
        self._names = _own_names()

    # -- where we are --------------------------------------------------------

    def hosts(self) -> set[str]:
        """Every name a browser or kiosk may use for this server (the Host check)."""
        public = urllib.parse.urlsplit(self.public_url).hostname or ""
        return self._names | {public.lower()} | {h.lower() for h in self.extra_hosts}

    # -- who is asking -------------------------------------------------------

    def session(self, request: Request) -> Session | None:
        """This device's director session, if it signed in and it has not ended."""
        token = request.cookies().get(SESSION_COOKIE, "")
        return self.sessions.check(token) if token else None

    def is_director(self, request: Request) -> bool:
        """This computer, or a device signed in with the PIN."""
        if auth.is_loopback(request.remote):
            return True
        if self.session(request) is None:
            return False
        self.connections.known(request.peer)
        return True

    def csrf(self, request: Request) -> str:
        """The hidden form field, bound to this device's session (or to this computer)."""
        token = request.cookies().get(SESSION_COOKIE, "") or "local"
        message = b"csrf:" + hashlib.sha256(token.encode()).hexdigest().encode()
        return hmac.new(self.director.secret.encode(), message, "sha256").hexdigest()[:32]

    def who(self, request: Request) -> str:
        """The name the director last signed a correction with, for the audit trail."""
        name = urllib.parse.unquote(request.cookies().get("director_name", ""))
        return clean(name, 80) or "Director"

    def kiosk_url(self) -> str:
        """Where kiosks post: the TLS listener when there is one."""
        return self.secure_url or self.public_url

    def check(self, request: Request, needs: int, params: dict[str, Any]) -> Response | None:
        """None when the caller may go on; otherwise the refusal to send."""
        plain = self.secure_url and request.scheme != "https" and not auth.is_loopback(
            request.remote)
        if plain and (needs or request.method != "GET" or request.path == "/login"
                      or (request.path.startswith("/api/") and request.path != "/api/v1/health")):
            if request.method == "GET" and not request.path.startswith("/api/"):
                query = urllib.parse.urlencode(request.query)
                return redirect(self.secure_url + request.path + ("?" + query if query else ""),
                                307)
            return error_json(403, "this director takes kiosks and sign-ins over TLS only: "
                                   f"pair again with the table's QR code ({self.secure_url})")
        if needs == KIOSK:
            token = request.bearer()
            table = self.director.authenticate(token) if token else None
            if table is None:
                return error_json(401, "this kiosk is not paired, or its pairing was revoked")
            params["kiosk_table"] = table
            self.connections.known(request.peer)
        if needs == DIRECTOR:
            if not self.is_director(request):
                if request.method == "GET" and not request.path.endswith(".json"):
                    return redirect("/login?" + urllib.parse.urlencode({"next": request.path}))
                return error_json(401, "sign in as the director first")
            if request.method == "POST" and not hmac.compare_digest(
                request.form().get("csrf", ""), self.csrf(request)
            ):
                return html_response(
                    "<!doctype html><title>Please try again</title><h1>Please try again</h1>"
                    '<p>This form is out of date. <a href="/">Go back</a> and send it again.</p>',
                    403,
                )
        return None


def _own_names() -> set[str]:
    """Loopback names, this computer's name and its LAN address."""
    names = {"127.0.0.1", "localhost", "::1", lan_address()}
    try:
        host = socket.gethostname().lower()
        names |= {host, host + ".local", host.split(".")[0]}
    except OSError:
        pass
    return {n for n in names if n}


def remote_address(app: App, peer: str, headers: dict[str, str]) -> str:
    """The caller's address; in tests a loopback caller may stand in for another device."""
    forwarded = headers.get("x-forwarded-for", "")
    if app.trust_forwarded and forwarded and auth.is_loopback(peer):
        candidate = forwarded.split(",")[0].strip()
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            return peer
    return peer
