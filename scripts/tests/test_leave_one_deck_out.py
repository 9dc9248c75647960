"""Leave one deck out on the real photos (scripts/bench_leave_one_deck_out.py): which deck
a photo shows, what counts as a same-colour swap, the tally, the runs, bad input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import bench_leave_one_deck_out as lodo  # noqa: E402


def test_each_photo_belongs_to_one_deck_by_its_name() -> None:
    assert lodo.deck_of("IMG_20220921_200943.jpg") == "white"
    assert lodo.deck_of("IMG_7702.jpg") == "black-gold"
    assert lodo.deck_of("IMG_7843.jpg") == "black-gold"
    assert lodo.deck_of("photo.jpg") is None


def test_a_swap_is_the_same_rank_in_the_other_suit_of_its_colour() -> None:
    assert lodo.swap_pair("JC", "JS") == "C/S"
    assert lodo.swap_pair("QS", "QC") == "C/S"
    assert lodo.swap_pair("TD", "TH") == "H/D"
    assert lodo.swap_pair("JC", "JD") is None  # the other colour: a plain misreading
    assert lodo.swap_pair("JC", "QS") is None  # another rank
    assert lodo.swap_pair("JC", "JC") is None
    assert lodo.swap_pair("JC", "none") is None
    assert lodo.swap_pair("back", "JC") is None


def test_the_tally_counts_names_ranks_swaps_and_suits() -> None:
    naming = lodo.Naming().add([("JC", "JS"), ("JC", "JC"), ("9H", "9D"), ("AD", "none")])
    summary = naming.summary()
    assert summary["boxes"] == 4
    assert summary["named_right"] == 0.25
    assert summary["rank_right"] == 0.75
    assert (summary["swaps_CS"], summary["swaps_HD"]) == (0.25, 0.25)
    assert summary["by_suit"] == {"C": [2, 0.5], "D": [1, 0.0], "H": [1, 0.0], "S": [0, None]}
    assert lodo.Naming().summary()["named_right"] == 0.0


def test_each_deck_is_left_out_once_and_the_control_sees_both() -> None:
    seen = {run.name: set(run.real_decks) for run in lodo.runs()}
    assert seen == {
        "base": set(),
        "without-white": {"black-gold"},
        "without-black-gold": {"white"},
        "both": {"white", "black-gold"},
    }


@pytest.mark.parametrize("argv", [["--threads", "0"], ["--minutes", "0"]])
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert lodo.main([*argv, "--work", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bench_leave_one_deck_out: ")


def test_evaluating_nothing_trained_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if not (lodo.REAL_DIR / "images").is_dir():
        pytest.skip("no real photos here")
    assert lodo.main(["--evaluate-only", "--work", str(tmp_path)]) == 2
    assert "no trained runs" in capsys.readouterr().err
