"""Card faces from the Debian card decks, as RGBA numpy arrays, with their corner-index boxes.

Why the GNOME (aisleriot) sheets: each ``.svgz`` in ``gnome-cards-data`` is one grid of
13 x 5 cards (rows clubs, diamonds, hearts, spades, then black joker, red joker, back), so
one ``rsvg-convert`` call renders a whole deck and the cards are cropped from the grid.
The KDE decks (``kdegames-card-data-kf5``) need one render per card element, and
``rsvg-convert -i -w`` mis-scales most of them on this machine (oxygen-white, dondorf,
gm-paris, penguins...; checked on a contact sheet): its extents for an element take in
empty page, so the card comes out small in a corner. The detector's decks are the
aisleriot ones.

Three KDE decks that render right when each element is trimmed to its own ink
(jolly-royal, penguins, tigullio-international) are :data:`EXTRA_TRAINING_DECKS`:
more designs for the index classifier only, drawn into scenes of their own
(``datasets.generate --decks extra``); :func:`usable_decks` never names them.

Two KDE decks that do render one card at a time (standard, nicu-white) are kept apart as
:data:`HELD_OUT_DECKS`: decks the detector never saw, to measure how well the kiosk
learns a table's own deck (``datasets/layouts.py``). Their cards are rendered one element
at a time into a sheet laid out as aisleriot's, so the rest of this module reads them
alike; :func:`usable_decks` and :func:`table_decks` never name them.

Only decks with English indices (A K Q J 10 ... 2) and the usual two colours are listed:
French (R D V), German (B D K), Russian and Swiss decks would teach wrong index shapes.

Use :func:`load_card` (one face, RGBA) and :func:`index_boxes` (where its printed corner
indices are, in that image's pixels); :data:`DECKS`, :data:`EXTRA_TRAINING_DECKS` and
:data:`HELD_OUT_DECKS` name each deck with its licence.
Rendered sheets are cached as PNG in the user's cache folder (:data:`CACHE_DIR`), which every
clone on the machine shares: they come from the installed card files and this module, not
from the checkout, and a KDE deck takes minutes to render.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import ALL_RANKS, BACK, FACES, SUITS

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
#: bumped when the rendering of a sheet changes, so a sheet rendered by older code is not read
SHEETS_VERSION = 1


def _cache_dir() -> Path:
    """Where rendered sheets and found index boxes are kept: ``$KIOSK_ART_CACHE``, else
    ``$XDG_CACHE_HOME/kiosk`` (``~/.cache/kiosk``), in a folder of :data:`SHEETS_VERSION`."""
    if os.environ.get("KIOSK_ART_CACHE"):
        return Path(os.environ["KIOSK_ART_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "kiosk" / f"card-art-{SHEETS_VERSION}"


CACHE_DIR = _cache_dir()
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
    #: True for a KDE file, whose cards are SVG elements (``9_heart``, ``back``) rendered
    #: one at a time; False for an aisleriot grid, one picture of the whole deck
    kde: bool = False
    #: True for a KDE file whose elements ``rsvg-convert -i -w`` mis-scales (its extents for
    #: an element run past the card, so the card comes out small in a corner of an empty
    #: picture; checked on a contact sheet): each element is rendered at the zoom that
    #: makes its own ink :data:`CARD_WIDTH` wide, and trimmed to it
    #: (:func:`_render_kde_trimmed`)
    kde_trim: bool = False
    #: True for the extra training decks, whose corners the usual ink finder reads less
    #: well; it then (1) erodes the card's outline from the picture's edge too (a
    #: trimmed render's top row can be outline: tigullio-international's KD joined it to
    #: its K), (2) finds the bottom-right index on the face turned half a turn instead
    #: of mirroring the top-left box (jolly-royal prints it a few pixels nearer the
    #: middle, so the mirrored box cut off the tip of its suit), and (3) gives a face
    #: whose index it cannot single out the median box of its rank in the other suits
    #: (penguins' black aces touch the outline, its 10 of hearts a pip), as it does for
    #: courts (:func:`_court_template`). Off for the other decks: their boxes, and so
    #: their scenes, stay as they were.
    finder_extras: bool = False


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


#: a KDE deck's licence: its stanza in the package's copyright file, named in full
_KDE_LICENCE_OF = "{} (kdegames-card-data-kf5; /usr/share/doc/kdegames-card-data-kf5/copyright)"
#: how the copyright file covers the decks it does not list by name
_KDE_UNLISTED = 'GPL-2+: not listed by name, so under "Files: *", "License: GPL-2+"'

#: decks no network is trained on, for measuring deck enrolment (see the module's doc);
#: never returned by :func:`usable_decks` or :func:`table_decks`
HELD_OUT_DECKS: dict[str, Deck] = {
    # the usual small corner indices, a classic court pattern
    "kde-standard": Deck(
        "kde-standard",
        KDE_DIR / "svg-standard" / "standard.svgz",
        _KDE_LICENCE_OF.format('GPL-2+: "Files: carddecks/svg-standard/*" ... "License: GPL-2+"'),
        kde=True,
    ),
    # big ("jumbo") corner indices, cartoon courts: its suit reaches 0.43 of the card
    # down, under the 0.42 that the ink finder looks at by default
    "kde-nicu-white": Deck(
        "kde-nicu-white",
        KDE_DIR / "svg-nicu-white" / "white.svgz",
        _KDE_LICENCE_OF.format(_KDE_UNLISTED),
        index_depth=0.5,
        kde=True,
    ),
}


def _kde_extra(directory: str, licence: str) -> Deck:
    """An extra training deck, ``/usr/share/carddecks/svg-<directory>/<directory>.svgz``."""
    return Deck(
        f"kde-{directory}",
        KDE_DIR / f"svg-{directory}" / f"{directory}.svgz",
        _KDE_LICENCE_OF.format(licence),
        kde=True,
        kde_trim=True,
        finder_extras=True,
    )


#: more card designs for training the index classifier only (``datasets.generate --decks
#: extra``), so that it reads decks it never saw: the KDE decks that render one card at
#: a time (:attr:`Deck.kde_trim`), print English indices (rank over suit, the courts'
#: rank letter too) in the usual two colours, and whose index boxes the ink finder puts
#: right, top-left and bottom-right (:attr:`Deck.finder_extras`; checked on contact
#: sheets of all 52 faces with their boxes). Never in :func:`usable_decks` or
#: :func:`table_decks`: the standard scenes and the rendered hands stay as they were.
#:
#: Left out: oxygen, oxygen-air and oxygen-white (the rank alone in the top-right
#: corner, the suit apart or not at all: no index of rank over suit, the ink finder
#: found none on any face); future (landscape chips, "B" and binary for ranks);
#: konqi-modern (72-pixel bitmaps that ``rsvg-convert -i`` cannot size, and a licence
#: for members of the KDE project); ancient-egyptians (its bottom-right index prints the
#: rank upright under a turned suit: its 9 there looks just like any other deck's 6
#: turned upside down, which the classifier must name 6); dondorf and gm-paris (the same
#: art as aisleriot's dondorf and paris, training decks already; gm-paris' 5C-9C had no
#: box either); nicu-ornamental (aisleriot's ornamental); xskat-french and xskat-german
#: (French and German indices); standard and nicu-white (:data:`HELD_OUT_DECKS`).
EXTRA_TRAINING_DECKS: dict[str, Deck] = {
    deck.name: deck
    for deck in (
        # big rank letters for courts, a wide sans-serif index, white paper
        _kde_extra("jolly-royal", _KDE_UNLISTED),
        # a bold index on a thick black outline, Tux courts
        _kde_extra(
            "penguins",
            'GPL-3+: "Files: carddecks/svg-penguins/*" ... "License: GPL-3+" (its notice: '
            '"Original Tux artwork created by Larry Ewing, Simon Budig and Anja Gerwinski.")',
        ),
        # a narrow card on grey-shaded paper with a small index: aisleriot's tigullio
        # redrawn, with its larger corner suits
        _kde_extra(
            "tigullio-international",
            'LGPL-2+: "Files: carddecks/svg-tigullio-international/*" ... "License: LGPL-2+"',
        ),
    )
}


def deck_info(name: str) -> Deck:
    """The :class:`Deck` of a training deck, an extra training deck or a held-out one."""
    for decks in (DECKS, EXTRA_TRAINING_DECKS):
        if name in decks:
            return decks[name]
    return HELD_OUT_DECKS[name]


def extra_training_decks() -> list[str]:
    """Installed extra training decks (:data:`EXTRA_TRAINING_DECKS`), for the index
    classifier's extra scenes; never held out, never in :func:`usable_decks`."""
    return [name for name, deck in EXTRA_TRAINING_DECKS.items() if deck.source.exists()]


def held_out_decks() -> list[str]:
    """Installed decks kept out of training, for measuring deck enrolment."""
    return [name for name, deck in HELD_OUT_DECKS.items() if deck.source.exists()]


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


@contextlib.contextmanager
def _drawing(path: Path) -> Iterator[None]:
    """Held while one process draws ``path``: the others that want it wait, then read
    the file it drew, rather than each drawing it again (a KDE deck takes up to a minute
    of a core, and a test run's workers and the generator's all start on an empty cache
    at once)."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    locks = CACHE_DIR.with_name(f"{CACHE_DIR.name}.locks")  # beside the cache, not in it
    locks.mkdir(exist_ok=True)
    with open(locks / f"{path.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@functools.cache
def deck_sheet(deck: str) -> np.ndarray:
    """The whole deck grid as RGBA, rendered once with rsvg-convert and cached as PNG."""
    path = CACHE_DIR / f"{deck}-{CARD_WIDTH}.png"
    if not path.exists():
        with _drawing(path):
            if not path.exists():
                _draw_sheet(deck, path)
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise RuntimeError(f"cannot read rendered deck {path}")
    return cv2.cvtColor(image, cv2.COLOR_BGRA2RGBA)


def _draw_sheet(deck: str, path: Path) -> None:
    if shutil.which("rsvg-convert") is None:
        raise RuntimeError("rsvg-convert (librsvg2-bin) is needed to render card art")
    source = deck_info(deck)

    def render(tmp: Path) -> None:
        if source.kde:
            _render_kde_sheet(source, tmp)
            return
        subprocess.run(
            ["rsvg-convert", "-w", str(CARD_WIDTH * 13), str(source.source), "-o", str(tmp)],
            check=True,
        )

    _write_into_place(path, render)


#: a KDE file's element name for each rank and suit (``1_heart``, ``10_club``, ``jack_spade``)
_KDE_RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_KDE_SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def kde_element(card: str) -> str:
    """The SVG element id of a card (``"9H"``, ``"back"``) in a KDE deck's file.

    (Not ``card_back``: in svg-standard that is the blank outline every face is drawn on.)

    >>> kde_element("AH"), kde_element("TC"), kde_element("QS"), kde_element("back")
    ('1_heart', '10_club', 'queen_spade', 'back')
    """
    if card == BACK:
        return "back"
    return f"{_KDE_RANKS.get(card[0], card[0])}_{_KDE_SUITS[card[1]]}"


def _render_kde_sheet(deck: Deck, path: Path) -> None:
    """Render each card element of a KDE file (``rsvg-convert -i``) into one PNG laid out
    as an aisleriot grid (13 columns of :data:`CARD_WIDTH`, rows as :func:`_cell`), so
    :func:`load_card` crops it as any other deck's sheet.

    Why one sheet: the cache, the crop and the trim stay the same code for every deck.
    Cells are as tall as the tallest card; a card shorter than its cell leaves
    transparent rows, which :func:`load_card` trims.
    """
    cards = (*FACES, BACK)
    faces = {}
    with tempfile.TemporaryDirectory() as folder:
        for card in cards:
            out = Path(folder) / f"{card}.png"
            if deck.kde_trim:
                faces[card] = _render_kde_trimmed(deck, card, out)
                continue
            subprocess.run(
                ["rsvg-convert", "-i", kde_element(card), "-w", str(CARD_WIDTH),
                 str(deck.source), "-o", str(out)],
                check=True,
            )  # fmt: skip
            faces[card] = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if any(face is None or face.ndim != 3 or face.shape[2] != 4 for face in faces.values()):
        raise RuntimeError(f"rsvg-convert gave no RGBA card for {deck.name}")
    rendered = {card: face for card, face in faces.items() if face is not None}
    height = max(face.shape[0] for face in rendered.values())
    sheet = np.zeros((height * 5, CARD_WIDTH * 13, 4), np.uint8)
    for card, face in rendered.items():
        row, column = _cell(card)
        h, w = min(face.shape[0], height), min(face.shape[1], CARD_WIDTH)
        sheet[row * height : row * height + h, column * CARD_WIDTH : column * CARD_WIDTH + w] = (
            face[:h, :w]
        )
    if not cv2.imwrite(str(path), sheet):
        raise RuntimeError(f"cannot write {path}")


def _render_kde_trimmed(deck: Deck, card: str, out: Path) -> np.ndarray | None:
    """One card element of a :attr:`Deck.kde_trim` deck, RGBA, :data:`CARD_WIDTH` wide
    and trimmed to its ink (None when rsvg-convert gives no RGBA picture).

    ``rsvg-convert -i`` places the element in a picture as big as its extents, which for
    these files take in empty page too (oxygen's 9C: the card in the bottom-right
    quarter), so ``-w`` scales the card too small. Rendered once at zoom 1 to measure
    the card's own width, then at the zoom that makes it CARD_WIDTH wide, trimmed, and
    resized to exactly that width (a pixel at most). Each element is measured on its
    own: gm-paris draws its courts smaller than its other cards.
    """

    def render(zoom: float) -> np.ndarray | None:
        subprocess.run(
            ["rsvg-convert", "-i", kde_element(card), "-z", f"{zoom:.6f}",
             str(deck.source), "-o", str(out)],
            check=True,
        )  # fmt: skip
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            return None
        ys, xs = np.nonzero(image[:, :, 3] > 128)
        if not len(xs):
            return None
        return image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]

    measured = render(1.0)
    if measured is None:
        return None
    face = render(CARD_WIDTH / measured.shape[1])
    if face is None:
        return None
    if face.shape[1] != CARD_WIDTH:
        height = int(round(face.shape[0] * CARD_WIDTH / face.shape[1]))
        face = cv2.resize(face, (CARD_WIDTH, height), interpolation=cv2.INTER_AREA)
    return face


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


def _ink_mask(face: np.ndarray, from_edge: bool = False) -> np.ndarray:
    """Pixels that differ clearly from the card's paper colour (taken near the card's edge).

    ``from_edge``: the picture's edge counts as off the card, so the outline is eroded
    there too (:attr:`Deck.finder_extras`)."""
    rgb = face[:, :, :3].astype(np.int16)
    h, w = rgb.shape[:2]
    # paper colour: median of a band just inside the border, on the left edge
    band = rgb[int(0.4 * h) : int(0.6 * h), int(0.03 * w) : int(0.06 * w)].reshape(-1, 3)
    paper = np.median(band, axis=0)
    diff = np.abs(rgb - paper).max(axis=2)
    mask = (diff > 60) & (face[:, :, 3] > 200)
    # drop the card outline: erode the card's own alpha before intersecting
    opaque = (face[:, :, 3] > 200).astype(np.uint8)
    if from_edge:
        inner = cv2.erode(opaque, np.ones((7, 7), np.uint8), borderType=cv2.BORDER_CONSTANT,
                          borderValue=0)  # fmt: skip
    else:
        inner = cv2.erode(opaque, np.ones((7, 7), np.uint8))
    return np.asarray(mask & inner.astype(bool))


def _deck_ink_mask(deck: str, face: np.ndarray) -> np.ndarray:
    """:func:`_ink_mask` of one of the deck's faces, as the deck's finder reads it."""
    return _ink_mask(face, from_edge=deck_info(deck).finder_extras)


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
                _deck_ink_mask(deck, load_card(deck, rank + suit)), deck_info(deck).index_depth
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
    if not path.exists():
        with _drawing(path):
            if not path.exists():
                found = {card: find_index_boxes(deck, card) for card in (*FACES, BACK)}
                stored = json.dumps({card: [list(b) for b in boxes]
                                     for card, boxes in found.items()})
                _write_into_place(path, lambda tmp: tmp.write_text(stored))
    stored_boxes = json.loads(path.read_text())
    return {card: tuple(tuple(b) for b in boxes) for card, boxes in stored_boxes.items()}


def _found_top_left(deck: str, card: str, turned: bool = False) -> tuple[int, int, int, int] | None:
    """The top-left index the ink finder sees on a face, unpadded, or None.

    None also when the blob is far from the deck's usual index size: a picture or frame
    merged into the index, where no label is better than a wrong one. ``turned``: on the
    face turned half a turn (its bottom-right index, in the turned face's pixels).
    """
    face = load_card(deck, card)
    if turned:
        face = np.ascontiguousarray(face[::-1, ::-1])
    found = _top_left_index(_deck_ink_mask(deck, face), deck_info(deck).index_depth)
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
        found = _median_box(deck, ranks)
        if found is not None:
            return found
    return None


def _median_box(deck: str, ranks: tuple[str, ...]) -> tuple[int, int, int, int] | None:
    """The median of the top-left boxes found on the deck's cards of ``ranks``, or None."""
    boxes = [
        found
        for rank in ranks
        for suit in SUITS
        if (found := _found_top_left(deck, rank + suit)) is not None
    ]
    if not boxes:
        return None
    median = np.median(np.array(boxes, dtype=float), axis=0)
    x1, y1, x2, y2 = (int(round(v)) for v in median)
    return x1, y1, x2, y2


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
    extras = deck_info(deck).finder_extras
    found = _found_top_left(deck, card)
    if found is None and card[0] in COURT_RANKS and deck_info(deck).court_ranks:
        found = _court_template(deck)
    if found is None and extras:
        found = _median_box(deck, (card[0],))
    if found is None:
        return ()
    pad = 2

    def padded(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        x1, y1, x2, y2 = box
        return max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)

    x1, y1, x2, y2 = padded(found)
    # the bottom-right index: the top-left box turned half a turn, or for finder_extras
    # decks the one found on the turned face where there is one
    turned = _found_top_left(deck, card, turned=True) if extras else None
    bx1, by1, bx2, by2 = padded(turned) if turned is not None else (x1, y1, x2, y2)
    boxes = [(x1, y1, x2, y2), (w - bx2, h - by2, w - bx1, h - by1)]
    if deck_info(deck).four_corners:
        boxes += [(w - x2, y1, w - x1, y2), (x1, h - y2, x2, h - y1)]
    return tuple(boxes)


def draw_every_deck(workers: int = 2) -> list[str]:
    """Draw every installed deck's sheet and index boxes into the cache (what is there
    already is read, not drawn again): a machine's one-time set-up, so that the first
    test run or data generation does not spend its minutes on rsvg-convert."""
    from concurrent.futures import ProcessPoolExecutor

    decks = [*usable_decks(), *extra_training_decks(), *held_out_decks()]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_draw_deck, decks))
    return decks


def _draw_deck(deck: str) -> None:
    index_boxes(deck, BACK)  # draws the sheet first


if __name__ == "__main__":
    import sys
    import time

    began = time.monotonic()
    if not card_art_installed():
        print("No card art here (gnome-cards-data, rsvg-convert): nothing drawn.")
        sys.exit(0)
    drawn = draw_every_deck()
    print(f"Card art of {len(drawn)} decks in {CACHE_DIR} "
          f"({time.monotonic() - began:.0f} s).")
