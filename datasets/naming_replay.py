"""The replay patches a deep deck profile keeps learning from: a few dozen synthetic
training patches of each of the index classifier's classes (``models/naming_replay.npz``).

    python -m datasets.naming_replay --crops var/lodo/synthetic.npz --per-class 40
    python -m datasets.naming_replay --crops var/lodo/synthetic.npz \
        --glyphs var/naming-shapes/glyphs.npz --out /tmp/replay.npz   # with typeface patches

Why: learning a table's deck from a handful of shots moves every layer of the network;
the cards those shots never show, and what is no card at all, would be forgotten
(``kiosk/vision/decks/deep_enrolment.py``). Replaying the network's own kind of patches in
every batch keeps them. Only synthetic scene patches are taken (the card art of
``datasets/cards_art.py``, the surfaces and camera of ``datasets/``), never the real
photos, so the file ships under the same terms as the art it was drawn from
(``lab/MODEL_NOTES.md``, "Data").

The patch file is one ``datasets.index_crops`` writes (``x``, ``y``, ``labels``); every
class gets the same number of patches, drawn at random with a fixed seed. Bad input: one
line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "models" / "naming_replay.npz"


def sample(x: np.ndarray, y: np.ndarray, per_class: int, seed: int = 0) -> np.ndarray:
    """Indices of at most ``per_class`` patches of each class id in ``y``, in order.

    >>> sample(np.zeros((6, 1)), np.array([0, 0, 0, 1, 1, 2]), 2).tolist()
    [0, 1, 3, 4, 5]
    """
    rng = np.random.default_rng(seed)
    kept: list[int] = []
    for cls in np.unique(y):
        members = np.flatnonzero(y == cls)
        if len(members) > per_class:
            members = np.sort(rng.choice(members, per_class, replace=False))
        kept += members.tolist()
    return np.asarray(sorted(kept), np.int64)


def drawn_faces(glyphs: Path, labels: Sequence[str], per_face: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``per_face`` camera patches of each face drawn from the typefaces' masks (what the
    shipped network learnt shapes from), with their class ids in ``labels``."""
    from datasets.drawn_indices import LABELS, draw_glyphs

    count = per_face * 52
    x, y = draw_glyphs(str(glyphs), seed=57, count=count, stretch=0.15)
    index = {name: i for i, name in enumerate(labels)}
    return x, np.asarray([index[LABELS[i]] for i in y], np.int64)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crops", type=Path, required=True,
                        help="a synthetic patch file (datasets.index_crops)")
    parser.add_argument("--per-class", type=int, default=40)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--glyphs", type=Path,
                        help="glyph masks (models/train_naming_shapes.py pack's glyphs.npz): "
                        "add --drawn-per-face patches of each face drawn from typefaces")
    parser.add_argument("--drawn-per-face", type=int, default=10)
    args = parser.parse_args(argv)
    if args.per_class < 1:
        print(f"naming_replay: --per-class must be 1 or more, not {args.per_class}",
              file=sys.stderr)
        return 2
    try:
        with np.load(args.crops, allow_pickle=False) as data:
            x, y, labels = data["x"], data["y"], data["labels"]
    except (OSError, KeyError, ValueError) as problem:
        print(f"naming_replay: cannot read {args.crops}: {problem}", file=sys.stderr)
        return 2
    chosen = sample(x, y, args.per_class)
    x, y = x[chosen], y[chosen]
    if args.glyphs is not None:
        drawn_x, drawn_y = drawn_faces(args.glyphs, [str(v) for v in labels],
                                       args.drawn_per_face)
        x, y = np.concatenate([x, drawn_x]), np.concatenate([y, drawn_y])
    np.savez_compressed(args.out, x=x, y=y.astype(np.int16),
                        labels=np.asarray([str(v) for v in labels]))
    print(f"{len(y)} patches of {len(np.unique(y))} classes "
          f"({x.shape[1]} px) -> {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
