"""CSV and XLSX exports of the master sheet, the games and the standings.

The rows are built once (`sheet_rows`, `games_rows`, `standings_rows`) and
written by both formats, so the spreadsheet and the CSV never disagree.
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING, Any

from kiosk.director.web import Request, Response, redirect

if TYPE_CHECKING:
    from kiosk.director.app import App

Row = list[Any]


def sheet_rows(data: dict[str, Any]) -> list[Row]:
    """The Master Score Card: a team per row, a game per column, points and W/L/T."""
    rounds = data["rounds"]
    header: Row = ["Team"]
    for r in range(1, rounds + 1):
        header += [f"Game {r} points", f"Game {r} result", f"Game {r} opponent"]
    header += ["Wins", "Losses", "Ties", "Points for", "Place", "Tie-break"]
    rows = [header]
    for team in data["teams"]:
        row: Row = [team["team"]]
        for cell in team["cells"]:
            if cell is None:
                row += ["", "", ""]
            else:
                row += [cell.get("points", ""), cell.get("result", ""), cell["opponent"] or "bye"]
        s = team["standing"]
        row += [
            s.get("wins", ""),
            s.get("losses", ""),
            s.get("ties", ""),
            s.get("points_for", ""),
            s.get("rank", ""),
            s.get("tiebreak", ""),
        ]
        rows.append(row)
    return rows


def games_rows(data: dict[str, Any]) -> list[Row]:
    """Every game: raw points as posted or corrected, and the sheet's points."""
    rows: list[Row] = [
        [
            "Game",
            "Table",
            "A team",
            "B team",
            "A points",
            "B points",
            "A sheet points",
            "B sheet points",
            "Ended by",
            "Status",
            "Source",
        ]
    ]
    for g in data["games"]:
        if g["bye"]:
            continue
        pts, sheet = g["points"] or ["", ""], g["sheet_points"] or ["", ""]
        rows.append(
            [
                g["round"],
                g["table"],
                g["teams"][0],
                g["teams"][1],
                pts[0],
                pts[1],
                sheet[0],
                sheet[1],
                g["ended_by"] if g["points"] else "",
                g["status"],
                g["source"] or "",
            ]
        )
    return rows


def standings_rows(standings: dict[str, Any]) -> list[Row]:
    rows: list[Row] = [
        ["Place", "Team", "Wins", "Losses", "Ties", "Points for", "Points against", "Tie-break"]
    ]
    for s in standings.get("standings", []):
        rows.append(
            [
                s.get("rank"),
                s.get("team"),
                s.get("wins"),
                s.get("losses"),
                s.get("ties"),
                s.get("points_for"),
                s.get("points_against", ""),
                s.get("tiebreak", ""),
            ]
        )
    return rows


def renege_rows(data: dict[str, Any]) -> list[Row]:
    """Every renege report on the sheet, as the director rules on them."""
    rows: list[Row] = [
        ["Game", "Table", "Seat", "Team", "Hand", "Trick", "Proven at", "Penalty", "Frames"]
    ]
    for r in data["reneges"]:
        rows.append(
            [
                r["round"],
                r["table"],
                r.get("seat", ""),
                r.get("team", ""),
                r.get("hand", ""),
                r.get("trick", ""),
                r.get("proven_at", ""),
                r.get("penalty", ""),
                len(r.get("frames", [])),
            ]
        )
    return rows


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "tournament"


def _safe(value: Any) -> Any:
    """Spreadsheets run CSV cells that start with = + - @ as formulas: quote such names.
    (The XLSX marks such cells as text instead, so no apostrophe shows there.)"""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def csv_export(app: App, request: Request, name: str) -> Response:
    """One of the tables as CSV: sheet, games, standings or reneges."""
    data = app.director.sheet()
    if data["tournament"] is None:
        return redirect("/setup")
    if name not in ("sheet", "games", "standings", "reneges"):
        return Response(b"", 404)
    rows = {
        "reneges": lambda: renege_rows(data),
        "sheet": lambda: sheet_rows(data),
        "games": lambda: games_rows(data),
        "standings": lambda: standings_rows(data["standings"]),
    }[name]()
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([_safe(v) for v in row])
    filename = f"{_slug(data['tournament']['name'])}-{name}.csv"
    return Response(
        out.getvalue().encode("utf-8-sig"),  # the BOM makes Excel read accents right
        200,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        media_type="text/csv; charset=utf-8",
    )


def xlsx_bytes(data: dict[str, Any], audit: list[dict[str, Any]]) -> bytes:
    """One workbook: Master sheet, Games, Standings, Reneges, Changes."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheets = [
        ("Master sheet", sheet_rows(data)),
        ("Games", games_rows(data)),
        ("Standings", standings_rows(data["standings"])),
        ("Reneges", renege_rows(data)),
        (
            "Changes",
            [["When (UTC)", "Who", "What", "Why"]]
            + [[a["at"], a["who"], a["what"], a["why"]] for a in reversed(audit)],
        ),
    ]
    for index, (title, rows) in enumerate(sheets):
        ws = book.active if index == 0 else book.create_sheet()
        assert ws is not None
        ws.title = title
        for row in rows:
            ws.append(row)
            for cell in ws[ws.max_row]:  # text, never a formula; no CSV apostrophe shown
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    cell.data_type = "s"
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "B2"
        for column in ws.columns:
            width = max(len(str(c.value or "")) for c in column)
            ws.column_dimensions[column[0].column_letter].width = min(max(8, width + 2), 50)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_export(app: App, request: Request) -> Response:
    data = app.director.sheet()
    if data["tournament"] is None:
        return redirect("/setup")
    filename = f"{_slug(data['tournament']['name'])}.xlsx"
    return Response(
        xlsx_bytes(data, app.director.audit()),
        200,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
