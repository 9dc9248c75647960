"""The kiosks' API in process: pairing and trust, results counted once, conflicts flagged."""

from __future__ import annotations

import base64

import pytest

from tests.director.helpers import Client, game_at, pair, result


def test_health_says_whether_a_tournament_is_set_up(client: Client) -> None:
    assert client.get("/api/v1/health").json() == {"ok": True, "api": 1, "tournament": None}


def test_a_code_pairs_its_table_once(tournament: Client) -> None:
    codes = {t["table_no"]: t["code"] for t in tournament.get("/tables.json").json()["tables"]}
    assert len(codes) == 3 and all(len(c) == 6 for c in codes.values())
    kiosk = tournament.device("10.1.2.50")
    first = kiosk.post_json("/api/v1/pair", {"code": codes[2].lower()})
    assert first.status == 200
    assert first.json()["table"] == 2 and first.json()["server"] == "http://10.1.2.3:8555"
    again = kiosk.post_json("/api/v1/pair", {"code": codes[2]})
    assert again.status == 403 and "already used" in again.json()["error"]
    tables = {t["table_no"]: t for t in tournament.get("/tables.json").json()["tables"]}
    assert tables[2]["paired"] and tables[2]["code"] is None
    assert tables[2]["paired_from"] == "10.1.2.50"


def test_wrong_codes_are_throttled(tournament: Client) -> None:
    guesser = tournament.device("10.9.9.9")
    statuses = [guesser.post_json("/api/v1/pair", {"code": "AAAAAA"}).status for _ in range(11)]
    assert statuses[:10] == [403] * 10 and statuses[10] == 429


def test_only_paired_kiosks_can_post(tournament: Client) -> None:
    body = result(1, ["Ann & Bob", "Cy & Di"], [10, 4])
    no_token = tournament.post_json("/api/v1/results", body, {"Idempotency-Key": "k"})
    assert no_token.status == 401
    bad = tournament.post_json(
        "/api/v1/results", body, {"Idempotency-Key": "k", "Authorization": "Bearer nope"}
    )
    assert bad.status == 401
    assert game_at(tournament, 1, 1)["status"] == "waiting"


def test_revoking_a_table_cuts_its_kiosk_off_and_issues_a_new_code(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    assert kiosk.info()["table"] == 1
    response = tournament.post_form("/tables/1/revoke", {"why": "tablet swapped"})
    assert response.status == 303
    assert kiosk.client.get("/api/v1/table", kiosk.headers()).status == 401
    assert kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "k1").status == 401
    fresh = pair(tournament, 1)  # the new code works
    assert fresh.info()["table"] == 1
    assert any(a["action"] == "revoke" for a in tournament.get("/audit.json").json()["audit"])


def test_revoking_needs_the_director(tournament: Client) -> None:
    stranger = tournament.device("10.1.2.77")
    assert stranger.post_form("/tables/1/revoke", {}, csrf=False).status == 401
    assert tournament.post_form("/tables/1/revoke", {"csrf": "forged"}).status == 403


def test_table_info_gives_the_seating_for_every_round(tournament: Client) -> None:
    info = pair(tournament, 2).info()
    assert info["points_to_win"] == 10 and info["game_minutes"] == 25
    assert [r["teams"] for r in info["rounds"]] == [
        ["Ed & Flo", "Gus & Hal"],
        ["Ann & Bob", "Gus & Hal"],  # A teams move up one table
        ["Ivy & Jo", "Gus & Hal"],
    ]
    assert info["next_round"] == 1


def test_a_result_counts_once_however_often_it_is_sent(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    body = result(1, ["Cy & Di", "Ann & Bob"], [7, 10])  # teams in either order
    first = kiosk.post(body, "t1-r1")
    assert first.status == 200
    assert first.json() | {"result_id": 0} == {
        "acknowledged": True,
        "status": "counted",
        "result_id": 0,
        "replay": False,
        "note": "",
    }
    replay = kiosk.post(body, "t1-r1")
    assert replay.json()["replay"] is True
    assert replay.json()["result_id"] == first.json()["result_id"]
    game = game_at(tournament, 1, 1)
    assert game["points"] == [10, 7] and game["posts"] == 1 and game["status"] == "counted"
    assert kiosk.info()["next_round"] == 2


def test_the_same_result_under_a_new_key_is_kept_but_not_counted_twice(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    echo = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "b")
    assert echo.json()["status"] == "same"
    game = game_at(tournament, 1, 1)
    assert game["posts"] == 2 and game["points"] == [10, 7] and not game["needs_decision"]
    standings = tournament.get("/standings.json").json()["standings"]
    assert sum(row["wins"] for row in standings) == 1


def test_a_conflicting_result_is_flagged_not_overwritten(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "a")
    other = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [8, 10]), "b")
    assert other.status == 200 and other.json()["status"] == "conflict"
    assert "10-7" in other.json()["note"]
    game = game_at(tournament, 1, 1)
    assert game["points"] == [10, 7]  # the first result still stands
    assert game["status"] == "conflict" and game["needs_decision"]
    sheet = tournament.get("/sheet.json").json()
    assert [(g["round"], g["table"]) for g in sheet["attention"]] == [(1, 1)]


def test_teams_that_do_not_fit_the_seating_are_flagged(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    response = kiosk.post(result(1, ["Ann & Bob", "Ed & Flo"], [10, 2]), "x")
    assert response.json()["status"] == "conflict"
    assert "not the ones seated at table 1" in response.json()["note"]
    game = game_at(tournament, 1, 1)
    assert game["points"] is None and game["needs_decision"]


def test_a_kiosk_claiming_another_table_is_flagged(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    response = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 2], table=2), "x")
    assert response.json()["status"] == "conflict"
    assert "says it is table 2" in response.json()["note"]


def test_reusing_a_key_for_a_different_result_is_refused(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    response = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 8]), "k")
    assert response.status == 409
    assert game_at(tournament, 1, 1)["points"] == [10, 7]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"teams": ["a", "b"], "points": [1, 2]}, "round"),
        ({"round": 1, "teams": ["a"], "points": [1, 2]}, "teams"),
        ({"round": 1, "teams": ["a", "b"], "points": [1, -2]}, "points"),
        ({"round": 1, "teams": ["a", "b"], "points": [1, 2], "ended_by": "rain"}, "ended_by"),
        (
            {"round": 1, "teams": ["a", "b"], "points": [1, 2],
             "reneges": [{"seat": "S", "frames": "x"}]},
            "frames",
        ),
    ],
)
def test_malformed_results_are_refused_with_a_reason(
    tournament: Client, body: dict[str, object], message: str
) -> None:
    kiosk = pair(tournament, 1)
    response = kiosk.post(body, "k")
    assert response.status == 422 and message in response.json()["error"]


def test_a_result_needs_an_idempotency_key(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    response = kiosk.client.post_json(
        "/api/v1/results", result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), kiosk.headers()
    )
    assert response.status == 422 and "idempotency key" in response.json()["error"]
    in_body = kiosk.client.post_json(
        "/api/v1/results",
        result(1, ["Ann & Bob", "Cy & Di"], [10, 7], idempotency_key="in-body"),
        kiosk.headers(),
    )
    assert in_body.json()["status"] == "counted"


JPEG = base64.b64encode(b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9").decode()
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake-png").decode()


def test_renege_reports_keep_their_frames(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    renege = {
        "hand": 3,
        "seat": "S",
        "trick": 2,
        "proven_at": 4,
        "team": "Cy & Di",
        "penalty": "2 points to Ann & Bob",
        "frames": [
            {"label": "trick 2: S plays 9D on a heart lead", "image": JPEG},
            {"label": "trick 4: S plays TH", "image": "data:image/png;base64," + PNG},
        ],
    }
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 5], reneges=[renege]), "r")
    reported = tournament.get("/sheet.json").json()["reneges"]
    assert len(reported) == 1 and reported[0]["seat"] == "S" and len(reported[0]["frames"]) == 2
    image = tournament.get(f"/frames/{reported[0]['frames'][0]}")
    assert image.status == 200 and image.header("Content-Type") == "image/jpeg"
    assert image.body == base64.b64decode(JPEG)
    second = tournament.get(f"/frames/{reported[0]['frames'][1]}")
    assert second.header("Content-Type") == "image/png"
    detail = tournament.get("/game/1/1.json").json()
    assert "frames" not in detail["post_list"][0]["result"]["reneges"][0]  # kept out of the JSON
    assert detail["post_list"][0]["result"]["reneges"][0]["frame_count"] == 2


def test_players_can_call_the_director(tournament: Client) -> None:
    kiosk = pair(tournament, 3)
    headers = kiosk.headers("call-1")
    for _ in range(2):
        assert kiosk.client.post_json("/api/v1/calls", {"hand": 4}, headers).status == 200
    calls = tournament.get("/sheet.json").json()["calls"]
    assert [(c["table_no"], c["hand"]) for c in calls] == [(3, 4)]
    tournament.post_form(f"/calls/{calls[0]['id']}/answer", {})
    assert tournament.get("/sheet.json").json()["calls"] == []


def test_players_can_withdraw_their_call(tournament: Client) -> None:
    kiosk = pair(tournament, 3)
    assert kiosk.client.post_json("/api/v1/calls", {"hand": 2},
                                  kiosk.headers("call-1")).status == 200
    assert len(tournament.get("/sheet.json").json()["calls"]) == 1
    withdrawn = kiosk.client.post_json("/api/v1/calls", {"hand": 2, "cancelled": True},
                                       kiosk.headers("call-2"))
    assert withdrawn.status == 200 and withdrawn.json()["acknowledged"] is True
    assert tournament.get("/sheet.json").json()["calls"] == []


def test_unknown_addresses_and_methods(client: Client) -> None:
    assert client.get("/nope").status == 404
    assert client.get("/api/v1/nope").json()["status"] == 404
    assert client.get("/api/v1/results").status == 405


def test_reneges_proven_in_the_hand_records_are_reported_too(tournament: Client) -> None:
    kiosk = pair(tournament, 2)
    hands = [
        {"record": {"dealer": "N"}, "result": {"reneges": []}, "points": {"NS": 1, "EW": 0}},
        {
            "record": {"dealer": "E"},
            "result": {"reneges": [{"seat": "S", "trick": 2, "proven_at": 4}]},
            "points": {"NS": 0, "EW": 2},
        },
    ]
    kiosk.post(result(1, ["Ed & Flo", "Gus & Hal"], [10, 8], hands=hands), "h")
    [report] = tournament.get("/sheet.json").json()["reneges"]
    assert (report["round"], report["table"], report["hand"], report["seat"]) == (1, 2, 2, "S")
    assert report["trick"] == 2 and report["proven_at"] == 4 and report["frames"] == []


def test_a_result_for_a_game_not_on_the_schedule_is_kept_and_shown(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    response = kiosk.post(result(9, ["Ann & Bob", "Cy & Di"], [10, 4]), "wrong-round")
    assert response.json()["status"] == "conflict"
    assert "no game 9 is scheduled at table 1" in response.json()["note"]
    [stray] = tournament.get("/sheet.json").json()["strays"]
    assert (stray["round"], stray["table"], stray["points"]) == (9, 1, [10, 4])
    assert "not on the schedule" in tournament.get("/sheet").text
