"""Signing in from another device with the PIN printed when the director started.

On the director's own computer nobody signs in: loopback is trusted.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from kiosk.director import auth
from kiosk.director.views.layout import e, hidden, notice, page
from kiosk.director.web import Request, Response, html_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def _safe_next(target: str) -> str:
    """Only a path on this server (no open redirect)."""
    return target if target.startswith("/") and not target.startswith("//") else "/"


def render(target: str, problem: str = "") -> str:
    body = f"""<h1>Director sign-in</h1>
<p class="lead">Type the PIN shown in the window where the director server was started.</p>
{notice(e(problem), "bad") if problem else ""}
<form class="stack" method="post" action="/login">{hidden("next", target)}
<label for="pin">PIN</label>
<input type="password" id="pin" name="pin" inputmode="numeric" autocomplete="off" required>
<p><button type="submit">Sign in</button></p></form>"""
    return page("Sign in", body)


def show(app: App, request: Request) -> Response:
    return html_response(render(_safe_next(request.query.get("next", "/"))))


def submit(app: App, request: Request) -> Response:
    form = request.form()
    target = _safe_next(form.get("next", "/"))
    if app.director.throttle.blocked(request.remote):
        return html_response(render(target, "Too many tries. Wait a minute."), 429)
    if not hmac.compare_digest(form.get("pin", "").strip(), app.director.pin):
        app.director.throttle.failed(request.remote)
        return html_response(render(target, "That PIN is not right."), 403)
    response = redirect(target)
    cookie = auth.session_value(app.director.secret)
    response.headers.append(
        ("Set-Cookie", f"director_session={cookie}; Path=/; HttpOnly; SameSite=Strict")
    )
    return response
