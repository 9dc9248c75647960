"""Indices drawn from typefaces and suit outlines, and the recipe that trains the naming
network on them (``datasets/glyph_indices.py``, ``datasets/drawn_indices.py``,
``models/train_naming_shapes.py``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "models"))

from datasets.drawn_indices import FACES, LABEL_ID, LABELS, draw_glyphs, twin_ids  # noqa: E402
from datasets.glyph_indices import (  # noqa: E402
    PRINTED_RANK,
    GlyphMasks,
    compose,
    drawn_suit,
    font_files,
    pack_masks,
)

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@pytest.fixture(scope="module")
def packed() -> dict[str, np.ndarray]:
    fonts = [p for p in font_files((DEJAVU,)) if p.name in ("DejaVuSans.ttf", "DejaVuSerif.ttf",
                                                             "DejaVuSans-Bold.ttf")]
    if len(fonts) < 3:
        pytest.skip("DejaVu fonts are not installed (scripts/install-system-packages.sh)")
    return pack_masks(fonts)


def _rows_width(mask: np.ndarray, start: float, stop: float) -> float:
    """The ink's mean width (pixels) over the rows from ``start`` to ``stop`` of its height."""
    h = mask.shape[0]
    rows = mask[int(h * start): max(int(h * stop), int(h * start) + 1)] > 128
    return float(rows.sum(axis=1).mean())


def _runs(row: np.ndarray) -> int:
    """Separate runs of ink along one row."""
    ink = np.concatenate([[False], row > 128, [False]])
    return int(np.count_nonzero(np.diff(ink.astype(int)) == 1))


def test_a_font_gives_every_rank_and_each_suit_once(packed: dict[str, np.ndarray]) -> None:
    masks = GlyphMasks(packed)
    assert len(masks.fonts) == 3
    assert sorted(masks.ranks) == sorted(PRINTED_RANK)
    assert all(len(v) == 3 for v in masks.ranks.values())
    # DejaVu Sans and Serif have the suit symbols; each font's four are packed together
    assert sorted(masks.suits) == ["C", "D", "H", "S"]
    assert len({len(v) for v in masks.suits.values()}) == 1
    ten = masks.ranks["T"][0]
    assert ten.shape[1] > ten.shape[0] * 0.9, "10 is printed with two figures, wider than tall"


@pytest.mark.parametrize("seed", range(6))
def test_drawn_suits_keep_the_shapes_that_tell_twins_apart(seed: int) -> None:
    """A spade points up where a club's top lobe is round; a heart has its notch at the
    top where a diamond comes to a point; a club stands on a foot narrower than its lobes."""
    rng = np.random.default_rng(seed)
    club, spade, heart, diamond = (drawn_suit(s, rng) for s in "CSHD")
    assert _rows_width(spade, 0.0, 0.08) < 0.5 * _rows_width(club, 0.0, 0.08)
    assert _runs(heart[int(heart.shape[0] * 0.06)]) == 2, "a heart's two lobes, apart at the top"
    assert _runs(diamond[int(diamond.shape[0] * 0.06)]) == 1
    assert _rows_width(diamond, 0.0, 0.05) < 0.3 * _rows_width(diamond, 0.45, 0.55)
    assert _rows_width(club, 0.95, 1.0) < 0.8 * club.shape[1], "a club's foot"


def test_a_composed_index_is_inked_in_its_suits_colour_on_a_card_corner(
    packed: dict[str, np.ndarray],
) -> None:
    masks = GlyphMasks(packed)
    rng = np.random.default_rng(3)
    reds, blacks = [], []
    for _ in range(40):
        for card, into in (("QH", reds), ("QS", blacks)):
            region, (x1, y1, x2, y2) = compose(masks, card, rng)
            assert 0 <= x1 < x2 <= region.shape[1] and 0 <= y1 < y2 <= region.shape[0]
            inside = region[int(y1):int(y2), int(x1):int(x2)]
            assert (inside[..., 3] == 255).all(), "the index lies on the card"
            corners = region[0, 0, 3], region[0, -1, 3]
            assert min(corners) == 0, "beyond the card's rounded corner is the table"
            paper = np.median(region[int(y2) + 2:, :, :3].reshape(-1, 3), axis=0)
            ink = inside[..., :3].reshape(-1, 3).astype(float)
            darkest = ink[np.argmax(np.abs(ink - paper).sum(axis=1))]
            into.append(darkest[0] - darkest[2])  # red minus blue of the strongest ink
    assert np.median(reds) > 100, "hearts are red"
    assert np.median(blacks) < 60, "spades are not"


def test_glyph_patches_are_camera_patches_of_faces(packed: dict[str, np.ndarray],
                                                    tmp_path: Path) -> None:
    path = tmp_path / "glyphs.npz"
    np.savez(path, **packed)  # type: ignore[arg-type]
    x, y = draw_glyphs(str(path), seed=1, count=24, stretch=0.15)
    assert x.shape == (24, 32, 32, 3) and x.dtype == np.uint8
    assert {LABELS[i] for i in y} <= set(FACES)
    assert x.std() > 10, "patches, not blank squares"
    again, _ = draw_glyphs(str(path), seed=1, count=24, stretch=0.15)
    assert np.array_equal(x, again), "seeded"


def test_each_face_twins_its_same_colour_suit() -> None:
    twins = twin_ids()
    assert LABELS[twins[LABEL_ID["JC"]]] == "JS" and LABELS[twins[LABEL_ID["9H"]]] == "9D"
    assert twins[LABEL_ID["back"]] == LABEL_ID["back"]


def _pack(folder: Path, packed: dict[str, np.ndarray]) -> None:
    """A pack as ``train_naming_shapes pack`` writes it, small: random scene and real
    patches (their content does not matter to the loop), DejaVu's masks, no deck art."""
    rng = np.random.default_rng(0)
    folder.mkdir()

    def patches(n: int) -> np.ndarray:
        return rng.integers(0, 255, (n, 32, 32, 3), dtype=np.uint8)

    np.savez(folder / "glyphs.npz", **packed)  # type: ignore[arg-type]
    np.savez(folder / "replay.npz", x=patches(64), y=rng.integers(0, 54, 64),
             val_x=patches(16), val_y=rng.integers(0, 54, 16), labels=np.asarray(LABELS))
    real = {}
    for deck in ("white", "black-gold"):
        real[f"{deck}_x"], real[f"{deck}_y"] = patches(16), rng.integers(0, 52, 16)
        real[f"{deck}_judge_x"], real[f"{deck}_judge_y"] = patches(8), rng.integers(0, 52, 8)
    np.savez(folder / "real.npz", **real)  # type: ignore[arg-type]
    for name in ("art_train.npz", "art_held_out.npz"):
        np.savez(folder / name, png=np.zeros(0, np.uint8), ends=np.zeros(0, np.int64),
                 box=np.zeros((0, 4), np.float32), y=np.zeros(0, np.int16),
                 deck=np.zeros(0, np.int16), decks=np.asarray([]))
    (folder / "base.pt").write_bytes((REPO / "models/checkpoint/index_classifier.pt").read_bytes())


def test_the_recipe_draws_trains_and_exports_a_classifier_the_kiosk_reads(
    packed: dict[str, np.ndarray], tmp_path: Path
) -> None:
    pytest.importorskip("torch")
    import train_naming_shapes as recipe

    from kiosk.vision.cards.index_classifier import IndexClassifier

    _pack(tmp_path / "pack", packed)
    onnx = tmp_path / "index_classifier.onnx"
    args = argparse.Namespace(
        pack=tmp_path / "pack", out=tmp_path / "out", variants="ship:glyph", init=None,
        draw_count=40, steps=3, batch=16, lr=0.001, workers=1, threads=1, draw_seconds=120,
        train_seconds=120, chunk=20, report_seconds=600, held_out_per_region=1, export=onnx,
        checkpoint=tmp_path / "weights.pt")
    assert recipe.train(args) == 0
    log = (tmp_path / "out" / "train.log").read_text()
    assert "training starts: glyph 40" in log, "the whole pool is drawn before training"
    assert "done: 3 steps of 16 patches" in log
    assert (tmp_path / "weights.pt").stat().st_size > 100_000
    classifier = IndexClassifier(onnx, threads=1)
    assert tuple(classifier.classes) == LABELS
    image = np.full((120, 120, 3), 230, np.uint8)
    rows = classifier.probabilities(image, [(40.0, 30.0, 70.0, 90.0)])
    assert rows.shape == (1, len(LABELS)) and abs(float(rows.sum()) - 1) < 1e-4


def test_an_unknown_variant_is_one_line_and_status_2(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import train_naming_shapes as recipe

    (tmp_path / "pack").mkdir()
    for name in ("art_train.npz", "art_held_out.npz", "glyphs.npz", "replay.npz", "real.npz",
                 "base.pt"):
        (tmp_path / "pack" / name).write_bytes(b"")
    code = recipe.main(["train", "--pack", str(tmp_path / "pack"), "--out", str(tmp_path / "o"),
                        "--variants", "ship:everything"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("no variant ship:everything") and "\n" not in err
