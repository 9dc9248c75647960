"""The proposal network's data: every face folds into ``index``, a face-down card stays
``back``, and the images are the card data set's own (linked, not copied)."""

from __future__ import annotations

import doctest
from pathlib import Path

import yaml

import datasets.proposals
from datasets.classes import CLASS_ID
from datasets.proposals import PROPOSAL_CLASSES, relabel, write


def test_docstring_examples() -> None:
    result = doctest.testmod(datasets.proposals)
    assert result.attempted > 0 and result.failed == 0


def test_faces_fold_into_index_and_backs_stay_back() -> None:
    text = (
        f"{CLASS_ID['JH']} 0.5 0.5 0.1 0.1\n{CLASS_ID['6D']} 0.2 0.2 0.1 0.1\n"
        f"{CLASS_ID['back']} 0.7 0.7 0.3 0.4\n"
    )
    assert relabel(text) == "0 0.5 0.5 0.1 0.1\n0 0.2 0.2 0.1 0.1\n1 0.7 0.7 0.3 0.4\n"
    assert relabel("") == ""


def test_write_mirrors_every_split_with_links_and_folded_labels(tmp_path: Path) -> None:
    for split in ("train", "val", "test"):
        (tmp_path / "scenes" / split / "images").mkdir(parents=True)
        (tmp_path / "scenes" / split / "labels").mkdir(parents=True)
        (tmp_path / "scenes" / split / "images" / "a.jpg").write_bytes(b"jpeg")
        (tmp_path / "scenes" / split / "labels" / "a.txt").write_text(
            f"{CLASS_ID['back']} 0.5 0.5 0.2 0.2\n{CLASS_ID['AS']} 0.1 0.1 0.05 0.05\n"
        )
    (tmp_path / "scenes" / "train" / "images" / "unlabelled.jpg").write_bytes(b"jpeg")
    (tmp_path / "cards.yaml").write_text(
        yaml.safe_dump(
            {
                "path": str(tmp_path),
                "train": ["scenes/train/images"],
                "val": "scenes/val/images",
                "test": "scenes/test/images",
                "names": {0: "9C"},
            }
        )
    )
    data = yaml.safe_load(write(tmp_path).read_text())
    assert data["names"] == dict(enumerate(PROPOSAL_CLASSES))
    root = Path(data["path"])
    for split in ("train", "val", "test"):
        (folder,) = data[split]
        image = root / folder / "a.jpg"
        assert image.is_symlink() and image.read_bytes() == b"jpeg"
        label = (root / folder).parent / "labels" / "a.txt"
        assert label.read_text() == "1 0.5 0.5 0.2 0.2\n0 0.1 0.1 0.05 0.05\n"
    empty = root / "scenes" / "train" / "labels" / "unlabelled.txt"
    assert empty.read_text() == ""  # an image with no cards is a negative, kept
