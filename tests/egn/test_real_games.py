"""The real games in ../shared/egn/examples/ checked by EGN's own tools: what the kiosk
writes validates against EGN's schema, EGN's reference engine replays it to the same
trick winners and score changes as the kiosk's engine, and reading then writing a game
gives the same game back (EGN 1.0 games come back as 1.4)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.egn.game import EgnGame
from kiosk.egn.records import game_of_records, records_of_game
from kiosk.egn.replay import replay_game
from tests.egn.helpers import EXAMPLES, GAMES, as_reference, example_ids

LEGACY = [path for path in EXAMPLES if path.stem.startswith("MotE W5")]


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def rewritten(path: Path) -> dict[str, Any]:
    """The game read into hand records and written back as EGN."""
    game = EgnGame.from_json(load(path))
    return game_of_records(records_of_game(game), game.metadata).to_json()


def upgraded(document: dict[str, Any]) -> dict[str, Any]:
    """An EGN 1.0 game as 1.4 says it: no kitty, no initialLead, playerCards only if known."""
    out = copy.deepcopy(document)
    out["version"] = "1.4"
    for deal in out["deals"]:
        state = deal["initialState"]
        state.pop("kitty", None)
        hands = state.pop("player_cards", None)
        if hands and any(hands):
            state["playerCards"] = hands
        for phase in deal["phases"]:
            phase.pop("initialLead", None)
    return out


def test_the_examples_are_all_there() -> None:
    assert len(EXAMPLES) == 13 and len(LEGACY) == 6


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids())
def test_reading_and_writing_gives_the_same_game_back(path: Path) -> None:
    original = load(path)
    expected = upgraded(original) if path in LEGACY else original
    assert rewritten(path) == expected


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids())
def test_what_the_kiosk_writes_validates_against_the_schema(
    path: Path, schema_errors: Any
) -> None:
    assert schema_errors(rewritten(path)) == []


def test_the_legacy_games_do_not_validate_as_they_are(schema_errors: Any) -> None:
    """EGN 1.0 is older than the schema: the check above is not trivially true."""
    assert all(schema_errors(load(path)) for path in LEGACY)


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids())
def test_egns_reference_engine_agrees_deal_by_deal(
    path: Path, tmp_path: Path, reference_replay: Any
) -> None:
    written = tmp_path / "written.egn"
    written.write_text(json.dumps(rewritten(path)), encoding="utf-8")
    ours = as_reference(replay_game(EgnGame.from_json(load(path))))
    assert reference_replay(written) == ours
    assert reference_replay(path) == ours
    assert len(ours) == len(load(path)["deals"])


def test_loner_lead_left_of_loner_moves_the_first_lead(reference_replay: Any) -> None:
    """The lone player S's left (W) leads, not the dealer's left (E): S marches (4)."""
    path = GAMES / "lone-lead.egn"
    game = EgnGame.from_json(load(path))
    [deal] = replay_game(game)
    assert [str(seat) for seat in deal.trick_winners] == ["S"] * 5
    assert deal.score_change == (4, 0)
    assert deal.played.record.tricks[0][0][0].value == "W"
    assert reference_replay(path) == as_reference([deal])
