"""One synthetic euchre table picture with its labels, fully determined by a seed.

What a scene holds, and why:
- a trick in the middle (cards played in front of each seat, overlapping, any angle),
  because that is what the kiosk must read;
- tricks taken, face down and criss-crossed, near the seats (class ``back``);
- score markers: two 5s, one lying over the other, as euchre players keep score;
- a fanned hand held at the edge with a hand over it, loose fingers, random strays;
- one deck per table (sometimes two), a dark recolouring now and then (real decks with
  black faces exist), drop shadows, a procedural table, then the camera: overhead or a
  tablet at the table's edge (perspective), and lighting/noise/blur/JPEG.

Labels follow the drawing: each corner index (or a face-down card) gets an id painted
into an id map; anything drawn later paints over it. An index is labelled when at least
:data:`MIN_VISIBLE` of it still shows (of its box, and of the print of its rank and of
its suit, each), with the box of what shows, in the output picture.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from datasets import photometric
from datasets.cards_art import index_boxes, load_card, usable_decks
from datasets.classes import BACK, CLASS_ID, FACES
from datasets.geometry import (
    Box,
    box_corners,
    card_matrix,
    paste_rgba,
    transform_points,
    view_homography,
)
from datasets.handvideo import CARD_W
from datasets.occluders import draw_hand
from datasets.surfaces import random_surface

Rng = np.random.Generator

#: fraction of an index (after occlusion and cropping) that must show for it to be labelled
MIN_VISIBLE = 0.6
#: boxes smaller than this (output pixels, either side) are dropped as unreadable
MIN_BOX = 5.0
#: bumped whenever a seed's picture changes, so ``datasets.generate`` redraws kept scenes
#: (3: a fifth of the tables lie on the printed mat; 4: ornamental indices with their suit;
#: 5: an index cut by the canvas's edge counts its whole area, so a sliver is not labelled,
#: and 60 % of its print must show too, not only of its box; 6: 60 % of the rank's print
#: and of the suit's, each, in the picture: a suit whose rank is hidden names no card)
SCENES_VERSION = 6
#: share of tables that lie on the kiosk's printed play mat (``kiosk mat``)
MAT_SHARE = 0.2
#: share of card faces recoloured dark with light print (real decks with black faces exist)
DARK_SHARE = 0.1
#: the mat's side in card widths, as printed (the rendered hands' card width on the mat)
MAT_CARD_WIDTHS = 1 / CARD_W


@dataclass(frozen=True)
class Label:
    """A labelled object: card name and box (x1, y1, x2, y2) in output pixels."""

    card: str
    box: Box

    def yolo_line(self, width: int, height: int) -> str:
        """The label as a YOLO text line (class cx cy w h, normalised)."""
        x1, y1, x2, y2 = self.box
        return (
            f"{CLASS_ID[self.card]} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
            f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}"
        )


class Region(NamedTuple):
    """A corner index (or a face-down card) drawn on the table, by its id in the id maps."""

    card: str
    pixels: int  #: the whole index's pixels when drawn (also any part off the canvas)
    ink: float  #: its printed pixels when drawn (0: nothing to check, a card back)
    polygon: np.ndarray  #: its four corners on the canvas
    rank_ink: float = 0.0  #: the printed pixels of its rank when drawn (the rest: its suit)


@dataclass(frozen=True)
class Scene:
    image: np.ndarray  # uint8 RGB, size x size
    labels: tuple[Label, ...]
    view: str
    deck: str
    #: indices that show in part only (:func:`view_regions`): ignored when measuring
    partial: tuple[Label, ...] = ()


@dataclass(frozen=True)
class Placement:
    """A card on the flat table: canvas centre, width in canvas pixels, angle in degrees."""

    card: str
    deck: str
    center: tuple[float, float]
    width: float
    angle: float


class Table:
    """A flat table canvas being drawn, with the id map of the label regions still visible.

    Reusable outside the generator (a video renderer, say): make one from a surface
    (:func:`datasets.surfaces.random_surface`), ``add_card`` placements in drawing order,
    ``cover`` what hands hide, then warp ``canvas`` with a view homography and call
    :func:`view_labels` for the boxes.
    """

    def __init__(self, surface: np.ndarray) -> None:
        self.canvas = surface
        size = surface.shape[0]
        self.ids = np.zeros((size, size), np.int32)
        #: the same ids painted on the print alone (rank and suit, not the paper between)
        self.ink_ids = np.zeros((size, size), np.int32)
        #: and on the rank's print alone (the suit's is ``ink_ids`` without it)
        self.rank_ids = np.zeros((size, size), np.int32)
        self.regions: list[Region] = [Region("", 0, 0.0, np.zeros((0, 2)))]  # by id
        #: which card (index into ``cards``, 0 = none) shows at each pixel, and per card
        #: (name, its label region ids, pixels when drawn, also off the canvas): for measuring
        #: what survives overlap
        self.card_ids = np.zeros((size, size), np.int32)
        self.cards: list[tuple[str, list[int], int]] = [("", [], 0)]

    def cover(self, mask: np.ndarray) -> None:
        """Hide every label region under ``mask`` (bool, canvas-sized)."""
        self.ids[mask] = 0
        self.ink_ids[mask] = 0
        self.rank_ids[mask] = 0
        self.card_ids[mask] = 0

    def add_card(self, placement: Placement, rng: Rng, recolour: float = DARK_SHARE) -> None:
        """Draw a card (with its drop shadow) over everything drawn so far."""
        face = load_card(placement.deck, placement.card)
        if placement.card != BACK and rng.random() < recolour:
            face = _dark_recolour(face, rng)
        matrix = card_matrix(
            (face.shape[1], face.shape[0]), placement.center, placement.width, placement.angle
        )
        _drop_shadow(self.canvas, face, matrix, placement.width, rng)
        coverage = paste_rgba(self.canvas, face, matrix)
        body = coverage > 0.5
        self.cover(body)
        face_pixel = abs(float(np.linalg.det(matrix[:, :2])))  # its area on the canvas
        whole = int(np.count_nonzero(face[:, :, 3] > 127) * face_pixel)  # also off the canvas
        self.cards.append((placement.card, [], whole))
        self.card_ids[body] = len(self.cards) - 1
        printed = _index_ink(placement.deck, placement.card)
        printed_rank = _rank_ink(placement.deck, placement.card)
        h, w = self.ids.shape
        ink = cv2.warpAffine(printed, matrix, (w, h)) > 127
        rank = cv2.warpAffine(printed_rank, matrix, (w, h)) > 127
        for box in index_boxes(placement.deck, placement.card):
            polygon = transform_points(matrix, box_corners(box))
            region = np.zeros(self.ids.shape, np.uint8)
            cv2.fillPoly(region, [np.round(polygon).astype(np.int32)], 1)
            region_mask = (region > 0) & (coverage > 0.5)
            if not region_mask.any():
                continue
            # "drawn" is the whole index, not the part that fell on the canvas: an index
            # mostly off the table's edge is a strip of blank paper, not a label
            x1, y1, x2, y2 = box
            drawn_ink = float(np.count_nonzero(printed[y1:y2, x1:x2])) * face_pixel
            drawn_rank = float(np.count_nonzero(printed_rank[y1:y2, x1:x2])) * face_pixel
            self.regions.append(
                Region(placement.card, _polygon_pixels(polygon), drawn_ink, polygon, drawn_rank)
            )
            self.ids[region_mask] = len(self.regions) - 1
            self.ink_ids[region_mask & ink] = len(self.regions) - 1
            self.rank_ids[region_mask & rank] = len(self.regions) - 1
            self.cards[-1][1].append(len(self.regions) - 1)


def lay_mat(canvas: np.ndarray, card_w: float, rng: Rng) -> None:
    """Lay the printed play mat on the table (in place), at its printed size for the cards.

    Kiosks on the mat read white cards on white paper, faint zone lines and seat words
    beside the indices, and the ArUco corners: the networks must have seen that. The mat
    is turned by about a quarter turn (any seat may face the camera) and shifted, so its
    edge and markers show on some tables and not on others.
    """
    mat = _mat_rgba()
    side = card_w * MAT_CARD_WIDTHS * rng.uniform(0.85, 1.2)
    paper = rng.uniform(0.88, 1.0, 3).astype(np.float32)  # off-white, recycled, ...
    tinted = mat.copy()
    tinted[:, :, :3] = mat[:, :, :3] * paper
    c = canvas.shape[0] / 2
    centre = (c + rng.uniform(-0.45, 0.45) * side, c + rng.uniform(-0.45, 0.45) * side)
    angle = 90.0 * int(rng.integers(4)) + rng.uniform(-8, 8)
    paste_rgba(canvas, tinted, card_matrix((mat.shape[1], mat.shape[0]), centre, side, angle))


_MAT_PIXELS = 1200


@functools.cache
def _mat_rgba() -> np.ndarray:
    """The mat as an opaque RGBA float image, rendered once per process."""
    from kiosk.vision.camera.mat import render_mat

    rgb = cv2.cvtColor(render_mat(_MAT_PIXELS), cv2.COLOR_BGR2RGB).astype(np.float32)
    alpha = np.full(rgb.shape[:2] + (1,), 255, np.float32)
    return np.concatenate([rgb, alpha], axis=2)


def mat_stream(seed: int) -> Rng:
    """Scene ``seed``'s random stream for the mat: its own, so that the tables without
    the mat draw exactly as they did before there was one."""
    return np.random.default_rng([seed, 0x6D6174])


def _drop_shadow(
    canvas: np.ndarray, face: np.ndarray, matrix: np.ndarray, width: float, rng: Rng
) -> None:
    h, w = canvas.shape[:2]
    shifted = matrix.copy()
    shifted[:, 2] += rng.uniform(0.0, 0.04, 2) * width
    alpha = cv2.warpAffine(face[:, :, 3], shifted, (w, h)).astype(np.float32) / 255.0
    alpha = cv2.GaussianBlur(alpha, (0, 0), max(1.0, width * 0.03))
    canvas *= 1.0 - alpha[:, :, None] * rng.uniform(0.15, 0.45)


def _dark_recolour(face: np.ndarray, rng: Rng) -> np.ndarray:
    """Turn a white-faced card into a dark one with light (gold, silver) print."""
    rgb = face[:, :, :3].astype(np.float32)
    ink = 1.0 - rgb.mean(axis=2, keepdims=True) / 255.0
    paper = rng.uniform(10, 70, 3).astype(np.float32)
    light = np.array([rng.uniform(180, 255), rng.uniform(150, 230), rng.uniform(60, 200)])
    out = paper * (1.0 - ink) + light.astype(np.float32) * np.clip(ink * 1.5, 0, 1)
    return np.dstack([np.clip(out, 0, 255).astype(np.uint8), face[:, :, 3]])


def _layout(rng: Rng, size: int, card_w: float, decks: list[str]) -> list[Placement]:
    """Where the cards lie, in drawing order (later cards lie on top)."""
    cx = cy = size / 2
    card_h = card_w * 1.45
    in_play = list(FACES)
    rng.shuffle(in_play)
    placements: list[Placement] = []

    def deck() -> str:
        return decks[0] if len(decks) == 1 or rng.random() < 0.7 else decks[1]

    def face_card() -> str:
        return in_play.pop() if in_play else BACK

    def add(card: str, x: float, y: float, angle: float, scale: float = 1.0) -> None:
        width = card_w * scale * rng.uniform(0.95, 1.05)
        chosen = _labelled_deck(card, deck(), decks)
        placements.append(Placement(card, chosen, (x, y), width, angle))

    seats = [90.0, 0.0, -90.0, 180.0]  # N, E, S, W: direction from the centre (degrees)
    spread = rng.uniform(0.8, 2.0)
    # tricks taken: face-down packets near the seats, criss-crossed
    for seat in seats:
        if rng.random() < 0.35:
            a = math.radians(seat + rng.uniform(-40, 40))
            r = rng.uniform(1.3, 2.4) * card_h
            x, y = cx + math.cos(a) * r, cy - math.sin(a) * r
            for k in range(int(rng.integers(1, 4))):
                px, py = x + rng.normal(0, 4), y + rng.normal(0, 4)
                add(BACK, px, py, seat + 90 * k + rng.normal(0, 8))
    # score markers: a 5 partly covered by another card (a 5 or a back)
    for _ in range(int(rng.integers(0, 3))):
        x, y = rng.uniform(0.1, 0.9, 2) * size
        angle = rng.uniform(0, 360)
        fives = [c for c in in_play if c[0] == "5"]
        if not fives:
            break
        under = fives[0]
        in_play.remove(under)
        add(under, x, y, angle)
        top = BACK if rng.random() < 0.5 else next((c for c in in_play if c[0] == "5"), BACK)
        if top != BACK:
            in_play.remove(top)
        shift = rng.uniform(0.25, 0.7) * card_h
        a = math.radians(angle + rng.choice([90.0, -90.0, 0.0, 180.0]))
        add(top, x + math.cos(a) * shift, y - math.sin(a) * shift, angle + rng.normal(0, 15))
    # strays anywhere, any angle
    for _ in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0.05, 0.95, 2) * size
        add(BACK if rng.random() < 0.15 else face_card(), x, y, rng.uniform(0, 360))
    # the trick: one card in front of each seat that has played, overlapping in the middle
    order = int(rng.integers(4))
    for k in range(int(rng.integers(1, 5))):
        seat = seats[(order + k) % 4]
        a = math.radians(seat + rng.normal(0, 15))
        r = rng.uniform(0.15, 0.6) * card_h * spread
        angle = seat - 90 + rng.normal(0, 25) if rng.random() < 0.7 else rng.uniform(0, 360)
        card = BACK if rng.random() < 0.05 else face_card()
        add(card, cx + math.cos(a) * r, cy - math.sin(a) * r, angle)
    # a fanned hand at the edge
    if rng.random() < 0.3:
        seat = seats[int(rng.integers(4))]
        a = math.radians(seat)
        r = rng.uniform(0.35, 0.48) * size
        bx, by = cx + math.cos(a) * r, cy - math.sin(a) * r
        for k in range(int(rng.integers(3, 6))):
            fan = seat - 90 + (k - 2) * rng.uniform(8, 15)
            dx = (k - 2) * card_w * 0.25
            add(face_card(), bx + dx * math.sin(a), by + dx * math.cos(a), fan)
    return placements


def _labelled_deck(card: str, deck: str, decks: list[str]) -> str:
    """``deck``, unless its index for ``card`` was not found: then a deck where it was.

    A card drawn without its label would teach the detector that a visible index is
    background. No random draw here, so the seeds' scenes stay as they were otherwise.
    """
    if card == BACK or index_boxes(deck, card):
        return deck
    for other in [*decks, *usable_decks()]:
        if index_boxes(other, card):
            return other
    return deck


def render_scene(
    seed: int, size: int = 384, view: str | None = None, camera: bool = True,
    dark_share: float = DARK_SHARE, without: Collection[str] = (),
    decks: Sequence[str] | None = None,
) -> Scene:
    """Render scene number ``seed``: the same seed always gives the same picture and labels.

    ``camera=False`` leaves out the lighting, noise, blur and JPEG effects (for tests, for
    callers such as a video renderer that apply their own, and for measuring what those
    effects cost the detector); ``without`` leaves out only the effects it names
    (:data:`datasets.photometric.EFFECTS`), every other one drawn as before.
    ``dark_share`` is the share of faces recoloured dark (a scene drawn with another
    share than the default is another scene). ``decks``: the decks the table's two are
    drawn from (at least two), by default :func:`usable_decks`; the index classifier's
    extra scenes draw from :func:`datasets.cards_art.extra_training_decks`.
    """
    rng = np.random.default_rng(seed)
    if view is None:
        view = "overhead" if rng.random() < 0.65 else "oblique"
    zoom = rng.uniform(1.0, 1.25) if view == "overhead" else rng.uniform(1.5, 1.9)
    canvas_size = int(size * zoom)
    decks = usable_decks() if decks is None else list(decks)
    chosen = [decks[int(i)] for i in rng.choice(len(decks), 2, replace=False)]
    # card width in output pixels, log-uniform: index boxes from ~10 to ~45 pixels wide
    out_card_w = math.exp(rng.uniform(math.log(55), math.log(230))) * size / 384
    card_w = out_card_w * zoom * (0.85 if view == "oblique" else 1.0)

    table = Table(random_surface(canvas_size, rng))
    mat_rng = mat_stream(seed)
    if mat_rng.random() < MAT_SHARE:
        lay_mat(table.canvas, card_w, mat_rng)
    for placement in _layout(rng, canvas_size, card_w, chosen):
        table.add_card(placement, rng, recolour=dark_share)
    for _ in range(int(rng.integers(0, 3))):
        table.cover(draw_hand(table.canvas, rng, fingers_only=rng.random() < 0.5))

    homography = view_homography(canvas_size, size, view, rng)
    image = cv2.warpPerspective(
        table.canvas, homography, (size, size), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )  # fmt: skip
    ids = warp_ids(table.ids, homography, (size, size))
    labels, partial = view_regions(table, ids, homography)
    if camera:
        image = photometric.camera(image, rng, without)
    else:
        image = np.clip(image, 0, 255).astype(np.uint8)
    return Scene(image, tuple(labels), view, chosen[0], tuple(partial))


def view_labels(table: Table, ids: np.ndarray, homography: np.ndarray) -> list[Label]:
    """Boxes of the regions that still show enough, after occlusion and the camera warp."""
    return view_regions(table, ids, homography)[0]


def view_regions(
    table: Table, ids: np.ndarray, homography: np.ndarray
) -> tuple[list[Label], list[Label]]:
    """The labels (:func:`view_labels`), and the indices that show in part only: a
    reader may name one or not, so a measurement ignores them (neither a miss nor a
    false detection). A part-shown index's box is the whole index, clipped to the
    picture, so that a detection of it overlaps its box however little shows."""
    canvas_count = np.bincount(table.ids.ravel(), minlength=len(table.regions))
    ink_count = np.bincount(table.ink_ids.ravel(), minlength=len(table.regions))
    out_count = np.bincount(ids.ravel(), minlength=len(table.regions))
    height, width = ids.shape
    printed = _print_in_picture(table, homography, (width, height))
    labels, partial = [], []
    for region_id in np.nonzero(out_count[1:])[0] + 1:
        region = table.regions[region_id]
        if shows_on_table(table, region_id, canvas_count, ink_count) and _shows_in_picture(
            table, region_id, canvas_count, out_count, printed, homography
        ):
            ys, xs = np.nonzero(ids == region_id)
            box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
            if box[2] - box[0] >= MIN_BOX and box[3] - box[1] >= MIN_BOX:
                labels.append(Label(region.card, box))
                continue
        corners = transform_points(homography, region.polygon)
        whole = (
            float(max(corners[:, 0].min(), 0.0)), float(max(corners[:, 1].min(), 0.0)),
            float(min(corners[:, 0].max(), width)), float(min(corners[:, 1].max(), height)),
        )  # fmt: skip
        partial.append(Label(region.card, whole))
    return labels, partial


def shows_on_table(
    table: Table, region_id: int, canvas_count: np.ndarray, ink_count: np.ndarray
) -> bool:
    """Whether :data:`MIN_VISIBLE` of an index shows on the table, of its box and of its
    print (not under later cards or hands, not off the table's edge). ``canvas_count``
    and ``ink_count``: the pixels of each region id in ``table.ids`` and ``table.ink_ids``
    (``np.bincount``), counted once for all the regions."""
    region = table.regions[region_id]
    if canvas_count[region_id] < MIN_VISIBLE * region.pixels:
        return False  # covered by a later card or a hand, or off the table's edge
    # the box shows, but is the print in it? (a finger on the rank)
    return ink_count[region_id] >= MIN_VISIBLE * region.ink


def _shows_in_picture(
    table: Table,
    region_id: int,
    canvas_count: np.ndarray,
    out_count: np.ndarray,
    printed: tuple[np.ndarray, np.ndarray],
    homography: np.ndarray,
) -> bool:
    """Whether :data:`MIN_VISIBLE` of what shows on the table is in the picture (not cut
    by the picture's edge), and of the index's rank print and its suit print, each
    (:func:`_rank_and_suit_in_picture`); ``out_count``: each region id's pixels in the
    picture, ``printed``: its print's and its rank's (:func:`_print_in_picture`)."""
    # the warp changes areas: compare with the pixels that a full view would show
    cy, cx = np.nonzero(table.ids == region_id)
    scale = _area_scale(homography, np.array([[cx.mean(), cy.mean()]]))
    return bool(out_count[region_id] >= MIN_VISIBLE * canvas_count[region_id] * scale) and (
        _rank_and_suit_in_picture(table.regions[region_id], region_id, printed, scale)
    )


#: a face pixel this far (0-255, any channel) from its index's paper is print
INK_CONTRAST = 60


def _print_in_picture(
    table: Table, homography: np.ndarray, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Each region id's pixels of print, and of its rank's print, in the picture
    (``np.bincount`` of the id maps warped as the picture is)."""
    ink, rank = (
        np.bincount(warp_ids(id_map, homography, size).ravel(), minlength=len(table.regions))
        for id_map in (table.ink_ids, table.rank_ids)
    )
    return ink, rank


def warp_ids(id_map: np.ndarray, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """An id map (``Table.ids``, ``ink_ids``, ``rank_ids``) as the picture's warp shows it:
    each pixel takes one id, never a blend of two, and outside the table is 0; every map
    is warped alike, so their pixel counts compare."""
    return cv2.warpPerspective(
        id_map, homography, size, flags=cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT, borderValue=0,
    )  # fmt: skip


def _rank_and_suit_in_picture(
    region: Region, region_id: int, printed: tuple[np.ndarray, np.ndarray], scale: float
) -> bool:
    """Whether :data:`MIN_VISIBLE` of the index's rank print and of its suit print, each,
    is in the picture (not under a later card or a hand, not off the table's or the
    picture's edge; ``scale``: how the picture's warp scales areas there). The print of a
    whole index can show 60 % with its rank hidden (a suit's pip is solid, a rank's glyph
    thin), and a suit alone names no card."""
    if region.ink <= 0:
        return True  # a card back: nothing printed to check
    ink_out, rank_out = printed
    suit_drawn = region.ink - region.rank_ink
    suit_out = ink_out[region_id] - rank_out[region_id]
    return bool(
        rank_out[region_id] >= MIN_VISIBLE * region.rank_ink * scale
        and suit_out >= MIN_VISIBLE * suit_drawn * scale
    )


#: an index box lying this far down the face (its middle, a share of the face's height)
#: or further is printed upside down: its rank is its lower part
UPSIDE_DOWN = 0.5


@functools.lru_cache(maxsize=2048)
def _rank_ink(deck: str, card: str) -> np.ndarray:
    """255 where a face's corner indices print their rank (:func:`_index_ink` split in
    two), 0 elsewhere; all 0 for a card back.

    An index prints its rank nearest the card's end and its suit below it (an upside-down
    index, at the far end, the other way round). The two parts are split at the widest
    band of blank rows between them, or, where they touch, at the thinnest row of print
    in the middle of the index.
    """
    printed = _index_ink(deck, card)
    rank = np.zeros_like(printed)
    if card == BACK:
        return rank
    face_height = printed.shape[0]
    for x1, y1, x2, y2 in index_boxes(deck, card):
        box = printed[y1:y2, x1:x2] > 0
        split = _rank_suit_split(box.sum(axis=1))
        if split is None:
            continue
        upside_down = (y1 + y2) / 2 >= UPSIDE_DOWN * face_height
        rows = slice(y1 + split, y2) if upside_down else slice(y1, y1 + split)
        rank[rows, x1:x2] = printed[rows, x1:x2]
    return rank


def _rank_suit_split(row_ink: np.ndarray) -> int | None:
    """The row (of an index box) between its two parts: the middle of the widest run of
    rows without print between the first and the last printed row, else the row with the
    least print in the middle fifth to four fifths; None for a box without print.

    >>> _rank_suit_split(np.array([0, 3, 3, 0, 0, 2, 2, 0]))
    4
    >>> _rank_suit_split(np.array([2, 2, 1, 2, 2]))
    2
    """
    printed_rows = np.nonzero(row_ink)[0]
    if not len(printed_rows):
        return None
    first, last = int(printed_rows[0]), int(printed_rows[-1])
    best_start, best_length, start = 0, 0, None
    for row in range(first, last + 1):
        if row_ink[row] == 0:
            start = row if start is None else start
            if row - start + 1 > best_length:
                best_start, best_length = start, row - start + 1
        else:
            start = None
    if best_length:
        return best_start + best_length // 2 + (best_length % 2)
    low = first + (last - first) // 5
    high = max(first + 4 * (last - first) // 5, low + 1)
    return low + int(np.argmin(row_ink[low:high]))


@functools.lru_cache(maxsize=2048)
def _index_ink(deck: str, card: str) -> np.ndarray:
    """255 where a face's corner indices are printed, 0 elsewhere (face-sized, uint8);
    all 0 for a card back, whose box is the whole card and has no print to check.

    An index box is mostly paper: a hand over its rank and suit can leave 60 % of the
    box showing and nothing to read, so visibility is judged on the print too. The paper
    is the box's brightest colour (95th percentile per channel).
    """
    face = load_card(deck, card)
    mask = np.zeros(face.shape[:2], np.uint8)
    if card == BACK:
        return mask
    for x1, y1, x2, y2 in index_boxes(deck, card):
        pixels = face[y1:y2, x1:x2, :3].astype(np.int16)
        paper = np.percentile(pixels.reshape(-1, 3), 95, axis=0)
        printed = np.abs(pixels - paper).max(axis=2) > INK_CONTRAST
        mask[y1:y2, x1:x2] = np.where(printed & (face[y1:y2, x1:x2, 3] > 127), 255, 0)
    return mask


def _polygon_pixels(polygon: np.ndarray) -> int:
    """Pixels ``cv2.fillPoly`` paints for ``polygon`` on an unbounded canvas (so that a
    region cut by the canvas's edge can be compared with what it would have been)."""
    corner = np.floor(polygon.min(axis=0)).astype(np.int64)
    local = np.round(polygon - corner).astype(np.int32)
    w, h = (int(v) + 2 for v in local.max(axis=0))
    patch = np.zeros((h, w), np.uint8)
    cv2.fillPoly(patch, [local], 1)
    return int(patch.sum())


def _area_scale(homography: np.ndarray, point: np.ndarray) -> float:
    """How much the homography scales areas near ``point`` (a 1x2 array)."""
    square = np.vstack([point, point + [1, 0], point + [1, 1], point + [0, 1]])
    warped = transform_points(homography, square)
    x, y = warped[:, 0], warped[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)
