"""Seating: each round's tables, so the director can call out the movement.

For players who cut for partners, the first round lists the four players at
each table with a small form to record who partnered whom (the kiosk can
post the same thing itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.director import notices
from kiosk.director.tournament import DirectorError
from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


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
    if progressive:
        movement = "After each game the winners move up one table and change partners."
    else:
        movement = "After each game every A team moves up one table" + (
            " and every B team moves down one table." if settings.b_moves_down
            else "; B teams stay."
        )
    waiting = len(rounds) + 1 if progressive and len(rounds) < settings.rounds else None
    return render(
        app, request, "seating.html", "Seating", "seating",
        movement=movement, progressive=progressive,
        rounds=sorted(rounds.items()), pending=app.director.pending_cuts(),
        done=request.query.get("done") == "setup",
        problem=notices.said(app.director.secret, request.query, "problem"), waiting_round=waiting,
    )


def cut(app: App, request: Request) -> Response:
    form = request.form()
    try:
        table = int(form.get("table", "0")) if form.get("table", "").isdigit() else 0
        app.director.record_cut(
            table,
            [form.get("a1", ""), form.get("a2", "")],
            [form.get("b1", ""), form.get("b2", "")],
            app.who(request),
        )
    except DirectorError as problem:
        return redirect("/seating?" + notices.query(app.director.secret, "problem", str(problem)))
    return redirect("/seating")
