"""The card detector at run time: an exported YOLOv8 ONNX model, no torch.

``Detector(path).detect(image_bgr)`` returns a list of :class:`Detection` (card name in the
project notation, confidence, box in the input image's pixels). Boxes cover a printed
corner index (rank + suit), so one card may give two detections (its two corners); a
face-down card (``back``) is boxed whole. See models/README.md.

The model runs on ONNX Runtime when it is installed (measured 3-4x faster than OpenCV's DNN
module on this machine's CPU), else on ``cv2.dnn``. Pre- and post-processing are the
model's own: letterbox to the model's fixed input (grey padding, aspect kept), decode the
``(1, 4 + classes, anchors)`` output, then class-agnostic non-maximum suppression, because
two names for one printed index are one mistake, not two cards.

>>> box = letterbox_geometry((720, 1280), (384, 640))
>>> box.scale, box.pad_x, box.pad_y
(0.5, 0.0, 12.0)
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: the exported model committed with the repository
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "cards.onnx"

#: class id -> card name, as trained (also stored in the ONNX metadata, which wins).
CLASSES: tuple[str, ...] = (
    tuple(r + s for s in "CDHS" for r in "9TJQKA")
    + tuple(r + s for s in "CDHS" for r in "2345678")
    + ("back",)
)


def is_euchre_or_five(card: str) -> bool:
    """True for the 24 euchre cards and the four 5s (score markers), the cards the kiosk uses.

    >>> [is_euchre_or_five(c) for c in ("JH", "5S", "6D", "back")]
    [True, True, False, False]
    """
    return card != "back" and card[0] in "9TJQKA5"


@dataclass(frozen=True)
class Detection:
    """One detected corner index (or face-down card)."""

    card: str  #: project notation: ``JH``, ``5S``, ``6D``, or ``back``
    confidence: float
    box: tuple[float, float, float, float]  #: x1, y1, x2, y2 in input-image pixels

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "box": [round(v, 1) for v in self.box],
        }


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the model input: ``input = image * scale + pad``."""

    scale: float
    pad_x: float
    pad_y: float


def letterbox_geometry(image_hw: tuple[int, int], input_hw: tuple[int, int]) -> Letterbox:
    """Scale and padding that fit an image into the input, aspect kept, centred."""
    h, w = image_hw
    ih, iw = input_hw
    scale = min(ih / h, iw / w)
    return Letterbox(scale, (iw - round(w * scale)) / 2, (ih - round(h * scale)) / 2)


def letterbox(image: np.ndarray, input_hw: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """The image resized into the model input with grey (114) padding."""
    geometry = letterbox_geometry(image.shape[:2], input_hw)
    h, w = image.shape[:2]
    nw, nh = round(w * geometry.scale), round(h * geometry.scale)
    out = np.full((input_hw[0], input_hw[1], 3), 114, np.uint8)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, left = int(geometry.pad_y), int(geometry.pad_x)
    out[top : top + nh, left : left + nw] = resized
    return out, Letterbox(geometry.scale, float(left), float(top))


class ModelError(RuntimeError):
    """The model file is missing or cannot be loaded."""


class Detector:
    """Runs the exported card model on BGR images (as OpenCV reads them)."""

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        confidence: float = 0.4,
        iou: float = 0.5,
        backend: str = "auto",
        threads: int | None = None,
    ) -> None:
        path = Path(model_path or os.environ.get("KIOSK_DETECTOR_MODEL") or DEFAULT_MODEL)
        if not path.is_file():
            raise ModelError(f"model file not found: {path}")
        self.path = path
        self.confidence = confidence
        self.iou = iou
        self.classes = CLASSES
        if backend == "auto":
            try:
                import onnxruntime  # noqa: F401

                backend = "onnxruntime"
            except ImportError:
                backend = "opencv"
        self.backend = backend
        try:
            if backend == "onnxruntime":
                self._load_onnxruntime(threads)
            elif backend == "opencv":
                self._net = cv2.dnn.readNetFromONNX(str(path))
                self.input_hw = _onnx_input_hw(path)
            else:
                raise ModelError(f"unknown backend {backend!r} (onnxruntime or opencv)")
        except ModelError:
            raise
        except Exception as problem:  # a corrupt file: the runtimes raise many kinds
            raise ModelError(f"cannot load model {path}: {str(problem).splitlines()[0]}") from None

    def _load_onnxruntime(self, threads: int | None) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(
            str(self.path), options, providers=["CPUExecutionProvider"]
        )
        model_input = self._session.get_inputs()[0]
        self._input_name = model_input.name
        self.input_hw = (int(model_input.shape[2]), int(model_input.shape[3]))
        names = self._session.get_modelmeta().custom_metadata_map.get("names")
        if names:
            mapping = ast.literal_eval(names)
            self.classes = tuple(mapping[i] for i in range(len(mapping)))

    def raw(self, blob: np.ndarray) -> np.ndarray:
        """The network's output for a (1, 3, H, W) float blob: (anchors, 4 + classes)."""
        if self.backend == "onnxruntime":
            out = self._session.run(None, {self._input_name: blob})[0]
        else:
            self._net.setInput(blob)
            out = self._net.forward()
        return np.asarray(out)[0].T

    def detect(
        self,
        image_bgr: np.ndarray,
        roi: Sequence[int] | None = None,
        confidence: float | None = None,
    ) -> list[Detection]:
        """Cards in a BGR image, best first; ``roi`` (x1, y1, x2, y2) limits the search.

        With ``roi`` (the play area, say), only that crop goes through the network, so
        the cards are seen larger; boxes are still in the full image's pixels.
        """
        if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
            raise ValueError("detect() needs an HxWx3 BGR image")
        ox = oy = 0
        if roi is not None:
            x1, y1, x2, y2 = (int(v) for v in roi)
            image_bgr = image_bgr[y1:y2, x1:x2]
            ox, oy = x1, y1
        fitted, geometry = letterbox(image_bgr, self.input_hw)
        blob = cv2.dnn.blobFromImage(fitted, 1 / 255.0, swapRB=True)
        rows = self.raw(blob)
        threshold = self.confidence if confidence is None else confidence
        return decode(
            rows, self.classes, geometry, threshold, self.iou, image_bgr.shape[:2], (ox, oy)
        )


def decode(
    rows: np.ndarray,
    classes: Sequence[str],
    geometry: Letterbox,
    threshold: float,
    iou: float,
    image_hw: tuple[int, int],
    offset: tuple[int, int] = (0, 0),
) -> list[Detection]:
    """YOLOv8 output rows ``(anchors, 4 + classes)`` to detections in image pixels.

    Each row is a box centre and size in model-input pixels and one score per class; the
    best class names the box. Boxes under ``threshold`` are dropped, then overlapping
    boxes (IoU above ``iou``) are suppressed whatever their class, best first.
    """
    scores = rows[:, 4:]
    best = scores.argmax(axis=1)
    conf = scores[np.arange(len(rows)), best]
    keep = conf >= threshold
    if not keep.any():
        return []
    rows, best, conf = rows[keep], best[keep], conf[keep]
    cx, cy, w, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    boxes = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
    chosen = cv2.dnn.NMSBoxes(boxes.tolist(), conf.tolist(), threshold, iou, top_k=300)
    out = []
    ih, iw = image_hw
    for i in np.asarray(chosen).reshape(-1):
        x, y, bw, bh = boxes[i]
        x1 = float(np.clip((x - geometry.pad_x) / geometry.scale, 0, iw)) + offset[0]
        y1 = float(np.clip((y - geometry.pad_y) / geometry.scale, 0, ih)) + offset[1]
        x2 = float(np.clip((x + bw - geometry.pad_x) / geometry.scale, 0, iw)) + offset[0]
        y2 = float(np.clip((y + bh - geometry.pad_y) / geometry.scale, 0, ih)) + offset[1]
        out.append(Detection(classes[int(best[i])], float(conf[i]), (x1, y1, x2, y2)))
    return out


def _onnx_input_hw(path: Path) -> tuple[int, int]:
    """The fixed input height and width of an ONNX model, read without the onnx package.

    Used for the OpenCV backend, which does not report input shapes; ultralytics
    exports also record ``imgsz`` in the metadata, which is what this reads.
    """
    data = path.read_bytes()
    marker = data.find(b"imgsz")
    if marker < 0:
        raise ModelError(f"{path}: no input size in the model metadata")
    start = data.find(b"[", marker)
    end = data.find(b"]", start)
    height, width = ast.literal_eval(data[start : end + 1].decode())
    return int(height), int(width)
