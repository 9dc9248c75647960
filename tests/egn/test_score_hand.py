"""Real games as a test of the rules engine: every deal of the games in
../shared/egn/examples/ goes through `kiosk score-hand` under the book that matches
their ruleset (std, no Canadian loner: the tournament book), and the verdict is
compared with the trick winners and score changes EGN's reference engine gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main
from kiosk.egn.notation import SEATS
from tests.egn.helpers import EXAMPLES, GAMES, example_ids


def command(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(args) == 0
    return capsys.readouterr().out


def score_hands(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                rules: str = "tournament") -> list[dict[str, Any]]:
    """`kiosk egn read`, then `kiosk score-hand` on each record it prints."""
    verdicts = []
    for number, line in enumerate(command(["egn", "read", str(path)], capsys).splitlines()):
        record = tmp_path / f"hand{number}.json"
        record.write_text(line, encoding="utf-8")
        verdicts.append(json.loads(command(["score-hand", "--rules", rules, str(record)],
                                           capsys)))
    return verdicts


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids())
def test_score_hand_agrees_with_egns_reference_engine_on_every_real_deal(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], reference_replay: Any
) -> None:
    verdicts = score_hands(path, tmp_path, capsys)
    reference = reference_replay(path)
    assert len(verdicts) == len(reference) > 0
    for verdict, deal in zip(verdicts, reference, strict=True):
        assert verdict["outcome"] in ("made", "march", "euchred"), deal["deal"]
        assert verdict["reneges"] == [] and verdict["irregularities"] == []
        assert verdict["trick_winners"] == [SEATS[seat].value for seat in deal["trick_winners"]]
        assert [verdict["points"]["NS"], verdict["points"]["EW"]] == deal["score_change"]


def test_a_lead_from_the_loners_left_is_out_of_turn_under_the_tournament_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The books lead from the dealer's left: a record read under LEFT_OF_LONER, scored
    under the tournament book, is a defender's lead out of turn: 4 to the lone hand's side
    (by the penalty, not the march)."""
    [verdict] = score_hands(GAMES / "lone-lead.egn", tmp_path, capsys)
    assert verdict["outcome"] == "lead_out_of_turn"
    assert verdict["irregularities"][0] == {"kind": "lead_out_of_turn", "seat": "W",
                                            "trick": 1, "ruling": "penalty"}
    assert verdict["points"] == {"NS": 4, "EW": 0}
