"""A game's running score (alberta55 9 GAME; every book's 'first team to reach 10')."""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.rules.game import GameOverError, game_tally, result_on_time
from kiosk.rules.profiles import get_profile


def test_the_first_side_to_reach_the_target_wins() -> None:
    tally = game_tally(
        [{"NS": 4, "EW": 0}, {"NS": 0, "EW": 2}, {"NS": 4, "EW": 0}, {"NS": 2, "EW": 0}],
        get_profile("ssc"),
    )
    assert tally.points == {"NS": 10, "EW": 2} and tally.winner == "NS" and tally.hands == 4


def test_no_hand_after_the_game_is_won() -> None:
    profile = dataclasses.replace(get_profile("general"), points_to_win=5)
    with pytest.raises(GameOverError):
        game_tally([{"NS": 4, "EW": 0}, {"NS": 1, "EW": 0}, {"NS": 1, "EW": 0}], profile)


def test_a_timed_game_can_end_tied() -> None:
    assert result_on_time({"NS": 7, "EW": 7}) is None
    assert result_on_time({"NS": 7, "EW": 8}) == "EW"


def test_points_to_win_must_be_positive() -> None:
    with pytest.raises(ValueError, match="points_to_win"):
        dataclasses.replace(get_profile("ssc"), points_to_win=0)
