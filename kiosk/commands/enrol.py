"""`kiosk enrol`: learn a table's own deck from photos, a deck profile (CONTRACTS.md).

    kiosk enrol --layout PHOTO... -o DECK    # the pack laid out in the set-up grid
    kiosk enrol --photos DIR -o DECK         # DIR/images/*, DIR/labels/<stem>.txt

``--layout`` reads the 24 euchre cards and two 5s laid face up in the grid the set-up
screen shows (:mod:`kiosk.vision.decks.deck_layout`) and prints one line: the cards seen, and
any missing or plainly not the card of their place (an imperfect pack: the rule books'
misdeal). Exit status 0 when the pack is complete; 1 when it is not (the profile is still
written from the cards that are right, and the line says so).

``--deep`` learns the index classifier's whole network from the deck's crops
(:mod:`kiosk.vision.decks.deep_enrolment`; about a minute on two cores, with the training
extras installed); the profile carries that network, and any kiosk reads it with ONNX
Runtime alone. When ``-o`` names a profile already there and there are two photos or
more, the last photo is held out: a network learnt from the others must name its
labelled indices at least as well as the old profile does, or the old one is kept (one
line says so, exit status 1, nothing written); then the network is learnt from them all.

``--photos`` takes labelled photos: one box a line, ``NAME cx cy w h`` normalised to the
image, NAME a card (``9C``, ``10H``, case-insensitive) or ``BACK``; or class indices with
``DIR/data.yaml`` naming them. Other names (jokers) are places to leave alone.

Every input is checked before anything is learnt; a missing or unreadable photo, label
file or line: one line naming it, exit status 2, nothing written.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from kiosk.cli import UsageError
from kiosk.commands.common import check_image_files, read_image

#: image files the labelled-photo folder may hold
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
#: more photos than this teach little more, and the kiosk must learn in seconds
MOST_PHOTOS = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--layout", nargs="+", metavar="PHOTO",
                        help="photos of the pack laid out in the set-up grid")
    source.add_argument("--photos", metavar="DIR",
                        help="labelled photos: DIR/images/* and DIR/labels/<stem>.txt")
    parser.add_argument("-o", "--out", required=True, metavar="DECK",
                        help="the deck profile to write")
    parser.add_argument("--name", default="", help="a name for the deck (shown to the director)")
    parser.add_argument("--deep", action="store_true",
                        help="learn the naming network itself (a minute or two; needs torch)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.is_dir():
        raise UsageError(f"the profile's path is a folder: {out}")
    if not out.parent.is_dir():
        raise UsageError(f"no folder for the profile: {out.parent}")
    if args.deep:
        from kiosk.vision.decks.deep_enrolment import missing_extras

        missing = missing_extras()
        if missing:
            raise UsageError(missing)
    if args.layout:
        images = [read_image(p, "photo") for p in _checked_photos(args.layout)]
        return _enrol_layout(images, args.layout, out, args.name, args.deep)
    photos = _labelled_photos(Path(args.photos))
    return _enrol_photos(photos, out, args.name, args.deep)


def _checked_photos(names: list[str]) -> list[str]:
    if len(names) > MOST_PHOTOS:
        raise UsageError(f"{len(names)} photos: enrol from at most {MOST_PHOTOS}")
    check_image_files(names, "photo")
    return names


def _detector() -> Any:
    from kiosk.vision.cards.detector import Detector, ModelError

    try:
        detector = Detector()
    except ModelError as problem:
        raise UsageError(str(problem)) from None
    if detector.namer is None or not detector.namer.has_features:
        raise UsageError("enrolment needs ONNX Runtime and the index classifier with its "
                         "features (models/add_feature_output.py)")
    return detector


def _enrol_layout(images: list[Any], names: list[str], out: Path, deck: str,
                  deep: bool) -> int:
    from kiosk.vision.decks.enrolment import pack_sentence, read_layout

    detector = _detector()
    readings = [read_layout(detector, image, name) for image, name in zip(images, names,
                                                                           strict=True)]
    line, complete = pack_sentence(readings)
    if not any(r.photo.labels for r in readings):
        raise UsageError(f"no card found in the layout: {line}")
    profile = _learn(detector, [r.photo for r in readings], out, deck, deep)
    if profile is None:
        return 1
    profile.save(out)
    learnt = "" if complete else f" Learnt from the {len(profile.enrolled)} cards that are right."
    print(f"{line}{learnt} {_written(profile, out)}", flush=True)
    return 0 if complete else 1


def _learn(detector: Any, photos: list[Any], out: Path, deck: str, deep: bool) -> Any:
    """The profile to write, or None when the old one at ``out`` reads the held-out photo
    better (said in one line)."""
    from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError
    from kiosk.vision.decks.enrolment import learn_deck

    def learn(chosen: list[Any]) -> DeckProfile:
        if not deep:
            return learn_deck(detector, chosen, deck=deck)
        from kiosk.vision.decks.deep_enrolment import learn_deck_deeply

        return learn_deck_deeply(detector, chosen, deck=deck)

    old = None
    if out.is_file():
        try:
            old = DeckProfile.load(out)
        except ProfileError:
            old = None  # an unreadable file is no profile to keep
    held = photos[-1]
    if old is None or len(photos) < 2 or not held.labels:
        return learn(photos)
    trial = learn(photos[:-1])
    before, after = (_named_right(detector, p, held) for p in (old, trial))
    if after < before:
        print(f"Not written: the new profile names {after} of the {len(held.labels)} "
              f"labelled indices of {held.name or 'the last photo'} right, the profile "
              f"already at {out} names {before}. The old profile is kept.", flush=True)
        return None
    return learn(photos)


def _named_right(detector: Any, profile: Any, photo: Any) -> int:
    """How many of ``photo``'s labelled indices the detector names right under ``profile``."""
    from kiosk.vision.cards.detector import ModelError

    try:
        detector.use_deck(profile)
    except ModelError:
        return -1  # a profile these networks refuse reads nothing
    try:
        rows = detector.naming(photo.image, [box for _, box in photo.labels])
        classes = detector.namer.classes
        return sum(classes[int(row.argmax())] == name
                   for (name, _), row in zip(photo.labels, rows, strict=True))
    finally:
        detector.use_deck(None)


def _written(profile: Any, out: Path) -> str:
    kind = "Deep deck profile" if profile.deep else "Deck profile"
    return f"{kind} written to {out}."


def _labelled_photos(folder: Path) -> list[Any]:
    from kiosk.vision.decks.enrolment import LabelledPhoto

    if not folder.is_dir():
        raise UsageError(f"no such folder: {folder}")
    images_dir, labels_dir = folder / "images", folder / "labels"
    if not images_dir.is_dir():
        raise UsageError(f"no images folder: {images_dir}")
    files = sorted(p for p in images_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise UsageError(f"no photos in {images_dir}")
    _checked_photos([str(p) for p in files])
    names = _class_names(folder / "data.yaml")
    parsed = []
    for path in files:
        label_path = labels_dir / f"{path.stem}.txt"
        if not label_path.is_file():
            raise UsageError(f"no label file for {path.name}: {label_path}")
        parsed.append((path, _read_label_file(label_path, names)))
    photos = []
    for path, rows in parsed:
        image = read_image(path, "photo")
        h, w = image.shape[:2]
        boxes = [(name, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w,
                         (cy + bh / 2) * h)) for name, (cx, cy, bw, bh) in rows]
        photos.append(LabelledPhoto(
            image, tuple((n, b) for n, b in boxes if n is not None), path.name,
            tuple(b for n, b in boxes if n is None)))
    if not any(p.labels for p in photos):
        raise UsageError(f"no card labelled in {labels_dir}")
    return photos


def _enrol_photos(photos: list[Any], out: Path, deck: str, deep: bool) -> int:
    profile = _learn(_detector(), photos, out, deck, deep)
    if profile is None:
        return 1
    profile.save(out)
    cards = len(profile.enrolled)
    print(f"Learnt {cards} cards from {len(photos)} photos. {_written(profile, out)}",
          flush=True)
    return 0


def card_name(token: str) -> str | None:
    """A label's name in the detector's notation: ``9C``, ``TH`` (``10h`` too), ``back``;
    None for anything else (a joker: left alone, neither a card nor ``none``).

    >>> card_name("10h"), card_name("BACK"), card_name("qs"), card_name("RED_JOKER")
    ('TH', 'back', 'QS', None)
    """
    upper = token.upper()
    if upper == "BACK":
        return "back"
    match = re.fullmatch(r"(10|[2-9TJQKA])([CDHS])", upper)
    if match is None:
        return None
    rank = "T" if match.group(1) == "10" else match.group(1)
    return rank + match.group(2)


def _read_label_file(
    path: Path, names: dict[int, str] | None
) -> list[tuple[str | None, tuple[float, float, float, float]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise UsageError(f"cannot read label file: {path}") from None
    rows: list[tuple[str | None, tuple[float, float, float, float]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        where = f"{path}, line {number}"
        if len(parts) != 5:
            raise UsageError(f"{where}: expected NAME cx cy w h, got {line.strip()!r}")
        try:
            cx, cy, w, h = (float(v) for v in parts[1:])
        except ValueError:
            raise UsageError(f"{where}: the box is not four numbers: {line.strip()!r}") from None
        if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):
            raise UsageError(f"{where}: the box must be normalised to the image (0..1)")
        token = parts[0]
        if token.isdigit():
            if names is None:
                raise UsageError(f"{where}: class index {token} but no data.yaml names it")
            if int(token) not in names:
                raise UsageError(f"{where}: class index {token} is not in data.yaml")
            token = names[int(token)]
        rows.append((card_name(token), (cx, cy, w, h)))
    return rows


def _class_names(path: Path) -> dict[int, str] | None:
    """The ``names:`` of a data.yaml (a mapping ``0: 2C`` or a list), read without a YAML
    library: the kiosk has none, and the format is this one block."""
    if not path.is_file():
        return None
    names: dict[int, str] = {}
    inside = False
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        raise UsageError(f"cannot read {path}") from None
    for line in lines:
        stripped = line.split("#", 1)[0].rstrip()
        if stripped.startswith("names:"):
            rest = stripped[len("names:"):].strip()
            if rest.startswith("["):
                items = [s.strip().strip("'\"") for s in rest.strip("[]").split(",")]
                return {i: s for i, s in enumerate(items) if s}
            inside = True
            continue
        if inside:
            match = re.fullmatch(r"\s+(\d+)\s*:\s*['\"]?([^'\"]+?)['\"]?\s*", stripped)
            if match:
                names[int(match.group(1))] = match.group(2)
            elif stripped and not stripped.startswith(" "):
                inside = False
    if not names:
        raise UsageError(f"{path} names no classes")
    return names
