"""The extra training scenes cut in shares, one process a core, and learnt together.

Twenty thousand scenes take one process an hour or more to cut into classifier patches;
``datasets.index_crops --only-more K/N`` cuts every N-th of them from the K-th, and
``models/train_classifier.py --crops A --crops B`` learns the files as one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "models"))

import train_classifier as trainer  # noqa: E402

from datasets.index_crops import LABELS, NONE_ID, save  # noqa: E402


def _scenes(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three extra scenes and a validation scene under ``root``, read as the generated ones."""
    import datasets.index_crops as index_crops
    from datasets.generate import write_split

    for name, count in (("train", 1), ("val", 1), ("more", 3)):
        write_split(name, count, 96, workers=1, root=root)
    monkeypatch.setattr(index_crops, "GENERATED", root)
    monkeypatch.setattr(
        index_crops, "scene_truth", lambda split: index_crops.folder_truth(root / "scenes" / split)
    )


@pytest.mark.usefixtures("have_card_art")
def test_each_share_cuts_its_own_scenes_and_together_they_cut_them_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Share 1/2 cuts scenes 0 and 2, share 2/2 scene 1: each label once, at its own size
    (no detector, one copy: one patch a label), beside the shrunk copies and the
    validation patches each file needs."""
    import datasets.index_crops as index_crops

    root = tmp_path / "data"
    _scenes(root, monkeypatch)
    labels = [
        len((root / "scenes" / "more" / "labels" / f"{4_000_000 + i}.txt").read_text().split("\n"))
        - 1
        for i in range(3)
    ]
    assert all(labels)
    named = []
    for share in ("1/2", "2/2"):
        out = tmp_path / f"more{share[0]}.npz"
        args = ["--only-more", share, "--more-copies", "1", "--small-copies", "1"]
        assert index_crops.main([*args, "--detector", "none.onnx", "--out", str(out)]) == 0
        with np.load(out) as saved:
            at_own_size = saved["source"] == 0
            named.append(int((at_own_size & (saved["y"] != NONE_ID)).sum()))
            assert set(saved["source"]) == {0, 1} and len(saved["val_y"]) > 0
            assert [str(v) for v in saved["labels"]] == list(LABELS)
    assert named == [labels[0] + labels[2], labels[1]]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--only-more", "3/2"], "K/N needs 1 <= K <= N: '3/2'"),
        (["--only-more", "half"], "not K/N (e.g. 1/2): 'half'"),
    ],
)
def test_a_share_that_is_not_one_is_a_usage_error(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import datasets.index_crops as index_crops

    with pytest.raises(SystemExit) as stop:
        index_crops.main(args)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(line)


@pytest.mark.usefixtures("have_card_art")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--only-more", "1/2"], "--only-more needs --more-copies N (how often each label is cut)"),
        (
            ["--only-more", "1/2", "--more-copies", "1", "--no-scenes"],
            "--only-more cuts the extra scenes alone: no --hands or --no-scenes",
        ),
    ],
)
def test_a_share_without_what_it_needs_is_one_line(
    args: list[str],
    line: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import datasets.index_crops as index_crops

    _scenes(tmp_path / "data", monkeypatch)
    out = tmp_path / "never.npz"
    assert index_crops.main([*args, "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert not out.exists()


def _patches(out: Path, count: int, value: int, labels: tuple[str, ...] = LABELS,
             margin: float = 1.3, side: int = 32) -> Path:  # fmt: skip
    """A patch file of ``count`` patches all of one grey ``value``, class = value."""
    x = np.full((count, side, side, 3), value, np.uint8)
    y = np.full(count, value, np.int16)
    source = np.zeros(count, np.int8)
    save(out, (x, y, source), (x[:1], y[:1], source[:1]), labels, margin)
    return out


def test_several_patch_files_are_learnt_as_one(tmp_path: Path) -> None:
    """Every file's training patches, the first file's validation patches."""
    first = _patches(tmp_path / "a.npz", 3, 1)
    second = _patches(tmp_path / "b.npz", 2, 2)
    data = trainer.load_patches([first, second])
    assert list(data["y"]) == [1, 1, 1, 2, 2]
    assert [int(p[0, 0, 0]) for p in data["x"]] == [1, 1, 1, 2, 2]
    assert list(data["val_y"]) == [1]
    alone = trainer.load_patches([second])
    assert list(alone["y"]) == [2, 2] and list(alone["val_y"]) == [2]


def test_patch_files_cut_otherwise_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Other classes, margin or side would teach the network something else: one line,
    status 2, before any training."""
    first = _patches(tmp_path / "a.npz", 3, 1)
    others = {
        "classes": _patches(tmp_path / "c.npz", 2, 2, labels=("C", "D", "H", "S")),
        "margin 6.0": _patches(tmp_path / "m.npz", 2, 2, margin=6.0),
        "48-pixel": _patches(tmp_path / "s.npz", 2, 2, side=48),
    }
    for said, other in others.items():
        run = ["--crops", str(first), "--crops", str(other), "--out", str(tmp_path / "x.onnx")]
        assert trainer.main(run) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith("cannot train on these patches: ") and said in line
    missing = tmp_path / "missing.npz"
    assert trainer.main(["--crops", str(first), "--crops", str(missing)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"no patches at {missing}: run `python -m datasets.index_crops`"
    )
