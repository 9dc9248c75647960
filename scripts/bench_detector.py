"""Print the detector's targets: speed on a 1280x720 frame, and accuracy from the evaluation.

    .venv/bin/python scripts/bench_detector.py [--model models/cards.onnx] [--frames 60]

Speed: the whole ``Detector.detect`` call (letterbox, inference, decoding, NMS, and the
index classifier on every proposal) on a 1280x720 BGR frame, one process, median over
``--frames`` calls after a warm-up, for ONNX Runtime and OpenCV DNN, with and without the
second stage, full frame, a crop of the play area (the middle 720x720), and what the
kiosk's pipeline does with a tablet's frame (``pipeline.AreaDetector``: the calibrated
play area warped to a top-down square, then detected; the warp is included).
Accuracy: read from ``models/metrics.json`` (written by ``models/evaluate.py``); this
script does not re-run the evaluation. Targets are printed with PASS / FAIL; they are
not tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kiosk.vision.cards.detector import Detector  # noqa: E402


def frame() -> np.ndarray:
    """A 1280x720 test frame: a rendered table scene when the card art is there, else noise."""
    try:
        import cv2

        from datasets.scenes import render_scene

        scene = render_scene(2_000_000, size=720)
        table = cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR)
        return np.hstack([table[:, 280:], table, table[:, :280]])[:, :1280].copy()
    except Exception:  # no Debian decks on this machine: speed does not depend on content
        return np.random.default_rng(0).integers(0, 255, (720, 1280, 3), dtype=np.uint8)


def time_detect(detect: Callable[[np.ndarray], object], image: np.ndarray, frames: int) -> float:
    """Median milliseconds of ``detect(image)`` after a warm-up."""
    for _ in range(5):
        detect(image)
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        detect(image)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def network_inputs(
    detector: Detector, detect: Callable[[np.ndarray], object], image: np.ndarray
) -> str:
    """The YOLO input sizes one ``detect(image)`` call ran (a model of any input size is
    given the picture padded only to a margin: a square crop runs at 384x448)."""
    shapes: list[str] = []
    raw = detector.raw

    def recording(blob: np.ndarray) -> np.ndarray:
        shapes.append(f"{blob.shape[2]}x{blob.shape[3]}")
        return raw(blob)

    detector.raw = recording  # type: ignore[method-assign]
    try:
        detect(image)
    finally:
        del detector.raw
    return "+".join(shapes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "cards.onnx")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--metrics", type=Path, default=REPO / "models" / "metrics.json")
    parser.add_argument("--deck", type=Path, default=None,
                        help="read with this deck profile (kiosk enrol): its cost is in the "
                             "figures")
    args = parser.parse_args(argv)

    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.pipeline import AreaDetector

    image = frame()
    play_area = (280, 0, 1000, 720)
    tablet = Calibration.default("tablet", (1280, 720))
    results = {}
    for backend in ("onnxruntime", "opencv"):
        for stages, namer in (("two stages", "auto"), ("YOLO only", None)):
            detector = Detector(args.model, backend=backend, index_classifier=namer,
                                deck=args.deck if namer else None)
            if namer and detector.namer is None:
                continue
            cases: dict[str, Callable[[np.ndarray], object]] = {
                "full frame": detector.detect,
                "play-area crop 720x720": lambda img, d=detector: d.detect(img, roi=play_area),
                # what the kiosk does with a tablet's 720p frame (warp included)
                "tablet, warped top-down": AreaDetector(detector, tablet),
            }
            for label, detect in cases.items():
                ms = time_detect(detect, image, args.frames)
                results[(backend, stages, label)] = ms
                print(
                    f"speed {backend:11s} {stages:10s} {label:24s} input "
                    f"{network_inputs(detector, detect, image)}: "
                    f"{ms:6.1f} ms/frame = {1000 / ms:5.1f} fps"
                )
    # the target names a 1280x720 frame "including any crop of the play area": each path
    # the kiosk's chosen runtime takes must pass, so that a slower whole frame is not
    # hidden behind a fast crop (the best path alone passed while the whole frame ran at
    # 12.9 fps, 2026-11-27)
    chosen = {k[2]: ms for k, ms in results.items() if k[:2] == ("onnxruntime", "two stages")}
    for paths in (("full frame",), ("play-area crop 720x720", "tablet, warped top-down")):
        rates = [1000 / chosen[path] for path in paths if path in chosen]
        if not rates:
            continue
        shown = " / ".join(f"{rate:.1f}" for rate in rates)
        print(f"TARGET speed >= 15 fps, one process, {' and '.join(paths)}: {shown} fps",
              "PASS" if min(rates) >= 15 else "FAIL")
    # the Raspberry Pi 5's figure is predicted from a published ONNX Runtime benchmark of the
    # same runtime by scripts/bench_pi.py (models/README.md, "Speed on a Raspberry Pi")
    print("Raspberry Pi 5, predicted: python scripts/bench_pi.py")

    if not args.metrics.exists():
        print(f"no accuracy figures: run models/evaluate.py --out {args.metrics}")
        return 0
    metrics = json.loads(args.metrics.read_text())
    real = metrics.get("real_test", {})
    synth = metrics.get("synthetic_test", {})
    checks = [
        ("real photos: recall of euchre cards and 5s (cards) >= 0.95",
         real.get("recall_euchre_and_5s_cards"), lambda v: v >= 0.95),
        ("real photos: false detections per image <= 0.1",
         real.get("false_detections_per_image"), lambda v: v <= 0.1),
        ("synthetic held-out: mAP50 >= 0.98", synth.get("mAP50"), lambda v: v >= 0.98),
    ]  # fmt: skip
    for text, value, ok in checks:
        verdict = "n/a" if value is None else ("PASS" if ok(value) else "FAIL")
        print(f"TARGET {text}: {value} {verdict}")
    # the target counts cards (a card is found when any of its corners is); per corner
    # index is shown beside it, for what the boxes alone reach
    print(f"real photos: recall of euchre cards and 5s per index box (not a target): "
          f"{real.get('recall_euchre_and_5s_boxes')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
