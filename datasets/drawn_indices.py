"""Camera patches of printed card indices drawn one at a time, not cut from whole scenes:
from a deck's art (every printed index region of its faces) or from typefaces and suit
outlines (:mod:`datasets.glyph_indices`), each placed small, turned and seen through the
camera model, then cut by the kiosk's own ``crop()``.

Why: a whole training scene costs seconds to render and yields a dozen indices; a drawn
index costs a few milliseconds, so a trainer can draw hundreds of thousands on two cores
(or millions on a larger machine) in many more styles than the scenes hold. The naming
network that learns from them as well as from the scenes names a real deck it never saw
far better (``models/README.md``, "Shapes, not decks").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.glyph_indices import GlyphMasks, compose
from datasets.index_crops import LABELS, jitter
from datasets.photometric import camera
from datasets.surfaces import random_surface
from kiosk.rules.cards import Suit
from kiosk.vision.cards.classes import FACES
from kiosk.vision.cards.index_classifier import MARGIN, PATCH, crop

LABEL_ID = {name: i for i, name in enumerate(LABELS)}
#: the index's longer side in the camera's picture, pixels, drawn log-uniformly (a
#: tablet's far seat shows 8-12 px)
INDEX_PX = (9.0, 45.0)
#: a typeface up to this much narrower or wider (log of the factor, each axis)
STRETCH = 0.15
#: a region's index is stored at most this long (pixels): nothing is drawn larger
STORED_INDEX = 56
#: decks whose art is never drawn for training: the rendered second check's decks
HELD_OUT = ("kde-standard", "kde-nicu-white")


def twin_ids() -> np.ndarray:
    """Each class's same-colour twin (itself for ``back`` and ``none``)."""
    return np.asarray([LABEL_ID[name[0] + Suit.parse(name[1]).same_colour.value]
                       if len(name) == 2 else i for i, name in enumerate(LABELS)])


def deck_cards(deck: str) -> list[str]:
    """The faces of ``deck`` whose printed index names them (a box was found; courts of a
    deck that prints no rank letter on them are left out)."""
    from datasets.cards_art import deck_info, index_boxes

    info = deck_info(deck)
    return [card for card in FACES
            if index_boxes(deck, card) and (info.court_ranks or card[0] not in "JQK")]


class Surfaces:
    """A pool of procedural table surfaces, windows of which lie under the cards (drawing
    a fresh surface for each patch costs more than the patch)."""

    def __init__(self, rng: np.random.Generator, count: int = 48, size: int = 256):
        self.tiles = [random_surface(size, rng) for _ in range(count)]

    def window(self, side: int, rng: np.random.Generator) -> np.ndarray:
        tile = self.tiles[int(rng.integers(len(self.tiles)))]
        if side > tile.shape[0]:
            tile = cv2.resize(tile, (side, side))
        y, x = (int(rng.integers(0, tile.shape[0] - side + 1)) for _ in range(2))
        return tile[y:y + side, x:x + side].copy()


def index_region(face: np.ndarray, box: tuple[int, int, int, int]
                 ) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The part of ``face`` (RGBA) around its printed index ``box`` that a camera patch
    is drawn from (1.2 index widths either side, one height above and below), and the
    box within it."""
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    rx1, ry1 = max(0, int(x1 - 1.2 * bw)), max(0, int(y1 - 1.0 * bh))
    rx2 = min(face.shape[1], int(x2 + 1.2 * bw) + 1)
    ry2 = min(face.shape[0], int(y2 + 1.0 * bh) + 1)
    return face[ry1:ry2, rx1:rx2], (x1 - rx1, y1 - ry1, x2 - rx1, y2 - ry1)


def region_patch(region: np.ndarray, box: tuple[float, float, float, float],
                 rng: np.random.Generator, surfaces: Surfaces,
                 index_px: tuple[float, float] = INDEX_PX, stretch: float = 0.0) -> np.ndarray:
    """One BGR PATCH x PATCH patch of the index ``box`` in ``region`` (RGBA, from
    :func:`index_region`) as a camera would give it.

    The region is shrunk (INTER_AREA, as a camera sums light) so the box's longer side is
    drawn log-uniformly in ``index_px``, each axis further by up to ``stretch`` either way
    (a narrower or wider typeface than the deck's), turned by up to 10 degrees with a
    slight perspective onto a window of a table surface about three indices wide, put
    through ``photometric.camera``, cut by ``crop()`` on the transformed box's bounds
    jittered as the detector's boxes are, and turned a random quarter.
    """
    x1, y1, x2, y2 = box
    target = math.exp(rng.uniform(math.log(index_px[0]), math.log(index_px[1])))
    scale = target / max(x2 - x1, y2 - y1)
    sx = scale * math.exp(rng.uniform(-stretch, stretch)) if stretch else scale
    sy = scale * math.exp(rng.uniform(-stretch, stretch)) if stretch else scale
    small = cv2.resize(region, None, fx=sx, fy=sy, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    box_corners = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64) * (sx, sy)
    # a turn of up to 10 degrees and a slight perspective, the index's centre in the middle
    side = int(math.ceil(3.2 * target)) + 8
    angle = math.radians(rng.uniform(-10, 10))
    c, s = math.cos(angle), math.sin(angle)
    centre = box_corners.mean(axis=0)
    corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64)
    turned = (corners - centre) @ np.array([[c, s], [-s, c]]) + side / 2
    turned += rng.uniform(-0.04, 0.04, size=(4, 2)) * max(sw, sh)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), turned.astype(np.float32))
    warped = cv2.warpPerspective(small, matrix, (side, side), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    canvas = surfaces.window(side, rng)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas = canvas * (1.0 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
    picture = cv2.cvtColor(camera(canvas, rng), cv2.COLOR_RGB2BGR)
    moved = cv2.perspectiveTransform(box_corners.reshape(1, -1, 2), matrix)[0]
    (bx1, by1), (bx2, by2) = moved.min(axis=0), moved.max(axis=0)
    patch = crop(picture, jitter((bx1, by1, bx2, by2), rng), PATCH, MARGIN)
    return np.ascontiguousarray(np.rot90(patch, int(rng.integers(4))))


def encode_regions(decks: Sequence[str]) -> dict[str, np.ndarray]:
    """Every printed index region of ``decks``: PNG bytes concatenated (``png``), each
    region's byte range (``ends``), its box within the region, its class and deck."""
    from datasets.cards_art import index_boxes, load_card

    blobs: list[bytes] = []
    boxes: list[tuple[float, float, float, float]] = []
    labels: list[int] = []
    deck_of: list[int] = []
    for number, deck in enumerate(decks):
        for card in deck_cards(deck):
            face = load_card(deck, card)
            for printed in index_boxes(deck, card):
                region, box = index_region(face, printed)
                shrink = min(1.0, STORED_INDEX / max(box[2] - box[0], box[3] - box[1]))
                if shrink < 1.0:
                    region = cv2.resize(region, None, fx=shrink, fy=shrink,
                                        interpolation=cv2.INTER_AREA)
                    box = tuple(v * shrink for v in box)  # type: ignore[assignment]
                ok, png = cv2.imencode(".png", region, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                if not ok:
                    raise RuntimeError(f"cannot encode {deck} {card}")
                blobs.append(png.tobytes())
                boxes.append(box)
                labels.append(LABEL_ID[card])
                deck_of.append(number)
    return {"png": np.frombuffer(b"".join(blobs), np.uint8),
            "ends": np.cumsum([len(b) for b in blobs]).astype(np.int64),
            "box": np.asarray(boxes, np.float32), "y": np.asarray(labels, np.int16),
            "deck": np.asarray(deck_of, np.int16), "decks": np.asarray(list(decks))}


class Regions:
    """The packed index regions, decoded (RGBA) once per process."""

    def __init__(self, path: Path):
        with np.load(path) as data:
            png, ends = data["png"], data["ends"]
            starts = np.concatenate([[0], ends[:-1]])[: len(ends)]
            self.images = [cv2.imdecode(png[a:b], cv2.IMREAD_UNCHANGED)
                           for a, b in zip(starts, ends, strict=True)]
            self.boxes = [tuple(float(v) for v in box) for box in data["box"]]
            self.y = data["y"].astype(np.int64)
            self.deck = data["deck"].astype(np.int64)
            self.decks = [str(d) for d in data["decks"]]


_REGIONS: dict[str, Regions] = {}


def draw_art(path: str, seed: int, count: int, stretch: float) -> tuple[np.ndarray, np.ndarray]:
    """``count`` camera patches of regions drawn at random from ``path``: (x, y)."""
    cv2.setNumThreads(1)
    regions = _REGIONS.setdefault(path, Regions(Path(path)))
    rng = np.random.default_rng(seed)
    surfaces = Surfaces(rng, count=16)
    picks = rng.integers(len(regions.y), size=count)
    x = np.stack([region_patch(regions.images[i], regions.boxes[i], rng, surfaces,  # type: ignore[arg-type]
                               INDEX_PX, stretch) for i in picks])
    return x, regions.y[picks]


def draw_each(path: str, seed: int, per_region: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``per_region`` patches of every region of ``path`` (the held-out judge set): x, y,
    deck."""
    cv2.setNumThreads(1)
    regions = _REGIONS.setdefault(path, Regions(Path(path)))
    rng = np.random.default_rng(seed)
    surfaces = Surfaces(rng, count=16)
    xs, ys, ds = [], [], []
    for i in range(len(regions.y)):
        for _ in range(per_region):
            xs.append(region_patch(regions.images[i], regions.boxes[i], rng, surfaces,  # type: ignore[arg-type]
                                   INDEX_PX, 0.0))
            ys.append(regions.y[i])
            ds.append(regions.deck[i])
    if not xs:
        none = np.zeros(0, np.int64)
        return np.zeros((0, PATCH, PATCH, 3), np.uint8), none, none
    return np.stack(xs), np.asarray(ys), np.asarray(ds)


_GLYPHS: dict[str, GlyphMasks] = {}


def draw_glyphs(path: str, seed: int, count: int, stretch: float) -> tuple[np.ndarray, np.ndarray]:
    """``count`` camera patches of indices drawn from typefaces and suit outlines (the
    packed masks at ``path``), faces uniformly: (x, y)."""
    cv2.setNumThreads(1)
    masks = _GLYPHS.setdefault(path, GlyphMasks(Path(path)))
    rng = np.random.default_rng(seed)
    surfaces = Surfaces(rng, count=16)
    cards = rng.integers(len(FACES), size=count)
    xs = []
    for i in cards:
        region, box = compose(masks, FACES[i], rng)
        xs.append(region_patch(region, box, rng, surfaces, INDEX_PX, stretch))
    return np.stack(xs), np.asarray([LABEL_ID[FACES[i]] for i in cards], np.int64)
