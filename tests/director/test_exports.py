"""CSV and XLSX exports agree with the master sheet."""

from __future__ import annotations

import csv
import io

from openpyxl import load_workbook

from tests.director.helpers import Client, pair, result, setup_form


def rows(client: Client, name: str) -> list[list[str]]:
    response = client.get(f"/export/{name}.csv")
    assert response.status == 200
    assert response.header("Content-Type") == "text/csv; charset=utf-8"
    assert f"spring-fling-{name}.csv" in (response.header("Content-Disposition") or "")
    return list(csv.reader(io.StringIO(response.body.decode("utf-8-sig"))))


def test_csv_master_sheet_and_games(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [11, 7]), "k")
    sheet = rows(tournament, "sheet")
    assert sheet[0][:4] == ["Team", "Game 1 points", "Game 1 result", "Game 1 opponent"]
    by_team = {r[0]: r for r in sheet[1:]}
    assert by_team["Ann & Bob"][1:4] == ["10", "W", "Cy & Di"]
    assert by_team["Cy & Di"][1:4] == ["7", "L", "Ann & Bob"]
    games = rows(tournament, "games")
    first = dict(zip(games[0], games[1], strict=True))
    assert (first["A points"], first["A sheet points"], first["Source"]) == ("11", "10", "kiosk")
    assert len(games) == 1 + 9


def test_csv_standings(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [11, 7]), "k")
    standings = rows(tournament, "standings")
    assert standings[0][:2] == ["Place", "Team"]
    assert standings[1][1] == "Ann & Bob"


def test_spreadsheet_formulas_in_names_are_defused(client: Client) -> None:
    client.post_form("/setup", setup_form(entrants="=HYPERLINK(1)\nCy & Di"))
    sheet = rows(client, "sheet")
    assert sheet[1][0] == "'=HYPERLINK(1)" or sheet[2][0] == "'=HYPERLINK(1)"


def test_xlsx_has_the_sheet_games_standings_and_changes(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [11, 7]), "k")
    tournament.post_form(
        "/game/1/1/correct", {"points_a": "10", "points_b": "8", "who": "Marg", "why": "recount"}
    )
    response = tournament.get("/export/tournament.xlsx")
    assert response.status == 200
    book = load_workbook(io.BytesIO(response.body))
    assert book.sheetnames == ["Master sheet", "Games", "Standings", "Reneges", "Changes"]
    master = {r[0]: r for r in book["Master sheet"].iter_rows(min_row=2, values_only=True)}
    assert master["Cy & Di"][1:3] == (8, "L")
    changes = [r for r in book["Changes"].iter_rows(min_row=2, values_only=True)]
    assert changes[-1][1:] == (
        "Marg",
        "Game 1, table 1: Ann & Bob 10, Cy & Di 8 (was 11-7)",
        "recount",
    )
