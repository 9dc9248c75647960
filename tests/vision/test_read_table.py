"""`kiosk read-table`: the turn-up and each side's 5s from one table's stills, in order,
one JSON line an image (CONTRACTS.md); ``null`` where the kiosk is not sure, never a
guess. Rendered stills of one table in a deck no network was trained on, from above and
from a tablet at South's edge; bad input is one line and exit status 2."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from datasets import cards_art
from datasets.marker_stills import MarkerPlace, random_places
from datasets.table_stills import Kitty, TableCamera
from kiosk.cli import main
from kiosk.vision.cards.detector import DEFAULT_MODEL

HELD_OUT = ("kde-standard", "kde-nicu-white")
SUITS = {"NS": ("H", "D"), "EW": ("S", "C")}
needs_model = pytest.mark.skipif(
    not set(HELD_OUT) <= set(cards_art.held_out_decks())
    or not cards_art.card_art_installed() or not DEFAULT_MODEL.exists(),
    reason="needs the held-out decks' art and the model")

#: one table's stills in order: (what each side's 5s show, the sides whose 5s lie on the
#: table, the kitty, the side a hand lies over)
Plan = list[tuple[dict[str, int], tuple[str, ...], Kitty | None, str | None]]


def read_table(*argv: str) -> tuple[int, list[dict[str, Any]], str]:
    """``kiosk read-table`` run in this process: exit status, JSON lines, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["read-table", *argv])
    return status, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def render(folder: Path, deck: str, view: str, seed: int, plan: Plan,
           places: dict[str, MarkerPlace]) -> list[str]:
    """The plan's stills, one camera over one table, written as JPEGs; their paths."""
    camera = TableCamera(deck, view, seed)
    paths = []
    for i, (shown, sides, kitty, hand) in enumerate(plan):
        image = camera.still(shown, {s: places[s] for s in sides}, SUITS, seed * 10 + i,
                             kitty=kitty, hand_over=hand)
        path = folder / f"{view}-{i}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        paths.append(str(path))
    return paths


OVERHEAD_SEED = 621
OVERHEAD_PLACES = random_places(np.random.default_rng(OVERHEAD_SEED))
#: the kitty of the last still lies turned down on North-South's edge, at its other end:
#: two face-down cards at corner ends of their edge, and only where their 5s were seen is
#: their nought
OVERHEAD: Plan = [
    ({"NS": 3, "EW": 2}, ("NS", "EW"), Kitty("N", "JH"), None),
    ({"NS": 3, "EW": 4}, ("NS", "EW"), Kitty("E", "9C", face_up=False), None),
    ({"NS": 6, "EW": 4}, ("NS",), Kitty("S", "AD"), None),
    ({"NS": 0, "EW": 6}, ("NS", "EW"), Kitty(OVERHEAD_PLACES["NS"].edge, "TH", face_up=False),
     None),
]
TABLET_SEED = 622
TABLET_PLACES = random_places(np.random.default_rng(TABLET_SEED))
TABLET: Plan = [
    ({"NS": 3, "EW": 2}, ("NS", "EW"), Kitty("W", "QS"), None),
    ({"NS": 4, "EW": 2}, ("NS", "EW"), Kitty("N", "KD"), "NS"),
]


Read = tuple[list[dict[str, Any]], list[str]]


@pytest.fixture(scope="module")
def overhead(tmp_path_factory: pytest.TempPathFactory) -> Read:
    """The overhead plan's stills read in one run: its lines, and the stills' paths."""
    folder = tmp_path_factory.mktemp("overhead")
    paths = render(folder, "kde-standard", "overhead", OVERHEAD_SEED, OVERHEAD,
                   OVERHEAD_PLACES)
    status, lines, err = read_table(*paths)
    assert status == 0 and err == "", err
    assert [line["image"] for line in lines] == paths
    return lines, paths


@pytest.fixture(scope="module")
def tablet(tmp_path_factory: pytest.TempPathFactory) -> Read:
    folder = tmp_path_factory.mktemp("tablet")
    paths = render(folder, "kde-nicu-white", "tablet", TABLET_SEED, TABLET, TABLET_PLACES)
    status, lines, err = read_table("--view", "tablet", *paths)
    assert status == 0 and err == "", err
    return lines, paths


@needs_model
def test_the_turn_up_and_both_sides_are_read_from_above(overhead: Read) -> None:
    lines, paths = overhead
    assert lines[0] == {"image": paths[0], "turn_up": "JH", "score": {"NS": 3, "EW": 2}}


@needs_model
def test_a_kitty_with_no_face_up_card_has_no_turn_up(overhead: Read) -> None:
    lines, _paths = overhead
    assert lines[1]["turn_up"] is None
    assert lines[1]["score"] == {"NS": 3, "EW": 4}


@needs_model
def test_a_side_whose_fives_are_not_found_is_null(overhead: Read) -> None:
    """East-West's 5s are off the table: not read as nought where they lay before."""
    lines, _paths = overhead
    assert lines[2]["score"] == {"NS": 6, "EW": None}
    assert lines[2]["turn_up"] == "AD"


@needs_model
def test_where_a_sides_fives_lie_carries_over_to_later_stills(overhead: Read) -> None:
    """North-South's nought (their 5s face down) is read where their 5s were seen in an
    earlier still; the same still alone, with the kitty turned down at the other end of
    their edge, cannot tell which face-down card is theirs."""
    lines, paths = overhead
    assert lines[3] == {"image": paths[3], "turn_up": None, "score": {"NS": 0, "EW": 6}}
    status, alone, _err = read_table(paths[3])
    assert status == 0 and alone[0]["score"] == {"NS": None, "EW": 6}


@needs_model
def test_the_turn_up_and_both_sides_are_read_from_a_tablet(tablet: Read) -> None:
    lines, _paths = tablet
    assert (lines[0]["turn_up"], lines[0]["score"]) == ("QS", {"NS": 3, "EW": 2})


@needs_model
def test_fives_covered_by_a_hand_are_null_not_a_smaller_count(tablet: Read) -> None:
    lines, _paths = tablet
    assert lines[1]["score"] == {"NS": None, "EW": 2}
    assert lines[1]["turn_up"] == "KD"


def test_a_missing_image_is_one_line_and_status_2(tmp_path: Path) -> None:
    status, lines, err = read_table(str(tmp_path / "hand03.jpg"))
    assert (status, lines) == (2, [])
    assert len(err.strip().splitlines()) == 1 and "hand03.jpg" in err


def test_a_corrupt_image_among_good_ones_prints_nothing(tmp_path: Path) -> None:
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.zeros((32, 32, 3), np.uint8))
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    status, lines, err = read_table(str(good), str(bad))
    assert (status, lines) == (2, [])
    assert len(err.strip().splitlines()) == 1 and "bad.jpg" in err


def test_an_unreadable_calibration_is_one_line_and_status_2(tmp_path: Path) -> None:
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.zeros((32, 32, 3), np.uint8))
    calibration = tmp_path / "table.json"
    calibration.write_text("{not json")
    status, lines, err = read_table("--calibration", str(calibration), str(good))
    assert (status, lines) == (2, [])
    assert len(err.strip().splitlines()) == 1 and "table.json" in err
