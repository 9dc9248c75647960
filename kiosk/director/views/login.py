"""Signing in from another device with the PIN, and signing out.

On the director's own computer nobody signs in: loopback is trusted. Another
device that gives the PIN gets its own session (see `sessions`); a device
that keeps guessing waits, without locking anyone else out.
"""

from __future__ import annotations

import hmac
import re
import urllib.parse
from typing import TYPE_CHECKING

from kiosk.director.sessions import DEVICE_COOKIE_DAYS, SESSION_SECONDS
from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

#: the pages a sign-in may lead back to: this server's own, nothing else
PAGES = re.compile(
    r"/(?:|setup|tables|seating|sheet|standings|print|audit|devices|game/\d{1,4}/\d{1,4})\Z"
)


def safe_next(target: str) -> str:
    """Where to go after signing in: one of this server's pages, else the sheet.

    >>> safe_next("/tables"), safe_next("/game/2/3")
    ('/tables', '/game/2/3')
    >>> safe_next("/\\\\evil.example/phish"), safe_next("//evil.example"), safe_next("https://x")
    ('/sheet', '/sheet', '/sheet')
    """
    parts = urllib.parse.urlsplit(target)
    if parts.scheme or parts.netloc or not PAGES.match(target):
        return "/sheet"
    return target


def _page(app: App, request: Request, target: str, problem: str = "", status: int = 200
          ) -> Response:
    return render(app, request, "login.html", "Sign in", status=status, target=target,
                  problem=problem, hours=SESSION_SECONDS // 3600)


def show(app: App, request: Request) -> Response:
    return _page(app, request, safe_next(request.query.get("next", "/sheet")))


def submit(app: App, request: Request) -> Response:
    form = request.form()
    target = safe_next(form.get("next", "/sheet"))
    sessions = app.sessions
    device = request.cookies().get("director_device", "")
    key = sessions.device_key(device, request.remote)
    right = hmac.compare_digest(form.get("pin", "").strip().encode(),
                                app.director.pin.encode())
    wait = sessions.try_pin(key, right)
    if wait > 0:
        return _page(app, request, target,
                     f"Too many wrong PINs from this device. Try again in {int(wait) + 1} "
                     "seconds, or sign in on the director's laptop.", 429)
    if not right:
        return _page(app, request, target, "That PIN is not right.", 403)
    token, _session = sessions.start(request.headers.get("user-agent", ""), request.remote)
    response = redirect(target)
    secure = request.scheme == "https"  # then never sent over the hall's plain HTTP
    response.set_cookie("director_session", token, max_age=SESSION_SECONDS, httponly=True,
                        samesite="strict", secure=secure)
    if key.startswith("address:"):
        response.set_cookie("director_device", sessions.device_cookie(),
                            max_age=DEVICE_COOKIE_DAYS * 86400, httponly=True, samesite="strict",
                            secure=secure)
    return response


def sign_out(app: App, request: Request) -> Response:
    """This device stops being the director (the laptop can also do it from Devices)."""
    session = app.session(request)
    if session is not None:
        app.sessions.end(session.id, "signed out")
    response = redirect("/standings")
    response.delete_cookie("director_session", httponly=True, samesite="strict")
    return response
