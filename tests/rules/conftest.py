"""Shared helpers for the rules tests: one known deal and a one-call scorer.

The deal (dealer N, turn-up 9H; the kitty holds JC JS QS):
    N: TS QH 9C KC KH    E: AS JH AD QD QC
    S: 9S 9D KD TD TC    W: KS TH AH JD AC
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from kiosk.rules.profiles import get_profile
from kiosk.rules.record import HandRecord
from kiosk.rules.scoring import score_hand

DEAL = {
    "N": ["TS", "QH", "9C", "KC", "KH"],
    "E": ["AS", "JH", "AD", "QD", "QC"],
    "S": ["9S", "9D", "KD", "TD", "TC"],
    "W": ["KS", "TH", "AH", "JD", "AC"],
}

#: W orders up hearts; N takes up 9H and discards 9C; E/W take four tricks.
MADE_BY_W: dict[str, Any] = {
    "dealer": "N",
    "turn_up": "9H",
    "bids": [
        {"seat": "E", "call": "pass"},
        {"seat": "S", "call": "pass"},
        {"seat": "W", "call": "order", "alone": False},
    ],
    "tricks": [
        ["E:AS", "S:9S", "W:KS", "N:TS"],
        ["E:JH", "S:9D", "W:TH", "N:QH"],
        ["E:AD", "S:KD", "W:AH", "N:KC"],
        ["W:JD", "N:KH", "E:QD", "S:TD"],
        ["W:AC", "N:9H", "E:QC", "S:TC"],
    ],
}

Scorer = Callable[..., dict[str, Any]]


@pytest.fixture
def made_by_w() -> dict[str, Any]:
    """A fresh copy of the base hand record, to change in a test."""
    return copy.deepcopy(MADE_BY_W)


@pytest.fixture
def deal() -> dict[str, list[str]]:
    return copy.deepcopy(DEAL)


@pytest.fixture
def score() -> Scorer:
    """score(record_dict, profile_name, **replace) -> the score-hand JSON."""

    def run(record: dict[str, Any], profile: str, **changes: Any) -> dict[str, Any]:
        import dataclasses

        rules = dataclasses.replace(get_profile(profile), **changes)
        return score_hand(HandRecord.from_json(record), rules).to_json()

    return run
