"""Export trained weights to the ONNX model the kiosk loads (no torch at run time).

    python models/export.py                                  # runs/cards/weights/best.pt
    python models/export.py --weights W.pt --imgsz 384 640 --out models/cards.onnx

The model takes any input size (``dynamic``); ``--imgsz`` is the largest picture the
detector fits into it, recorded in the metadata. 384 x 640 (height x width) takes a 16:9
camera frame (1280x720 letterboxes to 640x360); a square play area is scaled the same
way but padded only to a 32-pixel margin, 384 x 448, which costs the network 0.7 of the
time (``kiosk.vision.cards.letterbox.letterbox``). ``--fixed`` exports one fixed size instead.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import RUN_NAME, RUNS, offline_environment  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def export(weights: Path, imgsz: tuple[int, int], out: Path, dynamic: bool = True) -> Path:
    """Write ``out`` (ONNX, opset chosen by ultralytics, graph simplified) from ``weights``."""
    offline_environment()
    from ultralytics import YOLO

    produced = YOLO(str(weights)).export(
        format="onnx", imgsz=list(imgsz), simplify=True, dynamic=dynamic, half=False, device="cpu"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(produced), out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=RUNS / RUN_NAME / "weights" / "best.pt")
    parser.add_argument("--imgsz", type=int, nargs=2, default=(384, 640), metavar=("H", "W"))
    parser.add_argument("--out", type=Path, default=REPO / "models" / "cards.onnx")
    parser.add_argument("--fixed", action="store_true", help="one fixed input size")
    args = parser.parse_args(argv)
    if not args.weights.exists():
        print(f"no weights at {args.weights}", file=sys.stderr)
        return 2
    print(export(args.weights, tuple(args.imgsz), args.out, dynamic=not args.fixed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
