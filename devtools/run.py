"""`python -m devtools run`: the kiosk (`kiosk run`) with the oracle detector beside the
model: ``--detector oracle`` asks for it, and ``auto`` falls back to it on a video with
its ground truth beside it when the model is missing or too weak to read it."""

from __future__ import annotations

import argparse
from pathlib import Path

from devtools.oracle import OracleDetector
from kiosk.app.words import set_aside_words
from kiosk.commands import run as kiosk_run
from kiosk.table.camera import DetectorChoice, ModelSetAside, truth_beside


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kiosk_run.add_arguments(parser, detectors=("auto", "model", "oracle", "none"))


def run(args: argparse.Namespace) -> int:
    return kiosk_run.run(args, fallback=oracle_choice)


def oracle_choice(video: str | Path | None, wanted: str, set_aside: ModelSetAside | None
                  ) -> DetectorChoice | None:
    """``kiosk.table.camera.choose_detector``'s fallback: the oracle, for a video with its
    ground truth beside it, when the model is not used or 'oracle' is asked for."""
    if wanted not in ("auto", "oracle"):
        return None
    truth = truth_beside(video) if video is not None else None
    if truth is None:
        if wanted == "oracle":
            raise ValueError("the oracle detector needs VIDEO.truth.json beside the video")
        return None
    assert video is not None
    because = f" ({set_aside_words(set_aside)})" if set_aside is not None else ""
    return DetectorChoice(OracleDetector.beside(video), "oracle", set_aside=set_aside,
                          own_words=(f"Cards read by the ORACLE detector (the video's ground "
                                     f"truth plus detector noise), not the trained "
                                     f"model{because}.",
                                     "Cards read by the ORACLE detector (ground truth + "
                                     "noise), not the trained model."))
