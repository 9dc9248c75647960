"""A game whose players' 5s were left unsettled reaches the director with it: the
kiosk's ``markers`` (docs/director-api.md) is kept as posted and shown on the game's
page, and counting the result is not changed by it."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.app.demo import RECORD
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup
from tests.director.helpers import Client, game_at, pair, result


def kiosk_markers(tmp_path: Path) -> list[dict[str, object]]:
    """What a real session sends after one hand whose 5s the players held right."""
    from tests.table.test_session import feed_tricks, play_bids

    session = TableSession.open(tmp_path / "j.sqlite3")
    session.configure(TableSetup(tournament="Spring", table=1, round=1, team_ns="Ann & Bob",
                                 team_ew="Cy & Di", profile="alberta55", points_to_win=10,
                                 minutes=0))
    demo = json.loads(RECORD.read_text())
    session.start_game(demo["dealer"])
    session.see_turn_up(demo["turn_up"])
    play_bids(session, demo["bids"])
    feed_tricks(session, demo["tricks"])
    session.next_hand()
    session.see_markers({"NS": 0, "EW": 2})  # the kiosk has EW on 1
    session.answer_markers("EW", "fives")
    reported = session.game_result()["markers"]
    assert isinstance(reported, list)
    return reported


def test_unsettled_fives_reach_the_director_with_the_game(tournament: Client,
                                                           tmp_path: Path) -> None:
    markers = kiosk_markers(tmp_path)
    assert markers == [{"hand": 1, "side": "EW", "fives": 2, "kiosk": 1, "answer": "fives",
                        "team": "Cy & Di"}]
    kiosk = pair(tournament, 1)
    answer = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4], markers=markers), "m1")
    assert answer.status == 200 and answer.json()["status"] == "counted", answer.text
    game = game_at(tournament, 1, 1)
    assert game["status"] != "waiting"
    detail = tournament.get("/game/1/1.json").json()
    assert detail["post_list"][0]["result"]["markers"] == markers
    page = tournament.get("/game/1/1").text
    assert "&#34;fives&#34;: 2" in page or '"fives": 2' in page


def test_a_post_without_markers_is_counted_as_before(tournament: Client) -> None:
    kiosk = pair(tournament, 2)
    answer = kiosk.post(result(1, ["Ed & Flo", "Gus & Hal"], [10, 7]), "m2")
    assert answer.status == 200, answer.text
    assert "markers" not in tournament.get("/game/1/2.json").json()["post_list"][0]["result"]
