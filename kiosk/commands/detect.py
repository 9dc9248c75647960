"""`kiosk detect [--json] IMAGE...`: find the cards in image files (CONTRACTS.md).

With ``--json``: one JSON object per image and line,
``{"image": ..., "detections": [{"card", "confidence", "box": [x1, y1, x2, y2]}]}``.
Without: one readable line per image. Boxes are in the image's pixels and cover printed
corner indices (a face-down card: the whole card); see models/README.md. A photo whose
indices are small for its size is read again in tiles (kiosk.vision.photo_reading).

A missing or unreadable image or model: one line on standard error, exit status 2.
Every file is checked before any is read, so a missing file prints nothing on standard
output; a file that exists but turns out corrupt stops the run where it is met.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from kiosk.cli import UsageError


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
    import cv2

    from kiosk.vision.detector import Detector, ModelError
    from kiosk.vision.photo_reading import read_photo

    if args.deck and not Path(args.deck).is_file():
        raise UsageError(f"no such deck profile: {args.deck}")
    for name in args.images:
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such image file: {name}")
        if not cv2.haveImageReader(str(path)):
            raise UsageError(f"not an image file OpenCV can read: {name}")
    detector = None
    for name in args.images:
        with _c_stderr_silenced():  # libjpeg prints its own warnings on corrupt files
            image = cv2.imread(name, cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"cannot decode image (corrupt?): {name}")
        if detector is None:  # loaded after the first image proved readable
            try:
                options = {} if args.confidence is None else {"confidence": args.confidence}
                detector = Detector(args.model, backend=args.backend, deck=args.deck,
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


@contextlib.contextmanager
def _c_stderr_silenced() -> Iterator[None]:
    """Send C-level writes to file descriptor 2 to /dev/null for a moment."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no real descriptor 2 (embedded use): nothing to silence
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
