"""The master score sheet: the paper Master Score Card, live, with standings.

One row per team, one column per game: the winner's points as the target,
the loser's actual points. Below it the standings with the reason for every
tie-break, the results that need the director's decision, and the renege
reports. The page polls `/sheet?part=live` every few seconds; the answer is
304 Not Modified until something changes, so a hall full of phones costs
little.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.director.views.layout import e, hidden, notice, page, when
from kiosk.director.web import Request, Response, html_response, json_response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

STATUS_WORDS = {
    "waiting": "waiting",
    "counted": "from kiosk",
    "corrected": "corrected",
    "conflict": "needs decision",
    "void": "void",
    "bye": "bye",
}


def _cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return '<td class="cell muted">–</td>'
    link = f"/game/{cell['round']}/{cell['table']}"
    opponent = e(cell["opponent"]) if cell["opponent"] else "bye"
    vs = f'<span class="vs">v {opponent}, T{cell["table"]}</span>'
    if "points" not in cell:
        mark = "!" if cell["status"] == "conflict" else ""
        klass = "conflict" if cell["status"] == "conflict" else ""
        pts = f'<a href="{link}"><span class="pts">{mark or "·"}</span></a>'
        return f'<td class="cell {klass}">{pts}{vs}</td>'
    klass = cell["result"] + (" conflict" if cell["status"] == "conflict" else "")
    word = {"W": "won", "L": "lost", "T": "tie"}[cell["result"]]
    fixed = ", corrected" if cell["status"] == "corrected" else ""
    return (
        f'<td class="cell {klass}" data-round="{cell["round"]}">'
        f'<a href="{link}"><span class="pts">{cell["points"]}</span></a>'
        f'<span class="vs">{word}{fixed}</span>{vs}</td>'
    )


def master_card(data: dict[str, Any]) -> str:
    """The grid: teams down, games across (print-friendly)."""
    rounds = data["rounds"]
    head = "".join(f"<th class=game>Game {r}</th>" for r in range(1, rounds + 1))
    rows = []
    for row in data["teams"]:
        s = row["standing"]
        rows.append(
            f'<tr data-team="{e(row["team"])}"><td><b>{e(row["team"])}</b></td>'
            f"{''.join(_cell(c) for c in row['cells'])}"
            f"<td class=num>{s.get('wins', '')}</td><td class=num>{s.get('losses', '')}</td>"
            f"<td class=num>{s.get('points_for', '')}</td>"
            f"<td class=num><b>{s.get('rank', '')}</b></td></tr>"
        )
    return (
        f'<table class="master" id="master"><thead><tr><th>Team</th>{head}'
        "<th class=num>Wins</th><th class=num>Losses</th><th class=num>Points</th>"
        f"<th class=num>Place</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def standings_table(standings: dict[str, Any], progressive: bool = False) -> str:
    rows = standings.get("standings", [])
    if standings.get("unavailable"):
        return notice(f"Standings are not available: {e(standings['unavailable'])}.", "bad")
    if not rows:
        return '<p class="muted">No results yet.</p>'
    who = "Player" if progressive else "Team"
    body = "".join(
        f"<tr><td class=num><b>{r.get('rank', '')}</b></td><td>{e(r.get('team'))}</td>"
        f"<td class=num>{r.get('wins', 0)}</td><td class=num>{r.get('losses', 0)}</td>"
        f"<td class=num>{r.get('ties', 0)}</td><td class=num>{r.get('points_for', 0)}</td>"
        + ("" if progressive else f"<td class=num>{r.get('points_against', 0)}</td>")
        + f"<td>{e(r.get('tiebreak') or '')}</td></tr>"
        for r in rows
    )
    against = "" if progressive else "<th class=num>Points against</th>"
    return (
        f'<table id="standings"><thead><tr><th class=num>Place</th><th>{who}</th>'
        "<th class=num>Won</th><th class=num>Lost</th><th class=num>Tied</th>"
        f"<th class=num>Points for</th>{against}<th>Tie-break</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _calls(data: dict[str, Any], csrf: str) -> str:
    if not data.get("calls"):
        return ""
    items = "".join(
        f"<li><b>Table {c['table_no']}</b> asks for the director"
        f"{' (hand ' + str(c['hand']) + ')' if c['hand'] else ''} since {when(c['at'])} "
        f'<form method="post" action="/calls/{c["id"]}/answer" style="display:inline">'
        f'{hidden("csrf", csrf)}<button type="submit" class="quiet">Done</button></form></li>'
        for c in data["calls"]
    )
    return notice(f"<b>Players are calling you</b><ul>{items}</ul>", "bad")


def _attention(data: dict[str, Any]) -> str:
    if not data["attention"]:
        return ""
    items = "".join(
        f'<li><a href="/game/{g["round"]}/{g["table"]}">Game {g["round"]}, table {g["table"]}</a>: '
        + (
            "a result disagrees with the one counted. "
            if g["conflicts"] == 1
            else f"{g['conflicts']} results disagree with the one counted. "
        )
        + "Open it and choose which counts.</li>"
        for g in data["attention"]
    )
    return notice(f"<b>Your decision is needed</b><ul>{items}</ul>", "")


def _strays(data: dict[str, Any]) -> str:
    if not data.get("strays"):
        return ""
    items = "".join(
        f"<li>Table {s['table']} sent a result for game {s['round']}, which is not on the "
        f"schedule: {e(' v '.join(map(str, s['teams'] or [])))} "
        f"{e(' – '.join(map(str, s['points'] or [])))}. "
        "Check the kiosk's game number; the result is kept in the Changes list.</li>"
        for s in data["strays"]
    )
    return notice(f"<b>Results for games not on the schedule</b><ul>{items}</ul>", "")


def _reneges(data: dict[str, Any]) -> str:
    if not data["reneges"]:
        return ""
    rows = "".join(
        f'<tr><td><a href="/game/{r["round"]}/{r["table"]}">'
        f"Game {r['round']}, table {r['table']}</a></td>"
        f"<td>{e(r.get('seat', ''))}</td><td>{e(r.get('team', ''))}</td>"
        f"<td class=num>{e(r.get('hand', ''))}</td><td class=num>{e(r.get('trick', ''))}</td>"
        f"<td>{e(r.get('penalty', ''))}</td><td class=num>{len(r.get('frames', []))}</td></tr>"
        for r in data["reneges"]
    )
    return (
        "<h2>Renege reports</h2><table id=reneges><thead><tr><th>Game</th><th>Seat</th>"
        "<th>Team</th><th class=num>Hand</th><th class=num>Trick</th><th>Penalty</th>"
        f"<th class=num>Frames</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def live_part(data: dict[str, Any], csrf: str = "") -> str:
    """Everything on the sheet that changes as results come in."""
    progressive = data["tournament"]["format"] == "progressive"
    card = "" if progressive else "<h2>Master score card</h2>" + master_card(data)
    return (
        f'<p class="live" id="progress">{data["reported"]} of {data["scheduled"]} '
        "games reported.</p>"
        + (_calls(data, csrf) if csrf else "")
        + _attention(data)
        + _strays(data)
        + card
        + "<h2>Standings</h2>"
        + standings_table(data["standings"], progressive)
        + _reneges(data)
        + "<h2>Games</h2>"
        + games_table(data["games"])
    )


def games_table(games: list[dict[str, Any]]) -> str:
    rows = []
    for g in games:
        if g["bye"]:
            continue
        pts = g["sheet_points"]
        score = f"{pts[0]} – {pts[1]}" if pts else ""
        timed = " (time)" if g["ended_by"] == "time" and pts else ""
        status = g["status"]
        klass = f"{e(g['source'] or status)} {e(status)}"
        badge = f'<span class="badge {klass}">{STATUS_WORDS[status]}</span>'
        rows.append(
            f'<tr class="{e(status)}" data-game="{g["round"]}-{g["table"]}">'
            f"<td class=num>{g['round']}</td><td class=num>{g['table']}</td>"
            f"<td>{e(g['teams'][0])}</td><td>{e(g['teams'][1])}</td>"
            f'<td class="num score">{score}{timed}</td><td>{badge}</td>'
            f'<td class="noprint"><a href="/game/{g["round"]}/{g["table"]}">details</a></td></tr>'
        )
    return (
        '<table id="games"><thead><tr><th class=num>Game</th><th class=num>Table</th>'
        "<th>A team</th><th>B team</th><th class=num>Score</th><th>Status</th>"
        f'<th class="noprint"></th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


POLL_SCRIPT = """
(function () {
  var version = %(version)s, box = document.getElementById('live');
  var stamp = document.getElementById('stamp');
  function tick() {
    fetch('/sheet?part=live', {headers: {'If-None-Match': '"' + version + '"'}, cache: 'no-store'})
      .then(function (r) {
        stamp.textContent = 'Checked ' + new Date().toLocaleTimeString();
        if (r.status !== 200) return null;
        version = parseInt((r.headers.get('ETag') || '0').replace(/"/g, ''), 10);
        return r.text();
      })
      .then(function (html) { if (html !== null && html !== undefined) box.innerHTML = html; })
      .catch(function () {
        stamp.textContent = 'The director server is not answering; trying again.';
      })
      .finally(function () { setTimeout(tick, %(ms)d); });
  }
  setTimeout(tick, %(ms)d);
})();
"""


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    live = request.query.get("part") == "live"
    if live and request.headers.get("if-none-match") == f'"{app.director.version()}"':
        # Nothing changed: answered without building the sheet (a hall full of phones).
        return Response(304, b"", [("ETag", request.headers["if-none-match"])])
    data = app.director.sheet()
    if fmt:
        return json_response(data)
    if data["tournament"] is None:
        return redirect("/setup")
    etag = f'"{data["version"]}"'
    if live:
        response = html_response(live_part(data, app.csrf() if app.is_director(request) else ""))
        response.headers.append(("ETag", etag))
        return response
    t = data["tournament"]
    limit = f", {t['game_minutes']}-minute games" if t["game_minutes"] else ""
    body = f"""<h1>Master score sheet</h1>
<p class="lead">{e(t["profile"])} rules, {t["points_to_win"]} points to win{limit}.
Winners are written down with {t["points_to_win"]}, losers with the points they made.
<span class="noprint"> <a href="/export/sheet.csv">CSV</a> ·
<a href="/export/tournament.xlsx">Excel</a> · <a href="/print">Print</a></span></p>
<p class="live noprint" id="stamp">Updates by itself.</p>
<div id="live">{live_part(data, app.csrf() if app.is_director(request) else "")}</div>"""
    script = POLL_SCRIPT % {"version": data["version"], "ms": int(app.poll_seconds * 1000)}
    return html_response(page("Master sheet", body, "sheet", t["name"], script))


def standings(app: App, request: Request, fmt: str | None = None) -> Response:
    settings = app.director.settings()
    data = app.director.standings()
    if fmt:
        return json_response(data)
    if settings is None:
        return redirect("/setup")
    body = "<h1>Standings</h1>" + standings_table(data, settings.format == "progressive")
    return html_response(page("Standings", body, "sheet", settings.name))


def print_page(app: App, request: Request) -> Response:
    """The sheet for paper: no navigation, no colours, every game listed."""
    data = app.director.sheet()
    if data["tournament"] is None:
        return redirect("/setup")
    t = data["tournament"]
    progressive = t["format"] == "progressive"
    body = (
        f"<h1>{e(t['name'])} — master score sheet</h1>"
        f"<p>{e(t['profile'])} rules · {t['points_to_win']} points to win · "
        f"{data['reported']} of {data['scheduled']} games reported</p>"
        + ("" if progressive else master_card(data))
        + "<h2>Standings</h2>"
        + standings_table(data["standings"], progressive)
        + "<h2>Games</h2>"
        + games_table(data["games"])
        + '<p class="noprint"><button onclick="window.print()">Print this page</button></p>'
    )
    return html_response(page("Print", body, "print", t["name"]))


def answer_call(app: App, request: Request, call: str) -> Response:
    app.director.answer_call(int(call), app.who(request))
    return redirect("/sheet")
