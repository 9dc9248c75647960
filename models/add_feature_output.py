"""Give an exported classifier two more outputs: its last convolution's map and last layer.

    python models/add_feature_output.py models/index_classifier.onnx

A deck profile (``kiosk/vision/deck_profile.py``) learns a table's own deck from what the
shipped networks see in each patch, the pooled output of their last convolution, which
their last (linear) layer reads (``features``), starting from that layer's own weights
(``head_weight``, ``head_bias``), without torch and without retraining the network. The
first output (``logits``) is left exactly as it was, so everything that reads the
classifier reads the same; ONNX Runtime computes that map anyway, so asking for it costs
nothing. Run once on an exported file (the training script's export, then this); a file
that already has the outputs is left alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: the names of the added outputs (``kiosk.vision.index_classifier``)
FEATURES = "features"
HEAD_WEIGHT, HEAD_BIAS = "head_weight", "head_bias"


def add_feature_output(path: Path) -> bool:
    """Add the output to the ONNX file at ``path`` in place; False when it was there already."""
    import onnx

    model = onnx.load(str(path))
    if any(output.name == FEATURES for output in model.graph.output):
        return False
    heads = [n for n in model.graph.node if n.op_type == "Gemm"]
    if len(heads) != 1 or [a.i for a in heads[0].attribute if a.name == "transB"] != [1]:
        raise SystemExit(f"{path}: expected one linear layer (Gemm, transB) as the head")
    weight, bias = heads[0].input[1], heads[0].input[2]
    shapes = {i.name: list(i.dims) for i in model.graph.initializer}
    for source, name, shape in ((heads[0].input[0], FEATURES, ["N", "D"]),
                                (weight, HEAD_WEIGHT, shapes[weight]),
                                (bias, HEAD_BIAS, shapes[bias])):
        model.graph.node.append(onnx.helper.make_node("Identity", [source], [name]))
        model.graph.output.append(
            onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, shape))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", type=Path, metavar="ONNX")
    args = parser.parse_args()
    for path in args.models:
        added = add_feature_output(path)
        print(f"{path}: {'features output added' if added else 'already has it'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
