"""Give an exported classifier two more outputs: its last convolution's map and last layer.

    python models/add_feature_output.py models/index_classifier.onnx

A deck profile (``kiosk/vision/decks/deck_profile.py``) learns a table's own deck from what the
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kiosk.vision.decks.naming_network import (  # noqa: E402
    FEATURES,  # noqa: F401  (the output's name, as the kiosk reads it)
    add_feature_outputs,
)


def add_feature_output(path: Path) -> bool:
    """Add the outputs to the ONNX file at ``path`` in place; False when they were there
    already."""
    import onnx

    model = onnx.load(str(path))
    try:
        if not add_feature_outputs(model):
            return False
    except ValueError as problem:
        raise SystemExit(f"{path}: {problem}") from None
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
