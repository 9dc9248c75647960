"""Seating: each round's tables, so the director can call out the movement.

For players who cut for partners, the first round lists the four players at
each table with a small form to record who partnered whom (the kiosk can
post the same thing itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.director.tournament import DirectorError
from kiosk.director.views.layout import e, hidden, notice, page
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

DONE = {
    "setup": "Saved. Next: pair each table's kiosk on <a href='/tables'>Tables &amp; kiosks</a>."
}


def _round_table(entries: list[dict[str, Any]], progressive: bool) -> str:
    if progressive:
        head = "<tr><th class=num>Table</th><th>North &amp; South</th><th>East &amp; West</th></tr>"
        rows = "".join(
            f"<tr><td class=num>{g['table']}</td>"
            f"<td>{e(g['seats']['N'])} (N) &amp; {e(g['seats']['S'])} (S)</td>"
            f"<td>{e(g['seats']['E'])} (E) &amp; {e(g['seats']['W'])} (W)</td></tr>"
            for g in entries
        )
    else:
        head = "<tr><th class=num>Table</th><th>A team</th><th>B team</th></tr>"
        rows = "".join(
            f"<tr><td class=num>{g['table']}</td><td>{e(g['teams'][0])}</td>"
            f"<td>{e(g['teams'][1]) if g['teams'][1] else '<i>sits out (bye)</i>'}</td></tr>"
            for g in entries
        )
    return f"<table>{head}{rows}</table>"


def _cut_form(app: App, pending: dict[str, Any]) -> str:
    t, four = pending["table"], pending["players"]

    def options(chosen: int) -> str:
        return "".join(
            f'<option value="{e(p)}"{" selected" if k == chosen else ""}>{e(p)}</option>'
            for k, p in enumerate(four)
        )

    picks = "".join(
        f'<label>{label} <select name="{name}">{options(i)}</select></label> '
        for i, (label, name) in enumerate(
            (("A team:", "a1"), ("&amp;", "a2"), ("B team:", "b1"), ("&amp;", "b2"))
        )
    )
    return f"""<form method="post" action="/seating/cut" class="noprint">
{hidden("csrf", app.csrf())}{hidden("table", t)}
<b>Table {t}</b>: {", ".join(e(p) for p in four)}<br>{picks}
<button type="submit">Save partners</button></form>"""


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    settings = app.director.settings()
    entries = app.director.seating()
    if fmt:
        return json_response({"seating": entries})
    if settings is None:
        return redirect("/setup")
    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in entries:
        rounds.setdefault(g["round"], []).append(g)
    progressive = settings.format == "progressive"
    movement = (
        "After each game the winners move up one table and change partners."
        if progressive
        else "After each game every A team moves up one table"
        + (
            " and every B team moves down one table."
            if settings.b_moves_down
            else "; B teams stay."
        )
    )
    pending = app.director.pending_cuts()
    cuts = ""
    if pending:
        cuts = (
            "<h2>Cut for partners</h2><p>At each table the two highs play the two lows; "
            "the team of the player who cut lowest is the A team.</p>"
            + "".join(_cut_form(app, p) for p in pending)
        )
    done = request.query.get("done", "")
    problem = request.query.get("problem", "")
    sections = "".join(
        f"<h2>Game {r}</h2>{_round_table(rounds[r], progressive)}" for r in sorted(rounds)
    )
    if progressive and len(rounds) < settings.rounds:
        sections += (
            f"<p class=muted>Game {len(rounds) + 1} is seated when every table has reported.</p>"
        )
    body = f"""<h1>Seating</h1>
{notice(DONE[done], "ok") if done in DONE else ""}
{notice(e(problem), "bad") if problem else ""}
<p class="lead">{movement}</p>{cuts}{sections}"""
    return html_response(page("Seating", body, "seating", settings.name))


def cut(app: App, request: Request) -> Response:
    form = request.form()
    try:
        table = int(form.get("table", "0"))
        app.director.record_cut(
            table,
            [form.get("a1", ""), form.get("a2", "")],
            [form.get("b1", ""), form.get("b2", "")],
            app.who(request),
        )
    except (ValueError, DirectorError) as problem:
        import urllib.parse

        return redirect("/seating?" + urllib.parse.urlencode({"problem": str(problem)}))
    return redirect("/seating")
