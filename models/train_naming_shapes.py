"""Train the index classifier on shapes as well as decks: the scenes' patches and the real
photos' as before, and camera patches of indices drawn from hundreds of typefaces and
drawn suit outlines (``datasets/glyph_indices.py``) and from the training decks' art
(``datasets/drawn_indices.py``), with a hard-pair term (each face against its same-colour
twin alone: clubs against spades, hearts against diamonds). Exports the kiosk's ONNX.

Why: the network learnt the training decks' look, not the symbols' shapes, so a real deck
it never saw was read far worse than its own benchmark said. Left out of training, the
white real deck's indices are named 0.719 of 310 right by the scene-only recipe trained
as long, 0.893 by this one (``models/README.md``, "Shapes, not decks").

    python scripts/bench_leave_one_deck_out.py --runs base   # the scene and real patches
    python models/train_naming_shapes.py pack                # ~1 min -> var/naming-shapes/
    python models/train_naming_shapes.py train --out runs/shapes \
        --export models/index_classifier.onnx --checkpoint models/checkpoint/index_classifier.pt

``train`` defaults to the shipped recipe: from the shipped weights
(``models/checkpoint/index_classifier.pt``), 200,000 patches of each drawn kind drawn
first, then 4,000 steps of 512 patches (a fifth drawn from typefaces, a fifth from deck
art, the rest scene patches with 16 % real ones), on the CPU (measured: 4.7 and 3.3 ms
of one core a typeface and an art patch, 2.8 CPU-seconds a step on two threads: about
two hours on two quiet cores) or on a GPU machine's cores and GPU (four minutes): the
same patches and steps either way. ``--variants`` also trains the leave-one-deck-out
experiment (``without-white:KIND``...: from the synthetic-only base, the other real
deck's patches only), judged every report on the left-out deck's photos; the pipeline's
reading of them: ``scripts/bench_naming_shapes.py``.
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

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from datasets.drawn_indices import (  # noqa: E402
    HELD_OUT,
    INDEX_PX,
    LABEL_ID,
    LABELS,
    STRETCH,
    draw_art,
    draw_each,
    draw_glyphs,
    encode_regions,
    twin_ids,
)
from datasets.glyph_indices import font_files, pack_masks  # noqa: E402
from datasets.real_photos import deck_photos  # noqa: E402

PACK = REPO / "var" / "naming-shapes"
SHIPPED_PT = REPO / "models" / "checkpoint" / "index_classifier.pt"
LODO = REPO / "var" / "lodo"
#: the real decks, each left out in turn
DECKS = ("white", "black-gold")
#: variant kind -> (share of art patches, share of glyph patches, hard-pair weight)
KINDS: dict[str, tuple[float, float, float]] = {
    "ctl": (0.0, 0.0, 0.0),
    "pair": (0.0, 0.0, 0.5),
    "art": (0.25, 0.0, 0.5),
    "glyph": (0.0, 0.25, 0.5),
    "mix": (0.2, 0.2, 0.5),
}
#: the real patches' share of the scene part of a batch (as in the CPU recipe: 9,135 real
#: patches beside 47,471 scene patches)
REAL_SHARE = 0.16
#: scene patches packed (a stratified share of var/lodo/synthetic.npz)
SCENES_KEPT = 10000
#: of each real training label's 12 jittered copies, every this many are packed
REAL_EVERY = 3


# ------------------------------------------------------------------------------ pack


def judge_patches(deck: str) -> tuple[np.ndarray, np.ndarray]:
    """Each labelled face of ``deck``'s held-out photos cut on its own box, as the kiosk
    cuts it: x (N, 32, 32, 3) BGR, y class ids."""
    from kiosk.vision.cards.index_classifier import MARGIN, PATCH, crop

    xs, ys = [], []
    for image, labels in deck_photos(deck, "test"):
        for card, box in labels:
            if card is None or card == "back":
                continue
            xs.append(crop(image, box, PATCH, MARGIN))
            ys.append(LABEL_ID[card])
    return np.stack(xs), np.asarray(ys, np.int64)


def pack(out: Path, kept: int = SCENES_KEPT, decks: Sequence[str] | None = None) -> int:
    from datasets.cards_art import card_art_installed, extra_training_decks, usable_decks

    if not card_art_installed():
        print("no card art: run scripts/install-system-packages.sh", file=sys.stderr)
        return 2
    needed = [LODO / "synthetic.npz", LODO / "base.pt", *(LODO / f"real-{d}.npz" for d in DECKS)]
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        print(f"no {missing[0]}: run scripts/bench_leave_one_deck_out.py --runs base first",
              file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    training = list(decks or [*usable_decks(), *extra_training_decks()])
    np.savez(out / "art_train.npz", **encode_regions(training))  # type: ignore[arg-type]
    np.savez(out / "art_held_out.npz", **encode_regions(HELD_OUT))  # type: ignore[arg-type]
    np.savez(out / "glyphs.npz", **pack_masks(font_files()))  # type: ignore[arg-type]
    scenes = replay_share(LODO / "synthetic.npz", kept)
    scenes["val_x"], scenes["val_y"] = scenes["val_x"][::2], scenes["val_y"][::2]
    np.savez_compressed(out / "replay.npz", **scenes)  # type: ignore[arg-type]
    real: dict[str, np.ndarray] = {}
    for deck in DECKS:
        with np.load(LODO / f"real-{deck}.npz") as data:
            real[f"{deck}_x"] = data["x"][::REAL_EVERY]
            real[f"{deck}_y"] = data["y"][::REAL_EVERY].astype(np.int64)
        real[f"{deck}_judge_x"], real[f"{deck}_judge_y"] = judge_patches(deck)
    np.savez_compressed(out / "real.npz", **real)  # type: ignore[arg-type]
    (out / "base.pt").write_bytes((LODO / "base.pt").read_bytes())
    sizes = {f.name: round(f.stat().st_size / 1e6, 1) for f in sorted(out.iterdir())}
    print(f"packed in {time.monotonic() - started:.0f} s: {sizes} MB; "
          + ", ".join(f"{d}: {len(real[f'{d}_y'])} training, {len(real[f'{d}_judge_y'])} "
                      "judged" for d in DECKS))
    return 0


# ------------------------------------------------------------------------------ train


def replay_share(replay: Path, kept: int, seed: int = 0) -> dict[str, np.ndarray]:
    """``kept`` scene patches drawn evenly from each class and source, with all the
    validation patches."""
    with np.load(replay) as data:
        x, y, source = data["x"], data["y"], data["source"]
        rng = np.random.default_rng(seed)
        order = rng.permutation(len(y))[:kept]
        order.sort()
        return {"x": x[order], "y": y[order], "source": source[order],
                "val_x": data["val_x"], "val_y": data["val_y"], "labels": data["labels"]}


def augment_batch(batch, generator):  # torch (N, 3, H, W) 0..1 on the device
    """Quarter turns, contrast and brightness, grey, noise, a colour cast (as
    ``models/train_classifier.augment`` and ``tinted``), on the batch's own device."""
    import torch

    n, dev = batch.shape[0], batch.device
    turns = torch.randint(0, 4, (n,), generator=generator, device=dev)
    out = batch.clone()
    for k in (1, 2, 3):
        chosen = turns == k
        out[chosen] = torch.rot90(batch[chosen], k, dims=(2, 3))

    def uniform(low: float, high: float, *shape: int):
        return torch.rand(shape, generator=generator, device=dev) * (high - low) + low

    contrast, brightness = uniform(0.6, 1.4, n, 1, 1, 1), uniform(-0.25, 0.25, n, 1, 1, 1)
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    out = (out - mean) * contrast + mean + brightness
    tint = torch.where(uniform(0, 1, n, 1, 1, 1) < 0.3, uniform(0.8, 1.2, n, 3, 1, 1), 1.0)
    out = out * tint
    grey = (uniform(0, 1, n) < 0.15).view(n, 1, 1, 1)
    out = torch.where(grey, out.mean(dim=1, keepdim=True).expand(-1, 3, -1, -1), out)
    noise = uniform(0, 0.06, n, 1, 1, 1)
    out = out + torch.randn(out.shape, generator=generator, device=dev) * noise
    return out.clamp(0, 1)


def judge(model, x, y, deck, twins: np.ndarray, batch: int = 4096) -> dict[str, float]:
    """Accuracy and same-colour swaps (a face named as its twin) of ``model`` on uint8
    BGR patches ``x`` (a device tensor (N, 32, 32, 3)), overall and per deck number."""
    import torch

    model.eval()
    read = []
    with torch.no_grad():
        for start in range(0, len(y), batch):
            part = x[start:start + batch].flip(-1).permute(0, 3, 1, 2).float() / 255
            read.append(model(part).argmax(1).cpu().numpy())
    model.train()
    named = np.concatenate(read)
    swapped = (named == twins[y]) & (twins[y] != y)
    figures = {"accuracy": float((named == y).mean()), "swaps": float(swapped.mean())}
    for d in np.unique(deck):
        mine = deck == d
        figures[f"deck{int(d)}_accuracy"] = float((named[mine] == y[mine]).mean())
        figures[f"deck{int(d)}_swaps"] = float(swapped[mine].mean())
    return figures




def _variants(chosen: str) -> list[tuple[str, str, str]]:
    """(name, left-out deck or "none", kind) of the variants asked for ("" = all the
    left-out ones); ``ship:KIND`` learns from both real decks (a candidate to ship)."""
    every = [(f"without-{deck}:{kind}", deck, kind) for deck in DECKS for kind in KINDS]
    every += [(f"ship:{kind}", "none", kind) for kind in KINDS]
    if not chosen:
        return [v for v in every if v[1] != "none"]
    wanted = chosen.split(",")
    unknown = [w for w in wanted if w not in {name for name, _, _ in every}]
    if unknown:
        raise ValueError(f"no variant {unknown[0]}: one of {', '.join(n for n, _, _ in every)}")
    return [v for v in every if v[0] in wanted]


def train(args: argparse.Namespace) -> int:  # noqa: C901 (one time-boxed loop, read top down)
    pack_dir: Path = args.pack
    for name in ("art_train.npz", "art_held_out.npz", "glyphs.npz", "replay.npz", "real.npz",
                 "base.pt"):
        if not (pack_dir / name).exists():
            print(f"no {pack_dir / name}: run `python models/train_naming_shapes.py pack` first",
                  file=sys.stderr)
            return 2
    try:
        variants = _variants(args.variants)
    except ValueError as problem:
        print(problem, file=sys.stderr)
        return 2
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    def say(text: str) -> None:
        line = f"[{time.monotonic() - started:6.0f} s] {text}"
        print(line, flush=True)
        with open(out / "train.log", "a") as log:
            log.write(line + "\n")

    context = multiprocessing.get_context("spawn")
    # drawing first (--draw-count), every core draws; drawing while training, two are left
    # to the trainer
    workers = args.workers or max(1, (os.cpu_count() or 2) - (0 if args.draw_count else 2))
    pool = context.Pool(workers)
    art, glyphs = str(pack_dir / "art_train.npz"), str(pack_dir / "glyphs.npz")
    need_art = any(KINDS[k][0] for _, _, k in variants)
    need_glyph = any(KINDS[k][1] for _, _, k in variants)
    sources = [s for s, wanted in (("art", need_art), ("glyph", need_glyph)) if wanted]
    held_job = pool.apply_async(draw_each, (str(pack_dir / "art_held_out.npz"), 1000,
                                            args.held_out_per_region))
    next_seed = 10_000

    def submit(source: str) -> Any:
        nonlocal next_seed
        next_seed += 1
        if source == "art":
            return pool.apply_async(draw_art, (art, next_seed, args.chunk, STRETCH))
        return pool.apply_async(draw_glyphs, (glyphs, next_seed, args.chunk, STRETCH))

    jobs: list[tuple[str, Any]] = [(s, submit(s)) for _ in range(workers) for s in sources]

    import torch
    from torch.nn import functional as F
    from train_classifier import build_network, warm_start
    from train_classifier import export as export_onnx

    from kiosk.vision.cards.index_classifier import MARGIN, PATCH

    torch.manual_seed(0)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if dev.type == "cpu":
        torch.set_num_threads(args.threads)
    else:
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    say(f"device {torch.cuda.get_device_name(0) if dev.type == 'cuda' else 'cpu'}, "
        f"{workers} drawing workers, {len(variants)} variants; torch {torch.__version__}")
    with np.load(pack_dir / "replay.npz") as replay:
        sx = torch.from_numpy(replay["x"]).to(dev)
        sy = torch.from_numpy(replay["y"].astype(np.int64)).to(dev)
        vx = torch.from_numpy(replay["val_x"]).to(dev)
        vy = replay["val_y"].astype(np.int64)
        sample = replay["x"][:512]
    with np.load(pack_dir / "real.npz") as real_file:
        real = {k: real_file[k] for k in real_file.files}
    real_x = {d: torch.from_numpy(real[f"{d}_x"]).to(dev) for d in DECKS}
    real_y = {d: torch.from_numpy(real[f"{d}_y"]).to(dev) for d in DECKS}
    real_x["both"] = torch.cat([real_x[d] for d in DECKS])
    real_y["both"] = torch.cat([real_y[d] for d in DECKS])
    twins = twin_ids()
    twin_of = torch.from_numpy(twins).to(dev)
    models, optimizers = {}, {}
    for name, deck, _kind in variants:
        # the shipped candidate goes on from the shipped weights; the leave-one-deck-out
        # variants from the synthetic-only base, which never saw a real photo
        init: Path = args.init or (SHIPPED_PT if deck == "none" else pack_dir / "base.pt")
        model = build_network(len(LABELS), 1, 1.0)
        warm_start(model, init, sample)
        models[name] = model.to(dev)
        optimizers[name] = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    generator = torch.Generator(device=dev).manual_seed(0)
    pools = {s: (torch.empty((0, 32, 32, 3), dtype=torch.uint8, device=dev),
                 torch.empty((0,), dtype=torch.int64, device=dev)) for s in sources}
    held: tuple[Any, ...] | None = None  # () once drawn when there is no held-out art
    figures: dict[str, Any] = {"kinds": {k: list(v) for k, v in KINDS.items()},
                               "real_share": REAL_SHARE, "index_px": list(INDEX_PX),
                               "lr": args.lr, "batch": args.batch, "log": []}
    drawing_until = started + args.draw_seconds
    step = 0

    def harvest(block: bool = False) -> None:
        nonlocal jobs, held
        if held is None and (block or held_job.ready()):
            hx, hy, hd = held_job.get()
            held = (torch.from_numpy(hx).to(dev), hy, hd) if len(hy) else ()
        done = [(s, j) for s, j in jobs if j.ready()]
        jobs = [(s, j) for s, j in jobs if not j.ready()]
        fresh: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {s: [] for s in sources}
        for source, job in done:
            fresh[source].append(job.get())
            if time.monotonic() < drawing_until and (
                    not args.draw_count or len(pools[source][1]) + args.chunk * (
                        1 + sum(s == source for s, _ in jobs)) <= args.draw_count):
                jobs.append((source, submit(source)))
        for source, parts in fresh.items():
            if parts:
                x, y = pools[source]
                new_x = torch.from_numpy(np.concatenate([p[0] for p in parts])).to(dev)
                new_y = torch.from_numpy(np.concatenate([p[1] for p in parts])).to(dev)
                pools[source] = (torch.cat([x, new_x]), torch.cat([y, new_y]))

    def judged(model: Any, deck: str) -> dict[str, Any]:
        jx = torch.from_numpy(real[f"{deck}_judge_x"]).to(dev)
        jy = real[f"{deck}_judge_y"]
        mine: dict[str, Any] = {
            "held_out_photos": judge(model, jx, jy, np.zeros_like(jy), twins),
            "training_photos": judge(model, real_x[deck], real[f"{deck}_y"],
                                     np.zeros_like(real[f"{deck}_y"]), twins),
            "scene_val": judge(model, vx, vy, np.zeros_like(vy), twins)["accuracy"]}
        if held:
            mine["art_held_out"] = judge(model, held[0], held[1], held[2], twins)
        for key in ("held_out_photos", "training_photos"):
            mine[key] = {k: round(v, 4) for k, v in mine[key].items() if not k.startswith("deck")}
        return mine

    def report(final: bool = False) -> None:
        entry: dict[str, Any] = {"seconds": round(time.monotonic() - started), "step": step,
                                 **{f"{s}_patches": int(len(pools[s][1])) for s in sources}}
        for name, deck, _kind in variants:
            entry[name] = (judged(models[name], deck) if deck in DECKS else
                           {"scene_val": judge(models[name], vx, vy, np.zeros_like(vy), twins)[
                               "accuracy"], **{d: judged(models[name], d)["held_out_photos"]
                                               for d in DECKS}})
        figures["log"].append(entry)
        if final:
            figures["final"] = entry
        for deck in (*DECKS, "none"):
            states = {name: models[name].state_dict() for name, d, _ in variants if d == deck}
            if states:
                torch.save(states, out / ("ship.pt" if deck == "none" else f"without-{deck}.pt"))
        (out / "figures.json").write_text(json.dumps(figures, indent=1))
        say(" | ".join(
            f"{name} {entry[name]['held_out_photos']['accuracy']:.3f}/"
            f"{entry[name]['training_photos']['accuracy']:.3f}"
            f" sw {entry[name]['training_photos']['swaps']:.3f}" if d in DECKS else
            f"{name} val {entry[name]['scene_val']:.3f} "
            + " ".join(f"{k} {entry[name][k]['accuracy']:.3f}" for k in DECKS)
            for name, d, _ in variants) + f" | step {step} "
            + " ".join(f"{s} {len(pools[s][1])}" for s in sources))

    harvest(block=True)
    base = build_network(len(LABELS), 1, 1.0)
    warm_start(base, pack_dir / "base.pt", sample)
    base = base.to(dev)
    figures["base"] = {deck: judged(base, deck) for deck in DECKS}
    say("base: " + json.dumps({d: figures["base"][d]["held_out_photos"] for d in DECKS}))
    del base
    # with a fixed pool (--draw-count), all of it is drawn before training starts, so a
    # run's batches do not depend on how fast the machine draws
    wanted = args.draw_count or args.batch
    while any(len(pools[s][1]) < wanted for s in sources) and (jobs or not args.draw_count):
        time.sleep(0.5)
        harvest()
    say("training starts: " + " ".join(f"{s} {len(pools[s][1])}" for s in sources))
    training_from = last_report = time.monotonic()
    n = args.batch
    while True:
        progress = (time.monotonic() - training_from) / args.train_seconds
        if args.steps:  # a fixed number of steps: the schedule follows them, the clock
            if progress >= 1.0:  # only stops a run that cannot finish them
                say(f"out of time after {step} of {args.steps} steps")
                break
            progress = step / args.steps
        if progress >= 1.0:
            break
        if step % 20 == 0:
            harvest()
        for name, deck, kind in variants:
            art_share, glyph_share, pair_weight = KINDS[kind]
            counts = {"art": int(round(n * art_share)), "glyph": int(round(n * glyph_share))}
            rest = n - counts["art"] - counts["glyph"]
            n_real = int(round(rest * REAL_SHARE))
            kept = {"white": "black-gold", "black-gold": "white"}.get(deck, "both")
            parts_x, parts_y = [], []
            for source, count in counts.items():
                if count:
                    px, py = pools[source]
                    pick = torch.randint(0, len(py), (count,), generator=generator, device=dev)
                    parts_x.append(px[pick])
                    parts_y.append(py[pick])
            pick = torch.randint(0, len(sy), (rest - n_real,), generator=generator, device=dev)
            parts_x.append(sx[pick])
            parts_y.append(sy[pick])
            pick = torch.randint(0, len(real_y[kept]), (n_real,), generator=generator, device=dev)
            parts_x.append(real_x[kept][pick])
            parts_y.append(real_y[kept][pick])
            x = torch.cat(parts_x).flip(-1).permute(0, 3, 1, 2).float() / 255
            y = torch.cat(parts_y)
            model = models[name]
            logits = model(augment_batch(x, generator))
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
    say(f"done: {step} steps of {n} patches a variant")
    if args.export is not None:
        name = variants[0][0]
        models[name].cpu().eval()
        export_onnx(models[name], list(LABELS), args.export, PATCH, MARGIN)
        if args.checkpoint is not None:
            torch.save(models[name].state_dict(), args.checkpoint)
        say(f"exported {name} to {args.export}")
    return 0


# ---------------------------------------------------------------------- judge, here


def export(weights: Path, name: str, onnx: Path) -> None:
    """One variant's weights from a returned file as the kiosk's ONNX classifier."""
    import torch
    from train_classifier import build_network
    from train_classifier import export as export_onnx

    states = torch.load(weights, map_location="cpu")
    model = build_network(len(LABELS), 1, 1.0)
    model.load_state_dict(states[name])
    model.eval()
    from kiosk.vision.cards.index_classifier import MARGIN, PATCH

    export_onnx(model, list(LABELS), onnx, PATCH, MARGIN)



def smoke(args: argparse.Namespace) -> int:
    """Both steps, small, here: three decks, a few seconds of drawing and training."""
    work = REPO / "var" / "naming-shapes-smoke"
    code = pack(work / "pack", kept=2000, decks=["anglo", "tango", "kde-penguins"])
    if code:
        return code
    return train(argparse.Namespace(
        pack=work / "pack", out=work / "out", draw_seconds=15, train_seconds=20,
        workers=1, chunk=100, batch=64, lr=0.001, report_seconds=10,
        held_out_per_region=1, variants="without-white:ctl,without-white:mix", threads=1,
        init=None, steps=0, draw_count=0, export=None, checkpoint=None))


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="here: what the GPU machine needs")
    p.add_argument("--out", type=Path, default=PACK)
    p.add_argument("--kept", type=int, default=SCENES_KEPT)
    t = sub.add_parser("train", help="draw and train (a GPU if there is one); the defaults "
                       "are the shipped recipe")
    t.add_argument("--pack", type=Path, default=PACK)
    t.add_argument("--out", type=Path, required=True, help="weights, figures and log")
    t.add_argument("--variants", default="ship:mix",
                   help="comma-separated: ship:KIND, without-white:KIND, without-black-gold:KIND "
                   f"(KIND one of {', '.join(KINDS)}); '' for the ten left-out ones")
    t.add_argument("--init", type=Path, help="start every variant from these weights "
                   "(default: the shipped ones for ship:, the pack's base.pt for without-)")
    t.add_argument("--draw-count", type=int, default=200_000,
                   help="draw this many patches of each kind, all before training (0: draw "
                   "while training, for --draw-seconds)")
    t.add_argument("--steps", type=int, default=4000,
                   help="train this many steps (the schedule follows them; 0: the clock)")
    t.add_argument("--batch", type=int, default=512, help="patches a step, each variant")
    t.add_argument("--lr", type=float, default=0.001)
    t.add_argument("--workers", type=int, default=0,
                   help="drawing processes (default: every core when the pool is drawn "
                   "first, else the cores less two)")
    t.add_argument("--threads", type=int, default=2, help="torch threads without a GPU")
    t.add_argument("--draw-seconds", type=float, default=4 * 3600,
                   help="stop drawing after this long")
    t.add_argument("--train-seconds", type=float, default=4 * 3600,
                   help="the schedule's length without --steps; else a run that cannot finish "
                   "its steps stops here")
    t.add_argument("--chunk", type=int, default=1000, help="patches a drawing job")
    t.add_argument("--report-seconds", type=float, default=600)
    t.add_argument("--held-out-per-region", type=int, default=5)
    t.add_argument("--export", type=Path, help="the first variant's ONNX, for the kiosk")
    t.add_argument("--checkpoint", type=Path, help="with --export, its weights too")
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
