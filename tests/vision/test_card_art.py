"""Corner-index boxes of the card art: every card a kiosk's table deals has its labels."""

from __future__ import annotations

import multiprocessing
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import datasets.cards_art as cards_art
from datasets.cards_art import (
    CARD_WIDTH,
    COURT_RANKS,
    EXTRA_TRAINING_DECKS,
    _ink_mask,
    _typical_index_size,
    extra_training_decks,
    index_boxes,
    load_card,
    table_decks,
    usable_decks,
)
from datasets.classes import EUCHRE_RANKS, SUITS

pytestmark = pytest.mark.usefixtures("have_card_art")

EUCHRE_AND_FIVES = [rank + suit for suit in SUITS for rank in (*EUCHRE_RANKS, "5")]


@pytest.mark.parametrize("deck", table_decks())
def test_every_card_a_table_deals_has_its_index_boxes(deck: str) -> None:
    """A card with no box is drawn from another deck in the training scenes, so the
    networks would never see the faces the table actually deals."""
    missing = [card for card in EUCHRE_AND_FIVES if not index_boxes(deck, card)]
    assert missing == []


@pytest.mark.parametrize("deck", ["bellot", "paris", "neoclassical"])
def test_court_boxes_sit_on_the_printed_rank(deck: str) -> None:
    """The decks whose court pictures run into the corner: each court's top-left box is
    index-sized, in the corner, and has ink in its top half (the rank letter)."""
    if deck not in table_decks():
        pytest.skip(f"{deck} is not installed")
    typical_w, typical_h = _typical_index_size(deck)
    for suit in SUITS:
        for rank in COURT_RANKS:
            face = load_card(deck, rank + suit)
            x1, y1, x2, y2 = min(index_boxes(deck, rank + suit), key=lambda b: b[0] + b[1])
            h, w = face.shape[:2]
            assert x2 < 0.3 * w and y2 < 0.42 * h
            assert 0.6 * typical_h < y2 - y1 < 1.35 * typical_h + 4
            ink = _ink_mask(face)[y1 : (y1 + y2) // 2, x1:x2]
            assert np.mean(ink) > 0.08, f"{rank + suit}: no rank letter in its box"


def test_every_index_box_holds_rank_and_suit() -> None:
    """An index is a rank stacked over its suit: a box of the rank alone (the ornamental
    deck's, before its suit was found) teaches the networks to guess AC against AS. Rank
    and suit make a box about 2-3 times as tall as wide in every table deck (a 10's two
    digits less); the ornamental's rank alone measured 1.15-1.5."""
    for deck in table_decks():
        for card in EUCHRE_AND_FIVES:
            x1, y1, x2, y2 = index_boxes(deck, card)[0]
            ratio = (y2 - y1) / (x2 - x1)
            least = 1.6 if card[0] == "T" else 1.8
            assert least < ratio < 3.5, (deck, card, ratio)


def _render_sheet_into(cache: str, deck: str) -> tuple[int, ...]:
    """One worker of the race below: render ``deck`` into an empty cache folder."""
    cards_art.CACHE_DIR = Path(cache)
    return tuple(cards_art.deck_sheet.__wrapped__(deck).shape)


def test_workers_rendering_one_deck_at_once_all_succeed(tmp_path: Path) -> None:
    """On a fresh machine the generator's workers find the art cache empty together and
    render the same deck at once; each must get the sheet, and no temporary file may be
    left behind (a shared temporary name made all but the first fail)."""
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert (librsvg2-bin) is not installed: the art can only be read")
    deck = table_decks()[0]
    with multiprocessing.get_context("fork").Pool(3) as pool:
        shapes = pool.starmap(_render_sheet_into, [(str(tmp_path), deck)] * 3)
    assert len(set(shapes)) == 1 and shapes[0][2] == 4
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"{deck}-{CARD_WIDTH}.png"]


def test_a_failed_render_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rsvg-convert failing half-way (a broken SVG, a full disk) raises, and leaves no
    half-written sheet for a later run to find."""

    def half_written(command: list[str], check: bool) -> None:
        Path(command[command.index("-o") + 1]).write_bytes(b"\x89PNG half")
        raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(cards_art, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(cards_art.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(cards_art.subprocess, "run", half_written)
    with pytest.raises(subprocess.CalledProcessError):
        cards_art.deck_sheet.__wrapped__(table_decks()[0])
    assert list(tmp_path.iterdir()) == []


def _extra_installed(deck: str) -> bool:
    """Whether an extra training deck's file is installed and can be drawn here (its
    sheet cached, or rsvg-convert to render it)."""
    cached = (cards_art.CACHE_DIR / f"{deck}-{CARD_WIDTH}.png").exists()
    return deck in extra_training_decks() and (cached or shutil.which("rsvg-convert") is not None)


def test_extra_decks_are_neither_the_usual_decks_nor_held_out() -> None:
    """The extra decks train the index classifier alone: the standard scenes and the
    rendered hands (usable_decks, table_decks) never draw them, and a deck held out to
    measure enrolment is never trained on."""
    extra = set(EXTRA_TRAINING_DECKS)
    assert extra
    assert not extra & set(usable_decks())
    assert not extra & set(table_decks())
    assert not extra & set(cards_art.DECKS)
    assert not extra & set(cards_art.HELD_OUT_DECKS)
    assert set(extra_training_decks()) <= extra
    for name, deck in EXTRA_TRAINING_DECKS.items():
        assert cards_art.deck_info(name) is deck
        assert name.startswith("kde-") and deck.kde and deck.court_ranks
        assert deck.licence.split(":")[0] in ("GPL-2+", "GPL-3+", "LGPL-2+"), deck.licence


@pytest.mark.parametrize("deck", sorted(EXTRA_TRAINING_DECKS))
def test_each_extra_deck_has_both_index_boxes(deck: str) -> None:
    """Each extra deck's 9H and QS (and every euchre card and 5) have two index boxes,
    top-left and bottom-right, each rank over suit (the shape of the usual decks'; an ace
    as a 10, penguins' A being as wide as its suit: 1.68)."""
    if not _extra_installed(deck):
        pytest.skip(f"{deck} is not installed (kdegames-card-data-kf5)")
    for card in ("9H", "QS"):
        face = load_card(deck, card)
        h, w = face.shape[:2]
        top_left, bottom_right = index_boxes(deck, card)
        assert top_left[2] < 0.3 * w and top_left[3] < 0.42 * h, (card, top_left)
        assert bottom_right[0] > 0.7 * w and bottom_right[1] > 0.58 * h, (card, bottom_right)
    for card in EUCHRE_AND_FIVES:
        boxes = index_boxes(deck, card)
        assert len(boxes) == 2, (card, boxes)
        for x1, y1, x2, y2 in boxes:
            ratio = (y2 - y1) / (x2 - x1)
            assert (1.6 if card[0] in "TA" else 1.8) < ratio < 3.5, (card, ratio)


def test_render_scene_draws_the_usual_decks_unless_told() -> None:
    """The ``decks`` option leaves the default scene as it was (the standard scenes stay
    the same pictures), and told the extra decks, a scene draws only from them."""
    from datasets.scenes import render_scene

    usual = render_scene(11, 96)
    told = render_scene(11, 96, decks=usable_decks())
    assert np.array_equal(usual.image, told.image)
    assert usual.labels == told.labels and usual.deck == told.deck
    extra = [deck for deck in extra_training_decks() if _extra_installed(deck)]
    if len(extra) < 2:
        pytest.skip("fewer than two extra decks are installed (kdegames-card-data-kf5)")
    scene = render_scene(11, 96, decks=extra)
    assert scene.deck in extra
    assert not np.array_equal(scene.image, usual.image)


def test_generate_extra_writes_its_own_folder_only(tmp_path: Path) -> None:
    """``datasets.generate --decks extra`` writes the extra decks' training scenes (seeds
    from 5,000,000, labels as a split's) into its folder, and nothing else."""
    from datasets import generate
    from datasets.scenes import render_scene

    extra = [deck for deck in extra_training_decks() if _extra_installed(deck)]
    if len(extra) < 2:
        pytest.skip("fewer than two extra decks are installed (kdegames-card-data-kf5)")
    out = tmp_path / "scenes_extra"
    argv = ["--decks", "extra", "--train", "1", "--size", "96", "--workers", "1"]
    assert generate.main([*argv, "--out", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenes_extra"]
    assert sorted(p.name for p in (out / "images").iterdir()) == ["5000000.jpg"]
    labels = (out / "labels" / "5000000.txt").read_text().splitlines()
    drawn = render_scene(5_000_000, 96, decks=extra_training_decks())
    assert len(labels) == len(drawn.labels)
    assert (out / "ignore" / "5000000.txt").exists()
    assert generate.main([*argv, "--dark", "1", "--out", str(out)]) == 2


def test_index_crops_cuts_the_extra_scenes_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``datasets.index_crops --only-extra --extra-scenes FOLDER`` cuts the extra decks'
    scenes (and shrunk copies) into a patch file of their own, with the validation
    patches the trainer's ``--crops A --crops B`` reads from the first file."""
    import datasets.index_crops as index_crops
    from datasets import generate

    if len([deck for deck in extra_training_decks() if _extra_installed(deck)]) < 2:
        pytest.skip("fewer than two extra decks are installed (kdegames-card-data-kf5)")
    root, extra = tmp_path / "data", tmp_path / "scenes_extra"
    for name in ("train", "val"):
        generate.write_split(name, 1, 96, workers=1, root=root)
    argv = ["--decks", "extra", "--train", "2", "--size", "96", "--workers", "1"]
    assert generate.main([*argv, "--out", str(extra)]) == 0
    monkeypatch.setattr(index_crops, "GENERATED", root)
    monkeypatch.setattr(
        index_crops, "scene_truth", lambda split: index_crops.folder_truth(root / "scenes" / split)
    )
    out = tmp_path / "extra.npz"
    args = ["--only-extra", "--extra-scenes", str(extra), "--extra-copies", "1"]
    assert index_crops.main([*args, "--detector", "none.onnx", "--out", str(out)]) == 0
    labels = sum(
        len((extra / "labels" / f"{generate.EXTRA_SEED_BASE + i}.txt").read_text().splitlines())
        for i in range(2)
    )
    with np.load(out) as saved:
        named = saved["y"][saved["source"] == 0]
        assert np.count_nonzero(named != index_crops.NONE_ID) == labels
        assert set(np.unique(saved["source"])) <= {0, 1} and len(saved["val_y"])
    assert index_crops.main(["--only-extra", "--out", str(out)]) == 2
