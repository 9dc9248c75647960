"""`kiosk read-video` and `kiosk mat` as a user runs them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from devtools.__main__ import main as devtools
from kiosk.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
RECORD = {
    "dealer": "N", "turn_up": "9H",
    "bids": [{"seat": "E", "call": "order", "alone": False}],
    "tricks": [["E:AS", "S:9S", "W:KS", "N:TS"]],
}


def _run(capsys: pytest.CaptureFixture[str], *argv: str,
         tool: Callable[[list[str]], int] = main) -> tuple[int, str, str]:
    code = tool(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_read_video_prints_the_record_and_the_verdict(capsys, tmp_path) -> None:
    stream = json.loads((FIXTURES / "rendered-hand-tablet.json").read_text())
    rec = stream["record"]
    bid = [b for b in rec["bids"] if b["call"] != "pass"][-1]
    trump = bid.get("suit") or rec["turn_up"][1]
    code, out, err = _run(capsys, "read-video", "unused.mp4", "--detections",
                          str(FIXTURES / "rendered-hand-tablet.json"), "--rules", "tournament",
                          "--dealer", rec["dealer"], "--trump", trump, "--maker", bid["seat"],
                          "--turn-up", rec["turn_up"])
    assert code == 0, err
    printed = json.loads(out)
    assert printed["tricks"] == stream["expect"]["tricks"]
    assert printed["dealer"] == rec["dealer"] and printed["turn_up"] == rec["turn_up"]
    assert printed["result"]["trump"] == trump and printed["result"]["reneges"] == []
    assert len(printed["result"]["trick_winners"]) == 5


def test_read_video_without_turn_up_still_writes_a_valid_record(capsys) -> None:
    """CONTRACTS requires a turn-up; the camera does not know it, so an unplayed card of
    another suit stands in and the contract is written as named in round two."""
    code, out, _err = _run(capsys, "read-video", "x.mp4", "--detections",
                           str(FIXTURES / "rendered-hand-tablet.json"), "--dealer", "W",
                           "--trump", "H", "--maker", "S")
    assert code == 0
    printed = json.loads(out)
    assert printed["bids"][-1] == {"seat": "S", "call": "name", "suit": "H", "alone": False}
    played = {p.split(":")[1] for trick in printed["tricks"] for p in trick}
    assert printed["turn_up"][1] != "H" and printed["turn_up"] not in played
    assert "error" not in printed["result"] and printed["result"]["trump"] == "H"


def test_read_video_of_an_unfinished_hand_says_why_there_is_no_score(capsys) -> None:
    code, out, _err = _run(capsys, "read-video", "x.mp4", "--detections",
                           str(FIXTURES / "clean-trick.json"), "--dealer", "W", "--trump", "H",
                           "--maker", "S")
    assert code == 0
    printed = json.loads(out)
    assert printed["tricks"] == [["N:JH", "E:9H", "S:AH", "W:TD"]]
    assert "error" in printed["result"]


@pytest.mark.parametrize("argv, message", [
    (["--dealer", "Q"], "--dealer must be N, E, S or W"),
    (["--trump", "H"], "--trump and --maker go together"),
    (["--trump", "X", "--maker", "N"], "--trump must be C, D, H or S"),
    (["--alone"], "--alone needs"),
    (["--rules", "nope"], "nope"),
])
def test_read_video_bad_options_are_one_line(capsys, argv, message) -> None:
    code, out, err = _run(capsys, "read-video", "missing.mp4", *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_read_video_missing_file(capsys) -> None:
    code, _out, err = _run(capsys, "read-video", "no-such.mp4")
    assert code == 2 and "no such file" in err


def test_mat_writes_a_png_and_finds_itself(capsys, tmp_path) -> None:
    png = tmp_path / "mat.png"
    code, out, err = _run(capsys, "mat", "-o", str(png), "--size-cm", "20", "--dpi", "60")
    assert code == 0, err and png.exists()
    cal = tmp_path / "table.json"
    code, out, err = _run(capsys, "mat", "--check", str(png), "--save", str(cal))
    assert code == 0, err
    assert json.loads(out)["markers"] == 4 and cal.exists()


def test_mat_refuses_other_formats(capsys, tmp_path) -> None:
    code, _out, err = _run(capsys, "mat", "-o", str(tmp_path / "mat.gif"))
    assert code == 2 and ".pdf or .png" in err


def test_bundled_demo_video_reads_back_exactly(capsys) -> None:
    """The app's demo video (kiosk/assets) through the whole pipeline: mat calibration,
    the oracle detector on its ground truth (python -m devtools read-video), the reader,
    the rules engine."""
    assets = Path(__file__).resolve().parents[2] / "kiosk" / "assets"
    truth = json.loads((assets / "demo-hand.truth.json").read_text())
    code, out, err = _run(capsys, "read-video", str(assets / "demo-hand.mp4"), "--view", "tablet",
                          "--detector", "oracle", "--dealer", "N", "--trump", "H", "--maker", "W",
                          "--turn-up", "9H", tool=devtools)
    assert code == 0, err
    printed = json.loads(out)
    assert printed["tricks"] == truth["record"]["tricks"]
    assert printed["result"]["outcome"] == "made" and printed["result"]["reneges"] == []
    assert {w["warning"] for w in printed["warnings"]} <= {"card_replaced"}
