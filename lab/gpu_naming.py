"""The index classifier trained on a GPU machine on many more camera patches of many
decks than two CPU cores can draw, for decks and cameras it never saw (issue 45).

Why: on this project's CPU the classifier was fine-tuned on a fixed set of ~50,000 scene
patches (``var/lodo/synthetic.npz``) and, in the episodic try, ~45,000 art patches;
the one lever that ever moved held-out naming was more drawn data
(``lab/MODEL_NOTES.md``, "What remains"). A GPU machine with 16 cores draws patches
straight from the card art about fifteen times as fast as this machine and trains on
them as they come, so one short lease can show whether more data and the same-colour
pairs trained as hard pairs name an unseen deck's small indices better.

Two steps, the first here, the second on the GPU machine (its ``$OUT`` comes back):

1. ``pack`` (here): what the GPU machine needs and cannot draw, small enough to travel
   with the working tree (``var/gpu/``): each deck's printed index regions cut from the
   card art (``datasets/cards_art.py``, PNG-encoded; the training decks and, apart, the
   held-out ``kde-standard`` and ``kde-nicu-white`` for judging only) and a stratified
   share of the scene patches (``none`` and ``back`` among them, which art patches lack)
   with their validation patches.
2. ``train`` (GPU): worker processes draw camera patches of the training decks
   (``lab/episodic_features.region_patch``: small random scale, a narrower or wider
   typeface, turn, perspective, a table surface, the camera's light, blur, noise and
   JPEG, the kiosk's own crop) for as long as told, into a pool the trainer samples
   from as it grows; the held-out decks' patches are drawn once, to judge on. Several
   variants of the classifier train side by side on the same batches (from the shipped
   weights; see :data:`VARIANTS`), each half scene patches and half art patches (or as
   its share says), with the cross-entropy of all classes and a hard-pair term: each
   face against its same-colour twin alone (clubs against spades, hearts against
   diamonds, the swaps that turn a left bower into a right one). Every minute each
   variant's weights are saved under ``--out`` with a line of figures; the held-out
   decks' accuracy and swaps are in ``--out/figures.json``.

The kiosk's pipeline then judges the candidates here, on the CPU, as the shipped file
is judged (``models/evaluate.py --sets real --classifier``,
``scripts/bench_enrolment.py --classifier``); see ``lab/MODEL_NOTES.md``.

    python lab/gpu_naming.py pack                  # here, ~1 min -> var/gpu/
    python lab/gpu_naming.py train --out OUT --draw-seconds 240 --train-seconds 420
    python lab/gpu_naming.py smoke                 # here: both steps, a few seconds each
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))
sys.path.insert(0, str(REPO / "lab"))

from episodic_features import LABELS, REPLAY, SHIPPED_PT  # noqa: E402
from train_naming_shapes import augment_batch as gpu_augment  # noqa: E402
from train_naming_shapes import judge, replay_share  # noqa: E402

from datasets.drawn_indices import (  # noqa: E402
    HELD_OUT,
    INDEX_PX,
    STRETCH,
    draw_each,
    encode_regions,
    twin_ids,
)
from datasets.drawn_indices import draw_art as draw  # noqa: E402

PACK = REPO / "var" / "gpu"
#: scene patches kept for the trip (a stratified share of ``var/lodo/synthetic.npz``)
REPLAY_KEPT = 14000
#: the variants trained side by side: name -> (width, share of art patches in a batch,
#: weight of the hard-pair term)
VARIANTS: dict[str, tuple[float, float, float]] = {
    "w1-art50-pair": (1.0, 0.5, 0.5),
    "w1-art25-pair": (1.0, 0.25, 0.5),
    "w1-art50": (1.0, 0.5, 0.0),
    "w15-art50-pair": (1.5, 0.5, 0.5),
}


# ------------------------------------------------------------------------------ pack


def pack(out: Path, kept: int = REPLAY_KEPT, decks: Sequence[str] | None = None) -> int:
    from datasets.cards_art import card_art_installed, extra_training_decks, usable_decks

    if not card_art_installed():
        print("no card art: run scripts/install-system-packages.sh", file=sys.stderr)
        return 2
    if not REPLAY.exists():
        print(f"no scene patches at {REPLAY}: see lab/MODEL_NOTES.md, 'Leave one deck out'",
              file=sys.stderr)
        return 2
    training = list(decks or [*usable_decks(), *extra_training_decks()])
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    np.savez(out / "art_train.npz", **encode_regions(training))  # type: ignore[arg-type]
    np.savez(out / "art_held_out.npz", **encode_regions(HELD_OUT))  # type: ignore[arg-type]
    share = replay_share(REPLAY, kept)
    if [str(v) for v in share["labels"]] != list(LABELS):
        print(f"{REPLAY} has other classes than the classifier", file=sys.stderr)
        return 2
    np.savez_compressed(out / "replay.npz", **share)  # type: ignore[arg-type]
    sizes = {f.name: f.stat().st_size for f in out.glob("*.npz")}
    print(f"packed {len(training)} training decks, {len(HELD_OUT)} held out, "
          f"{len(share['y'])} scene patches in {time.monotonic() - started:.0f} s: {sizes}")
    return 0


# ---------------------------------------------------------------------- drawing patches




# ------------------------------------------------------------------------------ train


def build_variant(width: float, sample: np.ndarray):  # -> torch.nn.Module
    from train_classifier import build_network, warm_start

    model = build_network(len(LABELS), 1, width)
    warm_start(model, SHIPPED_PT, sample)
    return model


def train(args: argparse.Namespace) -> int:
    pack_dir: Path = args.pack
    for name in ("art_train.npz", "art_held_out.npz", "replay.npz"):
        if not (pack_dir / name).exists():
            print(f"no {pack_dir / name}: run `python lab/gpu_naming.py pack` first",
                  file=sys.stderr)
            return 2
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    def say(text: str) -> None:
        line = f"[{time.monotonic() - started:6.0f} s] {text}"
        print(line, flush=True)
        with open(out / "train.log", "a") as log:
            log.write(line + "\n")

    # spawned, not forked: a forked child of a process that has used OpenCV's thread pool
    # (or CUDA) can hang in its first parallel call
    context = multiprocessing.get_context("spawn")
    workers = args.workers or max(1, (os.cpu_count() or 2) - 2)
    pool = context.Pool(workers)
    train_art, held_art = str(pack_dir / "art_train.npz"), str(pack_dir / "art_held_out.npz")
    held_job = pool.apply_async(draw_each, (held_art, 1000, args.held_out_per_region))
    jobs = [pool.apply_async(draw, (train_art, 10_000 + i, args.chunk, STRETCH))
            for i in range(workers * 2)]
    next_seed = 10_000 + len(jobs)

    import torch
    from torch.nn import functional as F

    torch.manual_seed(0)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if dev.type == "cpu":
        torch.set_num_threads(args.threads)
    say(f"device {torch.cuda.get_device_name(0) if dev.type == 'cuda' else 'cpu'}, "
        f"{workers} drawing workers; torch {torch.__version__}, numpy {np.__version__}, "
        f"OpenCV {cv2.__version__}")
    with np.load(pack_dir / "replay.npz") as replay:
        rx = torch.from_numpy(replay["x"]).to(dev)
        ry = torch.from_numpy(replay["y"].astype(np.int64)).to(dev)
        vx = torch.from_numpy(replay["val_x"]).to(dev)
        vy = replay["val_y"].astype(np.int64)
        sample = replay["x"][:512]
    twins = twin_ids()
    twin_of = torch.from_numpy(twins).to(dev)
    chosen = args.variants.split(",") if args.variants else list(VARIANTS)
    unknown = [name for name in chosen if name not in VARIANTS]
    if unknown:
        print(f"no variant {unknown[0]}: one of {', '.join(VARIANTS)}", file=sys.stderr)
        return 2
    models = {name: build_variant(VARIANTS[name][0], sample).to(dev) for name in chosen}
    optimizers = {name: torch.optim.AdamW(m.parameters(), lr=args.lr, weight_decay=5e-4)
                  for name, m in models.items()}
    generator = torch.Generator(device=dev).manual_seed(0)
    art_x = torch.empty((0, 32, 32, 3), dtype=torch.uint8, device=dev)
    art_y = torch.empty((0,), dtype=torch.int64, device=dev)
    held: tuple[Any, np.ndarray, np.ndarray] | None = None
    figures: dict[str, Any] = {"variants": {k: list(v) for k, v in VARIANTS.items()},
                               "index_px": list(INDEX_PX), "stretch": STRETCH, "log": []}
    drawing_until = started + args.draw_seconds
    budget = args.train_seconds
    step, last_report = 0, time.monotonic()

    def harvest(block: bool = False) -> None:
        nonlocal art_x, art_y, jobs, next_seed, held
        if held is None and (block or held_job.ready()):
            hx, hy, hd = held_job.get()
            held = (torch.from_numpy(hx).to(dev), hy, hd)
            say(f"held-out judge set: {len(hy)} patches")
        done = [j for j in jobs if j.ready()]
        jobs = [j for j in jobs if not j.ready()]
        new_x, new_y = [], []
        for job in done:
            x, y = job.get()
            new_x.append(torch.from_numpy(x))
            new_y.append(torch.from_numpy(y))
            if time.monotonic() < drawing_until:
                jobs.append(pool.apply_async(draw, (train_art, next_seed, args.chunk, STRETCH)))
                next_seed += 1
        if new_x:
            art_x = torch.cat([art_x, torch.cat(new_x).to(dev)])
            art_y = torch.cat([art_y, torch.cat(new_y).to(dev)])

    def report(final: bool = False) -> None:
        entry: dict[str, Any] = {"seconds": round(time.monotonic() - started),
                                 "step": step, "art_patches": int(len(art_y))}
        for name, model in models.items():
            mine: dict[str, Any] = {"scene_val": judge(model, vx, vy, np.zeros_like(vy),
                                                      twins)["accuracy"]}
            if held is not None:
                mine["held_out"] = judge(model, held[0], held[1], held[2], twins)
            entry[name] = mine
            torch.save(model.state_dict(), out / f"{name}.pt")
        figures["log"].append(entry)
        if final:
            figures["final"] = entry
        (out / "figures.json").write_text(json.dumps(figures, indent=1))
        say(json.dumps(entry))

    # the shipped weights on the judge sets first: what the variants must beat
    harvest(block=True)
    shipped = build_variant(1.0, sample).to(dev)
    assert held is not None
    figures["shipped"] = {"scene_val": judge(shipped, vx, vy, np.zeros_like(vy), twins)["accuracy"],
                          "held_out": judge(shipped, held[0], held[1], held[2], twins)}
    say(f"shipped: {json.dumps(figures['shipped'])}")
    del shipped
    while len(art_y) < args.batch:
        time.sleep(0.5)
        harvest()
    training_from = time.monotonic()
    half = args.batch
    while True:
        progress = (time.monotonic() - training_from) / budget
        if progress >= 1.0:
            break
        if step % 20 == 0:
            harvest()
        for name, model in models.items():
            _width, art_share, pair_weight = VARIANTS[name]
            n_art = int(round(half * art_share))
            pick_a = torch.randint(0, len(art_y), (n_art,), generator=generator, device=dev)
            pick_r = torch.randint(0, len(ry), (half - n_art,), generator=generator, device=dev)
            x = torch.cat([art_x[pick_a], rx[pick_r]]).flip(-1).permute(0, 3, 1, 2).float() / 255
            y = torch.cat([art_y[pick_a], ry[pick_r]])
            logits = model(gpu_augment(x, generator))
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            if pair_weight:
                twin = twin_of[y]
                paired = twin != y
                pair = torch.stack([logits.gather(1, y[:, None])[:, 0],
                                    logits.gather(1, twin[:, None])[:, 0]], 1)[paired]
                if len(pair):
                    loss = loss + pair_weight * F.cross_entropy(
                        pair, torch.zeros(len(pair), dtype=torch.int64, device=dev))
            warm = min(progress / 0.03, 1.0)
            for group in optimizers[name].param_groups:
                group["lr"] = args.lr * warm * 0.5 * (1 + np.cos(np.pi * progress))
            optimizers[name].zero_grad(set_to_none=True)
            loss.backward()
            optimizers[name].step()
        step += 1
        if time.monotonic() - last_report > args.report_seconds:
            last_report = time.monotonic()
            report()
    report(final=True)
    pool.terminate()
    say(f"done: {step} steps of {half} patches a variant")
    return 0


# ------------------------------------------------------------------------------ smoke


def smoke(args: argparse.Namespace) -> int:
    """Both steps, small, here: three decks, a few seconds of drawing and training."""
    work = REPO / "var" / "gpu-smoke"
    code = pack(work / "pack", kept=2000, decks=["anglo", "tango", "kde-penguins"])
    if code:
        return code
    return train(argparse.Namespace(
        pack=work / "pack", out=work / "out", draw_seconds=10, train_seconds=20,
        workers=1, chunk=200, batch=128, lr=0.001, report_seconds=10,
        held_out_per_region=2, variants="w1-art50-pair,w15-art50-pair", threads=1))


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="here: the art regions and scene patches to carry")
    p.add_argument("--out", type=Path, default=PACK)
    p.add_argument("--kept", type=int, default=REPLAY_KEPT,
                   help="scene patches to pack (what fits the 64 MiB carried by default; "
                        "a CPU run here may take them all)")
    t = sub.add_parser("train", help="on the GPU machine: draw and train, time-boxed")
    t.add_argument("--pack", type=Path, default=PACK)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--draw-seconds", type=float, default=240)
    t.add_argument("--train-seconds", type=float, default=420)
    t.add_argument("--workers", type=int, default=0,
                   help="drawing processes (default: the cores less two)")
    t.add_argument("--chunk", type=int, default=1000, help="patches a drawing job")
    t.add_argument("--batch", type=int, default=1024, help="patches a step, each variant")
    t.add_argument("--lr", type=float, default=0.0015)
    t.add_argument("--report-seconds", type=float, default=60)
    t.add_argument("--variants", default="", help="comma-separated names of VARIANTS "
                   "(default: all)")
    t.add_argument("--threads", type=int, default=1, help="torch threads without a GPU")
    t.add_argument("--held-out-per-region", type=int, default=20)
    sub.add_parser("smoke", help="here: both steps, small")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.command == "pack":
        return pack(args.out, args.kept)
    if args.command == "train":
        return train(args)
    return smoke(args)


if __name__ == "__main__":
    raise SystemExit(main())
