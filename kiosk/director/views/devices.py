"""Devices: who is signed in as the director, and who has been typing wrong PINs.

The laptop (or a signed-in director) can sign any device out, all of them at
once (a lost phone, a PIN seen over a shoulder), and forgive wrong PINs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.director import notices
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
        hours=SESSION_SECONDS // 3600,
        done=notices.said(app.director.secret, request.query, "done"),
    )


def _back(app: App, done: str) -> Response:
    return redirect("/devices?" + notices.query(app.director.secret, "done", done))


def revoke(app: App, request: Request, session: int) -> Response:
    ended = app.sessions.end(int(session), f"signed out by {app.who(request)}")
    return _back(app, "That device is signed out." if ended
                 else "That device was already signed out.")


def revoke_all(app: App, request: Request) -> Response:
    count = app.sessions.end_all(f"signed out by {app.who(request)}")
    return _back(app, f"{count} device{'s' if count != 1 else ''} signed out.")


def forgive(app: App, request: Request) -> Response:
    app.sessions.forgive()
    return _back(app, "Every wrong PIN is forgiven.")
