"""The card detector at run time: an exported YOLOv8 ONNX model and a crop classifier, no torch.

``Detector(path).detect(image_bgr)`` returns a list of :class:`Detection` (card name in the
project notation, confidence, box in the input image's pixels). Boxes cover a printed
corner index (rank + suit), so one card may give two detections (its two corners); a
face-down card (``back``) is boxed whole. See models/README.md.

Two stages, chosen by measurement (models/README.md): the YOLO model finds index boxes
much better than it names them, so it only *proposes* boxes (at a low score), and the
index classifier (:mod:`kiosk.vision.cards.index_classifier`) names each box from the
full-resolution pixels, or rejects it. Without the classifier file (or with
``index_classifier=None``) the YOLO model's own class is used.

The model runs on ONNX Runtime when it is installed (measured 3-4x faster than OpenCV's DNN
module on this machine's CPU), else on ``cv2.dnn``. Pre- and post-processing are the
model's own: letterbox into the model's input (grey padding, aspect kept; a model exported
for any input size is padded only to a margin, so a square play area costs 384 x 448
rather than 384 x 640), decode the ``(1, 4 + classes, anchors)`` output, then
class-agnostic non-maximum suppression, because two names for one printed index are one
mistake, not two cards. A large picture of the play area can be cut into overlapping
tiles (``min_scale``) so small indices keep pixels.

>>> box = letterbox_geometry((720, 1280), (384, 640))
>>> box.scale, box.pad_x, box.pad_y
(0.5, 0.0, 12.0)
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from kiosk.shipped import shipped_model
from kiosk.vision.cards.boxes import decode, suppress
from kiosk.vision.cards.classes import CLASSES, FACE_DOWN
from kiosk.vision.cards.context_reader import CONTEXT_TURNS, DEFAULT_CONTEXT_READER
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.index_classifier import DEFAULT_CLASSIFIER, IndexClassifier
from kiosk.vision.cards.letterbox import (
    letterbox,
    letterbox_geometry,
    scaled_box,
    shifted_box,
    tile_grid,
)
from kiosk.vision.cards.second_stage import name_probabilities, name_proposals
from kiosk.vision.cards.suit_reader import DEFAULT_SUIT_READER, SUIT_TURNS
from kiosk.vision.decks.deck_profile import INDEX, SUIT, DeckProfile, ProfileError

# (the detector's values, kept importable from here for the commands and tools)
__all__ = ["CLASSES", "CONFIDENCE", "DEFAULT_MODEL", "FACE_DOWN", "PROPOSAL_CLASSES",
           "PROPOSAL_CONFIDENCE", "Detection", "Detector", "ModelError", "confidence_problem",
           "letterbox_geometry", "name_proposals", "threads_beside_the_screen", "tile_grid"]

#: the exported model committed with the repository
DEFAULT_MODEL = shipped_model("cards.onnx")


def threads_beside_the_screen(cores: int | None = None) -> int:
    """Threads for the kiosk's detector: every core this process may run on but one,
    which is left to the screen and the camera; at least one.

    Why: on the 2-core machines this project is measured on that is one thread, as the
    kiosk always ran; a Raspberry Pi 5 has four cores and many tablets more, and the
    detector reads faster on more threads (a rendered hand's frame: 35.7 ms on two
    threads, 45.9 on one). The cores counted are the ones the process may use, not the
    machine's: a container given two of 64 gets one.

    >>> threads_beside_the_screen(2), threads_beside_the_screen(4), threads_beside_the_screen(1)
    (1, 3, 1)
    """
    if cores is None:
        affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
        cores = len(affinity(0)) if affinity else os.cpu_count() or 1
    return max(1, cores - 1)


#: the operating point, chosen on the held-out *validation* scenes (models/README.md):
#: a named box is reported from this confidence up
CONFIDENCE = 0.5
#: the YOLO model proposes boxes from this score up; low, because the classifier rejects
#: what is not an index, and a box not proposed can never be named
PROPOSAL_CONFIDENCE = 0.02


def confidence_problem(option: str, value: float) -> str | None:
    """Why a confidence given on a command line cannot be used, or None if it can.

    One wording for every tool that takes a threshold (the evaluator, the reader
    benchmark), so a director or a developer reads the same line wherever they mistype.
    """
    if 0 < value <= 1:
        return None
    return f"{option} must be over 0 and at most 1, not {value}"


#: the classes of a proposal-only model (``datasets/proposals.py``): it finds indices
#: and face-down cards and leaves every name to the index classifier
PROPOSAL_CLASSES: tuple[str, ...] = ("index", FACE_DOWN)


class ModelError(RuntimeError):
    """The model file is missing or cannot be loaded."""


class Detector:
    """Runs the exported card model on BGR images (as OpenCV reads them)."""

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        confidence: float = CONFIDENCE,
        iou: float = 0.5,
        backend: str = "auto",
        threads: int | None = None,
        index_classifier: str | os.PathLike[str] | None = "auto",
        suit_reader: str | os.PathLike[str] | None = "auto",
        context_reader: str | os.PathLike[str] | None = "auto",
        proposal_confidence: float = PROPOSAL_CONFIDENCE,
        scales: Sequence[float] = (1.0,),
        deck: str | os.PathLike[str] | DeckProfile | None = None,
    ) -> None:
        path = Path(model_path or os.environ.get("KIOSK_DETECTOR_MODEL") or DEFAULT_MODEL)
        if not path.is_file():
            raise ModelError(f"model file not found: {path}")
        self.path = path
        self.confidence = confidence
        self.iou = iou
        self.classes = CLASSES
        #: a model exported for any input size is given each picture padded only to a
        #: margin and a multiple of this (None: a fixed input, padded to ``input_hw``)
        self.stride: int | None = None
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
                model_bytes = path.read_bytes()  # the metadata, read once for both
                self.input_hw = _onnx_input_hw(path, model_bytes)
                self.classes = _onnx_names(model_bytes) or CLASSES
            else:
                raise ModelError(f"unknown backend {backend!r} (onnxruntime or opencv)")
        except ModelError:
            raise
        except Exception as problem:  # a corrupt file: the runtimes raise many kinds
            raise ModelError(f"cannot load model {path}: {str(problem).splitlines()[0]}") from None
        self.proposal_confidence = proposal_confidence
        self.scales = tuple(scales)
        self.namer = _load_index_classifier(index_classifier, threads)
        #: the index classifier this detector was built with; a deep deck profile's own
        #: network stands in for it while the profile is used (:meth:`use_deck`)
        self.shipped_namer = self.namer
        self._threads = threads
        # second opinions only join a namer: without one there is nothing to weigh
        wanted = self.namer is not None
        #: the second opinion on suits (kiosk.vision.cards.suit_reader)
        self.suit_reader = _load_index_classifier(
            suit_reader if wanted else None, threads, DEFAULT_SUIT_READER, "suit reader",
            SUIT_TURNS,
        )  # fmt: skip
        #: the second opinion on the whole name from the card around an unsure index
        #: (kiosk.vision.cards.context_reader); it must name the namer's classes
        self.context_reader = _load_index_classifier(
            context_reader if wanted else None, threads, DEFAULT_CONTEXT_READER,
            "context reader", CONTEXT_TURNS,
        )  # fmt: skip
        if (self.context_reader is not None and self.namer is not None
                and self.context_reader.classes != self.namer.classes):
            raise ModelError(f"context reader {self.context_reader.path} names other classes "
                             f"than the index classifier {self.namer.path}")
        if self.namer is None and self.classes == PROPOSAL_CLASSES:
            raise ModelError(f"{path} only finds indices: it needs the index classifier "
                             f"({DEFAULT_CLASSIFIER.name}) and ONNX Runtime to name them")
        self._deck: DeckProfile | None = None
        if isinstance(deck, DeckProfile):
            self.use_deck(deck)
        elif deck is not None:
            try:
                self.use_deck(DeckProfile.load(deck))
            except ProfileError as problem:
                raise ModelError(str(problem)) from None

    def use_deck(self, profile: DeckProfile | None) -> None:
        """Read with a table's deck profile (``kiosk enrol``) joining the index
        classifier, or without one (None). A profile that does not fit this classifier
        is a :class:`ModelError` naming the problem."""
        shipped = self.shipped_namer
        if shipped is None:
            if profile is None:
                return
            raise ModelError("a deck profile needs the index classifier (and ONNX Runtime)")
        heads = {} if profile is None else profile.heads
        try:
            self.namer = self._deck_namer(profile, shipped)
            readers = [(self.namer, INDEX), (self.suit_reader, SUIT)]
            for reader, name in readers:
                if reader is not None:
                    reader.use_head(heads.get(name))
        except ProfileError as problem:  # read without any profile, not half of one
            self.namer = shipped
            for reader in (shipped, self.suit_reader):
                if reader is not None:
                    reader.use_head(None)
            self._deck = None
            raise ModelError(str(problem)) from None
        self._deck = profile

    def _deck_namer(self, profile: DeckProfile | None, shipped: IndexClassifier
                    ) -> IndexClassifier:
        """The index classifier to read with under ``profile``: a deep profile's own
        network (learnt from the shipped one, naming its classes), else the shipped one."""
        if profile is None or not profile.deep:
            return shipped
        if profile.namer_from and profile.namer_from != shipped.digest:
            raise ProfileError("this deck profile was learnt with other networks than the "
                               "kiosk's: enrol the deck again")
        current = self.namer
        if current is not None and current is not shipped and (
                current.digest == profile.namer_digest):
            return current  # the same network (a layer learnt in play on it): read on with it
        try:
            namer = IndexClassifier(profile.namer, self._threads, shipped.turns,
                                    shipped.recheck_below)
        except Exception:  # ONNX Runtime raises many kinds for a damaged model
            raise ProfileError("this deck profile's network cannot be read: enrol the deck "
                               "again") from None
        if namer.classes != shipped.classes:
            raise ProfileError("this deck profile's network names other cards than the "
                               "kiosk's: enrol the deck again")
        return namer

    @property
    def deck(self) -> DeckProfile | None:
        """The deck profile the detector reads with, if any."""
        return self._deck

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
        height, width = model_input.shape[2:4]
        meta = self._session.get_modelmeta().custom_metadata_map
        if isinstance(height, int) and isinstance(width, int):
            self.input_hw = (height, width)
        else:  # exported with any input size: the training size is the largest fitted
            self.input_hw = _input_hw_text(self.path, meta.get("imgsz", ""))
            self.stride = int(meta.get("stride", 32))
        names = meta.get("names")
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
        rows: np.ndarray = np.asarray(out)[0].T
        return rows

    def detect(
        self,
        image_bgr: np.ndarray,
        roi: Sequence[int] | None = None,
        confidence: float | None = None,
        min_scale: float | None = None,
        scales: Sequence[float] | None = None,
    ) -> list[Detection]:
        """Cards in a BGR image, best first; ``roi`` (x1, y1, x2, y2) limits the search.

        With ``roi`` (the play area, say), only that crop goes through the network, so
        the cards are seen larger; boxes are still in the full image's pixels. With
        ``min_scale``, a crop that would be shrunk more than that to fit the network is
        cut into overlapping tiles instead (each one more network pass), so small
        indices in a large picture keep enough pixels. ``scales`` (default
        ``self.scales``) runs the proposal network once per scale of the picture and pools
        the boxes: the network knows indices at the size it was trained on.
        """
        if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
            raise ValueError("detect() needs an HxWx3 BGR image")
        ox = oy = 0
        if roi is not None:
            x1, y1, x2, y2 = (int(v) for v in roi)
            image_bgr = image_bgr[y1:y2, x1:x2]
            ox, oy = x1, y1
        threshold = self.confidence if confidence is None else confidence
        # two stages: the detector proposes index boxes generously, the classifier names
        # each from the full-resolution pixels (or rejects it as no index at all); with no
        # classifier the proposals are the answer, so they start at the answer's threshold
        first = threshold if self.namer is None else self.proposal_confidence
        found = self.name(image_bgr, self.propose(image_bgr, first, min_scale, scales), threshold)
        if ox or oy:
            found = [replace(d, box=shifted_box(d.box, ox, oy)) for d in found]
        return found

    def name(
        self, image_bgr: np.ndarray, proposals: list[Detection], confidence: float | None = None
    ) -> list[Detection]:
        """The second stage alone: the proposals the classifier names with at least
        ``confidence`` (default the detector's), best first; the proposals as they are
        when there is no classifier. Apart from :meth:`propose` so that an evaluation can
        score both stages of one network pass."""
        threshold = self.confidence if confidence is None else confidence
        if self.namer is None:
            return [d for d in proposals if d.confidence >= threshold]
        return name_proposals(
            self.namer, image_bgr, proposals, threshold, self.suit_reader, self.context_reader
        )

    def naming(self, image_bgr: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
        """The second stage's probabilities for boxes it is given, a row of
        ``self.namer.classes`` per box (:func:`name_probabilities`): what it makes of a
        box whatever the first stage proposed, such as a label's own box."""
        if self.namer is None:
            raise ModelError("no index classifier: nothing names a box")
        return name_probabilities(self.namer, image_bgr, boxes, self.suit_reader,
                                  self.context_reader)

    def propose(
        self,
        image_bgr: np.ndarray,
        confidence: float | None = None,
        min_scale: float | None = None,
        scales: Sequence[float] | None = None,
    ) -> list[Detection]:
        """The first stage alone: the YOLO model's boxes from ``confidence`` (default the
        proposal threshold) up, named by its own class (``index`` for a proposal model)."""
        first = self.proposal_confidence if confidence is None else confidence
        found: list[Detection] = []
        passes = 0
        for size in self.scales if scales is None else scales:
            view = image_bgr
            if size != 1.0:
                view = cv2.resize(image_bgr, None, fx=size, fy=size, interpolation=cv2.INTER_AREA)
            wanted = None if min_scale is None else min_scale / size
            for tx1, ty1, tx2, ty2 in tile_grid(view.shape[:2], self.input_hw, wanted):
                tile = view[ty1:ty2, tx1:tx2]
                fitted, geometry = letterbox(tile, self.input_hw, self.stride)
                blob = cv2.dnn.blobFromImage(fitted, 1 / 255.0, swapRB=True)
                rows = self.raw(blob)
                in_view = decode(
                    rows, self.classes, geometry, first, self.iou, tile.shape[:2], (tx1, ty1)
                )
                found += [replace(d, box=scaled_box(d.box, 1 / size)) for d in in_view]
                passes += 1
        return suppress(found, self.iou) if passes > 1 else found


def _load_index_classifier(
    choice: str | os.PathLike[str] | None, threads: int | None,
    default: Path = DEFAULT_CLASSIFIER,
    what: str = "index classifier",
    turns: int = 4,
) -> IndexClassifier | None:
    """The second stage (or the suit reader, ``default`` its committed file): ``"auto"``
    takes the committed one when it and ONNX Runtime exist."""
    if choice is None:
        return None
    path = default if choice == "auto" else Path(choice)
    if choice == "auto":
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            return None
        if not path.is_file():
            return None
    elif not path.is_file():
        raise ModelError(f"{what} not found: {path}")
    try:
        return IndexClassifier(path, threads, turns)
    except Exception as problem:  # a corrupt file
        raise ModelError(
            f"cannot load {what} {path}: {str(problem).splitlines()[0]}"
        ) from None


def _onnx_names(data: bytes) -> tuple[str, ...] | None:
    """The class names an ultralytics export records in its metadata (``{0: '9C', ...}``),
    read from the model file's bytes without the onnx package; None when there are none."""
    marker = data.find(b"names")
    start = data.find(b"{", marker)
    if marker < 0 or start < 0 or start - marker > 8:
        return None
    end = data.find(b"}", start)
    try:
        mapping = ast.literal_eval(data[start : end + 1].decode())
        return tuple(str(mapping[i]) for i in range(len(mapping)))
    except (ValueError, SyntaxError, KeyError, UnicodeDecodeError):
        return None


def _onnx_input_hw(path: Path, data: bytes) -> tuple[int, int]:
    """The input height and width the ONNX model ``path`` was exported for (its bytes
    ``data``), read without the onnx package.

    Used for the OpenCV backend, which does not report input shapes, and for a model that
    takes any input size, whose shape names no numbers; ultralytics exports record
    ``imgsz`` in the metadata, which is what this reads.
    """
    marker = data.find(b"imgsz")
    if marker < 0:
        raise ModelError(f"{path}: no input size in the model metadata")
    start = data.find(b"[", marker)
    end = data.find(b"]", start)
    return _input_hw_text(path, data[start : end + 1].decode(errors="replace"))


def _input_hw_text(path: Path, text: str) -> tuple[int, int]:
    """``[height, width]`` as the export's ``imgsz`` metadata writes it (ONNX Runtime
    hands over that text; the OpenCV backend finds it in the file's bytes).

    >>> _input_hw_text(Path("m.onnx"), "[384, 640]")
    (384, 640)
    """
    try:
        height, width = ast.literal_eval(text.strip())
        return int(height), int(width)
    except (ValueError, SyntaxError, TypeError):
        raise ModelError(f"{path}: no input size in the model metadata") from None
