"""`python -m devtools render-hand [RECORD] -o VIDEO`: render a video of a hand record
being played.

A development tool, not the kiosk's: the renderer (``datasets/handvideo.py``, which
reuses the detector's card art and scene code) is training and test tooling, found
beside this package in a source checkout. It writes the video and, beside it,
``VIDEO.truth.json``: the record, when each card came to rest, when each trick was
turned, the corner boxes visible in every frame, the true table corners. Same record
and seed, same video.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kiosk.cli import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", nargs="?", metavar="RECORD",
                        help="hand record (JSON); omitted: a random hand from --seed")
    parser.add_argument("-o", "--output", required=True, metavar="VIDEO",
                        help="video to write (.mp4 or .avi)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--view", choices=("overhead", "tablet"), default="overhead")
    parser.add_argument("--fps", type=float, default=12.0, help="frames per second (default 12)")
    parser.add_argument("--size", metavar="WxH", help="picture size (default by view)")
    parser.add_argument("--mat", action="store_true", help="lay the printed play mat on the table")
    parser.add_argument("--alone", action="store_true", help="random hand: a lone hand")
    parser.add_argument("--calm", action="store_true",
                        help="no take-backs, nudges, passing hands or glare")
    parser.add_argument("--kitty", action="store_true",
                        help="the deal's kitty beside the dealer, its turn-up face up until "
                             "it is ordered up or turned down")


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from datasets import handvideo as hv

    out = Path(args.output)
    if out.suffix.lower() not in (".mp4", ".avi"):
        raise UsageError("the video must end in .mp4 or .avi")
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            raise UsageError(f"--size must look like 640x360, not {args.size!r}") from None
        size = (w, h)
    if args.record:
        try:
            record = json.loads(Path(args.record).read_text(encoding="utf-8"))
            hv.contract_of(record)
        except (OSError, ValueError, KeyError) as problem:
            raise UsageError(f"cannot use record {args.record}: {problem}") from None
    else:
        record = hv.random_hand(np.random.default_rng(args.seed), alone=args.alone or None)
    tricks = hv.Tricks(0, 0, 0, 0) if args.calm else hv.Tricks()
    try:
        truth = hv.render_hand(record, out, seed=args.seed, view=args.view, fps=args.fps,
                               size=size, mat=args.mat, tricks=tricks, kitty=args.kitty)
    except (RuntimeError, ValueError) as problem:
        raise UsageError(str(problem)) from None
    print(json.dumps({"video": str(out), "truth": str(hv.truth_path(out)),
                      "frames": len(truth["frames"]), "seconds": truth["duration"],
                      "view": truth["view"], "deck": truth["deck"],
                      "tricky": sorted({e["kind"] for e in truth["events"]})}))
    return 0
