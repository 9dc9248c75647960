"""The set-up form: a tournament in a few minutes, one page, plain words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kiosk.director.planning import (
    Settings,
    SetupError,
    profile_defaults,
    profile_ids,
)
from kiosk.director.views.layout import e, hidden, notice, page
from kiosk.director.web import Request, Response, html_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

PROFILE_WORDS = {
    "alberta55": (
        "Alberta 55 plus: dealer needs a natural trump; revoke costs 2 points (4 on a lone hand)"
    ),
    "general": "General rules: renege gives 2 points to the opponents (4 against a lone hand)",
    "ssc": "SSC: 25-minute games; win 2, tie 1, loss 0",
    "tournament": "Tournament rules: stick the dealer, Canadian loner; progressive event",
}

ROUND_ROBIN = "<b>Round robin</b> — A teams move up one table after each game"
PROGRESSIVE = "<b>Progressive event</b> — players change partners; winners move up (8 hands a game)"
TEAMS = "<b>Teams of two</b> — one team per line, e.g. <i>Ann Smith &amp; Bob Jones</i>"
PLAYERS = "<b>Players</b> — one player per line; four at each table cut for partners"


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


def _radio(name: str, value: str, label: str, current: str) -> str:
    checked = " checked" if value == current else ""
    return (
        f'<label class="choice"><input type="radio" name="{name}" value="{e(value)}"{checked}>'
        f"{label}</label>"
    )


def render(app: App, values: Mapping[str, str], problem: str = "") -> str:
    """The form, filled with `values`, with `problem` shown above it."""
    v = dict(values)
    started = app.director.sheet().get("reported", 0) if app.director.settings() else 0
    profiles = "".join(
        _radio(
            "profile",
            pid,
            f"<b>{e(pid)}</b> — {e(PROFILE_WORDS.get(pid, ''))} "
            f'<span class="muted">({profile_defaults(pid)[0]} points'
            + (
                f", {profile_defaults(pid)[1]} minutes)</span>"
                if profile_defaults(pid)[1]
                else ", no time limit)</span>"
            ),
            v.get("profile", ""),
        )
        for pid in profile_ids()
    )
    body = f"""
<h1>Set up the tournament</h1>
<p class="lead">Fill in what you know; the sheet works out tables and rounds.
You can change this until the first result comes in.</p>
{notice(e(problem), "bad") if problem else ""}
{notice("Results have come in: the set-up can no longer change.", "") if started else ""}
<form class="stack" method="post" action="/setup">
{hidden("csrf", app.csrf())}
<fieldset style="border:0;padding:0;margin:0"{" disabled" if started else ""}>
<label for="name">Tournament name</label>
<input type="text" id="name" name="name" size="40" value="{e(v.get("name", ""))}" required>

<label>Rules</label>
{profiles}

<label>Format</label>
{_radio("format", "round_robin", ROUND_ROBIN, v.get("format", ""))}
{_radio("format", "progressive", PROGRESSIVE, v.get("format", ""))}
<label class="choice"><input type="checkbox" name="b_moves_down" value="on"
 {"checked" if v.get("b_moves_down") else ""}>B teams move down one table (round robin)</label>

<label>Who is entered?</label>
{_radio("entry", "teams", TEAMS, v.get("entry", ""))}
{_radio("entry", "players", PLAYERS, v.get("entry", ""))}

<label for="entrants">Teams or players <span class="hint">(one per line)</span></label>
<textarea id="entrants" name="entrants" required>{e(v.get("entrants", ""))}</textarea>

<label for="points_to_win">Points to win a game
 <span class="hint">(empty: the rules' number)</span></label>
<input type="number" id="points_to_win" name="points_to_win" min="1" max="50"
 value="{e(v.get("points_to_win", ""))}">

<label for="game_minutes">Time limit per game, minutes
 <span class="hint">(empty: the rules' limit; 0: none)</span></label>
<input type="number" id="game_minutes" name="game_minutes" min="0" max="240"
 value="{e(v.get("game_minutes", ""))}">

<label for="tables">Tables <span class="hint">(empty: counted from the list)</span></label>
<input type="number" id="tables" name="tables" min="1" max="500" value="{e(v.get("tables", ""))}">

<label for="rounds">Games per team <span class="hint">(empty: a full round robin)</span></label>
<input type="number" id="rounds" name="rounds" min="1" max="50" value="{e(v.get("rounds", ""))}">

<p><button type="submit">Save and make the schedule</button></p>
</fieldset></form>"""
    settings = app.director.settings()
    return page("Set-up", body, "setup", settings.name if settings else "")


def _entrants_text(app: App) -> str:
    settings = app.director.settings()
    if settings is None:
        return ""

    def job(conn: object) -> str:
        import sqlite3

        assert isinstance(conn, sqlite3.Connection)
        if settings.entry == "players":
            rows = conn.execute("SELECT name FROM player ORDER BY id").fetchall()
        else:
            rows = conn.execute("SELECT name FROM team WHERE is_bye = 0 ORDER BY slot").fetchall()
        return "\n".join(r[0] for r in rows if r[0])

    return app.director.db.read(job)


def show(app: App, request: Request) -> Response:
    values = _form_values(app.director.settings(), _entrants_text(app))
    return html_response(render(app, values))


def submit(app: App, request: Request) -> Response:
    form = request.form()
    try:
        app.director.setup(form, who=app.who(request))
    except SetupError as problem:
        return html_response(render(app, form, str(problem)), 400)
    return redirect("/seating?done=setup")
