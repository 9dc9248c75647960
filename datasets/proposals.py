"""The proposal network's data: the generated scenes and real photos with two classes.

The detector's first stage only has to *find* printed indices (and face-down cards); the
index classifier names them from the full-resolution pixels. A YOLO model asked for the
52 faces spends its small head on naming, which it learns slowly, and a hard index then
scores low on every one of 52 classes and can fall under the proposal threshold. Trained
on ``index`` (every face's corner) and ``back`` alone, its score means "there is an index
here", which is what the proposals need.

    python -m datasets.proposals     # after datasets.generate: writes generated/proposals.yaml

The images are symbolic links to ``datasets/generated``'s (no copies); only the label
files are rewritten, so this takes seconds and follows any regeneration.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import yaml

from datasets.classes import CLASS_ID

GENERATED = Path(__file__).resolve().parent / "generated"
#: the proposal network's classes
PROPOSAL_CLASSES = ("index", "back")
BACK = CLASS_ID["back"]


def proposal_class(card_class: int) -> int:
    """A card class id -> 0 (a face's index) or 1 (a face-down card).

    >>> proposal_class(0), proposal_class(51), proposal_class(BACK)
    (0, 0, 1)
    """
    return 1 if card_class == BACK else 0


def relabel(text: str) -> str:
    """One YOLO label file's text with the card classes folded into the two."""
    lines = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 5:
            lines.append(" ".join([str(proposal_class(int(parts[0]))), *parts[1:]]))
    return "\n".join(lines) + ("\n" if lines else "")


def mirror_split(source: Path, target: Path) -> int:
    """Link ``source/images/*`` into ``target/images`` and write folded labels beside them;
    returns the number of images."""
    (target / "images").mkdir(parents=True, exist_ok=True)
    (target / "labels").mkdir(parents=True, exist_ok=True)
    count = 0
    for image in sorted((source / "images").iterdir()):
        link = target / "images" / image.name
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(image.resolve(), link)
        label = source / "labels" / f"{image.stem}.txt"
        text = label.read_text(encoding="utf-8") if label.exists() else ""
        (target / "labels" / f"{image.stem}.txt").write_text(relabel(text), encoding="utf-8")
        count += 1
    (target / "labels.cache").unlink(missing_ok=True)  # ultralytics' label cache
    return count


def write(root: Path = GENERATED) -> Path:
    """Mirror the card data set's splits with two classes; returns the data YAML."""
    cards = yaml.safe_load((root / "cards.yaml").read_text(encoding="utf-8"))
    out = root / "proposals"
    data: dict[str, object] = {"path": str(out)}
    for split in ("train", "val", "test"):
        folders = cards.get(split) or []
        folders = [folders] if isinstance(folders, str) else folders
        mirrored = []
        for folder in folders:
            source = (root / folder).parent
            relative = source.relative_to(root)
            count = mirror_split(source, out / relative)
            print(f"{split}: {relative} ({count} images)")
            mirrored.append(str(relative / "images"))
        data[split] = mirrored
    data["names"] = dict(enumerate(PROPOSAL_CLASSES))
    path = root / "proposals.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=GENERATED)
    args = parser.parse_args(argv)
    if not (args.root / "cards.yaml").exists():
        print(f"no data at {args.root}: run `python -m datasets.generate` first")
        return 2
    print("data:", write(args.root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
