"""`kiosk detect [--json] IMAGE...`: find the cards in image files (CONTRACTS.md).

With ``--json``: one JSON object per image and line,
``{"image": ..., "detections": [{"card", "confidence", "box": [x1, y1, x2, y2]}]}``.
Without: one readable line per image. Boxes are in the image's pixels and cover printed
corner indices (a face-down card: the whole card); see models/README.md. A photo whose
indices are small for its size is read again in tiles (kiosk.vision.cards.photo_reading).

A missing or unreadable image or model: one line on standard error, exit status 2.
Every file is checked before any is read, so a missing file prints nothing on standard
output; a file that exists but turns out corrupt stops the run where it is met.
"""

from __future__ import annotations

import argparse
import json

from kiosk.cli import UsageError
from kiosk.commands.common import check_image_files, load_deck, read_image


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG...)")
    parser.add_argument("--json", action="store_true", help="print JSON Lines (CONTRACTS.md)")
    parser.add_argument(
        "--model", metavar="ONNX", help="exported model (default: models/cards.onnx)"
    )
    parser.add_argument(
        "--confidence", type=float, default=None,
        help="lowest confidence reported (default: the detector's operating point)",
    )
    parser.add_argument("--deck", metavar="DECK", help="read with this deck profile (kiosk enrol)")
    parser.add_argument(
        "--backend", choices=("auto", "onnxruntime", "opencv"), default="auto",
        help="inference runtime (default: ONNX Runtime when installed)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from kiosk.vision.cards.detector import Detector, ModelError
    from kiosk.vision.cards.photo_reading import read_photo

    deck = load_deck(args.deck)
    check_image_files(args.images)
    detector = None
    for name in args.images:
        image = read_image(name)
        if detector is None:  # loaded after the first image proved readable
            try:
                options = {} if args.confidence is None else {"confidence": args.confidence}
                detector = Detector(args.model, backend=args.backend, deck=deck,
                                    **options)
            except ModelError as problem:
                raise UsageError(str(problem)) from None
        found = read_photo(detector, image)
        if args.json:
            record = {"image": name, "detections": [d.to_json() for d in found]}
            print(json.dumps(record), flush=True)
        else:
            cards = ", ".join(f"{d.card} {d.confidence:.2f}" for d in found) or "no cards"
            print(f"{name}: {cards}", flush=True)
    return 0
