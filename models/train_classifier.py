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

from kiosk.vision.index_classifier import MARGIN, PATCH  # noqa: E402

CROPS = REPO / "datasets" / "generated" / "index_crops.npz"
OUT = REPO / "models" / "index_classifier.onnx"
#: weights to continue from (committed; ~1 MB)
CHECKPOINT = REPO / "models" / "checkpoint" / "index_classifier.pt"


#: the convolutions' output channels at width 1 (the shipped classifier, run 11)
CHANNELS = (32, 64, 64, 128, 128, 192)


def channels(width: float = 1.0) -> tuple[int, ...]:
    """The six convolutions' output channels at ``width`` times :data:`CHANNELS` (to
    multiples of 8, which the CPU's vector units like)."""
    return tuple(max(8, int(round(c * width / 8)) * 8) for c in CHANNELS)


def build_network(classes: int, grid: int = 1, width: float = 1.0):  # -> torch.nn.Module
    """Conv blocks 32-64-128-192 (times ``width``) over a 32 x 32 patch, average-pooled to
    a ``grid`` x ``grid`` map, one linear layer.

    ``grid`` 1 (the index classifier) is a global average: the index fills the patch, and
    where a stroke sits does not matter. The suit reader's wide patch holds the index's
    own card *and its neighbours*, so it keeps a 3 x 3 layout: the card whose corner is
    in the middle is the one to name.
    """
    from torch import nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    c1, c2, c3, c4, c5, c6 = channels(width)
    return nn.Sequential(
        *block(3, c1), nn.MaxPool2d(2),  # 16
        *block(c1, c2), *block(c2, c3), nn.MaxPool2d(2),  # 8
        *block(c3, c4), *block(c4, c5), nn.MaxPool2d(2),  # 4
        *block(c5, c6),
        nn.AdaptiveAvgPool2d(grid), nn.Flatten(), nn.Dropout(0.2),
        nn.Linear(c6 * grid * grid, classes),
    )  # fmt: skip


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


def augment(batch, generator):  # torch tensors (N, 3, H, W) in 0..1
    """Random quarter turns, brightness/contrast, grey, noise; per patch."""
    import torch

    n = batch.shape[0]
    turns = torch.randint(0, 4, (n,), generator=generator)
    out = batch.clone()
    for k in (1, 2, 3):
        chosen = turns == k
        if chosen.any():
            out[chosen] = torch.rot90(batch[chosen], k, dims=(2, 3))
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.4, generator=generator)
    brightness = torch.empty(n, 1, 1, 1).uniform_(-0.25, 0.25, generator=generator)
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    out = (out - mean) * contrast + mean + brightness
    grey = torch.rand(n, generator=generator) < 0.15
    out[grey] = out[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    noise = torch.rand(n, 1, 1, 1, generator=generator) * 0.06
    out = out + torch.randn(out.shape, generator=generator) * noise
    return out.clamp(0, 1)


def augment_harder(batch, generator):  # torch tensors (N, 3, H, W) in 0..1
    """:func:`augment`, then what a patch of an unseen scene differs by most where the
    classifier fails (run 11's misnamed validation faces): a coarser picture (an index a
    few pixels smaller, or out of focus), a colour cast, and a finger or card edge over
    part of it. Each on a share of the patches, so clean patches stay in every batch."""
    out = augment(batch, generator)
    out = coarser(out, generator, share=0.25)
    out = blurred(out, generator, share=0.2)
    out = tinted(out, generator, share=0.3)
    return covered(out, generator, share=0.2)


def _chosen(n: int, share: float, generator):  # -> torch.Tensor (bool, n)
    import torch

    return torch.rand(n, generator=generator) < share


def coarser(batch, generator, share: float):
    """A share of the patches shrunk to 50-80 % of their side and blown up again: the
    same index drawn with fewer pixels, as a smaller card or a farther seat gives it."""
    import torch
    from torch.nn import functional as F

    chosen = _chosen(batch.shape[0], share, generator)
    if not chosen.any():
        return batch
    side = batch.shape[-1]
    small = max(4, int(side * float(torch.empty(1).uniform_(0.5, 0.8, generator=generator))))
    out = batch.clone()
    shrunk = F.interpolate(batch[chosen], size=(small, small), mode="area")
    out[chosen] = F.interpolate(shrunk, size=(side, side), mode="bilinear", align_corners=False)
    return out


def blurred(batch, generator, share: float):
    """A share of the patches out of focus: a Gaussian of 0.6-1.2 px (one per batch)."""
    import torch
    from torch.nn import functional as F

    chosen = _chosen(batch.shape[0], share, generator)
    if not chosen.any():
        return batch
    sigma = float(torch.empty(1).uniform_(0.6, 1.2, generator=generator))
    taps = torch.arange(-3, 4, dtype=batch.dtype)
    kernel = torch.exp(-(taps**2) / (2 * sigma**2))
    kernel = kernel / kernel.sum()
    channels = batch.shape[1]
    rows = kernel.view(1, 1, 1, 7).repeat(channels, 1, 1, 1)
    columns = kernel.view(1, 1, 7, 1).repeat(channels, 1, 1, 1)
    picked = F.pad(batch[chosen], (3, 3, 3, 3), mode="replicate")
    picked = F.conv2d(F.conv2d(picked, rows, groups=channels), columns, groups=channels)
    out = batch.clone()
    out[chosen] = picked
    return out


def tinted(batch, generator, share: float):
    """A share of the patches under coloured light: each channel times 0.75-1.25."""
    import torch

    chosen = _chosen(batch.shape[0], share, generator)
    gains = torch.empty(batch.shape[0], batch.shape[1], 1, 1).uniform_(0.75, 1.25,
                                                                      generator=generator)
    gains[~chosen] = 1.0
    return (batch * gains).clamp(0, 1)


def covered(batch, generator, share: float):
    """A share of the patches with a flat block (a finger, a card's edge) over one side:
    12-24 % of the patch from one edge, in one flat colour. The crop's margin is 11.5 %
    a side (``MARGIN`` 1.3), so the block takes the margin and about an eighth of the
    index at most: the index still shows, and its label stays true."""
    import torch

    n, _, side, _ = batch.shape
    chosen = torch.nonzero(_chosen(n, share, generator)).flatten().tolist()
    out = batch.clone()
    for i in chosen:
        depth = int(side * float(torch.empty(1).uniform_(0.12, 0.24, generator=generator)))
        edge = int(torch.randint(0, 4, (1,), generator=generator))
        colour = torch.rand(3, 1, 1, generator=generator)
        if edge == 0:
            out[i, :, :depth, :] = colour
        elif edge == 1:
            out[i, :, side - depth:, :] = colour
        elif edge == 2:
            out[i, :, :, :depth] = colour
        else:
            out[i, :, :, side - depth:] = colour
    return out


def to_tensor(patches: np.ndarray):
    """BGR uint8 (N, H, W, 3) to RGB float (N, 3, H, W), as ``index_classifier.to_blob``."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(patches[..., ::-1].transpose(0, 3, 1, 2)))


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
    model = build_network(len(labels), args.grid, width)
    if args.init is not None:
        try:
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
    import onnx
    import torch
    from onnx import numpy_helper

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
    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    exported = int(weights[convs[0].input[1]].shape[0]) if convs else 0
    if convs and exported > model[0].out_channels:
        raise ValueError(f"{path} is a wider network than --width asks for")
    if convs and exported < model[0].out_channels:
        # a narrower network's export (``--width`` wider than it): rebuilt as it was,
        # warm-started from the export, then widened, as from a narrower saved state
        classes, features = (int(n) for n in weights[gemm.input[1]].shape)
        narrow = _network_of(classes, features, exported / CHANNELS[0])
        _load_export(narrow, weights, convs, gemm, patches)
        _widen_from(narrow, model, path)
        return
    _load_export(model, weights, convs, gemm, patches)


def _load_export(model, weights: dict, convs: list, gemm, patches: np.ndarray) -> None:
    """Put an export's tensors (``weights`` by name; its ``convs`` and ``gemm`` nodes, the
    file parsed once by :func:`warm_start`) into ``model``, a network of the same width,
    each batch norm set to reproduce its folded bias on a sample of ``patches``."""
    import torch

    layers = list(model)
    conv_layers = [m for m in layers if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in layers if isinstance(m, torch.nn.BatchNorm2d)]
    assert len(convs) == len(conv_layers) == len(norms), "not this network's export"
    biases = []
    for node, conv in zip(convs, conv_layers, strict=True):
        conv.weight.data = torch.from_numpy(weights[node.input[1]].copy())
        biases.append(torch.from_numpy(weights[node.input[2]].copy()))
    linear = layers[-1]
    linear.weight.data = torch.from_numpy(weights[gemm.input[1]].copy())
    linear.bias.data = torch.from_numpy(weights[gemm.input[2]].copy())
    sample = np.random.default_rng(0).choice(len(patches), min(4096, len(patches)), replace=False)
    with torch.no_grad():
        hidden = to_tensor(patches[np.sort(sample)]).float() / 255
        norm_index = 0
        for layer in layers:
            if isinstance(layer, torch.nn.BatchNorm2d):
                mean = hidden.mean(dim=(0, 2, 3))
                std = hidden.var(dim=(0, 2, 3)).add(layer.eps).sqrt()
                layer.weight.data = std.clone()
                layer.bias.data = mean + biases[norm_index]
                layer.running_mean.data = mean.clone()
                layer.running_var.data = std.pow(2) - layer.eps
                norm_index += 1
            hidden = layer(hidden) if not isinstance(layer, torch.nn.Dropout) else hidden
            if isinstance(layer, torch.nn.Flatten):
                break


def saved_width(path: Path) -> float | None:
    """The width of the network whose weights ``path`` holds (a ``.pt`` state saved by this
    trainer), so that training on from them needs no ``--width``; None for an export."""
    import torch

    if path.suffix != ".pt" or not path.exists():
        return None
    return _state_width(torch.load(path, map_location="cpu"))


def _state_width(state: dict) -> float | None:
    """A saved state's width: its first convolution's channels over :data:`CHANNELS`'."""
    first = state.get("0.weight")
    return None if first is None else first.shape[0] / CHANNELS[0]


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
    """ONNX with a dynamic batch, the class names (``names``), the patch side (``patch``)
    and the crop's margin (``margin``) in the metadata, and the outputs a deck profile
    reads (``models/add_feature_output.py``: the last layer's input and weights)."""
    import onnx
    import torch

    model.eval()
    dummy = torch.zeros(1, 3, patch, patch)
    torch.onnx.export(
        model, (dummy,), str(out), input_names=["patches"], output_names=["logits"],
        dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False,
    )  # fmt: skip
    proto = onnx.load(str(out))
    entry = proto.metadata_props.add()
    entry.key, entry.value = "names", repr(labels)
    entry = proto.metadata_props.add()
    entry.key, entry.value = "patch", str(patch)
    entry = proto.metadata_props.add()
    entry.key, entry.value = "margin", repr(margin)
    onnx.save(proto, str(out))
    from add_feature_output import add_feature_output

    add_feature_output(out)


if __name__ == "__main__":
    raise SystemExit(main())
