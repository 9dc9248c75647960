"""Standings and tie-breaks (alberta55 tournament play 10, ssc round robin, and the readings
chosen for general and tournament)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.rules.standings import StandingsError, standings_json


def game(a: str, b: str, pa: int, pb: int) -> dict[str, Any]:
    return {"teams": [a, b], "points": [pa, pb]}


def table(rows: list[dict[str, Any]]) -> list[tuple[int, str, str | None]]:
    return [(row["rank"], row["team"], row["tiebreak"]) for row in rows]


def test_output_has_exactly_the_contracts_fields() -> None:
    rows = standings_json(
        {"games": [{"round": 1, "table": 1, "teams": ["Ann & Bob", "Cy & Di"], "points": [10, 6]}]},
        "alberta55",
    )["standings"]
    assert rows == [
        {
            "rank": 1,
            "team": "Ann & Bob",
            "wins": 1,
            "losses": 0,
            "ties": 0,
            "points_for": 10,
            "points_against": 6,
            "tiebreak": None,
        },
        {
            "rank": 2,
            "team": "Cy & Di",
            "wins": 0,
            "losses": 1,
            "ties": 0,
            "points_for": 6,
            "points_against": 10,
            "tiebreak": None,
        },
    ]


def test_alberta55_two_way_tie_not_met_goes_to_total_points_then_coin_flip() -> None:
    games = [
        game("A", "C", 10, 5),
        game("B", "D", 12, 6),
        game("E", "B", 10, 9),
        game("E", "C", 10, 2),
    ]
    rows = standings_json({"games": games}, "alberta55")["standings"]
    # A and B: one win each, never met; B has more points (its 12 recorded as 10, plus 9)
    assert table(rows) == [
        (1, "E", None),
        (2, "B", "points"),
        (3, "A", "points"),
        (4, "C", "points"),
        (5, "D", "points"),
    ]
    assert rows[1]["points_for"] == 19
    games = [game("A", "C", 10, 5), game("B", "D", 10, 5)]
    rows = standings_json({"games": games}, "alberta55")["standings"]
    assert table(rows) == [
        (1, "A", "coin flip and play-off"),
        (1, "B", "coin flip and play-off"),
        (3, "C", "coin flip and play-off"),
        (3, "D", "coin flip and play-off"),
    ]


def test_alberta55_three_way_tie_goes_to_points_for_all_three() -> None:
    games = [game("A", "B", 10, 9), game("B", "C", 10, 4), game("C", "A", 10, 7)]
    rows = standings_json({"games": games}, "alberta55")["standings"]
    # each 1-1: points A 17, B 19, C 14 (who beat who is circular and not used for three)
    assert table(rows) == [(1, "B", "points"), (2, "A", "points"), (3, "C", "points")]


def test_alberta55_three_way_tie_on_points_is_a_coin_flip_and_play_off() -> None:
    games = [game("A", "B", 10, 5), game("B", "C", 10, 5), game("C", "A", 10, 5)]
    rows = standings_json({"games": games}, "alberta55")["standings"]
    assert {row["rank"] for row in rows} == {1}
    assert {row["tiebreak"] for row in rows} == {"coin flip and play-off"}


def test_alberta55_residual_two_way_tie_after_points_uses_who_beat_who() -> None:
    games = [
        game("A", "B", 10, 6),
        game("B", "C", 10, 4),
        game("C", "A", 10, 2),
        game("A", "D", 10, 0),
        game("B", "D", 10, 0),
        game("C", "D", 10, 0),
    ]
    rows = standings_json({"games": games}, "alberta55")["standings"]
    # A, B, C: 2 wins each; points A 22, B 26, C 24 -> all separated by points
    assert table(rows) == [
        (1, "B", "points"),
        (2, "C", "points"),
        (3, "A", "points"),
        (4, "D", None),
    ]
    games[0] = game("A", "B", 10, 4)  # now A 22, B 24, C 24: B and C level
    rows = standings_json({"games": games}, "alberta55")["standings"]
    assert table(rows) == [
        (1, "B", "head-to-head"),
        (2, "C", "head-to-head"),
        (3, "A", "points"),
        (4, "D", None),
    ]


def test_ties_share_the_next_rank_properly() -> None:
    games = [game("A", "B", 10, 5), game("C", "D", 10, 5)]
    rows = standings_json({"games": games}, "ssc")["standings"]
    # A and C: won, never met, equal points -> tied; B and D likewise
    assert [row["rank"] for row in rows] == [1, 1, 3, 3]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], 'an object {"games": [...]}'),
        ({"games": [{"teams": ["A"], "points": [1, 2]}]}, "game 1: 'teams' is a list of two"),
        ({"games": [{"teams": ["A", "A"], "points": [1, 2]}]}, "cannot play itself"),
        ({"games": [{"teams": ["A", "B"], "points": [1, -2]}]}, "'points' is a list of two whole"),
        (
            {"games": [{"teams": ["A", "B"], "points": [1, True]}]},
            "'points' is a list of two whole",
        ),
        (
            {"games": [{"teams": ["A", "B"], "points": [1, 2], "round": "one"}]},
            "'round' is a whole",
        ),
    ],
)
def test_bad_results_are_named(data: Any, message: str) -> None:
    with pytest.raises(StandingsError, match=None) as raised:
        standings_json(data, "ssc")
    assert message in str(raised.value)


def test_unknown_profile_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid: alberta55, general, ssc, tournament"):
        standings_json({"games": []}, "euchre")
