"""Rendered photos for measuring deck enrolment on decks no network was trained on.

    python -m datasets.layouts --deck kde-standard --seed 1 --out runs/layout-kde --shots 8

Deck enrolment: the players lay their own pack face up in the grid of
:mod:`kiosk.vision.decks.deck_layout`, the kiosk photographs it and learns the deck from it
(every index found inside a place is that place's card). Whether that works can only be
measured on decks the detector never saw, or the measure says what training already
taught: hence the held-out KDE decks of :data:`datasets.cards_art.HELD_OUT_DECKS`.

Two kinds of photo, both labelled by the renderer (the corner indices that show, as the
training scenes label them, :func:`datasets.scenes.view_labels`):

- :func:`render_layout`: the enrolment photo, with the pack laid as the grid asks, or
  with places left empty (``missing``) or holding the wrong card (``swapped``), as an
  imperfect pack gives;
- :func:`render_table_shots`: the same deck's euchre cards and 5s lying on a table as in
  play, to measure reading after enrolment.

:func:`write_photo_set` writes them as the enrolment command's labelled photos. Every
photo is a pure function of its arguments (the seed draws everything).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import cv2
import numpy as np

from datasets import photometric
from datasets.cards_art import index_boxes, load_card
from datasets.classes import EUCHRE_RANKS, FACES, SUITS
from datasets.geometry import Box, transform_points
from datasets.scenes import Placement, Table, view_regions, warp_ids
from datasets.surfaces import random_surface
from kiosk.vision.decks.deck_layout import FIVE, PLACES, Place

Rng = np.random.Generator
Size = tuple[int, int]

#: the cards a euchre table plays with and keeps score with: what enrolment must learn
EUCHRE_AND_FIVES: tuple[str, ...] = tuple(
    rank + suit for suit in SUITS for rank in (*EUCHRE_RANKS, "5")
)
#: the two 5s a table keeps score with are of one colour
FIVE_PAIRS: tuple[tuple[str, str], ...] = (("5H", "5D"), ("5C", "5S"))
#: a laid card's height, as a share of its place's height
PLACE_FILL = (0.85, 0.95)
#: how far (degrees) a laid card turns from upright or upside down
LAID_TILT = 10.0
#: how far a laid card's centre strays from its place's, as a share of the place's side
LAID_SHIFT = 0.04
#: the camera's tilt: each picture corner moves up to this share of the picture's height
CAMERA_TILT = 0.015
#: a table shot's index height in the picture, pixels (the reader's working range)
SHOT_INDEX_HEIGHT = (14.0, 40.0)
#: cards in one table shot
SHOT_CARDS = (4, 8)
#: share of a shot's cards laid beside an earlier one, partly over it (a trick)
SHOT_OVERLAP = 0.35

_NO_SWAPS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class RenderedPhoto:
    """A rendered camera photo and the corner indices that show in it.

    ``labels``: (card name such as ``9C`` or ``5H``, box ``x1, y1, x2, y2`` in picture
    pixels), one per index that shows, both corners of a card where both show.
    ``ignore``: the boxes of indices that show in part only (under another card, cut by
    the picture's edge): a reader may name one or not, so a measurement counts a
    detection there neither right nor false, as the synthetic scenes' do.
    """

    image: np.ndarray  #: BGR uint8, as the camera gives
    labels: tuple[tuple[str, Box], ...]
    deck: str
    ignore: tuple[Box, ...] = ()

    def truth(self) -> list[tuple[str | None, Box]]:
        """The labels and the ignored boxes (named None), as a measurement takes them."""
        return [*self.labels, *((None, box) for box in self.ignore)]

    def label_lines(self) -> list[str]:
        """The labels as the enrolment command's text lines: ``NAME cx cy w h``, each
        normalised to the picture's width or height."""
        height, width = self.image.shape[:2]
        return [
            f"{card} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
            f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}"
            for card, (x1, y1, x2, y2) in [*self.labels, *(("IGNORE", b) for b in self.ignore)]
        ]


# ---- the enrolment layout ----------------------------------------------------------------
def render_layout(
    deck: str,
    seed: int,
    size: Size = (1280, 720),
    missing: Collection[str] = (),
    swapped: Mapping[str, str] = _NO_SWAPS,
    fives: tuple[str, str] | None = None,
) -> RenderedPhoto:
    """A camera photo of ``deck``'s enrolment layout: the 24 euchre cards and two 5s of
    one colour, each in its place of :data:`kiosk.vision.decks.deck_layout.PLACES`.

    ``size``: (width, height) of the picture. The 5s (``fives``, in the order of the
    two :data:`~kiosk.vision.decks.deck_layout.FIVE` places) are drawn from :data:`FIVE_PAIRS`
    by the seed unless given. ``missing`` names cards (``"9C"``, or a 5 such as
    ``"5H"``) whose places stay empty; ``swapped`` maps a place's card to the card laid
    there instead (a doubled card, a foreign one such as ``"6C"``): the labels name the
    card actually laid. Each card lies upright or upside down, turned up to
    :data:`LAID_TILT` degrees, near its place's centre, :data:`PLACE_FILL` of its height.
    """
    rng = np.random.default_rng(seed)
    if fives is None:
        fives = _draw_fives(rng)
    planned = _planned_cards(fives)
    _check_cards(planned, missing, swapped)
    canvas_side, homography = _camera(size, rng)
    table = Table(random_surface(canvas_side, rng))
    back_to_canvas = np.linalg.inv(homography)
    for place, card in planned:
        if card in missing:
            continue
        laid = swapped.get(card, card)
        table.add_card(_laid_placement(deck, laid, place, size, back_to_canvas, rng), rng, 0.0)
    return _photograph(table, homography, size, deck, rng)


def _draw_fives(rng: Rng) -> tuple[str, str]:
    """The two score 5s of a table: one colour, in either order."""
    pair = FIVE_PAIRS[int(rng.integers(len(FIVE_PAIRS)))]
    return pair if rng.random() < 0.5 else (pair[1], pair[0])


def _planned_cards(fives: tuple[str, str]) -> list[tuple[Place, str]]:
    """Each place with the card that belongs in it (a 5 place with its drawn 5)."""
    five_cards = iter(fives)
    return [(place, next(five_cards) if place.card == FIVE else place.card) for place in PLACES]


def _check_cards(
    planned: Sequence[tuple[Place, str]], missing: Collection[str], swapped: Mapping[str, str]
) -> None:
    """Raise ValueError for a missing or swapped card that has no place in this layout,
    or a swap to a card that is not a face: a typo would otherwise pass unnoticed."""
    cards = {card for _place, card in planned}
    for name in [*missing, *swapped]:
        if name not in cards:
            raise ValueError(f"{name!r} has no place in this layout ({sorted(cards)})")
    for name in swapped.values():
        if name not in FACES:
            raise ValueError(f"cannot lay {name!r}: not a card face")


def _laid_placement(
    deck: str, card: str, place: Place, size: Size, back_to_canvas: np.ndarray, rng: Rng
) -> Placement:
    """Where and how a player lays ``card`` in ``place``: the place is in the picture,
    so its centre goes back through the camera to the table."""
    width, height = size
    x1, y1, x2, y2 = place.box
    place_w, place_h = (x2 - x1) * width, (y2 - y1) * height
    shift = rng.uniform(-LAID_SHIFT, LAID_SHIFT, 2) * (place_w, place_h)
    centre_px = np.array([[(x1 + x2) / 2 * width, (y1 + y2) / 2 * height]]) + shift
    centre = transform_points(back_to_canvas, centre_px)[0]
    face = load_card(deck, card)
    card_w = rng.uniform(*PLACE_FILL) * place_h * face.shape[1] / face.shape[0]
    angle = 180.0 * int(rng.integers(2)) + rng.uniform(-LAID_TILT, LAID_TILT)
    return Placement(card, deck, (float(centre[0]), float(centre[1])), card_w, angle)


# ---- cards lying on a table in play ------------------------------------------------------
def render_table_shots(
    deck: str, seed: int, count: int, size: Size = (1280, 720)
) -> list[RenderedPhoto]:
    """``count`` photos of ``deck``'s euchre cards and 5s lying on a table as in play.

    Each shows :data:`SHOT_CARDS` cards of the 28, at any angle and anywhere in the
    picture, some partly over another; its cards are sized so that an index is
    :data:`SHOT_INDEX_HEIGHT` pixels tall. Shot ``k`` has its own random stream, so it
    is the same whatever ``count`` is.
    """
    return [_render_shot(deck, np.random.default_rng([seed, k]), size) for k in range(count)]


def _render_shot(deck: str, rng: Rng, size: Size) -> RenderedPhoto:
    canvas_side, homography = _camera(size, rng)
    table = Table(random_surface(canvas_side, rng))
    count = int(rng.integers(SHOT_CARDS[0], SHOT_CARDS[1] + 1))
    cards = [EUCHRE_AND_FIVES[int(i)] for i in rng.choice(len(EUCHRE_AND_FIVES), count, False)]
    scale = _shot_scale(deck, rng)  # picture pixels per card-image pixel
    back_to_canvas = np.linalg.inv(homography)
    centres: list[np.ndarray] = []
    for card in cards:
        face = load_card(deck, card)
        card_w, card_h = face.shape[1] * scale, face.shape[0] * scale
        centre_px = _shot_position(centres, card_h, size, rng)
        centres.append(centre_px)
        centre = transform_points(back_to_canvas, centre_px[None])[0]
        width = card_w * rng.uniform(0.97, 1.03)
        placement = Placement(
            card, deck, (float(centre[0]), float(centre[1])), width, rng.uniform(0, 360)
        )
        table.add_card(placement, rng, 0.0)
    return _photograph(table, homography, size, deck, rng)


def _shot_scale(deck: str, rng: Rng) -> float:
    """Picture pixels per card-image pixel for one shot: an index of the deck's usual
    height comes out :data:`SHOT_INDEX_HEIGHT` tall (log-uniform, as far as near)."""
    heights = [y2 - y1 for card in EUCHRE_AND_FIVES for _x1, y1, _x2, y2 in index_boxes(deck, card)]
    if not heights:
        raise ValueError(f"deck {deck!r} has no index boxes")
    low, high = (math.log(v) for v in SHOT_INDEX_HEIGHT)
    return math.exp(rng.uniform(low, high)) / float(np.median(heights))


def _shot_position(
    centres: Sequence[np.ndarray], card_h: float, size: Size, rng: Rng
) -> np.ndarray:
    """A card's centre in the picture: beside an earlier card and partly over it
    (:data:`SHOT_OVERLAP` of the time), else somewhere a card length clear of the others
    when a few tries find such a spot."""
    width, height = size
    margin = 0.35 * card_h
    low, high = np.array([margin, margin]), np.array([width - margin, height - margin])
    if centres and rng.random() < SHOT_OVERLAP:
        anchor = centres[int(rng.integers(len(centres)))]
        direction = rng.uniform(0, 2 * math.pi)
        step = rng.uniform(0.65, 1.0) * card_h
        return np.clip(anchor + step * np.array([math.cos(direction), math.sin(direction)]),
                       low, high)  # fmt: skip
    point = rng.uniform(low, high)
    for _ in range(20):
        if all(np.linalg.norm(point - c) >= card_h for c in centres):
            break
        point = rng.uniform(low, high)
    return point


# ---- the camera --------------------------------------------------------------------------
def _camera(size: Size, rng: Rng) -> tuple[int, np.ndarray]:
    """The table canvas's side and the homography from it to the picture.

    :class:`datasets.scenes.Table` is square; the picture is a window of it, seen by a
    camera that never hangs quite straight (each corner moved up to :data:`CAMERA_TILT`
    of the picture's height).
    """
    width, height = size
    margin = 2 * CAMERA_TILT * height + 4
    side = int(math.ceil(max(width, height) + 2 * margin))
    left, top = (side - width) / 2, (side - height) / 2
    window = (
        np.array(
            [[left, top], [left + width, top], [left + width, top + height], [left, top + height]]
        )
        + rng.uniform(-CAMERA_TILT, CAMERA_TILT, (4, 2)) * height
    )
    picture = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    homography = cv2.getPerspectiveTransform(window.astype(np.float32), picture.astype(np.float32))
    return side, homography


def _photograph(
    table: Table, homography: np.ndarray, size: Size, deck: str, rng: Rng
) -> RenderedPhoto:
    """The camera's picture of the table (BGR, with :func:`datasets.photometric.camera`'s
    light, blur, noise and JPEG) and the labels of the indices that show in it."""
    image = cv2.warpPerspective(
        table.canvas, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    labels, partial = view_regions(table, warp_ids(table.ids, homography, size), homography)
    rgb = photometric.camera(image, rng)
    return RenderedPhoto(
        cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
        tuple((label.card, label.box) for label in labels),
        deck,
        tuple(label.box for label in partial),
    )


# ---- writing and looking -----------------------------------------------------------------
def write_photo_set(photos: Sequence[RenderedPhoto], folder: Path) -> None:
    """Write ``folder/images/NNNN.jpg`` and ``folder/labels/NNNN.txt`` (one
    ``NAME cx cy w h`` line per index, :meth:`RenderedPhoto.label_lines`), numbered from
    0000: the labelled photos the enrolment command reads."""
    images, labels = folder / "images", folder / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    for number, photo in enumerate(photos):
        name = f"{number:04d}"
        if not cv2.imwrite(str(images / f"{name}.jpg"), photo.image,
                           [cv2.IMWRITE_JPEG_QUALITY, 95]):  # fmt: skip
            raise OSError(f"cannot write {images / name}.jpg")
        lines = photo.label_lines()
        (labels / f"{name}.txt").write_text("".join(line + "\n" for line in lines))


def draw_labels(photo: RenderedPhoto) -> np.ndarray:
    """The photo (BGR) with each label's box and card name drawn, for a person to check."""
    image = photo.image.copy()
    for card, box in photo.labels:
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        cv2.rectangle(image, (x1, y1), (x2 - 1, y2 - 1), (0, 255, 0), 1)
        cv2.putText(image, card, (x1, max(10, y1 - 3)), 0, 0.4, (0, 255, 0), 1)
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="kde-standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--shots", type=int, default=0, help="table shots after the layout")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--boxes", action="store_true", help="also write boxes/NNNN.jpg")
    args = parser.parse_args(argv)
    size = (args.width, args.height)
    photos = [render_layout(args.deck, args.seed, size)]
    photos += render_table_shots(args.deck, args.seed, args.shots, size)
    write_photo_set(photos, args.out)
    if args.boxes:
        (args.out / "boxes").mkdir(parents=True, exist_ok=True)
        for number, photo in enumerate(photos):
            cv2.imwrite(str(args.out / "boxes" / f"{number:04d}.jpg"), draw_labels(photo))
    print(args.out, len(photos), "photos", sum(len(p.labels) for p in photos), "labels")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
