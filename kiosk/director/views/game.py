"""One game: every post as the kiosk sent it, renege frames, and the director's word.

Corrections never touch the kiosk's posts: each one is a new row with who,
when, what and why, and the newest decides the game. New points are checked
against the rule book exactly as a kiosk's post is (`gamecheck`).
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING

from kiosk.director.sheetdata import ended_by
from kiosk.director.text import clean
from kiosk.director.tournament import DirectorError
from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def show(app: App, request: Request, rnd: int, table: int, fmt: str | None = None) -> Response:
    return _page(app, request, int(rnd), int(table), fmt)


def _page(app: App, request: Request, rnd: int, table: int, fmt: str | None = None,
          problem: str = "", typed: dict[str, str] | None = None, status: int = 200
          ) -> Response:
    """The game's page; after a correction that could not be saved, with the problem and
    the form as the director filled it in (nothing typed is lost)."""
    game = app.director.game(rnd, table)
    if game is None:
        if fmt:
            return json_response({"error": "no such game", "status": 404}, 404)
        return render(app, request, "message.html", "No such game", "sheet", status=404,
                      heading="There is no such game.",
                      text=f"No game {rnd} is scheduled at table {table}.")
    if fmt:
        return json_response(game)
    for post in game["post_list"]:
        post["ended_by"] = ended_by(post["result"])
    counted = next((p for p in game["post_list"] if p["status"] == "counted"), None)
    settings = app.director.settings()
    signed = "" if app.who(request) == "Director" else app.who(request)
    points = game["points"] or ["", ""]
    form = {"points_a": str(points[0]), "points_b": str(points[1]), "who": signed, "why": "",
            "ended_by": "time" if game["points"] and game["ended_by"] == "time" else "",
            "void": "", "post_id": ""}
    if typed is not None:
        form |= {k: typed.get(k, "")[:500] for k in form}
    return render(
        app, request, "game.html", f"Game {rnd}, table {table}", "sheet", status=status,
        game=game, counted=counted, signed=signed, problem=problem, form=form,
        time_limit=bool(settings and settings.game_minutes),
    )


def correct(app: App, request: Request, rnd: int, table: int) -> Response:
    form = request.form()
    back = f"/game/{int(rnd)}/{int(table)}"
    try:
        points: tuple[int, int] | None = None
        post_id = _whole(form.get("post_id", ""), "the posted result", 9) if form.get(
            "post_id") else None
        void = form.get("void") == "on"
        typed = form.get("points_a", "").strip() or form.get("points_b", "").strip()
        if post_id is None and (typed or not void):
            points = (_whole(form.get("points_a", ""), "both teams' points"),
                      _whole(form.get("points_b", ""), "both teams' points"))
        app.director.correct(
            int(rnd),
            int(table),
            form.get("who", ""),
            form.get("why", ""),
            points=points,
            post_id=post_id,
            void=void,
            ending="time" if form.get("ended_by") == "time" else "points",
        )
    except DirectorError as problem:
        return _page(app, request, int(rnd), int(table), problem=str(problem), typed=form,
                     status=422)
    response = redirect(back)
    who = clean(form.get("who", ""), 80)
    if who:
        response.set_cookie("director_name", urllib.parse.quote(who), samesite="strict",
                            httponly=True, secure=request.scheme == "https")
    return response


def _whole(text: str, what: str, digits: int = 3) -> int:
    """A whole number typed in a form (at most `digits` digits: points, or a post's id),
    or a DirectorError saying what to fill in."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > digits:
        raise DirectorError(f"Please fill in {what} as whole numbers.")
    return int(text)


def frame(app: App, request: Request, frame: int) -> Response:
    found = app.director.frame(int(frame))
    if found is None:
        return json_response({"error": "no such frame", "status": 404}, 404)
    mime, data = found
    return Response(data, 200, media_type=mime, headers={"Cache-Control": "max-age=86400"})
