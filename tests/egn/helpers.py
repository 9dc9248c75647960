"""Paths and helpers the EGN tests share: the real games in ../shared/egn/examples/,
EGN's schema, and EGN's reference engine with the node harness beside this file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.egn.notation import SEATS
from kiosk.egn.replay import DealReplayed

ROOT = Path(__file__).resolve().parents[2]
EGN = ROOT.parent / "shared" / "egn"
EXAMPLES = sorted((EGN / "examples").glob("*.egn"))
SCHEMA = EGN / "schemas" / "egn-schema-v1.json"
REFERENCE_ENGINE = EGN / "replayer" / "rules-engine.js"
HARNESS = Path(__file__).with_name("reference_replay.js")
GAMES = Path(__file__).with_name("games")


def example_ids() -> list[str]:
    return [path.stem for path in EXAMPLES]


def as_reference(deals: list[DealReplayed]) -> list[dict[str, Any]]:
    """Our replay in the reference harness's shape (EGN seat numbers)."""
    return [{"deal": d.deal, "trick_winners": [SEATS.index(s) for s in d.trick_winners],
             "score_change": list(d.score_change)} for d in deals]
