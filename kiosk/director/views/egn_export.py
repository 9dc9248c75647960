"""Games in Euchre Game Notation: each game a kiosk posted, as the EGN file it would keep
(`kiosk.egn.kiosk_game`), one file a game (``/game/<round>/<table>.egn``) and the event's
games together in one zip (``/export/games-egn.zip``), for players to replay anywhere EGN
is read.  The counted post is the game; the director's corrections are its rulings."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kiosk.director.web import Request, Response, json_response, redirect
from kiosk.egn.kiosk_game import egn_of_result
from kiosk.egn.notation import EgnError

if TYPE_CHECKING:
    from kiosk.director.app import App
    from kiosk.director.planning import Settings


def game_egn(game: Mapping[str, Any], settings: Settings | None) -> dict[str, Any] | None:
    """The EGN document of a game (None: no counted result with its hands yet); an
    `EgnError` when its hand records cannot be written."""
    counted = next((p for p in game.get("post_list", []) if p["status"] == "counted"), None)
    if counted is None or not counted["result"].get("hands"):
        return None
    progressive = settings is not None and settings.format == "progressive"
    return egn_of_result(
        counted["result"],
        points_to_win=settings.points_to_win if settings else None,
        num_deals=(settings.hands_per_game or 8) if settings and progressive else 0,
        rulings=[_ruling(c, game.get("teams") or ["A", "B"])
                 for c in game.get("corrections", [])],
    )


def _ruling(correction: Mapping[str, Any], teams: list[Any]) -> str:
    what = ("the game is void" if correction.get("points_a") is None else
            f"{teams[0]} {correction['points_a']}, {teams[1]} {correction['points_b']}")
    return f"{what} ({correction.get('who', '')}, {correction.get('at', '')}:" \
           f" {correction.get('why', '')})."


def _name(rnd: int, table: int) -> str:
    return f"round-{rnd}-table-{table}.egn"


def _json_bytes(document: Mapping[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def game_file(app: App, request: Request, rnd: int, table: int) -> Response:
    """One game's EGN file, to download."""
    game = app.director.game(int(rnd), int(table))
    if game is None:
        return json_response({"error": "no such game", "status": 404}, 404)
    try:
        document = game_egn(game, app.director.settings())
    except EgnError as problem:
        return json_response({"error": f"the game's hands cannot be written as EGN: {problem}",
                              "status": 422}, 422)
    if document is None:
        return json_response({"error": "no result with its hands yet", "status": 404}, 404)
    return Response(
        _json_bytes(document), 200, media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{_name(int(rnd), int(table))}"'},
    )


def event_zip(app: App, request: Request) -> Response:
    """Every game with its hands as an EGN file, one a game, in one zip; a game whose
    hands cannot be written is listed in the zip's ``not-written.txt`` with the reason."""
    data = app.director.sheet()
    if data["tournament"] is None:
        return redirect("/setup")
    settings = app.director.settings()
    out = io.BytesIO()
    skipped = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for g in data["games"]:
            if g.get("bye"):
                continue
            game = app.director.game(g["round"], g["table"])
            try:
                document = None if game is None else game_egn(game, settings)
            except EgnError as problem:
                skipped.append(f"{_name(g['round'], g['table'])}: {problem}")
                continue
            if document is not None:
                archive.writestr(_name(g["round"], g["table"]), _json_bytes(document))
        if skipped:
            archive.writestr("not-written.txt", "\n".join(skipped) + "\n")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", data["tournament"]["name"]).strip("-").lower()
    return Response(
        out.getvalue(), 200, media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{slug or "tournament"}-egn.zip"'},
    )
