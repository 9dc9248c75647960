"""Hand records: load, validate, dump."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules.cards import Seat
from kiosk.rules.profiles import PROFILES, get_profile
from kiosk.rules.record import HandRecord, HandRecordError, dump_hand_record, load_hand_record
from kiosk.rules.scoring import score_hand


def test_record_round_trips(made_by_w: dict[str, Any]) -> None:
    record = HandRecord.from_json(made_by_w)
    assert record.to_json() == made_by_w
    assert load_hand_record(dump_hand_record(record)) == record


def test_record_reads_lower_case_and_tens(made_by_w: dict[str, Any]) -> None:
    made_by_w["turn_up"] = "9h"
    made_by_w["tricks"][1][2] = "w:10h"
    record = HandRecord.from_json(made_by_w)
    assert str(record.tricks[1][2][1]) == "TH" and record.tricks[1][2][0] is Seat.W


def test_record_ignores_fields_it_does_not_know(made_by_w: dict[str, Any]) -> None:
    made_by_w["result"] = {"outcome": "made"}
    assert HandRecord.from_json(made_by_w).dealer is Seat.N


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("dealer"), "the record has no 'dealer'"),
        (lambda r: r.update(dealer="X"), "dealer: 'X' is not a seat"),
        (lambda r: r.update(turn_up="1H"), "turn_up: '1H' is not a card"),
        (lambda r: r.update(bids="pass"), "'bids' is a list"),
        (lambda r: r["bids"].append({"seat": "S", "call": "bid"}), "call 'bid' is not one of"),
        (lambda r: r["bids"][0].update(alone=True), "a pass cannot be alone"),
        (lambda r: r["bids"][2].update(alone="yes"), "'alone' is true or false"),
        (lambda r: r["tricks"][0].__setitem__(0, "E-AS"), "'E-AS' is not SEAT:CARD"),
        (lambda r: r.update(hands={"N": ["AS"]}), "N is dealt 1 cards, not 5"),
        (lambda r: r.update(hands=["AS"]), "'hands' is an object of seats"),
    ],
)
def test_malformed_records_name_the_problem(
    made_by_w: dict[str, Any], change: Any, message: str
) -> None:
    change(made_by_w)
    with pytest.raises(HandRecordError) as raised:
        score_hand(HandRecord.from_json(made_by_w), get_profile("general"))
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_record_is_an_object() -> None:
    with pytest.raises(HandRecordError, match="a JSON object, not a list"):
        HandRecord.from_json([])
    with pytest.raises(HandRecordError, match="not valid JSON"):
        load_hand_record("{")


FUZZ_VALUES = [
    None,
    True,
    1,
    -1,
    2.5,
    "",
    "N",
    "AS",
    "back",
    "pass",
    "order",
    "H",
    [],
    {},
    ["AS"],
    {"seat": "E"},
    "E:AS",
    [["E:AS"]],
    "10H",
    "x:y:z",
]


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PROFILES)))
def test_any_damaged_record_is_a_hand_record_error_never_a_crash(
    rng: random.Random, profile: str
) -> None:
    """What `kiosk score-hand` relies on for 'one line, exit 2, no traceback'."""
    fixtures = sorted((Path(__file__).parent / "fixtures").glob("*.json"))
    record = json.loads(rng.choice(fixtures).read_text())["record"]
    leaves = list(_paths(record))[1:]
    for _ in range(rng.randint(1, 3)):
        *parents, last = rng.choice(leaves)
        node = record
        try:
            for key in parents:
                node = node[key]
            node[last] = rng.choice(FUZZ_VALUES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change replaced this part of the record
    try:
        score_hand(HandRecord.from_json(record), get_profile(profile))
    except HandRecordError as problem:
        assert "\n" not in str(problem)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Any:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*path, index))


@pytest.mark.parametrize(
    "text",
    [
        '{"dealer": "N", "turn_up": ' + "9" * 5000 + ', "bids": [], "tricks": []}',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["a 5000-digit number", "lists nested 100000 deep"],
)
def test_json_python_cannot_decode_is_a_hand_record_error(text: str) -> None:
    with pytest.raises(HandRecordError, match="not valid JSON") as raised:
        load_hand_record(text)
    assert "\n" not in str(raised.value)


def test_an_empty_trick_before_the_last_cannot_be_a_hand(made_by_w: dict[str, Any]) -> None:
    """An empty trick mid-record would shift every later trick number (renege `trick`,
    `proven_at`): a record with one is refused, like any other short trick."""
    made_by_w["tricks"] = [made_by_w["tricks"][0], [], made_by_w["tricks"][1]]
    made_by_w["tricks"][2][1] = "S:9S"
    made_by_w["tricks"][0][1] = "S:9D"
    with pytest.raises(HandRecordError, match="trick 2 has 0 cards"):
        score_hand(HandRecord.from_json(made_by_w), get_profile("tournament"))


def test_a_discard_that_is_not_a_euchre_card_cannot_be_a_hand(made_by_w: dict[str, Any]) -> None:
    made_by_w["discard"] = "5H"
    with pytest.raises(HandRecordError, match="discard 5H is not a euchre card"):
        score_hand(HandRecord.from_json(made_by_w), get_profile("ssc"))


def test_a_seat_dealt_twice_in_hands_cannot_be_a_hand(made_by_w: dict[str, Any]) -> None:
    made_by_w["hands"] = {"N": ["TS", "QH", "9C", "KC", "KH"], "n": ["AS", "JH", "AD", "QD", "QC"]}
    with pytest.raises(HandRecordError, match="'hands' gives N twice"):
        HandRecord.from_json(made_by_w)
