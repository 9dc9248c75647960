"""Changes: the audit trail, newest first (who, when, what, why)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, json_response

if TYPE_CHECKING:
    from kiosk.director.app import App


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    rows = app.director.audit()
    if fmt:
        return json_response({"audit": rows})
    return render(app, request, "audit.html", "Changes", "audit", rows=rows)
