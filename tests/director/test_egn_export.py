"""The director offers each game a kiosk posted as an EGN file, and the event's games
together; the game page links its file."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest

from kiosk.app.demo import RECORD
from kiosk.egn.game import EgnGame
from kiosk.egn.replay import replay_game
from kiosk.rules.profiles import get_profile
from kiosk.rules.record import HandRecord
from kiosk.rules.scoring import score_hand
from tests.director.helpers import Client, pair, result
from tests.egn.helpers import SCHEMA

DEMO = json.loads(RECORD.read_text())
SEATS = "NESW"


def hand(by: int) -> dict[str, Any]:
    """The demo hand dealt `by` seats further round, with its verdict (alberta55)."""
    def turn(seat: str) -> str:
        return SEATS[(SEATS.index(seat) + by) % 4]

    record = {"dealer": turn("N"), "turn_up": "9H",
              "bids": [b | {"seat": turn(b["seat"])} for b in DEMO["bids"]],
              "tricks": [[turn(p[0]) + p[1:] for p in trick] for trick in DEMO["tricks"]]}
    verdict = score_hand(HandRecord.from_json(record), get_profile("alberta55")).to_json()
    return {"record": record, "result": verdict, "points": verdict["points"]}


def posted(tournament: Client) -> None:
    hands = [hand(0), hand(1)]
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7], hands=hands,
                                    profile="alberta55", tournament="Spring Fling", table=1,
                                    game_id="Spring Fling/r1/t1/1780000000"), "k")


def schema_errors(document: Any) -> list[str]:
    jsonschema = pytest.importorskip("jsonschema", reason="the dev extra installs jsonschema")
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))
    return [error.message for error in validator.iter_errors(document)]


def test_a_game_with_its_hands_is_offered_as_an_egn_file(tournament: Client) -> None:
    posted(tournament)
    page = tournament.get("/game/1/1")
    assert 'href="/game/1/1.egn" id="egn"' in page.text
    response = tournament.get("/game/1/1.egn")
    assert response.status == 200
    assert 'filename="round-1-table-1.egn"' in (response.header("Content-Disposition") or "")
    document = response.json()
    assert schema_errors(document) == []
    assert document["metadata"]["title"] == "Spring Fling: round 1, table 1"
    assert document["metadata"]["finalScore"] == [10, 7]
    assert document["metadata"]["ruleset"] == {"std": False, "canadian": True,
                                               "loner_lead": "LEFT_OF_DEALER"}
    replayed = replay_game(EgnGame.from_json(document), get_profile("alberta55"))
    assert [list(d.score_change) for d in replayed] == [[0, 1], [1, 0]]


def test_the_directors_correction_is_the_games_ruling(tournament: Client) -> None:
    posted(tournament)
    tournament.post_form("/game/1/1/correct",
                         {"points_a": "10", "points_b": "8", "who": "Marg", "why": "recount"})
    description = tournament.get("/game/1/1.egn").json()["metadata"]["description"]
    assert "Director's ruling: Ann & Bob 10, Cy & Di 8 (Marg, " in description
    assert description.endswith(": recount).")


def test_the_events_games_come_as_one_zip_of_egn_files(tournament: Client) -> None:
    posted(tournament)
    pair(tournament, 2).post(result(1, ["Ed & Flo", "Gus & Hal"], [10, 2]), "no-hands")
    assert 'href="/export/games-egn.zip"' in tournament.get("/sheet").text
    response = tournament.get("/export/games-egn.zip")
    assert response.status == 200
    assert response.header("Content-Type") == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.body)) as archive:
        assert archive.namelist() == ["round-1-table-1.egn"]  # table 2 sent no hands
        document = json.loads(archive.read("round-1-table-1.egn"))
    assert document == tournament.get("/game/1/1.egn").json()


def test_a_game_without_hands_or_schedule_has_no_file(tournament: Client) -> None:
    pair(tournament, 2).post(result(1, ["Ed & Flo", "Gus & Hal"], [10, 2]), "no-hands")
    assert tournament.get("/game/1/2.egn").status == 404
    assert tournament.get("/game/1/9.egn").status == 404
    assert 'id="egn"' not in tournament.get("/game/1/2").text
