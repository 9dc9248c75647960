"""Twin swaps injected into a recorded rendered hand (scripts/bench_twins.py, issue 63):
a deck that always reads one card as its same-colour twin raises no renege flag on the
camera's word alone, and random swaps are voted away."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import bench_reader as br  # noqa: E402
import bench_twins as bt  # noqa: E402

from kiosk.vision.brief import HandBrief  # noqa: E402
from kiosk.vision.camera.calibration import Calibration  # noqa: E402
from kiosk.vision.pipeline import read_stream  # noqa: E402

#: a rendered hand the reader tests recorded (tests/reader/record_fixtures.py)
FIXTURE = ROOT / "tests" / "reader" / "fixtures" / "rendered-lone-hand-overhead.json"


def _read(swaps: tuple[str, float], seed: int = 0, always: str | None = None
          ) -> dict[str, Any]:
    """The fixture's hand read with twin swaps, the players answering every question."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    record = dict(data["record"], tricks=data["expect"]["tricks"])
    read_as, _card = bt.swapper(*swaps, seed, record)
    if always is not None:
        read_as = lambda name: bt.twin_name(name) if name == always else name  # noqa: E731
    reading = read_stream(bt.inject(data["frames"], read_as),
                          Calibration.default(data["view"], tuple(data["size"])),
                          brief=HandBrief.from_json(data["play"]))
    want, got = record["tricks"], reading.tricks_json()
    places = br.answered_places(reading.events)
    after = br.answered(want, got, places)
    final, asked = bt.twin_answers(record, want, after, {(k + 1, s) for k, s in places})
    true, _ = br.verdict(record, want)
    return {"want": want, "final": final, "twin_questions": asked,
            "flagged_before": br.verdict(record, after)[0] - true,
            "flagged": br.verdict(record, final)[0] - true}


def test_a_card_always_read_as_its_twin_raises_no_false_renege_flag() -> None:
    """East's king of clubs, read as the king of spades in every frame, makes South's
    later play look like a renege: the table asks about that card first (one tap) and,
    answered, flags nothing."""
    result = _read(("systematic", 1.0), always="KC")
    assert result["flagged_before"]  # what the kiosk would have flagged before
    assert result["twin_questions"] == 1
    assert not result["flagged"]
    assert result["final"] == result["want"]


def test_random_twin_swaps_are_voted_away() -> None:
    for seed in (1, 2):
        result = _read(("random", 0.14), seed=seed)
        assert not result["flagged"]
        assert result["final"] == result["want"]


def test_the_swaps_are_deterministic_by_seed() -> None:
    record = {"tricks": [["N:9C", "E:TC"], ["S:JC", "W:QC"]]}
    a, card_a = bt.swapper("systematic", 1.0, 7, record)
    b, card_b = bt.swapper("systematic", 1.0, 7, record)
    assert card_a == card_b and card_a is not None and a(card_a) == bt.twin_name(card_a)
    r1, _ = bt.swapper("random", 0.5, 7, record)
    r2, _ = bt.swapper("random", 0.5, 7, record)
    assert [r1("AS") for _ in range(20)] == [r2("AS") for _ in range(20)]
    assert bt.inject([{"t": 0, "detections": [["AS", 0.9, 1, 2, 3, 4, "AC", 0.1]]}],
                     lambda n: "AC" if n == "AS" else n) == [
        {"t": 0, "detections": [["AC", 0.9, 1, 2, 3, 4, "AS", 0.1]]}]
