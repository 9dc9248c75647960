"""The master score sheet, the players' standings and the print page.

One row per team, one column per game: the winner's points as the rule book
records a win, the loser's actual points. Below it the standings with the
reason for every tie-break, the results that need the director's decision,
and the renege reports. Open pages hear of every change by server-sent
events (`/events`) and fetch their live part (`?part=live`); the answer is
304 Not Modified when nothing changed since the version the page holds.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from kiosk.director.gamecheck import WINNER_WRITTEN_AS_TARGET
from kiosk.director.views.layout import STATUS_WORDS, fragment, profile_title, render
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def _not_modified(app: App, request: Request) -> Response | None:
    """304 when the page already shows the newest version (a hall full of phones)."""
    etag = f'"{app.director.version()}"'
    if request.query.get("part") == "live" and request.headers.get("if-none-match") == etag:
        return Response(b"", 304, headers={"ETag": etag})
    return None


def _live(text: str, version: int) -> Response:
    response = html_response(text)
    response.headers["ETag"] = f'"{version}"'
    return response


def recording(t: dict[str, Any]) -> str:
    """How the sheet writes a game down, as the rule book says."""
    if t["profile"] in WINNER_WRITTEN_AS_TARGET:
        return (f"Winners are written down with {t['points_to_win']}, "
                "losers with the points they made.")
    return "Both sides are written down with the points they made."


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    unchanged = _not_modified(app, request)
    if unchanged is not None:
        return unchanged
    data = app.director.sheet()
    if fmt:
        return json_response(data)
    if data["tournament"] is None:
        return redirect("/setup")
    t = data["tournament"]
    director = app.is_director(request)
    live = {
        "data": data,
        "progressive": t["format"] == "progressive",
        "is_director": director,
        "csrf": app.csrf(request) if director else "",
        "status_words": STATUS_WORDS,
    }
    if request.query.get("part") == "live":
        return _live(fragment("sheet_live.html", **live), data["version"])
    return render(
        app, request, "sheet.html", "Master sheet", "sheet",
        t=t, profile_words=profile_title(t["profile"]), recording=recording(t), **live,
    )


def standings(app: App, request: Request, fmt: str | None = None) -> Response:
    """The ranking; on a phone, the page players keep open (no director links)."""
    unchanged = _not_modified(app, request)
    if unchanged is not None:
        return unchanged
    data = app.director.sheet()
    if fmt:
        return json_response(data.get("standings", {"standings": []}))
    if data["tournament"] is None:
        return redirect("/setup")
    t = data["tournament"]
    live = {
        "standings": data["standings"],
        "progressive": t["format"] == "progressive",
        "reported": data["reported"],
        "scheduled": data["scheduled"],
    }
    if request.query.get("part") == "live":
        return _live(fragment("standings_live.html", **live), data["version"])
    ranking = ("Players rank by their points." if live["progressive"]
               else "Ties are broken as the rule book says; the reason is shown.")
    return render(
        app, request, "standings.html", "Standings", "standings",
        t=t, profile_words=profile_title(t["profile"]), ranking=ranking,
        version=data["version"], **live,
    )


def print_page(app: App, request: Request) -> Response:
    """The sheet for paper: dated, every game listed, the renege reports included."""
    data = app.director.sheet()
    if data["tournament"] is None:
        return redirect("/setup")
    t = data["tournament"]
    printed = datetime.now().astimezone().strftime("%A %d %B %Y, %H:%M")
    return render(
        app, request, "print.html", "Print", "print",
        t=t, data=data, progressive=t["format"] == "progressive",
        profile_words=profile_title(t["profile"]), printed=printed,
    )


def answer_call(app: App, request: Request, call: int) -> Response:
    app.director.answer_call(int(call), app.who(request))
    return redirect("/sheet")
