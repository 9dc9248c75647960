"""Time one YOLO training step on this machine's CPU, per torch thread count.

    .venv/bin/python scripts/bench_training_step.py [--threads 1 2] [--imgsz 384] [--batch 16]

Why: ultralytics trains on one fewer thread than the cores (one of two here), and a run's
epochs in its time box follow from the seconds a batch takes; this says what
``models/train.py --threads N`` buys before a run is planned. It times the forward and
backward pass of the model YAML the runs train (``yolov8n.yaml``, the card classes) on
random pictures: the part of a step that threads speed up (the loss and the optimizer add
a little; the data loading is cached in memory by the runs). Median of ``--repeats``
after one warm-up pass. Needs the training extras (torch, ultralytics); no weights.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def tensors(output: object) -> list:
    """Every tensor in a model's training output (a tensor, or lists and dicts of them,
    by ultralytics version), so the backward pass reaches every head."""
    import torch

    if isinstance(output, torch.Tensor):
        return [output]
    if isinstance(output, dict):
        output = list(output.values())
    if isinstance(output, (list, tuple)):
        return [part for item in output for part in tensors(item)]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--imgsz", type=int, default=384)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model", default="yolov8n.yaml", help="model YAML (never a .pt)")
    args = parser.parse_args(argv)
    if min(args.threads) < 1 or args.imgsz < 32 or args.batch < 1 or args.repeats < 1:
        print("--threads, --batch and --repeats must be 1 or more, --imgsz 32 or more",
              file=sys.stderr)
        return 2

    from models.train import offline_environment

    offline_environment()
    import torch
    from ultralytics.nn.tasks import DetectionModel

    from datasets.classes import CLASSES

    model = DetectionModel(args.model, nc=len(CLASSES), verbose=False)
    model.train()
    pictures = torch.rand(args.batch, 3, args.imgsz, args.imgsz)
    print(f"{args.model}, {len(CLASSES)} classes, batch {args.batch} at imgsz {args.imgsz}, "
          f"{os.cpu_count()} cores")
    for threads in args.threads:
        torch.set_num_threads(threads)
        seconds = []
        for _ in range(args.repeats + 1):
            start = time.perf_counter()
            sum(part.sum() for part in tensors(model(pictures))).backward()
            model.zero_grad(set_to_none=True)
            seconds.append(time.perf_counter() - start)
        step = statistics.median(seconds[1:])
        print(f"{threads} thread(s): {step:.2f} s a batch (forward and backward)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
