"""Weights from ``models/train_naming_shapes.py`` read through the kiosk: each variant
exported as the kiosk's ONNX classifier, then its left-out real deck's held-out photos read
as ``scripts/bench_leave_one_deck_out.py`` reads them (the classifier stage on each
labelled face's own box, and the whole pipeline: the shipped proposals, this classifier,
no second opinions).

    python scripts/bench_naming_shapes.py runs/shapes/without-white.pt
    python scripts/bench_naming_shapes.py runs/shapes/ship.pt --deck white --deck black-gold

A ``without-DECK:KIND`` variant is read on DECK; a ``ship:KIND`` one on the decks given
(it learnt from both, so that is no leave-one-deck-out figure). The table goes to stdout,
the figures to ``WEIGHTS.judged.json``, each ONNX beside the weights. Bad input: one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))
sys.path.insert(0, str(REPO / "scripts"))

from bench_leave_one_deck_out import held_out, name_faces, read_whole  # noqa: E402

from datasets.real_photos import REAL_DECKS  # noqa: E402

#: issue 57's targets for a real deck never trained on, no enrolment: found, false an
#: image, same-colour swaps
TARGET_FOUND, TARGET_FALSE, TARGET_SWAPS = 0.90, 0.2, 0.01


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path, help="a .pt file train_naming_shapes wrote")
    parser.add_argument("--deck", action="append", choices=list(REAL_DECKS),
                        help="for ship: variants, the decks to read (default: both)")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.weights.is_file():
        print(f"no weights at {args.weights}", file=sys.stderr)
        return 2
    import torch
    from train_naming_shapes import export

    try:
        states = torch.load(args.weights, map_location="cpu")
    except Exception as problem:  # a file torch cannot read: say so in one line
        print(f"cannot read {args.weights}: {problem}", file=sys.stderr)
        return 2
    results: dict[str, dict[str, object]] = {}
    for name in states:
        left_out = name.split(":")[0].removeprefix("without-")
        decks = [left_out] if left_out in REAL_DECKS else (args.deck or list(REAL_DECKS))
        onnx = args.weights.with_name(name.replace(":", "-") + ".onnx")
        export(args.weights, name, onnx)
        for deck in decks:
            photos = held_out(deck)
            naming = name_faces(onnx, photos, args.threads).summary()
            whole = read_whole(onnx, photos, args.threads)
            results[f"{name} on {deck}"] = {"naming": naming, "pipeline": whole}
            print(f"{name:<28} {deck:<11} named {naming['named_right']:.3f} (of "
                  f"{naming['boxes']}) C/S {naming['swaps_CS']:.3f} H/D {naming['swaps_HD']:.3f}"
                  f" | found {whole['found']:.3f} false {whole['false_per_image']:.2f} "
                  f"swaps {whole['swaps']:.3f}", flush=True)
            if left_out in REAL_DECKS:
                met = [whole["found"] >= TARGET_FOUND, whole["false_per_image"] <= TARGET_FALSE,
                       whole["swaps"] <= TARGET_SWAPS]
                print(f"{'':<40} targets (found >= {TARGET_FOUND}, false <= {TARGET_FALSE}, "
                      f"swaps <= {TARGET_SWAPS}): "
                      + ", ".join("met" if m else "not met" for m in met))
    args.weights.with_suffix(".judged.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
