"""Changes: the audit trail, newest first (who, when, what, why)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.director.views.layout import e, page, when
from kiosk.director.web import Request, Response, html_response, json_response

if TYPE_CHECKING:
    from kiosk.director.app import App


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    rows = app.director.audit()
    if fmt:
        return json_response({"audit": rows})
    settings = app.director.settings()
    body = "".join(
        f"<tr><td>{when(r['at'])}</td><td>{e(r['who'])}</td><td>{e(r['what'])}</td>"
        f"<td>{e(r['why'])}</td></tr>"
        for r in rows
    )
    html = (
        "<h1>Changes</h1><p class=lead>Everything that happened, newest first. "
        "Nothing here can be changed or deleted.</p>"
        "<table id=audit><thead><tr><th>When</th><th>Who</th><th>What</th><th>Why</th>"
        f"</tr></thead><tbody>{body}</tbody></table>"
    )
    return html_response(page("Changes", html, "audit", settings.name if settings else ""))
