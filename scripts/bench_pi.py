"""Predict the kiosk's speed on a Raspberry Pi 5 from a published ONNX Runtime figure.

    .venv/bin/python scripts/bench_pi.py [--threads 2] [--every 1 2 3] [--int8]

The kiosk's cost a frame is measured here as `kiosk run` spends it on the demo: the
bundled tablet video (1280x720, 10 fps) read through the frame pipeline (the play area
warped top-down, the four networks with ONNX Runtime, the trick reader), with the
trained detector on ``--threads`` threads; and the tricks read are checked against the
video's ground truth.

The Pi is not here, so its figure is predicted from a published one for the same
runtime: Ultralytics' Raspberry Pi guide times YOLO11n (640x640, FP32) exported to ONNX
on a Raspberry Pi 5 with ONNX Runtime on the CPU (PUBLISHED_MS below). The same network
(built from ultralytics' yolo11n.yaml: the same layers and shapes; weights do not
change the time) is run here with ONNX Runtime between the kiosk's frames, so that both
are timed under the same load, and the Pi's time for a kiosk frame is its median here
times published / the reference's median here. Both use every core the machine has
(two here, four on the Pi: ONNX Runtime's default), which the kiosk gives its detector
only on a machine of one or two cores (``threads_beside_the_screen``: three on a Pi).
A camera's frame rate follows: kiosk/table/feed.py waits 1/15 s after each frame.

``--every N`` reads only every Nth frame of the demo, ``--index-pixels P`` cuts the play
area into fewer tiles (fewer YOLO passes a frame), ``--int8`` reads it with the YOLO
network quantised by ONNX Runtime's ``quantize_dynamic`` (weights in 8 bits): the faster
paths, each with the tricks it reads. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kiosk.commands.run import DEMO_VIDEO  # noqa: E402
from kiosk.vision.brief import HandBrief  # noqa: E402
from kiosk.vision.cards.detector import DEFAULT_MODEL, Detector  # noqa: E402
from kiosk.vision.pipeline import INDEX_PIXELS, FramePipeline  # noqa: E402

#: YOLO11n, 640x640, ONNX with ONNX Runtime (CPU, FP32), on a Raspberry Pi 5: the
#: "Inference time (ms/im)" of the ONNX row in Ultralytics' Raspberry Pi guide, as it
#: stands now and in its first YOLO11 edition (docs/en/guides/raspberry-pi.md in
#: ultralytics/ultralytics, "Raspberry Pi 5 YOLO11 Benchmarks")
SOURCE = "https://docs.ultralytics.com/guides/raspberry-pi/"
PUBLISHED_MS = {"now": 168.082, "first YOLO11 edition": 181.818}
#: the same table's NCNN row (not ONNX Runtime: the faster path, not the prediction)
PUBLISHED_NCNN_MS = {"now": 88.026, "first YOLO11 edition": 93.938}
WORK = REPO / "runs" / "bench-pi"


def reference_model(path: Path) -> Path:
    """YOLO11n at 640x640 as ONNX: built once from ultralytics' yolo11n.yaml (needs the
    training extras, torch and ultralytics; no download: the weights are the random ones
    of a new network, which take the same time)."""
    if path.is_file():
        return path
    os.environ.setdefault("YOLO_OFFLINE", "1")
    try:
        from ultralytics import YOLO
    except ImportError:
        raise SystemExit("no reference network: install the training extras "
                         "(pip install -e '.[train]') or pass --reference YOLO11N.onnx") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    here = Path.cwd()
    os.chdir(path.parent)
    try:
        made = path.parent / YOLO("yolo11n.yaml").export(format="onnx", imgsz=640,
                                                         verbose=False)
    finally:
        os.chdir(here)
    made.replace(path)
    return path


class Reference:
    """The reference network in ONNX Runtime, ONNX Runtime's default session but for the
    threads: one 1x3x640x640 run at a time, timed."""

    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])
        self.name = self.session.get_inputs()[0].name
        self.blob = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
        self.times: list[float] = []
        for _ in range(3):
            self.session.run(None, {self.name: self.blob})

    def run(self) -> None:
        start = time.perf_counter()
        self.session.run(None, {self.name: self.blob})
        self.times.append(1000 * (time.perf_counter() - start))


def read_demo(detector: Detector, reference: Reference, every: int = 1,
              reference_every: int = 4, index_pixels: float = INDEX_PIXELS) -> dict[str, Any]:
    """The demo video through the kiosk's frame pipeline, every ``every``-th frame, with
    a run of the reference network after every ``reference_every``-th frame read: both
    are timed under the same load (this machine is shared), and their ratio is what
    carries over to the Pi."""
    import cv2

    truth = json.loads(DEMO_VIDEO.with_name("demo-hand.truth.json").read_text())
    brief = HandBrief.from_json({k: truth[k] for k in ("leader", "trump", "sitting_out")})
    pipeline = FramePipeline(detector, view=truth["view"], brief=brief,
                             index_pixels=index_pixels)
    capture = cv2.VideoCapture(str(DEMO_VIDEO))
    rate = capture.get(cv2.CAP_PROP_FPS) or truth["fps"]
    index, t = 0, 0.0
    frame_ms: list[float] = []
    reference.times = []
    while True:
        ok, image = capture.read()
        if not ok:
            break
        t = index / rate
        if index % every == 0:
            start = time.perf_counter()
            pipeline(image, t)
            frame_ms.append(1000 * (time.perf_counter() - start))
            if len(frame_ms) % reference_every == 0:
                reference.run()
        index += 1
    capture.release()
    reader = pipeline.reader
    assert reader is not None
    reader.finish(t + every / rate)
    got = [[f"{s}:{c}" for s, c in trick] for trick in reader.all_tricks()]
    want = truth["record"]["tricks"]
    n = max(pipeline.frames, 1)
    return {"fps_read": round(rate / every, 2), "frames": pipeline.frames,
            "detector_ms_mean": round(1000 * pipeline.detector_seconds / n, 1),
            "reader_ms_mean": round(1000 * pipeline.reader_seconds / n, 1),
            "frame_ms_median": round(statistics.median(frame_ms), 1),
            "reference_ms_median": round(statistics.median(reference.times), 1),
            "tricks_exact": f"{sum(a == b for a, b in zip(want, got, strict=False))}"
                            f" of {len(want)}"}


def quantised(model: Path, out: Path) -> Path:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        quantize_dynamic(str(model), str(out), weight_type=QuantType.QUInt8)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="ONNX Runtime threads, here and for the reference (default: "
                             "every core, as the published figure ran)")
    parser.add_argument("--every", type=int, nargs="+", default=[1],
                        help="read every Nth frame of the demo (default: 1)")
    parser.add_argument("--index-pixels", type=float, nargs="*", default=[],
                        help="also read the demo with the play area cut into fewer tiles "
                             f"(the kiosk: {INDEX_PIXELS:g} pixels an index at the least)")
    parser.add_argument("--int8", action="store_true",
                        help="also read the demo with the YOLO network quantised to 8 bits")
    parser.add_argument("--reference", type=Path, default=WORK / "yolo11n-640.onnx",
                        help="YOLO11n 640x640 ONNX (built once when missing)")
    args = parser.parse_args(argv)

    reference = Reference(reference_model(args.reference), args.threads)
    detector = Detector(threads=args.threads)
    readings = {f"every {n}": read_demo(detector, reference, n) for n in args.every}
    for pixels in args.index_pixels:
        readings[f"index pixels {pixels:g}"] = read_demo(detector, reference,
                                                          index_pixels=pixels)
    if args.int8:
        small = quantised(DEFAULT_MODEL, WORK / "cards.int8.onnx")
        readings["int8, every 1"] = read_demo(Detector(small, threads=args.threads),
                                              reference)
    for reading in readings.values():
        ratio = reading["frame_ms_median"] / reading["reference_ms_median"]
        pi = [ratio * ms for ms in sorted(PUBLISHED_MS.values())]
        reading["pi5_frame_ms"] = [round(ms) for ms in pi]
        # kiosk/table/feed.py waits 1/15 s after each camera frame it reads
        reading["pi5_camera_fps"] = [round(1000 / (ms + 1000 / 15), 1) for ms in pi[::-1]]
    print(json.dumps({
        "threads": args.threads,
        "reference": "YOLO11n 640x640 ONNX, ONNX Runtime CPU FP32",
        "reference_ms_pi5_published": PUBLISHED_MS,
        "source": SOURCE,
        "demo": readings,
        "ncnn_pi5_published_ms": PUBLISHED_NCNN_MS,
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
