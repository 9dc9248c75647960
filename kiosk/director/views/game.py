"""One game: every post as the kiosk sent it, renege frames, and the director's word.

Corrections never touch the kiosk's posts: each one is a new row with who,
when, what and why, and the newest decides the game.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import TYPE_CHECKING, Any

from kiosk.director.tournament import DirectorError
from kiosk.director.views.layout import e, hidden, notice, page, when
from kiosk.director.views.sheet import STATUS_WORDS
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App


def _post(app: App, game: dict[str, Any], post: dict[str, Any], is_director: bool) -> str:
    result = post["result"]
    teams, points = result.get("teams", ["?", "?"]), result.get("points", ["?", "?"])
    frames = "".join(
        f'<figure style="display:inline-block;margin:0 .5rem 0 0">'
        f'<img class="frame" src="/frames/{f["id"]}" alt="{e(f["label"])}">'
        f"<figcaption>{e(f['label'])}</figcaption></figure>"
        for f in post["frames"]
    )
    reneges = "".join(
        f"<li>Hand {e(r.get('hand', '?'))}, trick {e(r.get('trick', '?'))}: "
        f"seat {e(r.get('seat', '?'))}"
        f"{' (' + e(r['team']) + ')' if r.get('team') else ''} failed to follow suit"
        f"{', proven at trick ' + e(r['proven_at']) if r.get('proven_at') else ''}"
        f"{'. Penalty: ' + e(r['penalty']) if r.get('penalty') else ''}.</li>"
        for r in result.get("reneges", [])
    )
    hands = result.get("hands", [])
    choose = ""
    if is_director and post["status"] == "conflict" and post["points_a"] is not None:
        action = f"/game/{game['round']}/{game['table']}/correct"
        choose = f"""<form method="post" action="{action}" class="noprint">
{hidden("csrf", app.csrf())}{hidden("post_id", post["id"])}
<label>Your name <input type="text" name="who" required size="14"></label>
<label>Why <input type="text" name="why" required size="30"
 placeholder="e.g. both teams agreed"></label>
<button type="submit">Count this result instead</button></form>"""
    return f"""<div class="card" style="width:auto" id="post-{post["id"]}">
<h3>Result #{post["id"]} <span class="badge {e(post["status"])}">{e(post["status"])}</span></h3>
<p>{e(teams[0])} <b>{e(points[0])}</b>, {e(teams[1])} <b>{e(points[1])}</b>
 · ended by {e(result.get("ended_by", "points"))} · received {when(post["received_at"])}</p>
{f'<p class="muted">{e(post["note"])}</p>' if post["note"] else ""}
{f"<p><b>Renege reports</b></p><ul>{reneges}</ul>" if reneges else ""}{frames}
<details><summary>{len(hands)} hand record{"s" if len(hands) != 1 else ""}
 and the full post</summary>
<pre style="white-space:pre-wrap;font-size:.75rem">{e(json.dumps(result, indent=1))}</pre></details>
{choose}</div>"""


def show(app: App, request: Request, rnd: str, table: str, fmt: str | None = None) -> Response:
    game = app.director.game(int(rnd), int(table))
    if game is None:
        if fmt:
            return json_response({"error": "no such game"}, 404)
        return html_response(page("No such game", "<h1>There is no such game.</h1>"), 404)
    if fmt:
        return json_response(game)
    settings = app.director.settings()
    is_director = app.is_director(request)
    pts = game["sheet_points"]
    score = f"{pts[0]} – {pts[1]}" if pts else "no result yet"
    corrections = "".join(
        f"<tr><td>{when(c['at'])}</td><td>{e(c['who'])}</td><td>"
        + (
            "game void"
            if c["points_a"] is None
            else f"{c['points_a']} – {c['points_b']}"
            + (f" (result #{c['post_id']})" if c["post_id"] else "")
        )
        + f"</td><td>{e(c['why'])}</td></tr>"
        for c in game["corrections"]
    )
    history = (
        "<table id=corrections><thead><tr><th>When</th><th>Who</th><th>What</th><th>Why</th>"
        f"</tr></thead><tbody>{corrections}</tbody></table>"
        if corrections
        else '<p class="muted">No corrections.</p>'
    )
    form = ""
    signed = "" if app.who(request) == "Director" else app.who(request)
    if is_director:
        form = f"""<h2>Correct this game</h2>
<p>The kiosk's result stays on record; your correction is added with your name and reason.</p>
<form class="stack noprint" method="post" action="/game/{rnd}/{table}/correct">
{hidden("csrf", app.csrf())}
<label for="points_a">{e(game["teams"][0])}</label>
<input type="number" id="points_a" name="points_a" min="0" max="99">
<label for="points_b">{e(game["teams"][1])}</label>
<input type="number" id="points_b" name="points_b" min="0" max="99">
<label class="choice"><input type="checkbox" name="void" value="on">Void this game
 (it does not count)</label>
<label for="who">Your name</label>
<input type="text" id="who" name="who" required value="{e(signed)}">
<label for="why">Why</label>
<input type="text" id="why" name="why" required size="50"
 placeholder="e.g. kiosk misread the last hand">
<p><button type="submit">Save correction</button></p></form>"""
    problem = request.query.get("problem", "")
    posts = "".join(_post(app, game, p, is_director) for p in game["post_list"])
    body = f"""<p class="noprint"><a href="/sheet">← Master sheet</a></p>
<h1>Game {rnd}, table {table}</h1>
{notice(e(problem), "bad") if problem else ""}
<p class="lead">{e(game["teams"][0])} v {e(game["teams"][1]) if game["teams"][1] else "bye"}:
<b id="score">{score}</b> <span class="badge">{STATUS_WORDS[game["status"]]}</span></p>
<h2>What the kiosk sent</h2>
{posts or '<p class="muted">Nothing yet.</p>'}
<h2>Corrections</h2>{history}{form}"""
    return html_response(
        page(f"Game {rnd}, table {table}", body, "sheet", settings.name if settings else "")
    )


def correct(app: App, request: Request, rnd: str, table: str) -> Response:
    form = request.form()
    back = f"/game/{rnd}/{table}"
    try:
        points: tuple[int, int] | None = None
        post_id = int(form["post_id"]) if form.get("post_id") else None
        void = form.get("void") == "on"
        if post_id is None and not void:
            try:
                points = (int(form.get("points_a", "")), int(form.get("points_b", "")))
            except ValueError:
                raise DirectorError("Please fill in both teams' points.") from None
        app.director.correct(
            int(rnd),
            int(table),
            form.get("who", ""),
            form.get("why", ""),
            points=points,
            post_id=post_id,
            void=void,
        )
    except DirectorError as problem:
        return redirect(back + "?" + urllib.parse.urlencode({"problem": str(problem)}))
    response = redirect(back)
    who = " ".join(form.get("who", "").split())[:80]
    if who:
        response.headers.append(
            ("Set-Cookie", f"director_name={urllib.parse.quote(who)}; Path=/; SameSite=Strict")
        )
    return response


def frame(app: App, request: Request, frame: str) -> Response:
    found = app.director.frame(int(frame))
    if found is None:
        return json_response({"error": "no such frame"}, 404)
    mime, data = found
    return Response(200, data, [("Content-Type", mime), ("Cache-Control", "max-age=86400")])
