"""Write the training data: synthetic scenes (YOLO layout), real-photo links, the data YAML.

    python -m datasets.generate --train 2400 --val 200 --test 300 --size 384
    python -m datasets.generate --dark 800     # more training scenes, half the faces dark
    python -m datasets.generate --more 2400    # more training scenes drawn as the train split's
    python -m datasets.generate --more 24000 --more-from 24000   # the next 24,000 of them
    python -m datasets.generate --decks extra --train 600   # the classifier's extra decks

Scene ``i`` of a split is ``render_scene(base + i)`` (train 0, val 1,000,000, test
2,000,000, dark 3,000,000, more 4,000,000), so any subset can be regenerated exactly, and
a run that stops half-way continues where it left off (existing files are kept). Output goes to
``datasets/generated/`` (git-ignored); the YAML it writes, ``datasets/generated/cards.yaml``,
is ``datasets/cards.yaml`` with absolute paths.

``--decks extra`` draws training scenes for the index classifier alone from the extra
decks (:func:`datasets.cards_art.extra_training_decks`, card designs no standard scene
shows): ``--train N`` of them, scene ``i`` being ``render_scene(5,000,000 + i,
decks=extra_training_decks())``, into a folder of their own (``--out``, by default
``datasets/generated/scenes_extra``: ``images/``, ``labels/``, ``ignore/`` as a split's),
which ``python -m datasets.index_crops --extra-scenes FOLDER`` cuts. Nothing else is
written: no other split, no real-photo links, no YAML.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import yaml

from datasets.cards_art import extra_training_decks
from datasets.real_photos import link_split
from datasets.scenes import DARK_SHARE, SCENES_VERSION, render_scene

GENERATED = Path(__file__).resolve().parent / "generated"
TEMPLATE = Path(__file__).resolve().parent / "cards.yaml"
#: seeds a split may use: each split's seeds start this far after the one before
SPLIT_SEEDS = 1_000_000
#: train 0, val 1,000,000, test 2,000,000, dark 3,000,000, more 4,000,000
SEED_BASE = {
    name: i * SPLIT_SEEDS for i, name in enumerate(("train", "val", "test", "dark", "more"))
}
#: the extra decks' scenes (``--decks extra``): seeds after every split's
EXTRA_SEED_BASE = len(SEED_BASE) * SPLIT_SEEDS
#: where ``--decks extra`` writes its scenes unless ``--out`` says
EXTRA_SCENES = GENERATED / "scenes_extra"
#: share of faces recoloured dark in the ``dark`` split: training scenes for the faces
#: the networks read worst (indices on a dark ground: 22 % missed on the validation
#: scenes drawn without the camera, against 7 % of the others; version-5 labels); the
#: other splits keep the generator's own share, :data:`datasets.scenes.DARK_SHARE`
DARK_SPLIT_SHARE = 0.5


#: one scene to write: folder, seed, size, share of dark faces, and optionally the decks
#: to draw from (:func:`render_scene`'s ``decks``; left out, its default)
Job = tuple[Path, int, int, float] | tuple[Path, int, int, float, tuple[str, ...]]


def write_scene(args: Job) -> int:
    """Render one scene into ``out/images`` and ``out/labels``; returns its label count."""
    out, seed, size, dark_share = args[:4]
    decks = args[4] if len(args) > 4 else None
    image_path = out / "images" / f"{seed:07d}.jpg"
    label_path = out / "labels" / f"{seed:07d}.txt"
    if image_path.exists() and label_path.exists():
        return -1
    if decks is None:  # the usual decks: called as before the option was
        scene = render_scene(seed, size, dark_share=dark_share)
    else:
        scene = render_scene(seed, size, dark_share=dark_share, decks=decks)
    lines = [label.yolo_line(size, size) for label in scene.labels]
    label_path.write_text("".join(line + "\n" for line in lines))
    # indices that show in part: not labels (nothing to learn to name) and not
    # background either, so a measurement ignores detections there (models/evaluate.py)
    partial = [label.yolo_line(size, size) for label in scene.partial]
    (out / "ignore" / f"{seed:07d}.txt").write_text("".join(line + "\n" for line in partial))
    # quality 95: the scene already carries its own JPEG artefacts
    bgr = cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR)
    ok, jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok, f"scene {seed} could not be encoded"
    # written last and whole (renamed into place): a run stopped mid-write leaves no
    # half picture that the next run would keep as drawn
    part = image_path.with_suffix(".part")
    part.write_bytes(jpeg.tobytes())
    os.replace(part, image_path)
    return len(lines)


def write_split(
    name: str, count: int, size: int, workers: int, root: Path = GENERATED, first: int = 0,
    out: Path | None = None, decks: tuple[str, ...] | None = None, seed_base: int | None = None,
) -> Path:
    """Draw scenes ``first`` to ``first + count - 1`` of split ``name`` into its folder.

    ``first`` lets a later session draw extra scenes no earlier one drew (each session's
    machine starts empty, so new scenes cost no more than the same ones drawn again, and
    teach more); scenes already in the folder are kept. ``out``: the folder, instead of
    ``root/scenes/name``; ``decks``: the decks the scenes draw from (default: the usual);
    ``seed_base``: scene ``i`` is seed ``seed_base + i`` (default: the split's).
    """
    out = root / "scenes" / name if out is None else out
    stamp = out / "VERSION"
    if out.exists() and (not stamp.exists() or stamp.read_text().strip() != str(SCENES_VERSION)):
        # scenes drawn by an older generator: a kept scene would silently be an old one
        shutil.rmtree(out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    (out / "ignore").mkdir(parents=True, exist_ok=True)
    # stamped before drawing: a run stopped half-way leaves current scenes, which the next
    # run keeps (stamped at the end, a stopped first run was wiped and drawn again)
    stamp.write_text(f"{SCENES_VERSION}\n")
    share = DARK_SPLIT_SHARE if name == "dark" else DARK_SHARE
    base = SEED_BASE[name] if seed_base is None else seed_base
    jobs: list[Job] = [
        (out, base + i, size, share) if decks is None else (out, base + i, size, share, decks)
        for i in range(first, first + count)
    ]
    if workers <= 1:
        for job in jobs:
            write_scene(job)
    else:
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(write_scene, jobs, chunksize=16))
    return out


def write_yaml(root: Path = GENERATED, with_real: bool = True) -> Path:
    """``datasets/cards.yaml`` with an absolute ``path`` into ``root``, as ultralytics reads it."""
    data = yaml.safe_load(TEMPLATE.read_text())
    data["path"] = str(root.resolve())
    if not with_real:
        data["train"] = [t for t in data["train"] if not t.startswith("real_")]
    path = root / "cards.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=2400)
    parser.add_argument("--val", type=int, default=200)
    parser.add_argument("--test", type=int, default=300)
    parser.add_argument(
        "--dark", type=int, default=0,
        help="extra training scenes with half the faces dark (scenes/dark; the classifier's)",
    )  # fmt: skip
    parser.add_argument(
        "--more", type=int, default=0,
        help="extra training scenes drawn as the train split's (scenes/more; the "
        "classifier's: it names the scenes it learnt from far better than held-out ones)",
    )  # fmt: skip
    parser.add_argument(
        "--more-from", type=int, default=0, metavar="K",
        help="the extra scenes drawn are scenes K to K + --more - 1 (default 0): a later "
        "session draws scenes none before it learnt from",
    )  # fmt: skip
    parser.add_argument(
        "--decks", choices=("usual", "extra"), default="usual",
        help="extra: --train N training scenes for the index classifier drawn from the extra "
        "decks (datasets.cards_art.extra_training_decks) into --out, nothing else written",
    )  # fmt: skip
    parser.add_argument(
        "--out", type=Path, default=None,
        help=f"the folder of the --decks extra scenes (default {EXTRA_SCENES})",
    )  # fmt: skip
    parser.add_argument("--size", type=int, default=384)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--no-real", action="store_true", help="train on synthetic scenes only")
    parser.add_argument(
        "--real-repeat", type=int, default=2, help="link each real training photo N times"
    )
    args = parser.parse_args(argv)
    if args.decks == "extra":
        return _write_extra(args)
    if args.out is not None:
        print("generate: --out is the folder of --decks extra", file=sys.stderr)
        return 2
    if args.more_from and not args.more:
        print("generate: --more-from works with --more N (how many extra scenes)",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.more > SPLIT_SEEDS:  # named here, not as a --more-from "from 0 to" below 0
        print(f"generate: --more must be at most {SPLIT_SEEDS:,} (the split's seeds), not "
              f"{args.more:,}", file=sys.stderr)  # fmt: skip
        return 2
    if not 0 <= args.more_from <= SPLIT_SEEDS - args.more:
        print(f"generate: --more-from must be from 0 to {SPLIT_SEEDS - args.more} (--more "
              f"{args.more} scenes within the split's {SPLIT_SEEDS:,} seeds), not "
              f"{args.more_from}", file=sys.stderr)  # fmt: skip
        return 2
    for name in ("train", "val", "test", "dark", "more"):
        count = getattr(args, name)
        if count:
            first = args.more_from if name == "more" else 0
            print(name, write_split(name, count, args.size, args.workers, first=first),
                  flush=True)  # fmt: skip
    if not args.no_real:
        print(
            "real train photos linked:",
            link_split("train", GENERATED / "real_train", args.real_repeat),
        )
        link_split("test", GENERATED / "real_test")
    print("data:", write_yaml(with_real=not args.no_real))
    return 0


def _write_extra(args: argparse.Namespace) -> int:
    """``--decks extra``: the extra decks' training scenes, alone, into their folder."""
    if args.dark or args.more or args.more_from:
        print("generate: --decks extra draws --train N scenes only (no --dark, --more)",
              file=sys.stderr)  # fmt: skip
        return 2
    decks = tuple(extra_training_decks())
    if len(decks) < 2:
        print(f"generate: --decks extra needs two extra decks installed, found {list(decks)} "
              "(kdegames-card-data-kf5)", file=sys.stderr)  # fmt: skip
        return 2
    out = args.out or EXTRA_SCENES
    print("extra decks:", ", ".join(decks), flush=True)
    drawn = write_split("train", args.train, args.size, args.workers, out=out, decks=decks,
                        seed_base=EXTRA_SEED_BASE)  # fmt: skip
    print("extra", drawn, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
