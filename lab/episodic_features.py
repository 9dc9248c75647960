"""Episodic fine-tuning of the index classifier's features for decks no network saw.

Why: a deck profile (``kiosk/vision/decks/deck_profile.py``) refits only the classifier's last
layer on its frozen 192-d features, and on the held-out decks (``kde-standard``,
``kde-nicu-white``) it stops at about 0.93 of the cards found with 3-5 % same-colour suit
swaps: the features, learnt on a few synthetic decks, do not separate an unseen deck's
small clubs from its spades (lab/MODEL_NOTES.md, "Deck profiles"). The notes name the
next step: features trained episode by episode with whole decks held out, so that what
the network learns is how to tell a *new* deck's classes apart from a few examples. This
script is that try, as an experiment; it writes only under ``var/episodic/``.

How:

1. ``patches``: index patches straight from the card art (``datasets/cards_art.py``),
   labelled by deck and card: each face placed at a small random scale (its index 12-45
   px on its longer side), turned a little with a slight perspective, on a procedural
   table (``datasets/surfaces.py``), through the camera's effects
   (``datasets/photometric.camera``: light, shadow, glare, white balance/exposure, defocus
   and motion blur, noise, JPEG), then cut by the kiosk's own ``crop()`` around the
   index's transformed box, jittered as ``datasets/index_crops.jitter`` does, and turned
   a random quarter. Training decks (``usable_decks()`` + ``extra_training_decks()``) are
   drawn with one seed, the held-out decks with another; cached in
   ``var/episodic/patches.npz``.
2. ``train``: from ``models/checkpoint/index_classifier.pt`` (the shipped run 21; its
   export is ``models/index_classifier.onnx``), each episode one *training* deck, 26-32
   classes in same-colour twin pairs (now and then all 13 pairs of one colour: clubs
   against spades or hearts against diamonds only), 1-5 support patches a class and two
   queries; a prototypical loss on the pooled 192-d features (cosine or squared
   Euclidean, learnt scale), a twin term (each query against its own prototype and its
   twin's alone), and the ordinary cross-entropy of the classifier head on the episode and
   on a replay batch of the synthetic scene patches (``var/lodo/synthetic.npz``, with
   ``none`` and ``back``), so the network still names cards without a profile. Batch
   norm statistics stay frozen. Time-boxed, one torch thread, a checkpoint every few
   minutes in ``var/episodic/episodic.pt`` (``--resume`` goes on from it).
3. ``evaluate``: on the held-out decks only, the shipped weights against the fine-tuned
   ones: the head with no profile (accuracy, same-colour swaps), nearest-prototype naming
   from k = 1, 3, 5 support patches a class (several draws), and the kiosk's own profile
   refit (``deck_profile.fit_head``) from the same supports; the same again on patches
   cut from rendered table photos of those decks (``datasets/layouts.py``, the judge and
   enrolment shots of ``scripts/bench_enrolment.py --rendered``: another renderer than
   step 1's, so a gain there is not the network learning step 1's rendering); tables and
   ``var/episodic/results.json``.
4. ``export``: the fine-tuned weights as an ONNX candidate, ``var/episodic/
   index_classifier.onnx`` (``models/train_classifier.export``, which adds the feature
   outputs with ``models/add_feature_output.py``), checked against torch and read on the
   synthetic validation patches and the held-out real photos beside the shipped file.

Run from the repository root, with the cores shared (nice, one thread)::

    export OMP_NUM_THREADS=1
    # smoke test: three decks, one minute, its own folder
    nice -n 10 .venv/bin/python lab/episodic_features.py --work var/episodic/smoke \\
        all --decks anglo tango kde-penguins --per-class 6 --eval-per-class 12 --minutes 1
    # the real run (patches ~3 minutes, then the time box: 3,766 episodes in 65 minutes
    # on one shared core), then the tables (~7 minutes, the table shots rendered once)
    nohup nice -n 10 .venv/bin/python lab/episodic_features.py train --minutes 65 \\
        > var/episodic/train.log 2>&1 &
    nice -n 10 .venv/bin/python lab/episodic_features.py evaluate
    nice -n 10 .venv/bin/python lab/episodic_features.py export   # only if it is better
"""

from __future__ import annotations

import argparse
import json
import math
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

from datasets.drawn_indices import (  # noqa: E402,F401
    LABEL_ID,
    LABELS,
    Surfaces,
    deck_cards,
    index_region,
    region_patch,
)
from datasets.index_crops import jitter  # noqa: E402
from kiosk.vision.cards.classes import FACES  # noqa: E402
from kiosk.vision.cards.index_classifier import MARGIN, NONE, PATCH, crop  # noqa: E402,F401

WORK = REPO / "var" / "episodic"
SHIPPED_PT = REPO / "models" / "checkpoint" / "index_classifier.pt"
SHIPPED_ONNX = REPO / "models" / "index_classifier.onnx"
REPLAY = REPO / "var" / "lodo" / "synthetic.npz"
#: the index's longer side in the camera's picture, pixels (drawn log-uniformly)
INDEX_PX = (12.0, 45.0)
#: seeds of the training decks' patches and of the held-out decks' (never the same)
TRAIN_SEED, EVAL_SEED = 0, 1000
#: the first this many of each held-out class's patches are its support pool, the rest
#: the queries every reading is judged on
SUPPORT_POOL = 10
#: the same-colour twin of each suit
TWIN_SUIT = {"C": "S", "S": "C", "H": "D", "D": "H"}
#: the features' layer: the network up to its Flatten (the pooled last convolution)
FEATURE_LAYERS = -2


class UsageError(Exception):
    """A command line that cannot run; the message is one line."""


# ----------------------------------------------------------------------------- patches


def twin(card: str) -> str:
    """The same rank in the other suit of its colour.

    >>> twin("JC"), twin("9D")
    ('JS', '9H')
    """
    return card[0] + TWIN_SUIT[card[1]]


def camera_patch(deck: str, card: str, rng: np.random.Generator, surfaces: Surfaces) -> np.ndarray:
    """One BGR PATCH x PATCH patch of ``card``'s corner index as a camera would give it
    (:func:`region_patch` of one of its printed index boxes, drawn at random)."""
    from datasets.cards_art import index_boxes, load_card

    boxes = index_boxes(deck, card)
    region, box = index_region(load_card(deck, card), boxes[int(rng.integers(len(boxes)))])
    return region_patch(region, box, rng, surfaces, INDEX_PX)


def make_patches(decks: Sequence[str], per_class: int, seed: int) -> dict[str, np.ndarray]:
    """``per_class`` patches of each face of each deck: x (N, 32, 32, 3) BGR uint8, y
    (classifier class ids), deck (index into ``decks``)."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ds: list[int] = []
    for number, deck in enumerate(decks):
        # one generator per deck, so a deck's patches do not depend on the others asked
        rng = np.random.default_rng([seed, number, sum(map(ord, deck))])
        surfaces = Surfaces(rng)
        started = time.monotonic()
        cards = deck_cards(deck)
        for card in cards:
            for _ in range(per_class):
                xs.append(camera_patch(deck, card, rng, surfaces))
                ys.append(LABEL_ID[card])
                ds.append(number)
        print(f"  {deck}: {len(cards)} cards x {per_class} patches, "
              f"{time.monotonic() - started:.1f} s", flush=True)
    return {"x": np.stack(xs), "y": np.asarray(ys, np.int16), "deck": np.asarray(ds, np.int16)}


def patch_file(work: Path) -> Path:
    return work / "patches.npz"


def load_or_make_patches(work: Path, train_decks: Sequence[str], eval_decks: Sequence[str],
                         per_class: int, eval_per_class: int) -> dict[str, Any]:
    """The cached patches when they were made with these settings, else made and cached.

    One file: ``x``/``y``/``deck`` (the training decks, seed :data:`TRAIN_SEED`),
    ``eval_x``/``eval_y``/``eval_deck`` (the held-out decks, :data:`EVAL_SEED`), the deck
    names of each, and the settings (``meta``, JSON)."""
    meta = {"train_decks": list(train_decks), "eval_decks": list(eval_decks),
            "per_class": per_class, "eval_per_class": eval_per_class,
            "seeds": [TRAIN_SEED, EVAL_SEED], "index_px": list(INDEX_PX), "version": 1}
    path = patch_file(work)
    if path.exists():
        with np.load(path) as cached:
            if json.loads(str(cached["meta"])) == meta:
                return {k: cached[k] for k in cached.files} | {"meta": meta}
        print(f"{path} was made with other settings: making it again")
    from datasets.cards_art import card_art_installed

    if not card_art_installed():
        raise UsageError("no card art: run scripts/install-system-packages.sh "
                         "(gnome-cards-data, kdegames-card-data-kf5, librsvg2-bin)")
    started = time.monotonic()
    print(f"making patches: {len(train_decks)} training decks x {per_class} a class, "
          f"{len(eval_decks)} held-out decks x {eval_per_class}", flush=True)
    train = make_patches(train_decks, per_class, TRAIN_SEED)
    held = make_patches(eval_decks, eval_per_class, EVAL_SEED)
    work.mkdir(parents=True, exist_ok=True)
    arrays = {**train, "eval_x": held["x"], "eval_y": held["y"], "eval_deck": held["deck"],
              "train_decks": np.asarray(train_decks), "eval_decks": np.asarray(eval_decks),
              "meta": np.asarray(json.dumps(meta))}
    partial = path.with_name(path.stem + ".partial.npz")
    np.savez_compressed(partial, **arrays)  # type: ignore[arg-type]
    partial.replace(path)
    print(f"{path}: {len(train['y'])} training and {len(held['y'])} held-out patches, "
          f"{time.monotonic() - started:.0f} s", flush=True)
    return {**arrays, "meta": meta}


def contact_sheet(patches: np.ndarray, out: Path, columns: int = 24) -> None:
    """The first patches side by side, enlarged, to look at."""
    rows = [np.hstack(list(patches[i:i + columns]) + [np.zeros_like(patches[0])]
                      * (columns - len(patches[i:i + columns])))
            for i in range(0, len(patches), columns)]
    sheet = np.vstack(rows)
    cv2.imwrite(str(out), cv2.resize(sheet, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))


# ------------------------------------------------------------------------------ network


def to_tensor(patches: np.ndarray):  # -> torch.Tensor (N, 3, H, W) RGB float 0..1
    """BGR uint8 patches to the network's input, as ``index_classifier.to_blob``."""
    import torch

    return torch.from_numpy(
        np.ascontiguousarray(patches[..., ::-1].transpose(0, 3, 1, 2))).float() / 255.0


def load_network(weights: Path):  # -> torch.nn.Sequential
    """The classifier with ``weights`` (the shipped ``.pt`` or one of this script's
    checkpoints), in eval mode."""
    import torch
    from train_classifier import build_network

    model = build_network(len(LABELS))
    state = torch.load(weights, map_location="cpu")
    model.load_state_dict(state.get("model", state))
    return model.eval()


def features_and_logits(model, patches: np.ndarray, batch: int = 512
                        ) -> tuple[np.ndarray, np.ndarray]:
    """(N, 192) pooled features and (N, 54) logits, eval mode, no gradient."""
    import torch

    body, head = model[:FEATURE_LAYERS], model[-1]
    feats, logits = [], []
    with torch.no_grad():
        for start in range(0, len(patches), batch):
            f = body(to_tensor(patches[start:start + batch]))
            feats.append(f.numpy())
            logits.append(head(f).numpy())
    return np.concatenate(feats), np.concatenate(logits)


def freeze_norms(model) -> None:
    """Batch norm layers read their running statistics (eval mode), whatever the mode of
    the rest: an episode is one deck, whose statistics would pull them off."""
    from torch import nn

    for layer in model.modules():
        if isinstance(layer, nn.BatchNorm2d):
            layer.eval()


def proto_logits(support, support_y, query, ways: int, distance: str, scale):
    """Logits of each query against the class means of ``support`` (labels 0..ways-1):
    scaled cosine, or minus the scaled squared Euclidean distance."""
    import torch
    from torch.nn import functional as F

    if distance == "cosine":
        support, query = F.normalize(support, dim=1), F.normalize(query, dim=1)
    onehot = F.one_hot(support_y, ways).float()
    protos = onehot.T @ support / onehot.sum(0).unsqueeze(1)
    if distance == "cosine":
        return scale * query @ F.normalize(protos, dim=1).T
    return -scale * torch.cdist(query, protos).pow(2) / support.shape[1]


# -------------------------------------------------------------------------------- train


def train(args: argparse.Namespace, data: dict[str, Any]) -> int:
    """The episodic fine-tuning, time-boxed, resumable (see the module's doc)."""
    import torch
    from torch.nn import functional as F
    from train_classifier import augment

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    work: Path = args.work
    checkpoint = work / "episodic.pt"
    x, y, deck_of = data["x"], data["y"].astype(np.int64), data["deck"]
    decks = [str(d) for d in data["train_decks"]]
    held = set(str(d) for d in data["eval_decks"])
    assert not held & set(decks), "a held-out deck among the training decks"
    by_deck_class: dict[tuple[int, int], np.ndarray] = {}
    for d in range(len(decks)):
        for c in np.unique(y[deck_of == d]):
            by_deck_class[(d, int(c))] = np.flatnonzero((deck_of == d) & (y == c))
    replay_x = replay_y = None
    if args.replay and args.replay.exists():
        with np.load(args.replay) as replay:
            replay_x, replay_y = replay["x"], replay["y"].astype(np.int64)
            if [str(v) for v in replay["labels"]] != list(LABELS):
                raise UsageError(f"{args.replay} has other classes than the classifier")
            val_x, val_y = replay["val_x"], replay["val_y"].astype(np.int64)
        print(f"replay: {len(replay_y)} scene patches from {args.replay}")
    else:
        val_x = val_y = None
        print("no replay patches: the head learns from the art patches alone")

    model = load_network(SHIPPED_PT)
    log_scale = torch.nn.Parameter(torch.tensor(math.log(10.0 if args.distance == "cosine"
                                                         else 1.0)))
    optimizer = torch.optim.AdamW([*model.parameters(), log_scale], lr=args.lr,
                                  weight_decay=5e-4)
    episode, elapsed = 0, 0.0
    if args.resume and checkpoint.exists():
        state = torch.load(checkpoint, map_location="cpu")
        model.load_state_dict(state["model"])
        log_scale.data.fill_(float(state["log_scale"]))
        optimizer.load_state_dict(state["optimizer"])
        episode, elapsed = int(state["episode"]), float(state["elapsed"])
        print(f"resuming {checkpoint}: episode {episode}, {elapsed / 60:.1f} min done")
    elif checkpoint.exists() and not args.resume:
        print(f"starting afresh from {SHIPPED_PT.name} ({checkpoint} is overwritten; "
              "--resume goes on from it)")
    budget = args.minutes * 60
    rng = np.random.default_rng([args.seed, episode])
    generator = torch.Generator().manual_seed(args.seed + episode)
    pairs = sorted({tuple(sorted((c, twin(c)))) for c in FACES})  # 26 twin pairs

    def save() -> None:
        work.mkdir(parents=True, exist_ok=True)
        partial = checkpoint.with_suffix(".partial")
        torch.save({"model": model.state_dict(), "log_scale": float(log_scale),
                    "optimizer": optimizer.state_dict(), "episode": episode,
                    "elapsed": elapsed, "distance": args.distance,
                    "train_decks": decks, "minutes": args.minutes}, partial)
        partial.replace(checkpoint)

    def val_accuracy() -> float | None:
        if val_x is None:
            return None
        _, logits = features_and_logits(model, val_x)
        return float((logits.argmax(1) == val_y).mean())

    print(f"{len(decks)} training decks, {len(y)} patches; held out: {sorted(held)}; "
          f"{args.minutes:g} minutes, distance {args.distance}", flush=True)
    print(f"synthetic validation accuracy at the start: {val_accuracy()}", flush=True)
    model.train()
    freeze_norms(model)
    started = time.monotonic() - elapsed
    last_save = last_print = time.monotonic()
    totals = np.zeros(5)
    counted = 0
    while (elapsed := time.monotonic() - started) < budget:
        progress = elapsed / budget
        for group in optimizer.param_groups:  # warm-up, then cosine to zero
            warm = min(progress / 0.03, 1.0)
            group["lr"] = args.lr * warm * 0.5 * (1 + math.cos(math.pi * progress))
        d = int(rng.integers(len(decks)))
        hard = rng.random() < args.hard
        if hard:  # one colour only: clubs against spades, or hearts against diamonds
            colour = "CS" if rng.random() < 0.5 else "DH"
            chosen = [p for p in pairs if p[0][1] in colour]
        else:
            chosen = [pairs[i] for i in rng.choice(len(pairs), args.pairs, replace=False)]
        classes = [LABEL_ID[c] for p in chosen for c in p if (d, LABEL_ID[c]) in by_deck_class]
        shots = int(rng.integers(1, args.max_shots + 1))
        support_idx, query_idx, support_lab, query_lab = [], [], [], []
        for way, c in enumerate(classes):
            pool = by_deck_class[(d, c)]
            take = rng.choice(pool, min(len(pool), shots + args.queries), replace=False)
            support_idx += list(take[:shots])
            query_idx += list(take[shots:])
            support_lab += [way] * len(take[:shots])
            query_lab += [way] * len(take[shots:])
        if not query_idx:
            continue
        ways = len(classes)
        index = np.asarray(support_idx + query_idx)
        batch = augment(to_tensor(x[index]), generator)
        feats = model[:FEATURE_LAYERS](batch)
        ns = len(support_idx)
        sy, qy = torch.tensor(support_lab), torch.tensor(query_lab)
        scale = log_scale.exp()
        logits = proto_logits(feats[:ns], sy, feats[ns:], ways, args.distance, scale)
        proto_loss = F.cross_entropy(logits, qy)
        # each query against its own prototype and its twin's alone (the hard pair)
        twin_way = torch.tensor([classes.index(LABEL_ID[twin(LABELS[classes[w]])])
                                 if LABEL_ID[twin(LABELS[classes[w]])] in classes else w
                                 for w in query_lab])
        pair = torch.stack([logits.gather(1, qy[:, None])[:, 0],
                            logits.gather(1, twin_way[:, None])[:, 0]], dim=1)
        has_twin = twin_way != qy
        first = torch.zeros(int(has_twin.sum()), dtype=torch.long)
        twin_loss = (F.cross_entropy(pair[has_twin], first)
                     if has_twin.any() else torch.zeros(()))
        head = model[-1](model[-2](feats))
        labels = torch.from_numpy(y[index])
        ce = F.cross_entropy(head, labels, label_smoothing=0.05)
        replay_loss = torch.zeros(())
        if replay_x is not None and replay_y is not None and args.replay_batch:
            pick = rng.integers(0, len(replay_y), args.replay_batch)
            replay_logits = model(augment(to_tensor(replay_x[pick]), generator))
            replay_loss = F.cross_entropy(replay_logits, torch.from_numpy(replay_y[pick]),
                                          label_smoothing=0.05)
        loss = (proto_loss + args.twin_weight * twin_loss
                + args.ce_weight * (ce + replay_loss))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        episode += 1
        accuracy = float((logits.argmax(1) == qy).float().mean())
        totals += [float(v.detach()) for v in (proto_loss, twin_loss, ce, replay_loss)] + [accuracy]
        counted += 1
        now = time.monotonic()
        if now - last_print > args.print_seconds:
            mean = totals / max(counted, 1)
            rate = optimizer.param_groups[0]["lr"]
            print(f"episode {episode}: {elapsed / 60:.1f} min, lr {rate:.2e}, "
                  f"proto {mean[0]:.3f}, twin {mean[1]:.3f}, head ce {mean[2]:.3f}, "
                  f"replay ce {mean[3]:.3f}, query acc {mean[4]:.3f}, scale {float(scale):.2f}",
                  flush=True)
            totals[:] = 0
            counted = 0
            last_print = now
        if now - last_save > args.save_seconds:
            save()
            last_save = now
            val = val_accuracy()
            model.train()
            freeze_norms(model)
            print(f"  saved {checkpoint}; synthetic validation accuracy {val}", flush=True)
    elapsed = min(time.monotonic() - started, max(budget, elapsed))
    save()
    print(f"done: {episode} episodes in {elapsed / 60:.1f} min; synthetic validation "
          f"accuracy {val_accuracy()}; weights {checkpoint}", flush=True)
    return 0


# ----------------------------------------------------------------------------- evaluate


def reading(truth: np.ndarray, read: np.ndarray) -> dict[str, float]:
    """Share named right, rank right, and read as the same-colour twin (class ids)."""
    names = [LABELS[i] for i in read]
    right = float(np.mean(read == truth))
    rank = float(np.mean([n[0] == LABELS[t][0] for t, n in zip(truth, names, strict=True)]))
    swaps = float(np.mean([n == twin(LABELS[t]) for t, n in zip(truth, names, strict=True)]))
    return {"accuracy": round(right, 4), "rank": round(rank, 4), "swaps": round(swaps, 4)}


def turned_features(model, patches: np.ndarray) -> np.ndarray:
    """Features of each patch at all four quarter turns, (4N, 192), turn-major (as the
    kiosk's enrolment cuts every support patch at every turn)."""
    turned = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in range(4)])
    return features_and_logits(model, np.ascontiguousarray(turned))[0]


def evaluate_weights(model, x: np.ndarray, y: np.ndarray, shots: Sequence[int], draws: int,
                     seed: int) -> dict[str, Any]:
    """One network on one held-out deck: the head, k-shot prototypes, the profile refit."""
    from kiosk.vision.decks.deck_profile import FitSettings, Head, fit_head

    classes = np.unique(y)
    pools = {int(c): np.flatnonzero(y == c)[:SUPPORT_POOL] for c in classes}
    queries = np.concatenate([np.flatnonzero(y == c)[SUPPORT_POOL:] for c in classes])
    feats, logits = features_and_logits(model, x)
    qf, qy = feats[queries], y[queries]
    out: dict[str, Any] = {"queries": int(len(queries)),
                           "head": reading(qy, logits[queries].argmax(1))}
    faces = np.asarray([LABEL_ID[c] for c in FACES])
    out["head_faces_only"] = reading(qy, faces[logits[queries][:, faces].argmax(1)])
    shipped = Head(model[-1].weight.detach().numpy().T.copy(),
                   model[-1].bias.detach().numpy().copy(), LABELS)
    rng = np.random.default_rng(seed)
    for k in shots:
        runs: dict[str, list[dict[str, float]]] = {"proto_cosine": [], "proto_euclid": [],
                                                   "refit": []}
        for _ in range(draws):
            chosen = np.concatenate([rng.choice(pools[int(c)], k, replace=False)
                                     for c in classes])
            sf = turned_features(model, x[chosen])
            sy = np.tile(y[chosen], 4)
            means = np.stack([sf[sy == c].mean(0) for c in classes])
            unit = means / np.linalg.norm(means, axis=1, keepdims=True)
            qunit = qf / np.linalg.norm(qf, axis=1, keepdims=True)
            runs["proto_cosine"].append(reading(qy, classes[(qunit @ unit.T).argmax(1)]))
            dist = ((qf[:, None, :] - means[None]) ** 2).sum(-1)
            runs["proto_euclid"].append(reading(qy, classes[dist.argmin(1)]))
            head = fit_head(sf, [LABELS[c] for c in sy], shipped, FitSettings())
            runs["refit"].append(reading(qy, head.logits(qf).argmax(1)))
        out.update(averaged(runs, k))
    return out


def averaged(runs: dict[str, list[dict[str, float]]], k: int) -> dict[str, dict[str, float]]:
    """Each way of naming's figures over the draws of ``k`` supports a class."""
    return {f"{name}_k{k}": {key: round(float(np.mean([r[key] for r in rows])), 4)
                             for key in rows[0]} for name, rows in runs.items()}


def shot_patches(work: Path, decks: Sequence[str], judge: int, pool: int) -> dict[str, np.ndarray]:
    """Patches of the held-out decks cut from rendered table photos
    (``datasets.layouts.render_table_shots``, another renderer than :func:`camera_patch`:
    whole 1280x720 pictures through the camera's effects): the queries are every labelled
    index of the ``judge`` shots of seed 0 (the judge shots of ``scripts/bench_enrolment.py
    --rendered``), cut on its box; the support pool every labelled index of ``pool`` shots
    of seed 1 (its enrolment shots), on its box and on three jittered copies (as
    ``kiosk.vision.decks.enrolment`` cuts them). Only the euchre cards and 5s, which the shots
    deal. Cached in ``WORK/shots.npz``."""
    from datasets.layouts import render_table_shots

    meta = json.dumps({"decks": list(decks), "judge": judge, "pool": pool, "version": 1})
    path = work / "shots.npz"
    if path.exists():
        with np.load(path) as cached:
            if str(cached["meta"]) == meta:
                return {k: cached[k] for k in cached.files}
    started = time.monotonic()
    parts: dict[str, list[Any]] = {k: [] for k in ("q_x", "q_y", "q_deck", "s_x", "s_y", "s_deck")}
    for number, deck in enumerate(decks):
        rng = np.random.default_rng([7, number])
        for shot in render_table_shots(deck, 0, judge):
            for card, box in shot.labels:
                parts["q_x"].append(crop(shot.image, box, PATCH, MARGIN))
                parts["q_y"].append(LABEL_ID[card])
                parts["q_deck"].append(number)
        for shot in render_table_shots(deck, 1, pool):
            for card, box in shot.labels:
                for copy in range(4):
                    cut = box if copy == 0 else jitter(box, rng)
                    parts["s_x"].append(crop(shot.image, cut, PATCH, MARGIN))
                    parts["s_y"].append(LABEL_ID[card])
                    parts["s_deck"].append(number)
    arrays = {k: np.stack(v) if k.endswith("_x") else np.asarray(v, np.int16)
              for k, v in parts.items()}
    work.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays, meta=np.asarray(meta))  # type: ignore[arg-type]
    print(f"{path}: {len(arrays['q_y'])} query and {len(arrays['s_y'])} support patches "
          f"from rendered table shots, {time.monotonic() - started:.0f} s", flush=True)
    return arrays


def evaluate_shots(model, q_x: np.ndarray, q_y: np.ndarray, s_x: np.ndarray, s_y: np.ndarray,
                   shots: Sequence[int], draws: int, seed: int) -> dict[str, Any]:
    """One network on one held-out deck's table-shot patches: the head, prototypes over the
    classes the support shows (k patches each, fewer where the pool has fewer), and the
    kiosk's refit, which moves only the classes shown with their twin. Prototypes are
    judged on the queries of the classes the support shows (``proto_queries``), the head
    and the refit on all."""
    from kiosk.vision.decks.deck_profile import FitSettings, Head, fit_head

    qf, logits = features_and_logits(model, q_x)
    out: dict[str, Any] = {"queries": int(len(q_y)), "head": reading(q_y, logits.argmax(1))}
    shipped = Head(model[-1].weight.detach().numpy().T.copy(),
                   model[-1].bias.detach().numpy().copy(), LABELS)
    classes = np.unique(s_y)
    # prototypes can only name a class the support shows: they are judged on the queries
    # of those classes (the refit, whose other classes keep their weights, on all)
    covered = np.isin(q_y, classes)
    out["proto_queries"] = int(covered.sum())
    out["head_on_proto_queries"] = reading(q_y[covered], logits[covered].argmax(1))
    rng = np.random.default_rng(seed)
    for k in shots:
        runs: dict[str, list[dict[str, float]]] = {"proto_cosine": [], "refit": []}
        for _ in range(draws):
            chosen = np.concatenate([rng.choice(np.flatnonzero(s_y == c),
                                                min(k, int((s_y == c).sum())), replace=False)
                                     for c in classes])
            sf = turned_features(model, s_x[chosen])
            sy = np.tile(s_y[chosen], 4)
            means = np.stack([sf[sy == c].mean(0) for c in classes])
            unit = means / np.linalg.norm(means, axis=1, keepdims=True)
            qunit = qf[covered] / np.linalg.norm(qf[covered], axis=1, keepdims=True)
            runs["proto_cosine"].append(reading(q_y[covered],
                                                classes[(qunit @ unit.T).argmax(1)]))
            head = fit_head(sf, [LABELS[c] for c in sy], shipped, FitSettings())
            runs["refit"].append(reading(q_y, head.logits(qf).argmax(1)))
        out.update(averaged(runs, k))
    return out


def evaluate(args: argparse.Namespace, data: dict[str, Any]) -> int:
    """Shipped against fine-tuned on the held-out decks' patches; table and JSON."""
    import torch

    torch.set_num_threads(1)
    fine = args.weights or args.work / "episodic.pt"
    networks = {"shipped": SHIPPED_PT}
    if fine.exists():
        networks["fine-tuned"] = fine
    else:
        print(f"no fine-tuned weights at {fine}: the shipped network alone")
    decks = [str(d) for d in data["eval_decks"]]
    results: dict[str, Any] = {"shots": list(args.shots), "draws": args.draws,
                               "weights": {k: str(v) for k, v in networks.items()},
                               "decks": {}}
    if fine.exists():
        state = torch.load(fine, map_location="cpu")
        results["training"] = {k: state.get(k) for k in ("episode", "elapsed", "distance",
                                                          "train_decks", "minutes")}
    for number, deck in enumerate(decks):
        keep = data["eval_deck"] == number
        x, y = data["eval_x"][keep], data["eval_y"][keep].astype(np.int64)
        results["decks"][deck] = {
            name: evaluate_weights(load_network(path), x, y, args.shots, args.draws, args.seed)
            for name, path in networks.items()}
    if args.table_shots:
        shots = shot_patches(args.work, decks, args.judge_shots, args.pool_shots)
        results["table_shots"] = {"judge_shots": args.judge_shots, "pool_shots": args.pool_shots,
                                  "decks": {}}
        for number, deck in enumerate(decks):
            q, s = shots["q_deck"] == number, shots["s_deck"] == number
            results["table_shots"]["decks"][deck] = {
                name: evaluate_shots(load_network(path), shots["q_x"][q],
                                     shots["q_y"][q].astype(np.int64), shots["s_x"][s],
                                     shots["s_y"][s].astype(np.int64), args.shots,
                                     args.draws, args.seed)
                for name, path in networks.items()}
    out = args.work / "results.json"
    args.work.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print_table(results)
    if "table_shots" in results:
        print_table({**results["table_shots"], "shots": results["shots"],
                     "draws": results["draws"]},
                    "patches cut from rendered table shots of the held-out decks (euchre "
                    "cards and 5s; queries: seed-0 judge shots, supports: seed-1 shots)")
    print(f"\n{out}")
    return 0


def print_table(results: dict[str, Any], title: str = "the held-out decks' art patches "
                "(all 52 faces)") -> None:
    """accuracy / swaps per reading, one row per deck and network."""
    shots = results["shots"]
    columns = ["head"] + [f"{kind}_k{k}" for kind in ("proto_cosine", "refit") for k in shots]
    titles = ["head (no profile)"] + [f"{'proto' if kind == 'proto_cosine' else 'refit'} k={k}"
                                      for kind in ("proto_cosine", "refit") for k in shots]
    print(f"\naccuracy / same-colour swaps on {title}, {results['draws']} draws of the "
          "supports")
    print(f"{'deck':<15} {'network':<11} " + " ".join(f"{t:>15}" for t in titles))
    for deck, networks in results["decks"].items():
        for name, row in networks.items():
            cells = [f"{row[c]['accuracy']:.3f} / {100 * row[c]['swaps']:.1f}%" for c in columns]
            print(f"{deck:<15} {name:<11} " + " ".join(f"{c:>15}" for c in cells))
    print("(proto: nearest class mean, cosine; euclidean and rank accuracy in the JSON)")


# ------------------------------------------------------------------------------- export


def export(args: argparse.Namespace) -> int:
    """The fine-tuned weights as a candidate ONNX, checked beside the shipped file."""
    import onnxruntime as ort
    import torch
    from add_feature_output import add_feature_output
    from train_classifier import export as export_onnx

    torch.set_num_threads(1)
    fine = args.weights or args.work / "episodic.pt"
    if not fine.exists():
        raise UsageError(f"no fine-tuned weights at {fine}: run `train` first")
    out = args.work / "index_classifier.onnx"
    if out.resolve().is_relative_to((REPO / "models").resolve()):
        raise UsageError("the candidate is never written under models/")
    model = load_network(fine)
    export_onnx(model, list(LABELS), out, PATCH, MARGIN)
    add_feature_output(out)  # the export added them already: a no-op, said for the record
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    report: dict[str, Any] = {"candidate": str(out)}
    probe = np.random.default_rng(0).random((16, 3, PATCH, PATCH), dtype=np.float32)
    session = ort.InferenceSession(str(out), options, providers=["CPUExecutionProvider"])
    onnx_logits = session.run(["logits"], {session.get_inputs()[0].name: probe})[0]
    with torch.no_grad():
        torch_logits = model(torch.from_numpy(probe)).numpy()
    report["onnx_vs_torch_max_abs"] = float(np.abs(onnx_logits - torch_logits).max())
    print(f"exported {out}; ONNX against torch: {report['onnx_vs_torch_max_abs']:.2e}")
    from kiosk.vision.cards.index_classifier import IndexClassifier, to_blob

    if args.replay and args.replay.exists():
        with np.load(args.replay) as replay:
            val_x, val_y = replay["val_x"], replay["val_y"].astype(np.int64)
        report["synthetic_val"] = {}
        for name, path in (("shipped", SHIPPED_ONNX), ("candidate", out)):
            reader = IndexClassifier(path, threads=1)
            logits = np.concatenate([
                reader._session.run([reader._logits],
                                    {reader._input: to_blob(list(val_x[i:i + 512]))})[0]
                for i in range(0, len(val_x), 512)])
            faces = val_y < len(FACES)
            report["synthetic_val"][name] = {
                "patches": int(len(val_y)),
                "accuracy": round(float((logits.argmax(1) == val_y).mean()), 4),
                "faces_accuracy": round(float((logits.argmax(1) == val_y)[faces].mean()), 4),
                "faces_swaps": reading(val_y[faces], logits.argmax(1)[faces])["swaps"]}
            print(f"synthetic validation patches ({len(val_y)}), {name}: "
                  f"{report['synthetic_val'][name]}")
    try:
        from scripts.bench_leave_one_deck_out import REAL_DECKS, held_out, name_faces
    except ImportError as problem:
        print(f"real photos not checked: {problem}")
    else:
        report["real_photos"] = {}
        for deck in REAL_DECKS:
            try:
                photos = held_out(deck)
            except FileNotFoundError as problem:
                print(f"real photos not checked: {problem}")
                break
            for name, path in (("shipped", SHIPPED_ONNX), ("candidate", out)):
                summary = name_faces(path, photos, threads=1).summary()
                report["real_photos"].setdefault(deck, {})[name] = summary
                print(f"real held-out photos, {deck} deck, {name}: named right "
                      f"{summary['named_right']}, rank {summary['rank_right']}, swaps C/S "
                      f"{summary['swaps_CS']} H/D {summary['swaps_HD']} "
                      f"({summary['boxes']} indices)")
    (args.work / "export.json").write_text(json.dumps(report, indent=1))
    print(f"{args.work / 'export.json'}")
    return 0


# --------------------------------------------------------------------------------- main


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose every complaint is one line on stderr, then exit 2."""

    def error(self, message: str) -> Any:  # argparse's is NoReturn
        self.exit(2, f"{self.prog}: {message}\n")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=WORK,
                        help="where the patches, weights and results go (under var/)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--replay", type=Path, default=REPLAY,
                        help="scene patches for the head's cross-entropy and the synthetic "
                        "validation (datasets.index_crops' format); absent: none")
    sub = parser.add_subparsers(dest="command", required=True)
    commands = {name: sub.add_parser(name, help=text) for name, text in (
        ("patches", "make (or check) the cached patches"),
        ("train", "episodic fine-tuning (makes the patches first if needed)"),
        ("evaluate", "shipped against fine-tuned on the held-out decks"),
        ("all", "patches, train, evaluate"),
        ("export", "the fine-tuned weights as var/episodic/index_classifier.onnx, checked"))}
    for name in ("patches", "train", "evaluate", "all"):
        p = commands[name]
        p.add_argument("--decks", nargs="+", default=None,
                       help="training decks (default: usable_decks() + extra_training_decks())")
        p.add_argument("--per-class", type=positive_int, default=40,
                       help="patches of each face of each training deck")
        p.add_argument("--eval-per-class", type=positive_int, default=40,
                       help=f"patches of each face of each held-out deck (the first "
                       f"{SUPPORT_POOL} are the support pool)")
    for name in ("train", "all"):
        p = commands[name]
        p.add_argument("--minutes", type=float, default=60.0)
        p.add_argument("--resume", action="store_true", help="go on from the checkpoint")
        p.add_argument("--lr", type=float, default=5e-4)
        p.add_argument("--distance", choices=("cosine", "euclid"), default="cosine")
        p.add_argument("--pairs", type=positive_int, default=16,
                       help="twin pairs in an ordinary episode (of 26)")
        p.add_argument("--hard", type=float, default=0.35,
                       help="share of episodes of one colour only (clubs/spades or "
                       "hearts/diamonds)")
        p.add_argument("--max-shots", type=positive_int, default=5)
        p.add_argument("--queries", type=positive_int, default=2)
        p.add_argument("--twin-weight", type=float, default=0.5)
        p.add_argument("--ce-weight", type=float, default=0.5)
        p.add_argument("--replay-batch", type=int, default=96)
        p.add_argument("--print-seconds", type=float, default=60.0)
        p.add_argument("--save-seconds", type=float, default=300.0)
    for name in ("evaluate", "all", "export"):
        p = commands[name]
        p.add_argument("--weights", type=Path, default=None,
                       help="fine-tuned weights (default: WORK/episodic.pt)")
    for name in ("evaluate", "all"):
        p = commands[name]
        p.add_argument("--shots", type=positive_int, nargs="+", default=[1, 3, 5])
        p.add_argument("--draws", type=positive_int, default=5)
        p.add_argument("--table-shots", action=argparse.BooleanOptionalAction, default=True,
                       help="also judge on patches of rendered table shots (cached)")
        p.add_argument("--judge-shots", type=positive_int, default=30)
        p.add_argument("--pool-shots", type=positive_int, default=10)
    args = parser.parse_args(argv)
    if getattr(args, "minutes", 1.0) <= 0:
        parser.error("--minutes must be over 0")
    if not 0 <= getattr(args, "hard", 0.0) <= 1:
        parser.error("--hard is a share, 0 to 1")
    if any(k > SUPPORT_POOL for k in getattr(args, "shots", ())):
        parser.error(f"--shots at most {SUPPORT_POOL} (the support pool of each class)")
    if getattr(args, "eval_per_class", SUPPORT_POOL + 1) <= SUPPORT_POOL:
        parser.error(f"--eval-per-class must be over {SUPPORT_POOL} (the support pool)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse(argv)
    except SystemExit as stop:  # argparse's own message is already one usage line + error
        return int(stop.code or 0)
    try:
        if args.command == "export":
            return export(args)
        from datasets.cards_art import extra_training_decks, held_out_decks, usable_decks

        held = held_out_decks()
        if not held:
            raise UsageError("no held-out deck installed (kdegames-card-data-kf5)")
        decks = args.decks or [*usable_decks(), *extra_training_decks()]
        known = set(usable_decks()) | set(extra_training_decks())
        for deck in decks:
            if deck in held:
                raise UsageError(f"{deck} is a held-out deck: it is never trained on")
            if deck not in known:
                raise UsageError(f"no such training deck installed: {deck}")
        data = load_or_make_patches(args.work, decks, held, args.per_class,
                                    args.eval_per_class)
        if args.command == "patches":
            contact_sheet(data["x"][:: max(1, len(data["x"]) // 240)][:240],
                          args.work / "patches_train.png")
            contact_sheet(data["eval_x"][:: max(1, len(data["eval_x"]) // 240)][:240],
                          args.work / "patches_held_out.png")
            print(f"contact sheets in {args.work}")
            return 0
        if args.command in ("train", "all"):
            train(args, data)
        if args.command in ("evaluate", "all"):
            return evaluate(args, data)
        return 0
    except UsageError as problem:
        print(f"episodic_features: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
