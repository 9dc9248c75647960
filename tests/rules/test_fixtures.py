"""Replay every hand record in fixtures/ under every profile and compare with its expectations.

Each fixture is `{"about", "clauses", "record", "expect"}`; `expect` maps a
profile id (or `all`, for the profiles not named) to the fields of the
`score-hand` output it must show, or to `{"error": "..."}`, a text the
one-line error must contain.  `penalty_options` must be absent unless expected.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.profiles import PROFILES, get_profile
from kiosk.rules.record import HandRecord, HandRecordError, dump_hand_record, load_hand_record
from kiosk.rules.scoring import score_hand

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.json"))
CASES = [
    pytest.param(path, profile, id=f"{path.stem}[{profile}]")
    for path in FIXTURES
    for profile in PROFILES
]


def expectation(fixture: dict[str, Any], profile: str) -> dict[str, Any]:
    expect = fixture["expect"]
    return expect[profile] if profile in expect else expect["all"]


def test_there_are_at_least_thirty_fixtures() -> None:
    assert len(FIXTURES) >= 30


@pytest.mark.parametrize(("path", "profile"), CASES)
def test_fixture(path: Path, profile: str) -> None:
    fixture = json.loads(path.read_text())
    expected = expectation(fixture, profile)
    if "error" in expected:
        with pytest.raises(HandRecordError) as raised:
            score_hand(HandRecord.from_json(fixture["record"]), get_profile(profile))
        message = str(raised.value)
        assert expected["error"] in message
        assert "\n" not in message
        return
    result = score_hand(HandRecord.from_json(fixture["record"]), get_profile(profile)).to_json()
    for key, value in expected.items():
        assert result[key] == value, f"{key}: {result[key]!r} != {value!r}"
    if "penalty_options" not in expected:
        assert "penalty_options" not in result


@pytest.mark.parametrize("path", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_fixture_record_dumps_and_loads_back(path: Path) -> None:
    fixture = json.loads(path.read_text())
    try:
        record = HandRecord.from_json(fixture["record"])
    except HandRecordError:
        return  # malformed on purpose
    assert load_hand_record(dump_hand_record(record)) == record


def test_every_profile_difference_shows_in_some_fixture() -> None:
    """Each pair of profiles must disagree on at least one fixture."""
    fixtures = [json.loads(path.read_text()) for path in FIXTURES]
    for first in PROFILES:
        for second in PROFILES:
            if first < second:
                assert any(expectation(f, first) != expectation(f, second) for f in fixtures), (
                    f"no fixture tells {first} from {second}"
                )
