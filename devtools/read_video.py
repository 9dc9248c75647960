"""`python -m devtools read-video VIDEO`: `kiosk read-video` with the oracle detector
beside the model (``--detector oracle``: the boxes of the ground truth written beside a
rendered video, ``VIDEO.truth.json``, with a detector's usual failures injected, the
noise drawn from ``--seed``): for trying the reader without a trained model."""

from __future__ import annotations

import argparse
from pathlib import Path

from devtools.oracle import OracleDetector
from kiosk.cli import UsageError
from kiosk.commands import read_video as kiosk_read_video


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kiosk_read_video.add_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="noise seed for --detector oracle")


def run(args: argparse.Namespace) -> int:
    return kiosk_read_video.run(args, others={"oracle": oracle_beside})


def oracle_beside(video: Path, args: argparse.Namespace) -> OracleDetector:
    """``read-video --detector oracle``: the oracle for the video, noise from ``--seed``."""
    try:
        return OracleDetector.beside(video, seed=int(getattr(args, "seed", 0)))
    except (OSError, ValueError) as problem:
        raise UsageError(f"--detector oracle needs the truth file: {problem}") from None
