"""The front door (`/`) and the page for an address that does not exist."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.director.views.layout import PLAYER_NAV, fragment
from kiosk.director.web import Request, Response, html_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def home(app: App, request: Request) -> Response:
    """The set-up form the first time; then the sheet for the director, standings for players."""
    if not app.director.settings():
        return redirect("/setup")
    return redirect("/sheet" if app.is_director(request) else "/standings")


def not_found() -> Response:
    """A plain page with a way back (Starlette's own 404 is a bare line of text)."""
    text = fragment(
        "message.html",
        title="Not found",
        nav=PLAYER_NAV,
        heading="Not found",
        text="There is no page at this address.",
    )
    return html_response(text, 404)
