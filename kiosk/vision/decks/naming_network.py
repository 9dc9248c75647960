"""The naming networks as torch modules: built, loaded from their export, augmented as
they learn, and exported for ONNX Runtime.

Why in the kiosk package: a deep deck profile (``kiosk enrol --deep``,
:mod:`kiosk.vision.decks.deep_enrolment`) trains the index classifier itself on a table's own
deck, wherever the training extras are installed (the director's laptop, any PC), from
an installed kiosk as from the checkout; the training recipe (``models/train_classifier.py``)
uses the same definitions, so the network it ships and the one a deck refits are one
design. Torch is imported inside each function: the kiosk at the table never needs it.

The network reads a square patch (``crop()``'s) through six 3 x 3 convolutions with
batch norm, three halvings, an average pool and one linear layer; nothing in it fixes
the patch's side, so one design reads 32-pixel patches or larger ones.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch
    from torch import nn

#: the convolutions' output channels at width 1 (the shipped classifier, run 11)
CHANNELS = (32, 64, 64, 128, 128, 192)
#: the names of the outputs a deck profile reads (kiosk.vision.cards.index_classifier)
FEATURES = "features"
HEAD_WEIGHT, HEAD_BIAS = "head_weight", "head_bias"


def channels(width: float = 1.0) -> tuple[int, ...]:
    """The six convolutions' output channels at ``width`` times :data:`CHANNELS` (to
    multiples of 8, which the CPU's vector units like)."""
    return tuple(max(8, int(round(c * width / 8)) * 8) for c in CHANNELS)


#: the channels of the stem that reads a large patch at its full resolution
STEM_CHANNELS = 16


def build_network(classes: int, grid: int = 1, width: float = 1.0,
                  stem: bool = False) -> nn.Sequential:
    """Conv blocks 32-64-128-192 (times ``width``) over a square patch, average-pooled to
    a ``grid`` x ``grid`` map, one linear layer.

    ``grid`` 1 (the index classifier) is a global average: the index fills the patch, and
    where a stroke sits does not matter. The suit reader's wide patch holds the index's
    own card *and its neighbours*, so it keeps a 3 x 3 layout: the card whose corner is
    in the middle is the one to name.

    ``stem``: one more block and halving first, so a patch of twice the side (64 pixels)
    is read at the camera's own resolution, a club's three lobes and a spade's point
    still there, for about a fifth more work than the 32-pixel network.
    """
    from torch import nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    c1, c2, c3, c4, c5, c6 = channels(width)
    first: list[nn.Module] = []
    if stem:
        first = [*block(3, STEM_CHANNELS), nn.MaxPool2d(2)]
    return nn.Sequential(
        *first,
        *block(STEM_CHANNELS if stem else 3, c1), nn.MaxPool2d(2),
        *block(c1, c2), *block(c2, c3), nn.MaxPool2d(2),
        *block(c3, c4), *block(c4, c5), nn.MaxPool2d(2),
        *block(c5, c6),
        nn.AdaptiveAvgPool2d(grid), nn.Flatten(), nn.Dropout(0.2),
        nn.Linear(c6 * grid * grid, classes),
    )  # fmt: skip


def to_tensor(patches: np.ndarray) -> torch.Tensor:
    """BGR uint8 (N, H, W, 3) to RGB uint8 (N, 3, H, W), as ``index_classifier.to_blob``
    orders them (divide by 255 for the network's input)."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(patches[..., ::-1].transpose(0, 3, 1, 2)))


# -- loading an export ------------------------------------------------------------------


def export_tensors(model_bytes: bytes) -> tuple[dict[str, np.ndarray], list[Any], Any]:
    """An exported classifier's weights by name, its convolution nodes and its linear
    node (the ONNX graph parsed once)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load_model_from_string(model_bytes).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:  # the exporter may give a folded tensor as a Constant node
        if node.op_type == "Constant":
            value = next(a for a in node.attribute if a.name == "value")
            weights[node.output[0]] = numpy_helper.to_array(value.t)
        elif node.op_type == "Identity" and node.input[0] in weights:  # equal tensors shared
            weights[node.output[0]] = weights[node.input[0]]
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    return weights, convs, gemm


def network_from_export(model_bytes: bytes, patches: np.ndarray) -> nn.Sequential:
    """The torch network an ONNX export of :func:`build_network` computes, ready to learn
    on: its width and classes read from the export, every batch norm set from
    ``patches`` (:func:`load_export`)."""
    weights, convs, gemm = export_tensors(model_bytes)
    classes, features = (int(n) for n in weights[gemm.input[1]].shape)
    stem = len(convs) == len(CHANNELS) + 1
    width = int(weights[convs[int(stem)].input[1]].shape[0]) / CHANNELS[0]
    grid = round((features / channels(width)[-1]) ** 0.5)
    model = build_network(classes, grid, width, stem)
    load_export(model, weights, convs, gemm, patches)
    return model


def load_export(model: nn.Sequential, weights: Mapping[str, np.ndarray], convs: Sequence[Any],
                gemm: Any, patches: np.ndarray) -> None:
    """Put an export's tensors into ``model``, a network of the same width.

    The export folds each batch norm into its convolution (weight and bias). To train on
    from it, the fused convolution is loaded and each batch norm is set to reproduce the
    fused bias on real data: its scale and shift become the standard deviation and mean
    (plus bias) that the convolution's output has over a sample of ``patches``, so the
    network computes the same function in training mode as the export did.
    """
    import torch

    layers = list(model)
    conv_layers = [m for m in layers if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in layers if isinstance(m, torch.nn.BatchNorm2d)]
    if not len(convs) == len(conv_layers) == len(norms):
        raise ValueError("not this network's export")
    biases = []
    for node, conv in zip(convs, conv_layers, strict=True):
        conv.weight.data = torch.from_numpy(np.array(weights[node.input[1]]))
        biases.append(torch.from_numpy(np.array(weights[node.input[2]])))
    linear = layers[-1]
    assert isinstance(linear, torch.nn.Linear)
    linear.weight.data = torch.from_numpy(np.array(weights[gemm.input[1]]))
    linear.bias.data = torch.from_numpy(np.array(weights[gemm.input[2]]))
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
                assert layer.running_mean is not None and layer.running_var is not None
                layer.running_mean.data = mean.clone()
                layer.running_var.data = std.pow(2) - layer.eps
                norm_index += 1
            hidden = layer(hidden) if not isinstance(layer, torch.nn.Dropout) else hidden
            if isinstance(layer, torch.nn.Flatten):
                break


def grow_stem(narrow: nn.Sequential, wide: nn.Sequential, patches: np.ndarray) -> None:
    """Give ``wide`` (the same design with a stem, :func:`build_network` ``stem=True``)
    about the function ``narrow`` computes on patches of half the side, so a 64-pixel
    network starts where a trained 32-pixel one stands rather than from nothing.

    The stem's first three channels pass each colour through (a 2 x 2 box in the 3 x 3
    kernel, as a camera's pixels are summed when a picture is halved), its batch norm set
    to give them back unchanged on ``patches`` (64-pixel, BGR uint8), and the halving
    that follows keeps the brightest of four: close to the area shrink the 32-pixel
    network was trained on. The first block reads those three channels with the narrow
    network's first weights and the stem's other channels with nothing (they learn from
    there); every later layer is the narrow network's.
    """
    import torch

    old, new = list(narrow), list(wide)
    stem_conv, stem_norm = new[0], new[1]
    assert isinstance(stem_conv, torch.nn.Conv2d) and isinstance(stem_norm, torch.nn.BatchNorm2d)
    with torch.no_grad():
        stem_conv.weight.zero_()
        for band in range(3):
            stem_conv.weight[band, band, 1:, 1:] = 0.25
        stem_conv.weight[3:].normal_(0.0, 0.05)
        sample = np.random.default_rng(0).choice(len(patches), min(2048, len(patches)),
                                                  replace=False)
        hidden = stem_conv(to_tensor(patches[np.sort(sample)]).float() / 255)
        mean = hidden.mean(dim=(0, 2, 3))
        std = hidden.var(dim=(0, 2, 3)).add(stem_norm.eps).sqrt()
        stem_norm.weight.copy_(std)
        stem_norm.bias.copy_(mean)
        assert stem_norm.running_mean is not None and stem_norm.running_var is not None
        stem_norm.running_mean.copy_(mean)
        stem_norm.running_var.copy_(std.pow(2) - stem_norm.eps)
        first_old, first_new = old[0], new[4]
        assert isinstance(first_old, torch.nn.Conv2d) and isinstance(first_new, torch.nn.Conv2d)
        first_new.weight.zero_()
        first_new.weight[:, :3] = first_old.weight
        for a, b in zip(old[1:], new[5:], strict=True):
            b.load_state_dict(a.state_dict())


# -- exporting --------------------------------------------------------------------------


def export_bytes(model: nn.Module, labels: Sequence[str], patch: int, margin: float) -> bytes:
    """The network as ONNX bytes with a dynamic batch, the class names (``names``), the
    patch side (``patch``) and the crop's margin (``margin``) in the metadata, and the
    outputs a deck profile reads (:func:`add_feature_outputs`)."""
    import onnx
    import torch

    model.eval()
    dummy = torch.zeros(1, 3, patch, patch)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "network.onnx"
        torch.onnx.export(
            model, (dummy,), str(path), input_names=["patches"], output_names=["logits"],
            dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
            dynamo=False,
        )  # fmt: skip
        proto = onnx.load(str(path))
    for key, value in (("names", repr(list(labels))), ("patch", str(patch)),
                       ("margin", repr(margin))):
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    add_feature_outputs(proto)
    return bytes(proto.SerializeToString())


def add_feature_outputs(model: Any) -> bool:
    """Give an ONNX classifier (a ``ModelProto``, changed in place) two more outputs: the
    input of its last layer (:data:`FEATURES`) and that layer's weights and bias
    (:data:`HEAD_WEIGHT`, :data:`HEAD_BIAS`), which a deck profile reads and starts
    from. The first output is left as it was. False when they were there already."""
    import onnx

    if any(output.name == FEATURES for output in model.graph.output):
        return False
    heads = [n for n in model.graph.node if n.op_type == "Gemm"]
    if len(heads) != 1 or [a.i for a in heads[0].attribute if a.name == "transB"] != [1]:
        raise ValueError("expected one linear layer (Gemm, transB) as the head")
    weight, bias = heads[0].input[1], heads[0].input[2]
    shapes = {i.name: list(i.dims) for i in model.graph.initializer}
    for source, name, shape in ((heads[0].input[0], FEATURES, ["N", "D"]),
                                (weight, HEAD_WEIGHT, shapes[weight]),
                                (bias, HEAD_BIAS, shapes[bias])):
        model.graph.node.append(onnx.helper.make_node("Identity", [source], [name]))
        model.graph.output.append(
            onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, shape))
    onnx.checker.check_model(model)
    return True


# -- augmentation ------------------------------------------------------------------------


def augment(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Random quarter turns, brightness/contrast, grey, noise; per patch (N, 3, H, W)
    in 0..1."""
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


def augment_harder(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """:func:`augment`, then what a patch of an unseen scene differs by most where the
    classifier fails: a coarser picture (an index a few pixels smaller, or out of focus),
    a colour cast, and a finger or card edge over part of it. Each on a share of the
    patches, so clean patches stay in every batch."""
    out = augment(batch, generator)
    out = coarser(out, generator, share=0.25)
    out = blurred(out, generator, share=0.2)
    out = tinted(out, generator, share=0.3)
    return covered(out, generator, share=0.2)


def _chosen(n: int, share: float, generator: torch.Generator) -> torch.Tensor:
    import torch

    return torch.rand(n, generator=generator) < share


def coarser(batch: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """A share of the patches shrunk to 50-80 % of their side and blown up again: the
    same index drawn with fewer pixels, as a smaller card or a farther seat gives it."""
    import torch
    from torch.nn import functional

    chosen = _chosen(batch.shape[0], share, generator)
    if not chosen.any():
        return batch
    side = batch.shape[-1]
    small = max(4, int(side * float(torch.empty(1).uniform_(0.5, 0.8, generator=generator))))
    out = batch.clone()
    shrunk = functional.interpolate(batch[chosen], size=(small, small), mode="area")
    out[chosen] = functional.interpolate(shrunk, size=(side, side), mode="bilinear",
                                         align_corners=False)
    return out


def blurred(batch: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """A share of the patches out of focus: a Gaussian of 0.6-1.2 px (one per batch)."""
    import torch
    from torch.nn import functional

    chosen = _chosen(batch.shape[0], share, generator)
    if not chosen.any():
        return batch
    sigma = float(torch.empty(1).uniform_(0.6, 1.2, generator=generator))
    taps = torch.arange(-3, 4, dtype=batch.dtype)
    kernel = torch.exp(-(taps**2) / (2 * sigma**2))
    kernel = kernel / kernel.sum()
    bands = batch.shape[1]
    rows = kernel.view(1, 1, 1, 7).repeat(bands, 1, 1, 1)
    columns = kernel.view(1, 1, 7, 1).repeat(bands, 1, 1, 1)
    picked = functional.pad(batch[chosen], (3, 3, 3, 3), mode="replicate")
    picked = functional.conv2d(functional.conv2d(picked, rows, groups=bands), columns,
                               groups=bands)
    out = batch.clone()
    out[chosen] = picked
    return out


def tinted(batch: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """A share of the patches under coloured light: each channel times 0.75-1.25."""
    import torch

    chosen = _chosen(batch.shape[0], share, generator)
    gains = torch.empty(batch.shape[0], batch.shape[1], 1, 1).uniform_(0.75, 1.25,
                                                                      generator=generator)
    gains[~chosen] = 1.0
    return (batch * gains).clamp(0, 1)


def covered(batch: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
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
