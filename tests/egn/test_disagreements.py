"""Where the kiosk's engine and EGN's reference engine disagree, as the README says
("Euchre Game Notation: where the engines disagree"): each case shown on both."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.egn.game import EgnGame
from kiosk.egn.notation import EgnError
from kiosk.egn.replay import replay_game
from tests.egn.helpers import EGN, GAMES, as_reference

LONE = json.loads((GAMES / "lone-lead.egn").read_text(encoding="utf-8"))


def both(document: dict[str, Any], tmp_path: Path, reference_replay: Any) -> tuple[Any, Any]:
    path = tmp_path / "case.egn"
    path.write_text(json.dumps(document), encoding="utf-8")
    return as_reference(replay_game(EgnGame.from_json(document)))[0], reference_replay(path)[0]


def test_a_deal_stopped_after_three_tricks_scores_only_for_egns_engine(
    tmp_path: Path, reference_replay: Any
) -> None:
    """EGN scores a side's third trick as the hand made; the kiosk's engine waits for a
    hand to end (five tricks, or a renege or other irregularity that ends it)."""
    partial = copy.deepcopy(LONE)
    del partial["deals"][0]["phases"][1]["tricks"][3:]
    ours, theirs = both(partial, tmp_path, reference_replay)
    assert ours["trick_winners"] == theirs["trick_winners"] == [2, 2, 2]
    assert (ours["score_change"], theirs["score_change"]) == ([0, 0], [1, 0])


def test_loner_march_score_is_applied_by_the_kiosk_only(
    tmp_path: Path, reference_replay: Any
) -> None:
    rich = copy.deepcopy(LONE)
    rich["metadata"]["ruleset"]["loner_march_score"] = 5
    ours, theirs = both(rich, tmp_path, reference_replay)
    assert (ours["score_change"], theirs["score_change"]) == ([5, 0], [4, 0])


def test_stick_the_dealer_refuses_eight_passes_where_egns_engine_scores_nothing(
    tmp_path: Path, reference_replay: Any
) -> None:
    game = json.loads((EGN / "examples" / "VWEC Finals.egn").read_text(encoding="utf-8"))
    game["deals"] = game["deals"][:1]
    game["deals"][0]["phases"] = [{"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                                   "calls": ["Pass"] * 8, "isAlone": False}]
    path = tmp_path / "passed.egn"
    path.write_text(json.dumps(game), encoding="utf-8")
    assert reference_replay(path)[0]["score_change"] == [0, 0]
    with pytest.raises(EgnError, match="stick the dealer"):
        replay_game(EgnGame.from_json(game))
