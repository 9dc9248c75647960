"""The set-up form: a tournament in a few minutes, one page, plain words."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kiosk.director.planning import Settings, SetupError, profile_defaults, profile_ids
from kiosk.director.views.layout import PROFILE_TITLES, render
from kiosk.director.web import Request, Response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

#: each rule book in a line a director recognises
PROFILE_WORDS = {
    "alberta55": "dealer needs a natural trump; revoke costs 2 points (4 on a lone hand); "
    "winners written down with the target",
    "general": "renege gives 2 points to the opponents (4 against a lone hand)",
    "ssc": "25-minute games; win 2, tie 1, loss 0",
    "tournament": "stick the dealer, Canadian loner; progressive event",
}


def _form_values(settings: Settings | None, entrants: str) -> dict[str, str]:
    if settings is None:
        return {"profile": "alberta55", "format": "round_robin", "entry": "teams"}
    return {
        "name": settings.name,
        "profile": settings.profile,
        "format": settings.format,
        "entry": settings.entry,
        "points_to_win": str(settings.points_to_win),
        "game_minutes": str(settings.game_minutes),
        "rounds": str(settings.rounds),
        "b_moves_down": "on" if settings.b_moves_down else "",
        "entrants": entrants,
    }


def _profiles() -> list[dict[str, Any]]:
    out = []
    for pid in profile_ids():
        points, minutes, _hands = profile_defaults(pid)
        out.append({"id": pid, "title": PROFILE_TITLES.get(pid, pid),
                    "words": PROFILE_WORDS.get(pid, ""), "points": points, "minutes": minutes})
    return out


def _page(app: App, request: Request, values: Mapping[str, str], problem: str = "",
          status: int = 200) -> Response:
    started = app.director.sheet().get("reported", 0) if app.director.settings() else 0
    return render(
        app, request, "setup.html", "Set-up", "setup", status=status,
        v=dict(values), problem=problem, started=started, profiles=_profiles(),
    )


def _entrants_text(app: App) -> str:
    settings = app.director.settings()
    if settings is None:
        return ""

    def job(conn: sqlite3.Connection) -> str:
        if settings.entry == "players":
            rows = conn.execute("SELECT name FROM player ORDER BY id").fetchall()
        else:
            rows = conn.execute("SELECT name FROM team WHERE is_bye = 0 ORDER BY slot").fetchall()
        return "\n".join(r[0] for r in rows if r[0])

    return app.director.db.read(job)


def show(app: App, request: Request) -> Response:
    return _page(app, request, _form_values(app.director.settings(), _entrants_text(app)))


def submit(app: App, request: Request) -> Response:
    form = request.form()
    try:
        app.director.setup(form, who=app.who(request))
    except SetupError as problem:
        return _page(app, request, form, str(problem), 400)
    return redirect("/seating?done=setup")
