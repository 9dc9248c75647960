"""Card faces from the Debian card decks, as RGBA numpy arrays, with their corner-index boxes.

Why the GNOME (aisleriot) sheets: each ``.svgz`` in ``gnome-cards-data`` is one grid of
13 x 5 cards (rows clubs, diamonds, hearts, spades, then black joker, red joker, back), so
one ``rsvg-convert`` call renders a whole deck and the cards are cropped from the grid.
The KDE decks (``kdegames-card-data-kf5``) need one render per card element, and
``rsvg-convert -i`` crops or mis-scales most of them on this machine (oxygen-white,
dondorf, gm-paris, penguins...; checked on a contact sheet), so they are not used yet.

Only decks with English indices (A K Q J 10 ... 2) and the usual two colours are listed:
French (R D V), German (B D K), Russian and Swiss decks would teach wrong index shapes.

Use :func:`load_card` (one face, RGBA) and :func:`index_boxes` (where its printed corner
indices are, in that image's pixels); :data:`DECKS` names each deck with its licence.
Rendered sheets are cached as PNG under ``datasets/generated/art/`` (git-ignored).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import ALL_RANKS, BACK, FACES, SUITS

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
CACHE_DIR = Path(__file__).resolve().parent / "generated" / "art"
#: width of one card in the cache, pixels; scenes draw cards at most about this wide.
CARD_WIDTH = 260
#: court ranks: their corner index sits beside a picture, see :func:`_court_template`
COURT_RANKS = ("J", "Q", "K")
#: how far down a card (a share of its height) the ink finder looks for the top-left index
INDEX_DEPTH = 0.42
#: bumped when :func:`find_index_boxes` changes, so stale cached boxes are not reused
INDEX_BOXES_VERSION = 3

_GNOME_LICENCE = (
    "GPL-3+ (gnome-cards-data, aisleriot card themes; "
    "see /usr/share/doc/gnome-cards-data/copyright)"
)


@dataclass(frozen=True)
class Deck:
    """One card design: its source file, licence, and where it prints corner indices."""

    name: str
    source: Path
    licence: str
    #: True when the index is printed in all four corners (else top-left and bottom-right).
    four_corners: bool = False
    #: False when the court cards print only a suit in their corners, no rank letter
    #: (the French pattern of guyenne-classic): no reader of corner indices can tell its
    #: jack from its queen, so it is no deck for a kiosk's table.
    court_ranks: bool = True
    #: how far down the card (a share of its height) the top-left index may reach: the
    #: ornamental deck prints a large suit well under its rank, which the usual 0.42 cut
    #: in half, leaving boxes of the rank alone (a classifier cannot tell AC from AS there)
    index_depth: float = INDEX_DEPTH


_NAMES = (
    "anglo", "anglo_bitmap", "anglo_modern", "anglo_poker", "bellot", "dondorf",
    "gnomangelo", "gnomangelo_bitmap", "guyenne-classic", "neoclassical", "orell",
    "ornamental", "paris", "plastic", "simplistic", "tango", "tigullio",
)  # fmt: skip

_LICENCE_OVERRIDES = {
    "ornamental": "public domain (Nicu Buculei, per the SVG's metadata); " + _GNOME_LICENCE,
}

DECKS: dict[str, Deck] = {
    name: Deck(
        name,
        AISLERIOT_DIR / f"{name}.svgz",
        _LICENCE_OVERRIDES.get(name, _GNOME_LICENCE),
        four_corners=name == "dondorf",
        court_ranks=name != "guyenne-classic",
        index_depth=0.5 if name == "ornamental" else INDEX_DEPTH,
    )
    for name in _NAMES
}


def usable_decks() -> list[str]:
    """Deck names whose source file is installed on this machine."""
    return [name for name, deck in DECKS.items() if deck.source.exists()]


def card_art_installed() -> bool:
    """Whether a deck is installed and renders here (gnome-cards-data and rsvg-convert,
    from scripts/install-system-packages.sh): tests that draw cards skip without it."""
    try:
        return bool(usable_decks()) and load_card(usable_decks()[0], "9H") is not None
    except (RuntimeError, OSError):
        return False


def table_decks() -> list[str]:
    """Installed decks a euchre table could play with at a kiosk: every card, courts
    included, prints its rank and suit in the corners (the training scenes use all
    decks, borrowing a court card from another deck where the index is missing)."""
    return [name for name in usable_decks() if DECKS[name].court_ranks]


def _cell(card: str) -> tuple[int, int]:
    """(row, column) of a card in an aisleriot sheet."""
    if card == BACK:
        return 4, 2
    rank, suit = card[0], card[1]
    column = 0 if rank == "A" else ALL_RANKS.index(rank) + 1
    return SUITS.index(suit), column


def _write_into_place(path: Path, write: Callable[[Path], object]) -> None:
    """Make ``path`` by ``write``-ing a file name beside it that only this process uses,
    then moving that file into place; a write that fails leaves no file behind.

    On a fresh machine the generator's workers (and a hand render running beside them)
    all find the cache empty and render the same deck at once; each writes its own file
    and moves it into place, so no one moves away another's file or reads a half-written
    one.
    """
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp{path.suffix}")
    try:
        write(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


@functools.cache
def deck_sheet(deck: str) -> np.ndarray:
    """The whole deck grid as RGBA, rendered once with rsvg-convert and cached as PNG."""
    path = CACHE_DIR / f"{deck}-{CARD_WIDTH}.png"
    if not path.exists():
        if shutil.which("rsvg-convert") is None:
            raise RuntimeError("rsvg-convert (librsvg2-bin) is needed to render card art")
        CACHE_DIR.mkdir(parents=True, exist_ok=True)

        def render(tmp: Path) -> None:
            subprocess.run(
                ["rsvg-convert", "-w", str(CARD_WIDTH * 13), str(DECKS[deck].source),
                 "-o", str(tmp)],
                check=True,
            )

        _write_into_place(path, render)
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise RuntimeError(f"cannot read rendered deck {path}")
    return cv2.cvtColor(image, cv2.COLOR_BGRA2RGBA)


@functools.cache
def load_card(deck: str, card: str) -> np.ndarray:
    """One card face (``"9H"``, ``"back"`` ...) of a deck as an RGBA array, trimmed to the card.

    The array is shared by the cache: copy it before drawing on it.
    """
    sheet = deck_sheet(deck)
    row, column = _cell(card)
    height, width = sheet.shape[0] / 5, sheet.shape[1] / 13
    cell = sheet[
        int(round(row * height)) : int(round((row + 1) * height)),
        int(round(column * width)) : int(round((column + 1) * width)),
    ]
    ys, xs = np.nonzero(cell[:, :, 3] > 128)
    face = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()
    face.setflags(write=False)
    return face


def _ink_mask(face: np.ndarray) -> np.ndarray:
    """Pixels that differ clearly from the card's paper colour (taken near the card's edge)."""
    rgb = face[:, :, :3].astype(np.int16)
    h, w = rgb.shape[:2]
    # paper colour: median of a band just inside the border, on the left edge
    band = rgb[int(0.4 * h) : int(0.6 * h), int(0.03 * w) : int(0.06 * w)].reshape(-1, 3)
    paper = np.median(band, axis=0)
    diff = np.abs(rgb - paper).max(axis=2)
    mask = (diff > 60) & (face[:, :, 3] > 200)
    # drop the card outline: erode the card's own alpha before intersecting
    inner = cv2.erode((face[:, :, 3] > 200).astype(np.uint8), np.ones((7, 7), np.uint8))
    return mask & inner.astype(bool)


def _top_left_index(
    mask: np.ndarray, depth: float = INDEX_DEPTH
) -> tuple[int, int, int, int] | None:
    """Box of the printed index in the top-left corner of an ink mask, or None.

    The index is the blob nearest the corner plus the blobs stacked under it (rank above
    suit) or beside it (the two digits of a 10). Blobs touching the corner region's edge
    are picture frames or pips and are left out; so is a pip beside the suit, being
    further away than the gap between two digits.
    """
    h, w = mask.shape
    rw, rh = int(0.30 * w), int(depth * h)
    roi = mask[:rh, :rw].astype(np.uint8)
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(roi, connectivity=8)
    blobs = []
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area < 6 or x + bw >= rw - 1 or y + bh >= rh - 1:
            continue
        blobs.append((x, y, x + bw, y + bh))
    if not blobs:
        return None
    x1, y1, x2, y2 = min(blobs, key=lambda b: b[0] + b[1])
    vgap, hgap = 0.06 * h, 0.03 * w
    grown = True
    while grown:
        grown = False
        for b in blobs:
            if b[0] >= x1 and b[1] >= y1 and b[2] <= x2 and b[3] <= y2:
                continue
            x_overlap = min(b[2], x2) - max(b[0], x1)
            y_overlap = min(b[3], y2) - max(b[1], y1)
            below = x_overlap > 0 and b[1] - y2 < vgap and b[3] > y1
            beside = y_overlap > 0.5 * (b[3] - b[1]) and b[0] - x2 < hgap and b[2] > x1
            if below or beside:
                x1, y1, x2, y2 = min(x1, b[0]), min(y1, b[1]), max(x2, b[2]), max(y2, b[3])
                grown = True
    if x2 - x1 > 0.3 * w or y2 - y1 > 0.4 * h:
        return None
    return int(x1), int(y1), int(x2), int(y2)


@functools.cache
def _typical_index_size(deck: str) -> tuple[float, float]:
    """Median (width, height) of the index found on the deck's 2-9 cards."""
    sizes = []
    for suit in SUITS:
        for rank in "23456789":
            found = _top_left_index(
                _ink_mask(load_card(deck, rank + suit)), DECKS[deck].index_depth
            )
            if found is not None:
                sizes.append((found[2] - found[0], found[3] - found[1]))
    if not sizes:
        return 0.0, 0.0
    width, height = np.median(np.array(sizes, dtype=float), axis=0)
    return float(width), float(height)


@functools.cache
def index_boxes(deck: str, card: str) -> tuple[tuple[int, int, int, int], ...]:
    """Boxes ``(x1, y1, x2, y2)`` of the printed corner indices in :func:`load_card` pixels.

    Found once per deck by :func:`find_index_boxes` and cached as JSON next to the art.
    """
    return _deck_index_boxes(deck).get(card, ())


@functools.cache
def _deck_index_boxes(deck: str) -> dict[str, tuple[tuple[int, int, int, int], ...]]:
    path = CACHE_DIR / f"{deck}-{CARD_WIDTH}-index-{INDEX_BOXES_VERSION}.json"
    if path.exists():
        stored = json.loads(path.read_text())
        return {card: tuple(tuple(b) for b in boxes) for card, boxes in stored.items()}
    found = {card: find_index_boxes(deck, card) for card in (*FACES, BACK)}
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    stored = json.dumps({card: [list(b) for b in boxes] for card, boxes in found.items()})
    _write_into_place(path, lambda tmp: tmp.write_text(stored))
    return found


def _found_top_left(deck: str, card: str) -> tuple[int, int, int, int] | None:
    """The top-left index the ink finder sees on a face, unpadded, or None.

    None also when the blob is far from the deck's usual index size: a picture or frame
    merged into the index, where no label is better than a wrong one.
    """
    found = _top_left_index(_ink_mask(load_card(deck, card)), DECKS[deck].index_depth)
    if found is None:
        return None
    x1, y1, x2, y2 = found
    typical_w, typical_h = _typical_index_size(deck)
    if not (0.6 * typical_h < y2 - y1 < 1.35 * typical_h and x2 - x1 < 2.2 * typical_w):
        return None
    return found


@functools.cache
def _court_template(deck: str) -> tuple[int, int, int, int] | None:
    """Where a court card's index lies in this deck: the median box of the courts found.

    Why: in several decks (bellot, paris, neoclassical, ornamental's QH) the court
    picture runs into the corner, so the ink finder cannot separate the rank letter from
    the robe for some courts. The letter is printed in the same place, the same size, on
    every court of a deck (checked on a contact sheet of all four decks), so the courts
    that were found say where the others are. Without it those courts had no label, the
    training scenes borrowed another deck's courts, and the networks never saw these
    faces while the rendered hands deal them. Falls back to the deck's 9s (same font)
    when no court was found; None when neither was.
    """
    for ranks in (COURT_RANKS, ("9",)):
        boxes = [
            found
            for rank in ranks
            for suit in SUITS
            if (found := _found_top_left(deck, rank + suit)) is not None
        ]
        if boxes:
            median = np.median(np.array(boxes, dtype=float), axis=0)
            x1, y1, x2, y2 = (int(round(v)) for v in median)
            return x1, y1, x2, y2
    return None


def find_index_boxes(deck: str, card: str) -> tuple[tuple[int, int, int, int], ...]:
    """Boxes ``(x1, y1, x2, y2)`` of the printed corner indices in :func:`load_card` pixels.

    Top-left and bottom-right (the bottom-right index is the top-left one turned half a
    turn, so it is found by rotating the face); all four corners for decks that print
    them. A face-down card has no index: its one box is the whole card.
    """
    face = load_card(deck, card)
    h, w = face.shape[:2]
    if card == BACK:
        return ((0, 0, w, h),)
    found = _found_top_left(deck, card)
    if found is None and card[0] in COURT_RANKS and DECKS[deck].court_ranks:
        found = _court_template(deck)
    if found is None:
        return ()
    pad = 2
    x1, y1, x2, y2 = found
    x1, y1, x2, y2 = max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)
    boxes = [(x1, y1, x2, y2), (w - x2, h - y2, w - x1, h - y1)]
    if DECKS[deck].four_corners:
        boxes += [(w - x2, y1, w - x1, y2), (x1, h - y2, x2, h - y1)]
    return tuple(boxes)
