"""Tables & kiosks: a QR code and a short code per table, pairing state, revoke.

The QR code holds a URL, `http://SERVER/pair?table=3&code=K7P2QX`: the
kiosk's camera reads it (kiosk/table/pairing.py), takes the server address
from it and exchanges the one-time code for its token. A phone that scans it
by mistake lands on a page that says what it is for.
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING, Any

import segno

from kiosk.director.views.layout import e, hidden, notice, page, when
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def pairing_url(public_url: str, table: int, code: str) -> str:
    """What the QR code says.

    >>> pairing_url("http://10.0.0.5:8555", 3, "K7P2QX")
    'http://10.0.0.5:8555/pair?table=3&code=K7P2QX'
    """
    query = urllib.parse.urlencode({"table": table, "code": code})
    return f"{public_url.rstrip('/')}/pair?{query}"


def qr_svg(text: str) -> str:
    """An inline SVG QR code, quiet zone included (cameras need the white border)."""
    return str(segno.make(text, error="m").svg_inline(scale=6, border=4, dark="#000", light="#fff"))


def _card(app: App, row: dict[str, Any]) -> str:
    table = row["table_no"]
    if row["paired"]:
        state = notice(
            f"Paired{' at ' + when(row['paired_at']) if row['paired_at'] else ''}"
            f"{' from ' + e(row['paired_from']) if row['paired_from'] else ''}."
            + (f"<br>Last result: {when(row['last_seen'])}" if row["last_seen"] else ""),
            "ok",
        )
        pairing = ""
        button = "Cut this kiosk off"
        confirm = f"Cut off the kiosk at table {table}? It will need to pair again."
    else:
        code = row["code"] or ""
        url = pairing_url(app.public_url, table, code)
        state = '<p class="muted">Not paired yet.</p>'
        pairing = (
            f'<div class="qr" data-table="{table}">{qr_svg(url)}</div>'
            f'<p>Or type this code on the kiosk:<br><span class="code">{e(code)}</span></p>'
        )
        button = "Make a new code"
        confirm = f"Make a new code for table {table}? The old one stops working."
    return f"""<div class="card" id="table-{table}"><h3>Table {table}</h3>{state}{pairing}
<form method="post" action="/tables/{table}/revoke" class="noprint"
 onsubmit="return confirm('{e(confirm)}')">{hidden("csrf", app.csrf())}
<button type="submit" class="{"danger" if row["paired"] else "quiet"}">{button}</button></form>
</div>"""


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    rows = app.director.tables()
    if fmt:
        return json_response(
            {
                "server": app.public_url,
                "tables": [
                    r | {"pairing_url": pairing_url(app.public_url, r["table_no"], r["code"])}
                    if r["code"]
                    else r
                    for r in rows
                ],
            }
        )
    settings = app.director.settings()
    if settings is None:
        return redirect("/setup")
    paired = sum(1 for r in rows if r["paired"])
    body = f"""<h1>Tables &amp; kiosks</h1>
<p class="lead">Hold each table's kiosk up to its QR code, or type the short code on the
kiosk. {paired} of {len(rows)} tables are paired. Kiosks reach this computer at
<b>{e(app.public_url)}</b>.</p>
{notice(e(request.query["done"]), "ok") if request.query.get("done") else ""}
<div class="cards">{"".join(_card(app, r) for r in rows)}</div>"""
    script = "setTimeout(function(){ location.reload(); }, 10000);" if paired < len(rows) else ""
    return html_response(page("Tables", body, "tables", settings.name, script))


def revoke(app: App, request: Request, table: str) -> Response:
    who = app.who(request)
    app.director.revoke(int(table), who, request.form().get("why", ""))
    done = urllib.parse.urlencode({"done": f"Table {table} has a new code."})
    return redirect(f"/tables?{done}#table-{table}")


def pair_page(app: App, request: Request) -> Response:
    """What a phone shows if someone scans a table's QR code with it."""
    table = e(request.query.get("table", "?"))
    body = f"""<h1>Table {table} pairing code</h1>
<p class="lead">This code is for the table's kiosk, not for a phone. On the kiosk,
choose <b>Pair with the director</b> and show it this QR code, or type
<span class="code">{e(request.query.get("code", ""))}</span>.</p>
<p><a class="button" href="/sheet">See the master sheet</a></p>"""
    return html_response(page("Pairing", body))
