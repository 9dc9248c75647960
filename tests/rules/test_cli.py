"""`kiosk score-hand` and `kiosk standings` exactly as CONTRACTS.md describes them."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_score_hand_prints_the_contracts_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], made_by_w: dict[str, Any]
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(made_by_w))
    status, out, err = run(capsys, "score-hand", "--rules", "ssc", str(path))
    assert status == 0 and err == ""
    result = json.loads(out)
    assert list(result) == [
        "trump",
        "maker",
        "makers",
        "alone",
        "trick_winners",
        "tricks_won",
        "points",
        "outcome",
        "reneges",
        "irregularities",
    ]
    assert result["points"] == {"NS": 0, "EW": 1}


def test_score_hand_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], made_by_w: dict[str, Any]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(made_by_w)))
    status, out, _err = run(capsys, "score-hand", "--rules", "general", "-")
    assert status == 0 and json.loads(out)["outcome"] == "made"


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["--rules", "hoyle", "-"], "{}", "unknown rule profile 'hoyle'"),
        (["-"], "{}", "--rules PROFILE is required"),
        (["--rules", "ssc", "/no/such/file.json"], "", "cannot read /no/such/file.json"),
        (["--rules", "ssc", "-"], "{not json", "not valid JSON"),
        (
            ["--rules", "ssc", "-"],
            '{"dealer": "N", "turn_up": "ZZ", "bids": [], "tricks": []}',
            "turn_up: 'ZZ' is not a card",
        ),
    ],
)
def test_score_hand_bad_input_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str,
    message: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status, out, err = run(capsys, "score-hand", *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_score_hand_impossible_record_from_fixtures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fixture = json.loads((FIXTURES / "30-error-card-twice.json").read_text())
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(fixture["record"]))
    status, out, err = run(capsys, "score-hand", "--rules", "tournament", str(path))
    assert (status, out) == (2, "")
    assert err == "kiosk score-hand: trick 2: AS is played twice (by E in trick 1)\n"


def test_standings_prints_the_contracts_object(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    games = {
        "games": [{"round": 1, "table": 1, "teams": ["Ann & Bob", "Cy & Di"], "points": [10, 6]}]
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(games)))
    status, out, _err = run(capsys, "standings", "--rules", "alberta55")
    assert status == 0
    assert json.loads(out)["standings"][0] == {
        "rank": 1,
        "team": "Ann & Bob",
        "wins": 1,
        "losses": 0,
        "ties": 0,
        "points_for": 10,
        "points_against": 6,
        "tiebreak": None,
    }


@pytest.mark.parametrize(
    ("stdin", "message"), [("[1, 2", "not valid JSON"), ('{"games": 3}', '{"games": [...]}')]
)
def test_standings_bad_input_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, message: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status, out, err = run(capsys, "standings", "--rules", "ssc", "-")
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["score-hand", "standings"])
@pytest.mark.parametrize(
    "stdin",
    ['{"games": [{"teams": ["A", "B"], "points": [' + "9" * 5000 + ", 1]}]}", "[" * 100_000],
    ids=["a 5000-digit number", "lists nested 100000 deep"],
)
def test_json_python_cannot_decode_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str, stdin: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status, out, err = run(capsys, command, "--rules", "ssc", "-")
    assert status == 2 and out == "" and "not valid JSON" in err and err.count("\n") == 1
