"""What a volunteer director meets (issue 59, part 3): a correction sent with a mistake
keeps what was typed, keeping the counted result changes nothing, one word for a game,
every standings column on a phone, no page wider than a phone, no PIN on the page carried
from table to table, a way back from a file too large, spreadsheets without stray marks,
and a printed heading that stays with its table."""

from __future__ import annotations

import io
import urllib.parse
from typing import Any

import pytest
from openpyxl import load_workbook

from tests.director.helpers import Client, game_at, pair, result, setup_form
from tests.director.test_live import browser  # noqa: F401 (the Chromium fixture)


def test_a_correction_sent_with_a_mistake_keeps_what_was_typed(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    page = tournament.soup("/game/1/1")
    assert page.select_one("#points_a")["value"] == "10"  # the boxes start at the score
    assert page.select_one("#points_b")["value"] == "7"
    answer = tournament.post_form("/game/1/1/correct", {
        "points_a": "10", "points_b": "10", "who": "Marg", "why": "kiosk missed a hand"})
    assert answer.status == 422
    from bs4 import BeautifulSoup

    again = BeautifulSoup(answer.text, "html.parser")
    assert "target" in again.select_one("#problem").text
    assert [again.select_one(f"#{k}")["value"] for k in ("points_a", "points_b",
                                                          "fix-who", "fix-why")] == [
        "10", "10", "Marg", "kiosk missed a hand"]


def test_keeping_the_counted_result_changes_nothing_on_paper(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [7, 10]), "b")
    counted = tournament.get("/game/1/1.json").json()["post_list"][0]["id"]
    tournament.post_form("/game/1/1/correct",
                         {"post_id": str(counted), "who": "Marg", "why": "teams agreed"})
    game = game_at(tournament, 1, 1)
    assert (game["status"], game["source"], game["needs_decision"]) == ("counted", "kiosk",
                                                                        False)
    assert "corrected" not in tournament.soup("/sheet").select_one("#master").text
    assert "corrected" not in tournament.soup("/print").select_one("#master").text
    games = tournament.get("/export/games.csv").text
    assert "corrected" not in games and ",counted,kiosk" in games.replace("\r", "")
    book = load_workbook(io.BytesIO(tournament.get("/export/tournament.xlsx").body))
    statuses = [row[9] for row in book["Games"].iter_rows(min_row=2, values_only=True)]
    assert "corrected" not in statuses


def test_a_game_is_called_a_game_everywhere(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    tournament.post_form("/game/1/1/correct", {"points_a": "10", "points_b": "8",
                                               "who": "Marg", "why": "recount"})
    changes = tournament.soup("/audit").text
    assert "Game 1, table 1" in changes and "Round 1" not in changes
    assert "games per team" in tournament.get("/audit.json").json()["audit"][-1]["what"]
    assert "Games per team" in tournament.soup("/setup").text


def test_the_standings_keep_every_column_and_the_reason(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    pair(tournament, 2).post(result(1, ["Ed & Flo", "Gus & Hal"], [10, 7]), "b")
    page = tournament.device("10.1.2.88").get("/standings").text
    assert "Points against" in page
    assert 'class="narrow reason">Tie-break:' in page  # shown under the name on a phone


def test_empty_cells_say_what_they_are(tournament: Client) -> None:
    cell = tournament.soup("/sheet").select_one("#master td.cell.empty a")
    assert "not in yet" in cell.text and "No result yet" in cell["title"]


def test_the_tables_page_carried_around_shows_no_pin(tournament: Client) -> None:
    pin = tournament.app.director.pin
    assert pin not in tournament.get("/tables").text
    assert "Devices" in tournament.soup("/tables").select_one("#laptop").text
    assert pin in tournament.soup("/devices").select_one("#pin").text


def test_a_file_too_large_gets_a_page_with_a_way_back(tournament: Client) -> None:
    url = urllib.parse.urlsplit(tournament.url)
    answer = tournament.request("POST", "/decks", b"x" * (5 * 1024 * 1024), {
        "Content-Type": "multipart/form-data; boundary=XY",
        "Referer": f"http://{url.netloc}/decks"})
    assert answer.status == 413 and answer.header("content-type", ).startswith("text/html")
    assert "What you sent is too large (at most 4 MB)" in answer.text
    assert '<a href="/decks">Go back</a>' in answer.text


def test_the_spreadsheet_shows_names_as_typed(client: Client) -> None:
    client.post_form("/setup", setup_form(entrants="=HYPERLINK(1)\n+Cy & Di\nEd & Flo"))
    book = load_workbook(io.BytesIO(client.get("/export/tournament.xlsx").body))
    names = [row[0] for row in book["Master sheet"].iter_rows(min_row=2, values_only=True)]
    assert "=HYPERLINK(1)" in names and "+Cy & Di" in names  # text, no apostrophe
    cells = [c for c in book["Master sheet"]["A"] if c.value == "=HYPERLINK(1)"]
    assert cells and cells[0].data_type == "s"  # never a formula


def test_the_printed_standings_keep_their_heading(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    section = tournament.soup("/print").select_one("section.keep")
    assert section.select_one("h2").text == "Standings" and section.select_one("#standings")


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_no_page_is_wider_than_the_screen(
    tournament: Client, browser: Any, width: int, height: int  # noqa: F811
) -> None:
    for table in (1, 2, 3):
        teams = tournament.get("/sheet.json").json()["games"][table - 1]["teams"]
        pair(tournament, table).post(result(1, teams, [10, table]), f"k{table}")
    page = browser.new_page(viewport={"width": width, "height": height},
                            extra_http_headers={"X-Forwarded-For": "10.1.2.88"})
    for path in ("/standings", "/sheet", "/seating", "/game/1/1"):
        page.goto(tournament.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
    page.goto(tournament.url + "/standings")
    headers = page.locator("#standings th").all_inner_texts()
    assert "Points against" in " ".join(headers).replace("\n", " ")
    if width < 600:
        assert page.locator("#standings .reason").first.is_visible()
    page.close()
