"""The real phone photos (../shared/datasets/real-cards-phone/): split, class mapping, links.

The photos are read where they lie; they are never copied into the repository. For
training, :func:`link_split` makes a git-ignored folder of *symbolic links* to the photos
plus label files rewritten to this detector's class ids (ultralytics finds a photo's labels
next to it, and the source ids differ from ours).

The split is by photo session, so that near-duplicate shots (taken seconds apart) never
sit on both sides. Sessions are runs of photos without a pause of more than a minute in
the file-name timestamps (IMG_20220921_HHMMSS), and blocks of 30-40 consecutive numbers
for the IMG_77xx series (one black-and-gold deck). The lists are committed as
``datasets/real_split/{train,test}.txt`` (file names only).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from datasets.boxes import yolo_label_text
from datasets.classes import BACK, CLASS_ID

REPO = Path(__file__).resolve().parent.parent
REAL_DIR = Path(os.environ.get("REAL_CARDS_DIR", REPO.parent / "shared/datasets/real-cards-phone"))
SPLIT_DIR = Path(__file__).resolve().parent / "real_split"
#: the real photos' two decks, by their files' name prefixes
REAL_DECKS = {"white": ("IMG_2022",), "black-gold": ("IMG_7", "IMG_8")}

#: source class names (data.yaml of the photos), in source id order
_SOURCE_NAMES_TEXT = (
    "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S "
    "9C 9D 9H 9S AC AD AH AS BACK BLACK_JOKER JC JD JH JS KC KD KH KS QC QD QH QS RED_JOKER "
    "TC TD TH TS"
)
SOURCE_NAMES = tuple(_SOURCE_NAMES_TEXT.split(" "))

#: held-out sessions: (first, last) file-name stems, inclusive
TEST_SESSIONS = (
    ("IMG_20220921_194439", "IMG_20220921_195255"),
    ("IMG_20220921_200943", "IMG_20220921_235959"),
    ("IMG_7770", "IMG_7799"),
)


def source_to_card(source_id: int) -> str | None:
    """Our card name for a source class id; None for the jokers (no class here)."""
    name = SOURCE_NAMES[source_id]
    if name == "BACK":
        return BACK
    return None if "JOKER" in name else name


#: corner indices the photos show but the source labels leave out (see the file's header)
ADDED_CORNERS = SPLIT_DIR / "added_corners.txt"
CORRECTED_LABELS = SPLIT_DIR / "corrected_labels.txt"
#: the photos' side in pixels (the publisher resized them all to 640x640)
PHOTO_SIDE = 640


def read_labels(
    stem: str, added: bool = True
) -> list[tuple[str | None, tuple[float, float, float, float]]]:
    """A photo's boxes as (card or None for a joker, (cx, cy, w, h) normalised).

    ``added`` applies this project's label fixes: the corners of :data:`ADDED_CORNERS`
    join the source boxes, and the source boxes :data:`CORRECTED_LABELS` lists are
    renamed (or dropped). ``added=False`` gives the source labels exactly.
    """
    out: list[tuple[str | None, tuple[float, float, float, float]]] = []
    path = REAL_DIR / "labels" / f"{stem}.txt"
    fixes = corrected_labels().get(stem, []) if added else []
    for line in path.read_text().split("\n"):
        parts = line.split()
        if len(parts) == 5:
            cx, cy, w, h = (float(v) for v in parts[1:])
            card: str | None = source_to_card(int(parts[0]))
            for labelled, corrected, box in fixes:
                if labelled == card and _same_box(box, (cx, cy, w, h)):
                    card = corrected
                    break
            if card != DROPPED:
                out.append((card, (cx, cy, w, h)))
    if added:
        out += added_corners().get(stem, [])
    return out


#: ``corrected`` of a fix that drops the source box
DROPPED = "-"


def _same_box(a: tuple[float, ...], b: tuple[float, ...], tolerance: float = 0.5) -> bool:
    """True when two normalised centre boxes agree within ``tolerance`` pixels a side
    (the fixes file writes the source's boxes to a tenth of a pixel)."""
    return all(abs(u - v) * PHOTO_SIDE <= tolerance for u, v in zip(a, b, strict=True))


def _pixel_box(parts: list[str]) -> tuple[float, float, float, float]:
    """``x1 y1 x2 y2`` in photo pixels as a normalised centre box (cx, cy, w, h)."""
    x1, y1, x2, y2 = (float(v) / PHOTO_SIDE for v in parts)
    return ((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1)


@functools.cache
def corrected_labels(
    path: Path | None = None,
) -> dict[str, list[tuple[str, str, tuple[float, float, float, float]]]]:
    """The source boxes that name the wrong card, by photo stem: (labelled, corrected,
    box), the box normalised like the source labels. Each was checked by eye on the
    whole card (``python -m datasets.label_sheet``)."""
    found: dict[str, list[tuple[str, str, tuple[float, float, float, float]]]] = {}
    for line in (path or CORRECTED_LABELS).read_text().split("\n"):
        parts = line.split("#")[0].split()
        if not parts:
            continue
        photo, labelled, corrected = parts[:3]
        found.setdefault(Path(photo).stem, []).append((labelled, corrected, _pixel_box(parts[3:7])))
    return found


@functools.cache
def added_corners(
    path: Path = ADDED_CORNERS,
) -> dict[str, list[tuple[str | None, tuple[float, float, float, float]]]]:
    """The added corner boxes by photo stem, normalised like the source labels.

    Read once per file (every photo's :func:`read_labels` asks); treat it as read-only.
    """
    found: dict[str, list[tuple[str | None, tuple[float, float, float, float]]]] = {}
    for line in path.read_text().split("\n"):
        parts = line.split("#")[0].split()
        if not parts:
            continue
        photo, card = parts[0], parts[1]
        found.setdefault(Path(photo).stem, []).append((card, _pixel_box(parts[2:6])))
    return found


def is_test(stem: str) -> bool:
    """True when the photo belongs to a held-out session."""
    series = stem.startswith("IMG_2022")
    for first, last in TEST_SESSIONS:
        if first.startswith("IMG_2022") == series and first <= stem <= last:
            return True
    return False


def split() -> dict[str, list[str]]:
    """File names of the photos, by split (``train`` / ``test``)."""
    names = sorted(p.name for p in (REAL_DIR / "images").glob("*.jpg"))
    return {
        "train": [n for n in names if not is_test(Path(n).stem)],
        "test": [n for n in names if is_test(Path(n).stem)],
    }


def write_split_lists() -> None:
    SPLIT_DIR.mkdir(exist_ok=True)
    for name, files in split().items():
        (SPLIT_DIR / f"{name}.txt").write_text("".join(f + "\n" for f in files))


def split_list(name: str) -> list[str]:
    """The committed list of file names for a split."""
    return [line for line in (SPLIT_DIR / f"{name}.txt").read_text().split("\n") if line]


def link_split(name: str, out_dir: Path, repeat: int = 1) -> int:
    """Make ``out_dir/images`` (links to the photos) and ``out_dir/labels`` (our class ids).

    ``repeat`` > 1 links each photo that many times (``r1_IMG...``): ultralytics samples
    every file once per epoch, so repeating is how the few real photos get more weight
    against thousands of synthetic scenes.
    """
    images, labels = out_dir / "images", out_dir / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    files = split_list(name)
    for file in files:
        rows = read_labels(Path(file).stem)
        text = yolo_label_text([(CLASS_ID[card], box) for card, box in rows if card is not None])
        for copy in range(repeat):
            prefix = f"r{copy}_" if copy else ""
            link = images / f"{prefix}{file}"
            if not link.is_symlink():
                link.symlink_to(REAL_DIR / "images" / file)
            (labels / f"{prefix}{Path(file).stem}.txt").write_text(text)
    return len(files) * repeat


def deck_photos(
    deck: str, split: str = "test"
) -> list[tuple[Any, list[tuple[str | None, tuple[float, float, float, float]]]]]:
    """The photos of ``deck`` (a :data:`REAL_DECKS` name) in ``split``, each as the image
    (BGR) and its labels in pixels (jokers as None)."""
    import cv2

    from datasets.boxes import yolo_to_pixels

    out = []
    for name in split_list(split):
        if not name.startswith(REAL_DECKS[deck]):
            continue
        image = cv2.imread(str(REAL_DIR / "images" / name))
        if image is None:
            raise FileNotFoundError(f"cannot read {REAL_DIR / 'images' / name}")
        h, w = image.shape[:2]
        out.append((image, yolo_to_pixels(read_labels(Path(name).stem), w, h)))
    return out

