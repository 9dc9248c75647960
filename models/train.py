"""Train the card detector with ultralytics on the CPU, offline, from the model YAML.

    python models/train.py                       # new run, ~1.8 h (time-boxed schedule)
    python models/train.py --hours 3             # new run with another time box
    python models/train.py --resume              # continue: see below
    python models/train.py --smoke DATA.yaml     # one tiny epoch (used by the tests)
    python models/train.py --resume --threads 2  # both cores (ultralytics takes one of two)

The proposal network (two classes, ``index`` and ``back``; ``python -m datasets.proposals``
writes its data) starts from the card model's weights, all but the class head::

    python models/train.py --name proposals --data datasets/generated/proposals.yaml \
        --init models/checkpoint/last.pt --hours 1.4
    python models/train.py --name proposals --data ... --resume   # continue it

Run it in the background and keep the log::

    nohup .venv/bin/python models/train.py > runs/train.log 2>&1 &

``--resume`` takes the newest ``runs/cards*/weights/last.pt``. If that run was interrupted
(its checkpoint still holds the optimizer) it is resumed with ultralytics' own resume
(same optimizer, epoch and schedule; in time mode the time box restarts). If it had
finished, or only the committed ``models/checkpoint/last.pt`` is there (a fresh clone),
a new time-boxed run ``runs/cards-ftN`` starts *from those weights* (a fine-tune at a
lower learning rate). Either way the data must exist first: ``python -m datasets.generate``
(deterministic, so a later session regenerates exactly the same scenes).

Why these settings (see models/README.md for the measurements):
- no downloaded weights: the network is built from ``yolov8n.yaml``; ``YOLO_OFFLINE``, a
  local config dir and a local font stop ultralytics fetching anything;
- ``time`` instead of ``epochs``: after each epoch ultralytics re-fits the epoch count and
  learning-rate schedule to the time box, so the run ends annealed when time is up;
- no flips or rotation augmentation: a mirrored index is not a card, and rotating a box
  makes it loose; the scenes already lie at every angle;
- AdamW, 1 warm-up epoch (a from-scratch run only gets ~20 epochs here);
- strong colour augmentation on top of the generator's own camera effects.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ultralytics import YOLO

REPO = Path(__file__).resolve().parent.parent
RUNS = REPO / "runs"
RUN_NAME = "cards"
CHECKPOINT = REPO / "models" / "checkpoint" / "last.pt"
DATA = REPO / "datasets" / "generated" / "cards.yaml"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def offline_environment(config_dir: Path = RUNS / "yolo_config") -> None:
    """Point ultralytics at a local, writable config dir with a font, and forbid downloads.

    Must run before ``import ultralytics``.
    """
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ.setdefault("OMP_NUM_THREADS", str(os.cpu_count() or 2))
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (font_dir / name).exists() and FONT.exists():
            shutil.copy(FONT, font_dir / name)


def train_args(imgsz: int, hours: float, batch: int) -> dict[str, object]:
    """The training settings shared by new runs and fine-tunes."""
    return {
        "imgsz": imgsz,
        "time": hours,
        "epochs": 1000,  # ignored in time mode, but bounds the first schedule estimate
        "batch": batch,
        "device": "cpu",
        "workers": 2,
        "cache": "ram",
        "amp": False,
        "plots": False,
        "pretrained": False,
        "patience": 1000,
        # AdamW at a fixed rate: ultralytics' "auto" picks SGD for long schedules, which
        # learns too slowly from scratch in the few epochs a CPU gets through
        "optimizer": "AdamW",
        "lr0": 0.0015,
        "warmup_epochs": 1.0,
        "close_mosaic": 3,
        "fliplr": 0.0,
        "flipud": 0.0,
        "degrees": 0.0,
        "mosaic": 1.0,
        "scale": 0.5,
        "translate": 0.1,
        "hsv_h": 0.03,
        "hsv_s": 0.8,
        "hsv_v": 0.5,
        "project": str(RUNS),
        "name": RUN_NAME,
        "exist_ok": True,
        "seed": 0,
        "deterministic": True,
        "verbose": True,
    }


def training_threads(threads: int | None) -> None:
    """Give the training ``threads`` torch threads (None: ultralytics' choice).

    Ultralytics resets torch's threads to one fewer than the cores as it picks the device,
    which leaves one of this machine's two cores idle; that suits a training run that
    shares the machine (rendering or reading hands beside it), not one that runs alone.
    """
    import ultralytics.utils.torch_utils as torch_utils

    if threads is not None:
        torch_utils.NUM_THREADS = threads


def reporting_threads(model: YOLO) -> YOLO:
    """``model``, set to print the torch threads its trainer really runs with as it starts
    (the log then shows what a run's speed was measured with)."""
    import torch

    def report(trainer: object) -> None:
        print(f"training threads: {torch.get_num_threads()}", flush=True)

    model.add_callback("on_train_start", report)
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--hours", type=float, default=1.8)
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument(
        "--lr0", type=float, default=0.0005, help="starting learning rate of a fine-tune"
    )
    parser.add_argument("--model", default="yolov8n.yaml", help="model YAML (never a .pt)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--smoke", type=Path, help="data YAML: one epoch at imgsz 64, no cache")
    parser.add_argument("--project", type=Path, default=RUNS)
    parser.add_argument(
        "--checkpoint", type=Path, default=CHECKPOINT, help="weights to continue from"
    )
    parser.add_argument("--name", default=RUN_NAME, help="run folder name under --project")
    parser.add_argument(
        "--init", type=Path, help="a new run starts from these weights (a layer whose shape "
        "differs, such as another class count's head, starts fresh)"
    )
    parser.add_argument(
        "--threads", type=int, help="torch threads for training (ultralytics' own choice: "
        "one fewer than the cores, so one on two); all cores when nothing else runs"
    )
    args = parser.parse_args(argv)
    if args.threads is not None and args.threads < 1:
        print(f"--threads must be 1 or more, not {args.threads}", file=sys.stderr)
        return 2

    offline_environment(args.project / "yolo_config")
    from ultralytics import YOLO

    training_threads(args.threads)

    if args.smoke:
        model = reporting_threads(YOLO(args.model))
        model.train(
            data=str(args.smoke), imgsz=64, epochs=1, batch=4, device="cpu", workers=0,
            amp=False, plots=False, pretrained=False, project=str(args.project), name="smoke",
            exist_ok=True, mosaic=0.0, fliplr=0.0, val=True, verbose=False,
        )  # fmt: skip
        return 0

    if not args.data.exists():
        print(f"no data at {args.data}: run `python -m datasets.generate` first", file=sys.stderr)
        return 2
    runs = sorted(
        args.project.glob(f"{args.name}*/weights/last.pt"), key=lambda p: p.stat().st_mtime
    )
    last = runs[-1] if runs else None
    settings = train_args(args.imgsz, args.hours, args.batch)
    settings["project"] = str(args.project)
    settings["name"] = args.name
    if args.resume and last is not None and _unfinished(last):
        reporting_threads(YOLO(str(last))).train(resume=True)
        return 0
    if args.resume:
        start = last if last is not None else args.checkpoint
        if not start.exists():
            print("nothing to resume: no run and no committed checkpoint", file=sys.stderr)
            return 2
        # a finished run: fine-tune from its weights, in a new run folder
        settings.update(
            name=f"{args.name}-ft{len(runs)}", lr0=args.lr0, warmup_epochs=0.3,
            pretrained=str(start),
        )
        reporting_threads(YOLO(str(start))).train(data=str(args.data), **settings)
        return 0
    if args.init is not None:
        if not args.init.exists():
            print(f"no weights at {args.init}", file=sys.stderr)
            return 2
        settings["pretrained"] = str(args.init)
    reporting_threads(YOLO(args.model)).train(data=str(args.data), **settings)
    return 0


def _unfinished(checkpoint: Path) -> bool:
    """True when an ultralytics checkpoint still carries its optimizer (run not finished)."""
    import torch

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    return state.get("optimizer") is not None and state.get("epoch", -1) != -1


if __name__ == "__main__":
    raise SystemExit(main())
