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
    _ink_mask,
    _typical_index_size,
    index_boxes,
    load_card,
    table_decks,
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
