"""Devices: who is signed in as the director, and who has been typing wrong PINs.

The laptop (or a signed-in director) can sign any device out, all of them at
once (a lost phone, a PIN seen over a shoulder), and forgive wrong PINs.
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING

from kiosk.director.sessions import SESSION_SECONDS
from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    sessions = app.sessions.active()
    lockouts = app.sessions.lockouts()
    if fmt:
        return json_response({"sessions": sessions, "lockouts": lockouts})
    own = app.session(request)
    return render(
        app, request, "devices.html", "Devices", "devices",
        sessions=sessions, lockouts=lockouts, own_session=own.id if own else None,
        hours=SESSION_SECONDS // 3600, done=request.query.get("done", "")[:200],
    )


def _back(done: str) -> Response:
    return redirect("/devices?" + urllib.parse.urlencode({"done": done}))


def revoke(app: App, request: Request, session: int) -> Response:
    ended = app.sessions.end(int(session), f"signed out by {app.who(request)}")
    return _back("That device is signed out." if ended else "That device was already signed out.")


def revoke_all(app: App, request: Request) -> Response:
    count = app.sessions.end_all(f"signed out by {app.who(request)}")
    return _back(f"{count} device{'s' if count != 1 else ''} signed out.")


def forgive(app: App, request: Request) -> Response:
    app.sessions.forgive()
    return _back("Every wrong PIN is forgiven.")
