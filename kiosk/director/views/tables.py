"""Tables & kiosks: a QR code and a short code per table, pairing state, revoke.

The QR code holds a URL, `https://SERVER/pair?table=3&code=K7P2QX&fp=...`:
the kiosk's camera reads it (kiosk/table/pairing.py), takes the server
address and the fingerprint of the director's own certificate from it
(kiosk/director/tls.py), and exchanges the one-time code for its token over
TLS, talking only to the server that shows that certificate. A phone that scans it
by mistake lands on a page that says what it is for.
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING, Any

import segno

from kiosk.director import notices
from kiosk.director.tournament import DirectorError
from kiosk.director.views.layout import fragment, render
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def pairing_url(public_url: str, table: int, code: str, fingerprint: str = "") -> str:
    """What the QR code says.

    >>> pairing_url("http://10.0.0.5:8555", 3, "K7P2QX")
    'http://10.0.0.5:8555/pair?table=3&code=K7P2QX'
    >>> pairing_url("https://10.0.0.5:8556", 3, "K7P2QX", "ab12")
    'https://10.0.0.5:8556/pair?table=3&code=K7P2QX&fp=ab12'
    """
    fields: dict[str, str | int] = {"table": table, "code": code}
    if fingerprint:
        fields["fp"] = fingerprint
    query = urllib.parse.urlencode(fields)
    return f"{public_url.rstrip('/')}/pair?{query}"


def qr_svg(text: str) -> str:
    """An inline SVG QR code, quiet zone included (cameras need the white border)."""
    return str(segno.make(text, error="m").svg_inline(scale=6, border=4, dark="#000", light="#fff"))


def _rows(app: App) -> list[dict[str, Any]]:
    rows = app.director.tables()
    for row in rows:
        if not row["paired"] and row["code"]:
            row["qr"] = qr_svg(pairing_url(app.kiosk_url(), row["table_no"], row["code"],
                                           app.fingerprint))
    return rows


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    version = app.director.version()
    etag = f'"{version}"'
    if request.query.get("part") == "live" and request.headers.get("if-none-match") == etag:
        return Response(b"", 304, headers={"ETag": etag})
    if fmt:
        rows = app.director.tables()
        return json_response(
            {
                "server": app.kiosk_url(),
                "fingerprint": app.fingerprint,
                "tables": [
                    r | {"pairing_url": pairing_url(app.kiosk_url(), r["table_no"], r["code"],
                                                    app.fingerprint)}
                    if r["code"]
                    else r
                    for r in rows
                ],
            }
        )
    if app.director.settings() is None:
        return redirect("/setup")
    rows = _rows(app)
    live: dict[str, Any] = {
        "rows": rows, "paired": sum(1 for r in rows if r["paired"]), "csrf": app.csrf(request)
    }
    if request.query.get("part") == "live":
        response = html_response(fragment("tables_live.html", **live))
        response.headers["ETag"] = etag
        return response
    return render(
        app, request, "tables.html", "Tables", "tables",
        public_url=app.kiosk_url(), fingerprint=app.fingerprint,
        done=notices.said(app.director.secret, request.query, "done"),
        version=version, **live,
    )


def revoke(app: App, request: Request, table: int) -> Response:
    try:
        app.director.revoke(int(table), app.who(request), request.form().get("why", "")[:500])
    except DirectorError as problem:
        done = notices.query(app.director.secret, "done", str(problem))
        return redirect(f"/tables?{done}")
    done = notices.query(app.director.secret, "done", f"Table {table} has a new code.")
    return redirect(f"/tables?{done}#table-{table}")


def pair_page(app: App, request: Request) -> Response:
    """What a phone shows if someone scans a table's QR code with it."""
    return render(
        app, request, "pair.html", "Pairing",
        table=request.query.get("table", "?")[:10], code=request.query.get("code", "")[:20],
    )
