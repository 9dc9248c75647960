"""The master sheet, corrections with their audit trail, standings, and the set-up form."""

from __future__ import annotations

import pytest

from kiosk.director.planning import SetupError, plan_setup
from kiosk.director.sheetdata import sheet_points
from tests.director.helpers import TEAMS, Client, game_at, pair, result, setup_form


def play_round_one(client: Client) -> None:
    pair(client, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [11, 7]), "g1")
    pair(client, 2).post(result(1, ["Ed & Flo", "Gus & Hal"], [4, 10]), "g2")
    pair(client, 3).post(result(1, ["Ivy & Jo", "Kim & Lou"], [6, 5], time_up=True), "g3")


# -- the Master Score Card ---------------------------------------------------


def test_the_winner_is_written_down_with_the_target_the_loser_with_actual_points() -> None:
    assert sheet_points(11, 7, 10) == (10, 7)  # a march at 9 goes to 11: the card says 10
    assert sheet_points(3, 10, 10) == (3, 10)
    assert sheet_points(6, 5, 10) == (6, 5)  # stopped on time: points as they stood


def test_master_card_rows_and_cells(tournament: Client) -> None:
    play_round_one(tournament)
    soup = tournament.soup("/sheet")
    rows = {
        tr.select_one("td b").text: [td.select_one(".pts").text for td in tr.select("td.cell")]
        for tr in soup.select("#master tbody tr")
    }
    assert set(rows) == set(TEAMS)
    assert rows["Ann & Bob"][0] == "10" and rows["Cy & Di"][0] == "7"
    assert rows["Gus & Hal"][0] == "10" and rows["Ed & Flo"][0] == "4"
    assert rows["Ivy & Jo"][0] == "6" and rows["Kim & Lou"][0] == "5"
    winner_cell = soup.select("#master tbody tr")[0].select("td.cell")[0]
    assert "W" in winner_cell["class"]
    assert soup.select_one("#progress").text.startswith("3 of 9 games reported")
    timed = soup.select_one('#games tr[data-game="1-3"] .score').text
    assert "(time)" in timed


def test_standings_come_from_the_rules_engine_with_reasons(tournament: Client) -> None:
    pytest.importorskip("kiosk.rules.standings")
    play_round_one(tournament)
    standings = tournament.get("/standings.json").json()["standings"]
    assert [row["team"] for row in standings if row["wins"] == 1] == [
        "Ann & Bob",
        "Gus & Hal",
        "Ivy & Jo",
    ] or {row["team"] for row in standings if row["wins"] == 1} == {
        "Ann & Bob",
        "Gus & Hal",
        "Ivy & Jo",
    }
    ann = next(row for row in standings if row["team"] == "Ann & Bob")
    assert ann["points_for"] == 10 and ann["points_against"] == 7  # sheet points, not 11
    assert all("tiebreak" in row for row in standings)
    soup = tournament.soup("/sheet")
    assert len(soup.select("#standings tbody tr")) == len(standings)


def test_live_part_answers_not_modified_until_something_changes(tournament: Client) -> None:
    first = tournament.get("/sheet?part=live")
    etag = first.header("ETag")
    assert first.status == 200 and etag
    assert tournament.get("/sheet?part=live", {"If-None-Match": etag}).status == 304
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 2]), "k")
    again = tournament.get("/sheet?part=live", {"If-None-Match": etag})
    assert again.status == 200 and again.header("ETag") != etag
    assert "10 – 2" in again.text


# -- corrections and the audit trail ----------------------------------------


def test_a_correction_is_a_new_row_and_the_kiosks_post_stays(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    response = tournament.post_form(
        "/game/1/1/correct",
        {"points_a": "8", "points_b": "10", "who": "Marg", "why": "kiosk missed the last hand"},
    )
    assert response.status == 303
    game = tournament.get("/game/1/1.json").json()
    assert (
        game["points"] == [8, 10] and game["status"] == "corrected" and game["source"] == "director"
    )
    assert [p["result"]["points"] for p in game["post_list"]] == [[10, 7]]  # untouched
    [fix] = game["corrections"]
    assert (fix["who"], fix["why"], fix["points_a"], fix["points_b"]) == (
        "Marg",
        "kiosk missed the last hand",
        8,
        10,
    )
    audit = tournament.get("/audit.json").json()["audit"]
    assert audit[0]["who"] == "Marg" and audit[0]["why"] == "kiosk missed the last hand"
    assert "Ann & Bob 8, Cy & Di 10" in audit[0]["what"]
    soup = tournament.soup("/game/1/1")
    assert soup.select_one("#score").text == "8 – 10"
    assert "Marg" in soup.select_one("#corrections").text
    assert "director_name=Marg" in (response.header("Set-Cookie") or "")


def test_a_correction_needs_who_and_why(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    response = tournament.post_form(
        "/game/1/1/correct", {"points_a": "8", "points_b": "10", "who": "Marg"}
    )
    assert response.status == 422 and "why" in response.text
    assert game_at(tournament, 1, 1)["points"] == [10, 7]


def test_the_director_settles_a_conflict_by_choosing_a_post(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    conflict_id = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [9, 10]), "b").json()["result_id"]
    soup = tournament.soup("/game/1/1")
    assert soup.select_one(f"#post-{conflict_id} form button").text == "Count this result instead"
    tournament.post_form(
        "/game/1/1/correct", {"post_id": str(conflict_id), "who": "Marg", "why": "teams agreed"}
    )
    game = game_at(tournament, 1, 1)
    assert game["points"] == [9, 10] and not game["needs_decision"]
    # a later disagreeing post needs a new decision
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 3]), "c")
    assert game_at(tournament, 1, 1)["needs_decision"]


def test_voiding_a_game(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    tournament.post_form("/game/1/1/correct", {"void": "on", "who": "Marg", "why": "wrong table"})
    game = game_at(tournament, 1, 1)
    assert game["status"] == "void" and game["sheet_points"] is None


def test_a_browser_on_another_device_needs_the_pin(tournament: Client) -> None:
    phone = tournament.device("10.1.2.88")
    assert phone.get("/sheet").status == 200  # anyone may watch
    assert phone.get("/tables").status == 303  # but not see the pairing codes
    bad = phone.post_form("/login", {"pin": "nope", "next": "/tables"}, csrf=False)
    assert bad.status == 403
    good = phone.post_form(
        "/login", {"pin": tournament.app.director.pin, "next": "/tables"}, csrf=False
    )
    assert good.status == 303 and good.header("Location") == "/tables"
    phone.cookies = (good.header("Set-Cookie") or "").split(";")[0]
    assert phone.get("/tables").status == 200
    assert phone.post_form("/login", {"pin": "x", "next": "//evil"}, csrf=False).status == 403


# -- set-up ---------------------------------------------------------------------


def test_setup_page_offers_every_profile(client: Client) -> None:
    soup = client.soup("/setup")
    assert {i["value"] for i in soup.select('input[name="profile"]')} == {
        "alberta55",
        "general",
        "ssc",
        "tournament",
    }
    assert soup.select_one("textarea#entrants") is not None
    assert client.get("/").header("Location") == "/setup"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": ""}, "name"),
        ({"profile": "hoyle"}, "choose the rules"),
        ({"entrants": ""}, "list the teams"),
        ({"entrants": "Ann & Bob\nann  &  BOB"}, "listed twice"),
        ({"tables": "7"}, "need 3 tables, not 7"),
        ({"entry": "players", "entrants": "a\nb\nc\nd\ne"}, "add 3 more"),
        ({"points_to_win": "ten"}, "whole number"),
        ({"rounds": "4"}, "between 1 and 3"),
    ],
)
def test_setup_mistakes_are_explained(client: Client, form: dict[str, str], message: str) -> None:
    response = client.post_form("/setup", setup_form(**form))
    assert response.status == 400
    assert message in response.text
    with pytest.raises(SetupError, match=message):
        plan_setup(setup_form(**form))


def test_an_odd_number_of_teams_gets_a_bye(client: Client) -> None:
    client.post_form("/setup", setup_form(entrants="\n".join(TEAMS[:5])))
    seating = client.get("/seating.json").json()["seating"]
    assert len(seating) == 9  # three tables, three rounds
    byes = [s for s in seating if s["bye"]]
    assert len(byes) == 3 and all(s["teams"][1] is None for s in byes)
    assert sorted(s["teams"][0] for s in byes) == sorted(["Ann & Bob", "Ed & Flo", "Ivy & Jo"])
    assert client.get("/sheet.json").json()["scheduled"] == 6


def test_setup_can_be_redone_until_the_first_result(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    renamed = setup_form(entrants="\n".join(["Ann & Bobby"] + TEAMS[1:]))
    assert tournament.post_form("/setup", renamed).status == 303
    assert kiosk.info()["rounds"][0]["teams"] == ["Ann & Bobby", "Cy & Di"]  # still paired
    kiosk.post(result(1, ["Ann & Bobby", "Cy & Di"], [10, 1]), "k")
    response = tournament.post_form("/setup", setup_form())
    assert response.status == 400 and "cannot be set up again" in response.text


def test_b_teams_moving_down_is_a_set_up_choice(client: Client) -> None:
    client.post_form("/setup", setup_form(b_moves_down="on"))
    seating = client.get("/seating.json").json()["seating"]
    cy = [s["table"] for s in seating if "Cy & Di" in s["teams"]]
    assert cy == [1, 3, 2]
    assert "B team moves down" in client.soup("/seating").select_one(
        "p.lead"
    ).text or "B teams" in (client.soup("/seating").select_one("p.lead").text)


def test_players_cut_for_partners_then_play_as_teams(client: Client) -> None:
    players = [f"Player {i}" for i in range(1, 9)]
    client.post_form("/setup", setup_form(entry="players", entrants="\n".join(players)))
    pending = client.get("/sheet.json").json()["games"][0]["teams"]
    assert pending == ["Table 1 A team (to cut)", "Table 1 B team (to cut)"]
    soup = client.soup("/seating")
    assert len(soup.select('form[action="/seating/cut"]')) == 2
    client.post_form(
        "/seating/cut",
        {"table": "1", "a1": "Player 3", "a2": "Player 1", "b1": "Player 2", "b2": "Player 4"},
    )
    kiosk = pair(client, 2)
    cut = kiosk.client.post_json(
        "/api/v1/cut",
        {"a": ["Player 5", "Player 8"], "b": ["Player 6", "Player 7"]},
        kiosk.headers(),
    )
    assert cut.status == 200
    rounds = [s["teams"] for s in client.get("/seating.json").json()["seating"]]
    assert rounds == [
        ["Player 3 & Player 1", "Player 2 & Player 4"],
        ["Player 5 & Player 8", "Player 6 & Player 7"],
        ["Player 5 & Player 8", "Player 2 & Player 4"],
        ["Player 3 & Player 1", "Player 6 & Player 7"],
    ]
    wrong = kiosk.client.post_json(
        "/api/v1/cut",
        {"a": ["Player 1", "Player 8"], "b": ["Player 6", "Player 7"]},
        kiosk.headers(),
    )
    assert wrong.status == 409


def test_a_progressive_event_seats_the_next_game_when_every_table_reports(client: Client) -> None:
    players = [f"P{i}" for i in range(8)]
    response = client.post_form(
        "/setup",
        setup_form(
            profile="tournament", format="progressive", entrants="\n".join(players), rounds="3"
        ),
    )
    assert response.status == 303
    one, two = pair(client, 1), pair(client, 2)
    assert one.info()["hands_per_game"] == 8
    assert one.info()["rounds"][0]["teams"] == ["P0 & P2", "P1 & P3"]
    one.post(
        result(
            1,
            ["P0 & P2", "P1 & P3"],
            [9, 4],
            ended_by="hands",
            player_points={"P0": 13, "P2": 9, "P1": 4, "P3": 4},
        ),
        "a",
    )
    assert len(client.get("/seating.json").json()["seating"]) == 2  # waiting for table 2
    two.post(result(1, ["P4 & P6", "P5 & P7"], [3, 8], ended_by="hands"), "b")
    seating = client.get("/seating.json").json()["seating"]
    second = {s["table"]: s["seats"] for s in seating if s["round"] == 2}
    assert second[1] == {"N": "P0", "E": "P2", "S": "P5", "W": "P7"}
    assert second[2] == {"N": "P4", "E": "P6", "S": "P1", "W": "P3"}
    standings = client.get("/standings.json").json()["standings"]
    assert standings[0] == standings[0] | {"team": "P0", "points_for": 13, "rank": 1}
    assert {r["team"]: r["points_for"] for r in standings}["P5"] == 8


def test_every_page_renders(tournament: Client) -> None:
    play_round_one(tournament)
    for path in (
        "/sheet",
        "/seating",
        "/tables",
        "/setup",
        "/audit",
        "/print",
        "/game/1/1",
        "/standings",
        "/login",
        "/pair?table=1&code=ABC",
    ):
        soup = tournament.soup(path)
        assert soup.select_one("h1") is not None, path
    print_page = tournament.soup("/print")
    assert print_page.select_one("#master") is not None
    sheet = print_page.select_one('link[rel="stylesheet"]')["href"]
    assert "@media print" in tournament.get(sheet).text  # a file, so the CSP forbids inline style


def test_the_set_up_form_is_locked_once_results_came_in(tournament: Client) -> None:
    assert tournament.soup("/setup").select_one("form fieldset").get("disabled") is None
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 1]), "k")
    assert tournament.soup("/setup").select_one("form fieldset").has_attr("disabled")


# -- what a real director missed (issue 42) -------------------------------------


def test_the_laptop_shows_the_pin_and_the_kiosks_address_and_no_one_else_does(
    tournament: Client,
) -> None:
    pin = tournament.app.director.pin
    for path in ("/setup", "/devices"):  # (not /tables: it is carried from table to table)
        laptop = tournament.soup(path).select_one("#laptop")
        assert laptop is not None and pin in laptop.text and "10.1.2.3:8555" in laptop.text
    phone = tournament.device("10.1.2.88")
    for path in ("/standings", "/sheet", "/login"):
        assert pin not in phone.get(path).text


def test_rule_books_are_named_in_words(tournament: Client) -> None:
    assert "Alberta 55 Plus rules" in tournament.soup("/sheet").select_one("p.lead").text
    labels = [lab.text for lab in tournament.soup("/setup").select("label.choice")]
    assert any("SSC league" in text for text in labels)


def test_keep_the_counted_result_settles_a_conflict(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [9, 10]), "b")
    soup = tournament.soup("/game/1/1")
    keep = soup.select_one("#decide form")
    assert keep.select_one("button").text == "Keep the counted result"
    ids = [i["id"] for i in soup.select("input[id]")]
    assert len(ids) == len(set(ids))  # each form has its own fields
    fields = {i["name"]: i.get("value", "") for i in keep.select("input")}
    response = tournament.post_form(
        "/game/1/1/correct", fields | {"who": "Marg", "why": "the kiosk was right"}
    )
    assert response.status == 303 and "problem" not in (response.header("Location") or "")
    game = game_at(tournament, 1, 1)
    assert game["points"] == [10, 7] and not game["needs_decision"]


def test_the_print_page_is_dated_and_lists_the_reneges(tournament: Client) -> None:
    renege = {"hand": 2, "seat": "S", "trick": 3, "team": "Cy & Di", "penalty": "2 points"}
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4], reneges=[renege]), "k")
    page = tournament.soup("/print")
    assert "printed" in page.select_one("main p").text
    assert page.select_one("#reneges") is not None and "Cy & Di" in page.select_one("#reneges").text
    rows = tournament.get("/export/reneges.csv").body.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("Game,Table,Seat") and "Cy & Di" in rows[1]


def test_a_phone_sees_the_standings_without_director_links(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "k")
    phone = tournament.device("10.1.2.88")
    assert phone.get("/").header("Location") == "/standings"
    soup = phone.soup("/standings")
    assert [a["href"] for a in soup.select("header nav a")] == ["/standings", "/sheet", "/seating"]
    assert soup.select_one('meta[name="viewport"]') is not None
    assert soup.select_one("#standings tbody tr td:nth-of-type(2)").text == "Ann & Bob"
    assert not soup.select("form")
