"""Learning a table's deck from a few photos: the patches a deck profile is fitted on.

Two ways in, one profile out (``../shared/CONTRACTS.md``, "Deck profiles"):

- **labelled photos** (:class:`LabelledPhoto`, ``kiosk enrol --photos``): each index
  boxed and named by a person, as a director might do once for the club's deck;
- **the layout** (:func:`read_layout`): the players lay their 24 cards and two 5s in the
  grid the set-up screen shows (:mod:`kiosk.vision.decks.deck_layout`); the place an index lies
  in names it, so nobody labels anything. Reading the layout also checks the pack: a
  card missing, or a place holding a card that is plainly another.

Every labelled index gives patches cut exactly as the detector cuts them at play
(:func:`kiosk.vision.cards.index_classifier.crop`): on its own box, on the first stage's
proposals that match it (the boxes the classifier will really be given), and on a few
shifted boxes; at every quarter turn (cards lie at any angle); and as a farther, softer,
differently lit camera would give them (:data:`CAMERA_VARIANTS`). The first stage's
proposals that touch no label are the profile's ``none``: this deck's pips, court
pictures and back, which must not become cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from kiosk.rules.cards import Card, Suit
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import Detector
from kiosk.vision.cards.index_classifier import NONE, IndexClassifier, crop
from kiosk.vision.decks.deck_layout import FIVE, PLACES, Place, place_at
from kiosk.vision.decks.deck_profile import (
    INDEX,
    SUIT,
    DeckProfile,
    FitSettings,
    Head,
    fit_head,
    is_card,
)

Box = tuple[float, float, float, float]

#: (scale of the picture, Gaussian blur sigma in its pixels, gain, white balance tilt):
#: the photo as taken, softer, farther (smaller indices), and farther still in warmer,
#: dimmer light: a hall's camera sees the same cards all these ways during a session
CAMERA_VARIANTS: tuple[tuple[float, float, float, float], ...] = (
    (1.0, 0.0, 1.0, 0.0),
    (1.0, 0.8, 0.9, 0.05),
    (0.75, 0.0, 1.1, -0.05),
    (0.5, 0.0, 1.0, 0.0),
)
#: the variants the suit reader's wide patches are cut in: each costs twice an index
#: patch, and the suit reads from the card's pips, which the farthest variant shrinks
#: past reading; two of the four keep a layout's enrolment near five seconds on two cores
SUIT_VARIANTS = (CAMERA_VARIANTS[0], CAMERA_VARIANTS[2])
#: shifted copies of each labelled box (besides the box itself and matching proposals)
JITTERS = 3
#: a proposal overlapping a label at least this much (IoU) is that label's index
MATCH_IOU = 0.4
#: a proposal overlapping every label less than this is a ``none``
APART_IOU = 0.1
#: at most this many ``none`` boxes from one photo (the rest add little)
MOST_NONE = 150
#: a box's longer side must keep this many pixels in a variant to be cut from it
SMALLEST = 7.0


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo and its labelled boxes: (card name or ``back``, (x1, y1, x2, y2) pixels)."""

    image: np.ndarray
    labels: tuple[tuple[str, Box], ...]
    name: str = ""
    #: boxes that are neither a label nor ``none`` (a joker, an unreadable card)
    ignore: tuple[Box, ...] = field(default=())


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes.

    >>> iou((0, 0, 10, 10), (5, 0, 15, 10))
    0.3333333333333333
    """
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def photo_boxes(
    photo: LabelledPhoto, proposals: Sequence[Detection], rng: np.random.Generator
) -> list[tuple[str, Box]]:
    """The (name, box) pairs to cut from one photo: each label's own box, its matching
    proposals and :data:`JITTERS` shifted copies; then the proposals apart from every
    label as ``none`` (at most :data:`MOST_NONE`)."""
    out: list[tuple[str, Box]] = []
    for name, box in photo.labels:
        out.append((name, box))
        matching = [p.box for p in proposals if iou(p.box, box) >= MATCH_IOU]
        out += [(name, b) for b in matching[:3]]
        w, h = box[2] - box[0], box[3] - box[1]
        for _ in range(JITTERS):
            dx, dy = rng.uniform(-0.12, 0.12, 2) * (w, h)
            grow = rng.uniform(0.88, 1.2)
            cx, cy = (box[0] + box[2]) / 2 + dx, (box[1] + box[3]) / 2 + dy
            out.append((name, (cx - w * grow / 2, cy - h * grow / 2,
                               cx + w * grow / 2, cy + h * grow / 2)))
    taken = [box for _, box in photo.labels] + list(photo.ignore)
    apart = [p.box for p in proposals if all(iou(p.box, t) < APART_IOU for t in taken)]
    if len(apart) > MOST_NONE:
        apart = [apart[i] for i in rng.choice(len(apart), MOST_NONE, replace=False)]
    return out + [(NONE, box) for box in apart]


def camera_variant(image: np.ndarray, variant: tuple[float, float, float, float]) -> np.ndarray:
    """The photo as another camera setting would give it (:data:`CAMERA_VARIANTS`)."""
    scale, sigma, gain, tilt = variant
    out = image
    if scale != 1.0:
        out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if gain != 1.0 or tilt:
        balance = np.array([1.0 - tilt, 1.0, 1.0 + tilt], np.float32) * gain  # B G R
        out = np.clip(out.astype(np.float32) * balance, 0, 255).astype(np.uint8)
    return out


def cut_patches(
    image: np.ndarray, boxes: Sequence[tuple[str, Box]], patch: int, margin: float,
    variants: Sequence[tuple[float, float, float, float]] = CAMERA_VARIANTS,
) -> tuple[list[np.ndarray], list[str]]:
    """Patches of ``boxes`` as a network cutting ``patch`` pixels at ``margin`` reads
    them, in each camera variant and at every quarter turn, with their names."""
    patches: list[np.ndarray] = []
    names: list[str] = []
    for variant in variants:
        scale = variant[0]
        view = camera_variant(image, variant)
        for name, box in boxes:
            if max(box[2] - box[0], box[3] - box[1]) * scale < SMALLEST:
                continue
            cut = crop(view, tuple(v * scale for v in box), patch, margin)
            for turn in range(4):
                patches.append(np.ascontiguousarray(np.rot90(cut, turn)))
                names.append(name)
    return patches, names


def _features(network: IndexClassifier, patches: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([network.features(patches[start : start + 512])
                           for start in range(0, len(patches), 512)])


@dataclass(frozen=True)
class DeckCrops:
    """What a deck's photos give to learn from: index patches with their names (a card,
    ``back`` or ``none``) and wider suit patches of each face with its suit."""

    index_patches: list[np.ndarray]
    index_names: list[str]
    suit_patches: list[np.ndarray]
    suit_names: list[str]


def deck_patches(
    detector: Detector, photos: Sequence[LabelledPhoto], rng: np.random.Generator
) -> DeckCrops:
    """Every patch ``photos`` teach, cut as the shipped index classifier and the suit
    reader cut them (:func:`photo_boxes`, :func:`cut_patches`)."""
    namer = detector.shipped_namer
    if namer is None:
        raise ValueError("learning a deck needs the index classifier")
    suits = detector.suit_reader
    known = set(namer.classes)
    crops = DeckCrops([], [], [], [])
    for photo in photos:
        boxes = [(n if n in known else NONE, b)
                 for n, b in photo_boxes(photo, detector.propose(photo.image), rng)]
        patches, names = cut_patches(photo.image, boxes, namer.patch, namer.margin)
        crops.index_patches.extend(patches)
        crops.index_names.extend(names)
        faces = [(n[1], b) for n, b in boxes if is_card(n)]
        if suits is not None and suits.has_features and faces:
            patches, names = cut_patches(photo.image, faces, suits.patch, suits.margin,
                                         SUIT_VARIANTS)
            crops.suit_patches.extend(patches)
            crops.suit_names.extend(names)
    return crops


def fit_suit_head(
    detector: Detector, crops: DeckCrops,
    settings: FitSettings = FitSettings(),  # noqa: B008 (frozen: one shared value is safe)
) -> Head | None:
    """The suit reader's last layer refitted on the deck's faces (None: no suit reader
    with features, or no face to learn from)."""
    suits = detector.suit_reader
    if suits is None or not suits.has_features or not crops.suit_patches:
        return None
    return fit_head(_features(suits, crops.suit_patches), crops.suit_names, suits.head(),
                    settings)


def learn_deck(
    detector: Detector, photos: Sequence[LabelledPhoto], deck: str = "", seed: int = 0,
    settings: FitSettings = FitSettings(),  # noqa: B008 (frozen: one shared value is safe)
) -> DeckProfile:
    """A deck profile learnt from ``photos`` through ``detector``'s networks: the index
    classifier's last layer on every labelled index and ``none`` box, and the suit
    reader's (when the detector has one) on every labelled face (``settings``: how, for
    measuring others than the defaults)."""
    namer = detector.shipped_namer
    if namer is None or not namer.has_features:
        raise ValueError("learning a deck needs the index classifier with its features")
    crops = deck_patches(detector, photos, np.random.default_rng(seed))
    if not any(name != NONE for name in crops.index_names):
        raise ValueError("no card to learn: the photos hold no labelled index")
    features = _features(namer, crops.index_patches)
    heads = {INDEX: fit_head(features, crops.index_names, namer.head(), settings)}
    suit = fit_suit_head(detector, crops, settings)
    if suit is not None:
        heads[SUIT] = suit
    enrolled = tuple(sorted(set(crops.index_names) - {NONE}))
    return DeckProfile(heads, enrolled, deck, len(photos), len(crops.index_names))


# -- the layout ------------------------------------------------------------------------

#: a found box is an index when the shipped reading gives cards (not ``none``) this much
INDEX_MASS = 0.5
#: a place holds another card than its own when the shipped reading of its indices puts
#: this much on another rank (the ranks of an unseen deck are read well: only the suits'
#: fine print differs), or on the other colour
OTHER_RANK = 0.9
OTHER_COLOUR = 0.95


@dataclass(frozen=True)
class PlaceReading:
    """What one place of the layout holds."""

    place: Place
    card: str | None  #: the card enrolled from it (a 5's suit as read); None: nothing
    boxes: tuple[Box, ...]  #: its indices, in the photo's pixels
    other: str | None = None  #: the card it plainly holds instead, as read


@dataclass(frozen=True)
class LayoutReading:
    """A layout photo read: each place, and the photo labelled for enrolment."""

    places: tuple[PlaceReading, ...]
    photo: LabelledPhoto

    @property
    def missing(self) -> list[Place]:
        return [r.place for r in self.places if not r.boxes]

    @property
    def wrong(self) -> list[PlaceReading]:
        return [r for r in self.places if r.other is not None]


def read_layout(detector: Detector, image: np.ndarray, name: str = "") -> LayoutReading:
    """Read a photo of the enrolment layout: each place's indices and whether they are
    its card, and the photo labelled by place for :func:`learn_deck`."""
    h, w = image.shape[:2]
    proposals = detector.propose(image)
    probabilities = detector.naming(image, [p.box for p in proposals]) if proposals else None
    classes = detector.namer.classes if detector.namer is not None else ()
    in_place: dict[Place, list[tuple[Box, np.ndarray]]] = {}
    for proposal, row in zip(proposals, [] if probabilities is None else probabilities,
                             strict=True):
        mass = sum(float(row[i]) for i, c in enumerate(classes) if is_card(c))
        x1, y1, x2, y2 = proposal.box
        place = place_at((x1 + x2) / 2 / w, (y1 + y2) / 2 / h)
        if place is not None and mass >= INDEX_MASS:
            in_place.setdefault(place, []).append((proposal.box, row))
    none = classes.index(NONE)
    readings = [_read_place(place, _distinct(in_place.get(place, []), none), classes)
                for place in PLACES]
    readings = _name_fives(readings, classes, in_place, none)
    labels = tuple((r.card, box) for r in readings if r.card and r.other is None
                   for box in r.boxes)
    ignore = tuple(box for r in readings if r.other is not None for box in r.boxes)
    return LayoutReading(tuple(readings), LabelledPhoto(image, labels, name, ignore))


def _distinct(found: list[tuple[Box, np.ndarray]], none: int) -> list[tuple[Box, np.ndarray]]:
    """At most four index boxes of one place (a card prints two or four), no two the
    same index (of overlapping ones, the one surest to be an index stands; ``none`` is
    the column of the classifier's "not an index")."""
    found = sorted(found, key=lambda item: float(item[1][none]))
    kept: list[tuple[Box, np.ndarray]] = []
    for box, row in found:
        if all(iou(box, k) < 0.3 for k, _ in kept):
            kept.append((box, row))
    return kept[:4]


def _read_place(
    place: Place, found: list[tuple[Box, np.ndarray]], classes: Sequence[str]
) -> PlaceReading:
    boxes = tuple(box for box, _ in found)
    if not found:
        return PlaceReading(place, None, ())
    mean = np.mean([row for _, row in found], axis=0)
    ranks: dict[str, float] = {}
    colours = {"red": 0.0, "black": 0.0}
    for i, c in enumerate(classes):
        if not is_card(c):
            continue
        ranks[c[0]] = ranks.get(c[0], 0.0) + float(mean[i])
        colours["red" if c[1] in "HD" else "black"] += float(mean[i])
    total = max(sum(ranks.values()), 1e-9)
    own_rank = "5" if place.card == FIVE else place.card[0]
    best_rank = max(ranks, key=lambda r: ranks[r])
    other = None
    if best_rank != own_rank and ranks[best_rank] / total >= OTHER_RANK:
        other = _likeliest(mean, classes, lambda c: c[0] == best_rank)
    elif place.card != FIVE:
        own_colour = "red" if place.card[1] in "HD" else "black"
        wrong_colour = "black" if own_colour == "red" else "red"
        if colours[wrong_colour] / max(sum(colours.values()), 1e-9) >= OTHER_COLOUR:
            other = _likeliest(mean, classes, lambda c: c[1] in ("CS" if own_colour == "red"
                                                                 else "HD"))
    card = None if place.card == FIVE else place.card
    return PlaceReading(place, card, boxes, other)


def _likeliest(row: np.ndarray, classes: Sequence[str], keep: Callable[[str], bool]) -> str:
    """The likeliest card name among ``classes`` that ``keep`` accepts."""
    best = max((i for i, c in enumerate(classes) if is_card(c) and keep(c)),
               key=lambda i: float(row[i]))
    return classes[best]


def _name_fives(
    readings: list[PlaceReading], classes: Sequence[str],
    in_place: dict[Place, list[tuple[Box, np.ndarray]]], none: int,
) -> list[PlaceReading]:
    """Name the two 5s: each the suit its indices read likeliest, and the two different
    suits of one colour (the table's markers), the surer reading choosing the colour."""
    fives = [i for i, r in enumerate(readings) if r.place.card == FIVE and r.boxes
             and r.other is None]
    chances: list[dict[str, float]] = []
    for i in fives:
        mean = np.mean([row for _, row in _distinct(in_place[readings[i].place], none)],
                       axis=0)
        chances.append({s: float(mean[classes.index("5" + s)]) for s in "CDHS"
                        if "5" + s in classes})
    if not chances:
        return readings
    order = sorted(range(len(fives)), key=lambda k: -max(chances[k].values()))
    first = max(chances[order[0]], key=lambda s: chances[order[0]][s])
    suits = {order[0]: first}
    if len(order) > 1:
        suits[order[1]] = Suit.parse(first).same_colour.value
    out = list(readings)
    for k, i in enumerate(fives):
        r = readings[i]
        out[i] = PlaceReading(r.place, "5" + suits[k], r.boxes, None)
    return out


def pack_places(readings: Sequence[LayoutReading]) -> tuple[PlaceReading, ...]:
    """Each place of the layout as the photos read together show it, in the grid's order:
    its card where any photo shows it there; else the other card a photo shows there;
    else nothing (no boxes). One rule for the sentence and for the screen."""
    out = []
    for place in PLACES:
        here = [r for reading in readings for r in reading.places if r.place == place]
        seen = next((r for r in here if r.card is not None and r.other is None), None)
        wrong = next((r for r in here if r.other is not None), None)
        out.append(seen or wrong or PlaceReading(place, None, ()))
    return tuple(out)


def pack_sentence(readings: Sequence[LayoutReading]) -> tuple[str, bool]:
    """One plain sentence on the pack read from layout photos, and whether it is complete
    (:func:`pack_places`: a place is missing when no photo shows anything there, and
    wrong when a photo shows plainly another card there and none its own)."""
    places = pack_places(readings)
    seen = [r for r in places if r.card is not None and r.other is None]
    problems = [f"{r.place.words} is missing" for r in places if not r.boxes]
    problems += [f"the place of {r.place.words} holds the {Card.parse(r.other).words}"
                 for r in places if r.other is not None]
    fives = sorted(r.card for r in seen if r.place.card == FIVE and r.card is not None)
    marker = (f" (markers: the {' and the '.join(Card.parse(c).words for c in fives)})"
              if fives else "")
    if not problems:
        return f"All 26 cards seen: a complete pack{marker}.", True
    return (f"{len(seen)} of 26 cards seen. The pack is imperfect: " + "; ".join(problems)
            + ".", False)
