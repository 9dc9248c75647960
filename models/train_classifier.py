"""Train the index classifier (the detector's second stage) and export it to ONNX.

    python -m datasets.index_crops                        # the patches, ~3 min
    python models/train_classifier.py --minutes 12        # -> models/index_classifier.onnx

A small convolutional network reads a 32 x 32 patch around a proposed box and names the
card index in it (52 faces, ``back``) or says ``none``. Small on purpose: a few million
multiply-adds per patch, so a frame's dozen proposals cost about a millisecond, and it
trains in minutes on two CPU cores. Augmentation on the fly: quarter turns (cards lie at
every angle; a quarter-turned square patch is still a true patch), brightness, contrast,
colour loss and noise; with ``--harder`` also coarser, blurred, tinted and partly covered
patches (:func:`augment_harder`: the classifier had learnt its training scenes, 0.99 of
their faces named right against 0.94-0.95 held out). The schedule is time-boxed
(one-cycle cosine over the minutes given).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kiosk.vision.cards.index_classifier import MARGIN, PATCH  # noqa: E402
from kiosk.vision.decks.naming_network import (  # noqa: E402,F401  (the recipe's names, kept here)
    CHANNELS,
    augment,
    augment_harder,
    blurred,
    build_network,
    channels,
    coarser,
    covered,
    export_bytes,
    export_tensors,
    grow_stem,
    load_export,
    tinted,
    to_tensor,
)

CROPS = REPO / "datasets" / "generated" / "index_crops.npz"
OUT = REPO / "models" / "index_classifier.onnx"
#: weights to continue from (committed; ~1 MB)
CHECKPOINT = REPO / "models" / "checkpoint" / "index_classifier.pt"


def widen(narrow, wide, noise: float = 0.0, seed: int = 0) -> None:
    """Give ``wide`` (the same network with more channels) the function ``narrow``
    computes: each new channel copies one of the old channels of its layer, and the layer
    after it divides that channel's weights among the copies (Net2WiderNet, Chen et al.
    2016). Batch norm is per channel, so its statistics are copied too and the two
    networks give the same logits, in training as at run time.

    Why: classifier runs 6-13 show the 0.5 M-parameter network at a plateau (more epochs
    and more data left it level), and a wider one trained from scratch would need the
    hours the narrow one has had. Widened, it starts where the narrow one stopped and
    trains on with the room to learn more. ``noise`` (relative to each weight tensor's
    spread) breaks the copies' symmetry so they can learn apart.
    """
    import torch
    from torch import nn

    generator = torch.Generator().manual_seed(seed)
    old_layers, new_layers = list(narrow), list(wide)
    mapping: torch.Tensor | None = None  # new input channel -> old input channel
    counts: torch.Tensor | None = None  # copies of each old input channel
    with torch.no_grad():
        for old, new in zip(old_layers, new_layers, strict=True):
            if isinstance(old, nn.Conv2d):
                weight = old.weight
                if mapping is not None and counts is not None:
                    weight = weight[:, mapping] / counts[mapping].view(1, -1, 1, 1)
                out_old, out_new = old.out_channels, new.out_channels
                extra = torch.randint(0, out_old, (out_new - out_old,), generator=generator)
                out_map = torch.cat([torch.arange(out_old), extra])
                new.weight.copy_(weight[out_map])
                if noise:
                    spread = float(weight.std())
                    new.weight.add_(torch.randn(new.weight.shape, generator=generator)
                                    * noise * spread)
                mapping = out_map
                counts = torch.bincount(out_map, minlength=out_old).float()
            elif isinstance(old, nn.BatchNorm2d):
                assert mapping is not None
                for name in ("weight", "bias", "running_mean", "running_var"):
                    getattr(new, name).copy_(getattr(old, name)[mapping])
            elif isinstance(old, nn.Linear):
                assert mapping is not None and counts is not None
                cells = old.in_features // len(counts)  # grid x grid cells per channel
                columns = (mapping.view(-1, 1) * cells + torch.arange(cells)).reshape(-1)
                scale = counts[mapping].repeat_interleave(cells)
                new.weight.copy_(old.weight[:, columns] / scale)
                new.bias.copy_(old.bias)


def accuracy(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    model.eval()
    correct = 0
    with torch.no_grad():
        for start in range(0, len(y), 1024):
            batch = to_tensor(x[start : start + 1024]).float() / 255
            correct += int((model(batch).argmax(1).numpy() == y[start : start + 1024]).sum())
    model.train()
    return correct / max(len(y), 1)


def _margin(patches: Any) -> float:
    """The crop margin a patch file was cut with (files from before it was saved: the
    run-time one)."""
    return float(patches["margin"]) if "margin" in patches else MARGIN


def load_patches(files: list[Path]) -> dict[str, np.ndarray]:
    """The patch files as one (all in memory: a file may be rebuilt meanwhile): the
    training patches of all, the validation patches, classes and margin of the first.

    Several files let the extra scenes be cut in one process per core
    (``datasets.index_crops --only-more K/N``); patches cut for other classes, another
    margin or another side would teach the network something else, so they are refused.
    """
    with np.load(files[0]) as archive:
        data = {key: archive[key] for key in archive.files}
    parts_x, parts_y = [data["x"]], [data["y"]]
    for file in files[1:]:
        with np.load(file) as archive:
            if not np.array_equal(archive["labels"], data["labels"]):
                raise ValueError(f"{file} has other classes than {files[0]}")
            if _margin(archive) != _margin(data):
                raise ValueError(f"{file} was cut with margin {_margin(archive)}, "
                                 f"{files[0]} with {_margin(data)}")  # fmt: skip
            if archive["x"].shape[1:] != data["x"].shape[1:]:
                raise ValueError(f"{file} has {archive['x'].shape[1]}-pixel patches, "
                                 f"{files[0]} {data['x'].shape[1]}-pixel")  # fmt: skip
            parts_x.append(archive["x"])
            parts_y.append(archive["y"])
    if len(files) > 1:
        data["x"], data["y"] = np.concatenate(parts_x), np.concatenate(parts_y)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--crops", type=Path, action="append",
        help="a patch file (datasets.index_crops; default: its --out); given again, the "
        "files' training patches are learnt together, validated on the first's",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--minutes", type=float, default=12.0)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--init", type=Path, help="continue from these weights (.pt state, or an exported .onnx)"
    )
    parser.add_argument("--checkpoint", type=Path, default=CHECKPOINT, help="save weights here")
    parser.add_argument("--grid", type=int, default=1,
                        help="pool to a grid x grid map (3 for the suit reader's wide patches)")
    parser.add_argument("--harder", action="store_true",
                        help="augment harder (coarser, blurred, tinted, partly covered "
                        "patches; augment_harder): the shipped run 11 and run 21 trained "
                        "without")
    parser.add_argument("--stem", action="store_true",
                        help="a stem block that reads a large patch (64 px) at full "
                        "resolution before the 32-pixel design (naming_network.build_network)")
    parser.add_argument("--width", type=float, default=None,
                        help="channels times this (default: the --init weights' width, else "
                        "1); --init from a narrower network widens it (the same function to "
                        "start with, room to learn more)")
    args = parser.parse_args(argv)
    files = args.crops or [CROPS]
    for crops in files:
        if not crops.exists():
            print(f"no patches at {crops}: run `python -m datasets.index_crops`", file=sys.stderr)
            return 2
    try:
        data = load_patches(files)
    except ValueError as problem:
        print(f"cannot train on these patches: {problem}", file=sys.stderr)
        return 2
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    x, y = data["x"], data["y"].astype(np.int64)
    labels = [str(v) for v in data["labels"]]
    patch = int(x.shape[1])  # the patches' side (PATCH unless index_crops was told --patch)
    margin = _margin(data)
    assert x.shape[1:] == (patch, patch, 3), f"patches are {x.shape[1:]}, not square"
    width = args.width or (saved_width(args.init) if args.init else None) or 1.0
    model = build_network(len(labels), args.grid, width, args.stem)
    if args.init is not None:
        try:
            if args.stem and not _has_stem(args.init):
                # a 32-pixel network's weights: the stem grows in front of them
                narrow = build_network(len(labels), args.grid, width)
                warm_start(narrow, args.init, _halved(x))
                grow_stem(narrow, model, x)
            else:
                warm_start(model, args.init, x)
        except ValueError as problem:
            print(f"cannot continue from {args.init}: {problem}", file=sys.stderr)
            return 2
        print(f"continuing from {args.init}")
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator().manual_seed(0)
    rng = np.random.default_rng(0)
    augmenter = augment_harder if args.harder else augment
    budget = args.minutes * 60
    start = time.monotonic()
    epoch = seen = 0
    print(f"{len(y)} training patches, {len(data['val_y'])} validation, {len(labels)} classes")
    while time.monotonic() - start < budget:
        epoch += 1
        order = rng.permutation(len(y))
        total = 0.0
        for first in range(0, len(order), args.batch):
            progress = min((time.monotonic() - start) / budget, 1.0)
            for group in optimizer.param_groups:  # one-cycle: short warm-up, cosine down
                warm = min(progress / 0.03, 1.0)
                group["lr"] = args.lr * warm * 0.5 * (1 + math.cos(math.pi * progress))
            chosen = order[first : first + args.batch]
            batch = augmenter(to_tensor(x[chosen]).float() / 255, generator)
            loss = loss_fn(model(batch), torch.from_numpy(y[chosen]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(chosen)
            seen += len(chosen)
            if progress >= 1.0:
                break
        val = accuracy(model, data["val_x"], data["val_y"].astype(np.int64))
        elapsed = time.monotonic() - start
        print(
            f"epoch {epoch}: loss {total / len(order):.4f}, synthetic val accuracy {val:.4f}, "
            f"{elapsed / 60:.1f} min, {seen / elapsed:.0f} patches/s",
            flush=True,
        )
        # every epoch, so a stopped run leaves weights to continue from (--init)
        args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), args.checkpoint)
    export(model, labels, args.out, patch, margin)
    print(
        f"exported {args.out} ({args.out.stat().st_size / 1e6:.2f} MB), weights {args.checkpoint}"
    )
    return 0


def warm_start(model, path: Path, patches: np.ndarray) -> None:
    """Load weights from a saved state, or from an exported ONNX model.

    A saved state of a network with another head (the index classifier's weights for the
    suit reader, whose 3 x 3 grid and four suits change only the last layer) gives its
    convolutions: the strokes of a printed suit are what both networks look for.

    The export folds each batch norm into its convolution (weight and bias). To train on
    from it, the fused convolution is loaded and each batch norm is set to reproduce the
    fused bias on real data: its scale and shift become the standard deviation and mean
    (plus bias) that the convolution's output has over a sample of patches, so the network
    computes the same function in training mode as the export did.
    """
    import torch

    if path.suffix == ".pt":
        state = torch.load(path, map_location="cpu")
        narrow = _narrower(model, state)
        if narrow is not None:
            _widen_from(narrow, model, path)
            return
        own = model.state_dict()
        fitting = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
        if not any(k.endswith(".weight") and own[k].dim() == 4 for k in fitting):
            raise ValueError(f"{path} holds no convolution of this network")
        if len(fitting) < len(own):
            # another head (the suit reader's 3 x 3 grid and four suits, started from the
            # index classifier): the convolutions carry over, the head starts afresh
            print(f"{len(own) - len(fitting)} tensors not in {path.name} or shaped "
                  "differently start afresh: " + ", ".join(k for k in own if k not in fitting))
        model.load_state_dict(fitting, strict=False)
        return
    weights, convs, gemm = export_tensors(path.read_bytes())
    exported = int(weights[convs[0].input[1]].shape[0]) if convs else 0
    if convs and exported > model[0].out_channels:
        raise ValueError(f"{path} is a wider network than --width asks for")
    if convs and exported < model[0].out_channels:
        # a narrower network's export (``--width`` wider than it): rebuilt as it was,
        # warm-started from the export, then widened, as from a narrower saved state
        classes, features = (int(n) for n in weights[gemm.input[1]].shape)
        narrow = _network_of(classes, features, exported / CHANNELS[0])
        load_export(narrow, weights, convs, gemm, patches)
        _widen_from(narrow, model, path)
        return
    load_export(model, weights, convs, gemm, patches)


def _has_stem(path: Path) -> bool:
    """Whether saved weights (a ``.pt`` state) are of the design with a stem."""
    import torch

    if path.suffix != ".pt":
        return False
    return len(_convolutions(torch.load(path, map_location="cpu"))) == len(CHANNELS) + 1


def _halved(patches: np.ndarray) -> np.ndarray:
    """Patches shrunk to half their side (area), as the 32-pixel network saw them."""
    import cv2

    side = patches.shape[1] // 2
    return np.stack([cv2.resize(p, (side, side), interpolation=cv2.INTER_AREA)
                     for p in patches[:4096]])


def saved_width(path: Path) -> float | None:
    """The width of the network whose weights ``path`` holds (a ``.pt`` state saved by this
    trainer), so that training on from them needs no ``--width``; None for an export."""
    import torch

    if path.suffix != ".pt" or not path.exists():
        return None
    return _state_width(torch.load(path, map_location="cpu"))


def _state_width(state: dict) -> float | None:
    """A saved state's width: its first convolution's channels over :data:`CHANNELS`'."""
    convs = _convolutions(state)
    if not convs:
        return None
    first = convs[1] if len(convs) == len(CHANNELS) + 1 else convs[0]  # past a stem
    return first.shape[0] / CHANNELS[0]


def _convolutions(state: dict) -> list:
    """A saved state's convolution weights, in the network's order."""
    return [v for _, v in sorted((int(k.split(".")[0]), v) for k, v in state.items()
                                 if k.endswith(".weight") and v.dim() == 4)]


def _narrower(model, state: dict):  # -> torch.nn.Module | None
    """The saved network rebuilt, when ``state`` is ``model``'s design with fewer channels
    and the same classes (then :func:`widen` gives its function to ``model``); else None."""
    width = _state_width(state)
    head = [k for k in state if k.endswith(".weight") and state[k].dim() == 2]
    if width is None or len(head) != 1 or state["0.weight"].shape[0] >= model[0].out_channels:
        return None
    classes, features = state[head[0]].shape
    if classes != model[-1].out_features:
        return None
    narrow = _network_of(classes, features, width)
    narrow.load_state_dict(state)
    return narrow


def _widen_from(narrow, model, path: Path) -> None:
    """Widen ``narrow`` (rebuilt from ``path``, a saved state or an export) into
    ``model``, saying so: a run that was asked to be wider must not quietly stay narrow."""
    print(f"widening {path.name}: {narrow[0].out_channels} -> {model[0].out_channels} "
          "channels in the first layer")
    widen(narrow, model, noise=0.01)


def _network_of(classes: int, features: int, width: float):  # -> torch.nn.Module
    """A fresh network of ``width`` whose last layer maps ``features`` inputs to
    ``classes`` (the pooling grid follows: features are the last channels times the grid's
    cells), to load a saved state or an export into before widening it."""
    grid = round((features / channels(width)[-1]) ** 0.5)
    return build_network(classes, grid, width)


def export(
    model, labels: list[str], out: Path, patch: int = PATCH, margin: float = MARGIN
) -> None:
    """ONNX with a dynamic batch, the class names, the patch side and the crop's margin
    in the metadata, and the outputs a deck profile reads
    (``kiosk.vision.decks.naming_network.export_bytes``)."""
    out.write_bytes(export_bytes(model, labels, patch, margin))


if __name__ == "__main__":
    raise SystemExit(main())
