"""`kiosk mat [-o FILE]`: write the printable play mat (PNG or PDF) with calibration markers.

Print it at its full size (default 75 cm square, in tiles if need be), lay it
in the middle of the table with SOUTH toward the tablet, and the kiosk finds
its four corner markers by itself. ``--check IMAGE`` looks for the markers in
a photo of the table and saves the calibration (``--save FILE``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kiosk.cli import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", default="play-mat.pdf", metavar="FILE",
                        help="file to write: .pdf or .png (default play-mat.pdf)")
    parser.add_argument("--size-cm", type=float, default=75.0, help="mat side in cm (default 75)")
    parser.add_argument("--dpi", type=int, default=150, help="resolution (default 150)")
    parser.add_argument("--check", metavar="IMAGE",
                        help="find the mat in a photo of the table instead of writing it")
    parser.add_argument("--view", choices=("overhead", "tablet"), default="overhead")
    parser.add_argument("--save", metavar="FILE", help="with --check: save the calibration here")


def run(args: argparse.Namespace) -> int:
    if args.check:
        return _check(args)
    from kiosk.vision.camera.mat import write_mat

    out = Path(args.output)
    if out.suffix.lower() not in (".pdf", ".png"):
        raise UsageError("the mat is written as .pdf or .png")
    if not 10 <= args.size_cm <= 200 or not 30 <= args.dpi <= 600:
        raise UsageError("--size-cm must be 10-200 and --dpi 30-600")
    try:
        write_mat(out, size_cm=args.size_cm, dpi=args.dpi)
    except OSError as problem:
        raise UsageError(f"cannot write {out}: {problem}") from None
    print(json.dumps({"mat": str(out), "size_cm": args.size_cm, "dpi": args.dpi}))
    return 0


def _check(args: argparse.Namespace) -> int:
    import cv2

    from kiosk.vision.camera.calibration import Calibration, CalibrationError

    image = cv2.imread(args.check, cv2.IMREAD_COLOR)
    if image is None:
        raise UsageError(f"cannot read image {args.check}")
    try:
        calibration = Calibration.from_image(image, view=args.view)
    except CalibrationError as problem:
        raise UsageError(str(problem)) from None
    if args.save:
        calibration.save(args.save)
    print(json.dumps({"markers": len(calibration.markers), "saved": args.save,
                      "calibration": calibration.to_json()}))
    return 0
