"""The card detector at run time: an exported YOLOv8 ONNX model and a crop classifier, no torch.

``Detector(path).detect(image_bgr)`` returns a list of :class:`Detection` (card name in the
project notation, confidence, box in the input image's pixels). Boxes cover a printed
corner index (rank + suit), so one card may give two detections (its two corners); a
face-down card (``back``) is boxed whole. See models/README.md.

Two stages, chosen by measurement (models/README.md): the YOLO model finds index boxes
much better than it names them, so it only *proposes* boxes (at a low score), and the
index classifier (:mod:`kiosk.vision.index_classifier`) names each box from the
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
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.shipped import shipped_model
from kiosk.vision.context_reader import (
    CONTEXT_TURNS,
    DEFAULT_CONTEXT_READER,
    unsure_rows,
    with_context,
)
from kiosk.vision.deck_profile import INDEX, SUIT, DeckProfile, ProfileError
from kiosk.vision.index_classifier import (
    DEFAULT_CLASSIFIER,
    NONE,
    RUNNER_UP_FLOOR,
    IndexClassifier,
)
from kiosk.vision.suit_reader import DEFAULT_SUIT_READER, SUIT_TURNS, card_rows, with_suits

#: the exported model committed with the repository
DEFAULT_MODEL = shipped_model("cards.onnx")

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


def threads_beside_the_screen(cores: int | None = None) -> int:
    """Threads for the kiosk's detector: every core this process may run on but one,
    which is left to the screen and the camera; at least one.

    Why: on the 2-core machines this project is measured on that is one thread, as the
    kiosk always ran; a Raspberry Pi 5 has four cores and many tablets more, and the
    detector reads faster on more threads (six rendered hands' frames: 35.7 ms a frame
    on two threads, 45.9 on one; models/README.md, "Speed"). The cores counted are the
    ones the process may use, not the machine's: a container given two of 64 gets one.

    >>> threads_beside_the_screen(2), threads_beside_the_screen(4), threads_beside_the_screen(1)
    (1, 3, 1)
    """
    if cores is None:
        affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
        cores = len(affinity(0)) if affinity else os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True)
class Detection:
    """One detected corner index (or face-down card)."""

    card: str  #: project notation: ``JH``, ``5S``, ``6D``, or ``back``
    confidence: float
    box: tuple[float, float, float, float]  #: x1, y1, x2, y2 in input-image pixels
    #: the classifier's surest *other* euchre card for this index, and how sure: what a
    #: misread card may be instead (the trick reader keeps it with the play, and turns to
    #: it when the name is read far more surely on a later card). Not in ``kiosk detect``.
    alternative: str | None = field(default=None, repr=False)
    alternative_confidence: float = field(default=0.0, repr=False)

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


#: grey pixels kept beside a picture on a model of any input size (within ``input_hw``):
#: with none, indices at the picture's edge lost proposals (whole frames of the 8
#: validation hands: 0.832 of the labelled indices proposed against 0.857 with the full
#: 384 x 640 input, false detections 1.24 against 1.03 a frame); with 32, 0.858 and 1.03
PAD_MARGIN = 32


def letterbox(
    image: np.ndarray, input_hw: tuple[int, int], stride: int | None = None
) -> tuple[np.ndarray, Letterbox]:
    """The image resized into the model input with grey (114) padding.

    With ``stride`` (a model that takes any input size), the image is scaled exactly as
    into ``input_hw`` but padded only to :data:`PAD_MARGIN` on each side (where
    ``input_hw`` has room), rounded up to a multiple of ``stride``: a square play area
    then costs the network 384 x 448 rather than 384 x 640, the same pixels of cards.
    """
    geometry = letterbox_geometry(image.shape[:2], input_hw)
    h, w = image.shape[:2]
    nw, nh = round(w * geometry.scale), round(h * geometry.scale)
    canvas_h, canvas_w = input_hw
    if stride:
        canvas_h = min(canvas_h, -(-(nh + 2 * PAD_MARGIN) // stride) * stride)
        canvas_w = min(canvas_w, -(-(nw + 2 * PAD_MARGIN) // stride) * stride)
    out = np.full((canvas_h, canvas_w, 3), 114, np.uint8)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, left = (canvas_h - nh) // 2, (canvas_w - nw) // 2
    out[top : top + nh, left : left + nw] = resized
    return out, Letterbox(geometry.scale, float(left), float(top))


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


#: the class of a face-down card (boxed whole, not by its index)
FACE_DOWN = "back"
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
        # second opinions only join a namer: without one there is nothing to weigh
        wanted = self.namer is not None
        #: the second opinion on suits (kiosk.vision.suit_reader)
        self.suit_reader = _load_index_classifier(
            suit_reader if wanted else None, threads, DEFAULT_SUIT_READER, "suit reader",
            SUIT_TURNS,
        )  # fmt: skip
        #: the second opinion on the whole name from the card around an unsure index
        #: (kiosk.vision.context_reader); it must name the namer's classes
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
        if self.namer is None:
            if profile is None:
                return
            raise ModelError("a deck profile needs the index classifier (and ONNX Runtime)")
        heads = {} if profile is None else profile.heads
        readers = [(self.namer, INDEX), (self.suit_reader, SUIT)]
        try:
            for reader, name in readers:
                if reader is not None:
                    reader.use_head(heads.get(name))
        except ProfileError as problem:  # read without any profile, not half of one
            for reader, _ in readers:
                if reader is not None:
                    reader.use_head(None)
            self._deck = None
            raise ModelError(str(problem)) from None
        self._deck = profile

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
        return np.asarray(out)[0].T

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
            found = [replace(d, box=_shift(d.box, ox, oy)) for d in found]
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
                found += [replace(d, box=_scaled(d.box, 1 / size)) for d in in_view]
                passes += 1
        return suppress(found, self.iou) if passes > 1 else found


def tile_grid(
    image_hw: tuple[int, int],
    input_hw: tuple[int, int],
    min_scale: float | None,
    overlap: float = 0.12,
    max_tiles: int = 6,
) -> list[tuple[int, int, int, int]]:
    """Tiles (x1, y1, x2, y2) covering the image, as few as keep the fitting scale at
    ``min_scale`` or more (at most ``max_tiles``); neighbours overlap by ``overlap`` of a
    tile so an index cut by one tile's edge is whole in the next.

    >>> tile_grid((720, 1280), (384, 640), None)
    [(0, 0, 1280, 720)]
    >>> len(tile_grid((720, 1280), (384, 640), 0.9))
    4
    """
    h, w = image_hw
    ih, iw = input_hw
    whole = [(0, 0, w, h)]
    if min_scale is None or min(ih / h, iw / w) >= min_scale:
        return whole
    best: tuple[float, int, int] | None = None
    for count in range(2, max_tiles + 1):
        for rows in range(1, count + 1):
            if count % rows:
                continue
            cols = count // rows
            th, tw = _tile_side(h, rows, overlap), _tile_side(w, cols, overlap)
            scale = min(ih / th, iw / tw)
            if best is None or scale > best[0] + 1e-9:
                best = (scale, rows, cols)
        if best is not None and best[0] >= min_scale:
            break
    assert best is not None
    _, rows, cols = best
    th, tw = _tile_side(h, rows, overlap), _tile_side(w, cols, overlap)
    ys = [round(i * (h - th) / max(rows - 1, 1)) for i in range(rows)]
    xs = [round(i * (w - tw) / max(cols - 1, 1)) for i in range(cols)]
    return [(x, y, min(w, x + tw), min(h, y + th)) for y in ys for x in xs]


def _tile_side(length: int, parts: int, overlap: float) -> int:
    """Side of one of ``parts`` tiles over ``length`` pixels, neighbours sharing ``overlap``."""
    if parts == 1:
        return length
    return int(np.ceil(length / (parts - (parts - 1) * overlap)))


def suppress(found: list[Detection], iou: float) -> list[Detection]:
    """Class-agnostic non-maximum suppression of detections from overlapping tiles."""
    if not found:
        return found
    boxes = [[x1, y1, x2 - x1, y2 - y1] for x1, y1, x2, y2 in (d.box for d in found)]
    scores = [d.confidence for d in found]
    kept = np.asarray(cv2.dnn.NMSBoxes(boxes, scores, 0.0, iou, top_k=300)).reshape(-1)
    return sorted((found[int(i)] for i in kept), key=lambda d: -d.confidence)


def _scaled(
    box: tuple[float, float, float, float], factor: float
) -> tuple[float, float, float, float]:
    if factor == 1.0:
        return box
    x1, y1, x2, y2 = box
    return (x1 * factor, y1 * factor, x2 * factor, y2 * factor)


def _shift(
    box: tuple[float, float, float, float], dx: float, dy: float
) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (x1 + dx, y1 + dy, x2 + dx, y2 + dy)


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


def name_probabilities(
    namer: IndexClassifier,
    image_bgr: np.ndarray,
    boxes: Sequence[Sequence[float]],
    suits: IndexClassifier | None = None,
    context: IndexClassifier | None = None,
) -> np.ndarray:
    """The second stage's opinion of each box, a row of ``namer.classes`` probabilities:
    the classifier's, joined by the context reader's where it is unsure and then by the
    suit reader's. Apart from :func:`name_proposals` so that an evaluation can ask what
    the second stage makes of boxes it is given (the labels' own, say) without the
    first stage's say on ``back`` or the threshold."""
    probabilities = namer.probabilities(image_bgr, boxes)
    if context is not None and len(boxes):
        kiosk_cards = np.array([is_euchre_or_five(c) for c in namer.classes])
        unsure = unsure_rows(probabilities, kiosk_cards)
        if len(unsure):
            probabilities = probabilities.copy()  # the classifier's own array stays as it was
            probabilities[unsure] = with_context(
                probabilities[unsure], context.probabilities(image_bgr, [boxes[i] for i in unsure])
            )
    if suits is not None and len(boxes):
        rows = card_rows(probabilities, namer.classes)
        if len(rows):
            probabilities = probabilities.copy()  # the classifier's own array stays as it was
            probabilities[rows] = with_suits(
                probabilities[rows], namer.classes,
                suits.probabilities(image_bgr, [boxes[i] for i in rows]), suits.classes,
            )  # fmt: skip
    return probabilities


def name_proposals(
    namer: IndexClassifier,
    image_bgr: np.ndarray,
    proposals: list[Detection],
    threshold: float,
    suits: IndexClassifier | None = None,
    context: IndexClassifier | None = None,
) -> list[Detection]:
    """The proposals the classifier names with at least ``threshold``, best first; with
    ``context`` (the context reader), its opinion of the card around each unsure index
    that leans to a euchre card or a 5 joins the classifier's
    (:func:`kiosk.vision.context_reader.with_context`), and then with ``suits`` (the suit
    reader) its opinion of each card's suit (:func:`kiosk.vision.suit_reader.with_suits`).

    A face-down card is the exception: its box is a whole card, which the 32-pixel patch
    shrinks to a texture that a patterned table or a court card's robe also has, so a
    ``back`` also needs the YOLO model (which saw the card's outline) to call it ``back``,
    and takes the lower of the two confidences.
    """
    probabilities = name_probabilities(namer, image_bgr, [p.box for p in proposals], suits,
                                       context)
    euchre = np.array([c in EUCHRE_NAMES for c in namer.classes])
    out = []
    for proposal, row in zip(proposals, probabilities, strict=True):
        best = int(row.argmax())
        card = namer.classes[best]
        confidence = float(row[best])
        if card == FACE_DOWN:
            confidence = min(confidence, proposal.confidence if proposal.card == card else 0.0)
        if card == NONE or confidence < threshold:
            continue
        others = np.where(euchre, row, -1.0)
        others[best] = -1.0
        second = int(others.argmax())
        if others[second] >= RUNNER_UP_FLOOR and card != FACE_DOWN:
            out.append(Detection(card, confidence, proposal.box, namer.classes[second],
                                 float(others[second])))
        else:
            out.append(Detection(card, confidence, proposal.box))
    return merge_same_card(sorted(out, key=lambda d: -d.confidence))


#: a box that lies this much (of its own area) inside a better box of the same name is
#: the same printed index boxed twice; two corners of one card never overlap at all
SAME_INDEX_OVERLAP = 0.6


def merge_same_card(found: list[Detection], overlap: float = SAME_INDEX_OVERLAP) -> list[Detection]:
    """Drop a detection lying mostly inside (or around) a better one with the same name
    (best first in, best first out).

    The proposal network sometimes boxes one index twice, the rank alone and rank with
    suit, or the index with a pip beside it, too differently for its class-agnostic
    suppression (IoU 0.4-0.5); once the classifier has named both the same card, they
    are one index, and the surer box stands for it. (Their union, kept until 2026-11-26,
    drew an index and its neighbouring pip as one box twice the index's size: on the
    frames of rendered hands, a fifth of the cards the classifier named right came out
    on a box that no longer matched their index; on the real photos and the scenes the
    two rules score the same.)

    >>> a = Detection("JD", 0.9, (0, 0, 10, 11))
    >>> merge_same_card([a, Detection("JD", 0.8, (0, 0, 10, 20))])
    [Detection(card='JD', confidence=0.9, box=(0, 0, 10, 11))]
    >>> len(merge_same_card([a, Detection("QD", 0.8, (0, 0, 10, 20))]))
    2
    """
    kept: list[Detection] = []
    for d in found:
        x1, y1, x2, y2 = d.box
        area = max((x2 - x1) * (y2 - y1), 1e-9)
        for k in kept:
            kx1, ky1, kx2, ky2 = k.box
            w = min(x2, kx2) - max(x1, kx1)
            h = min(y2, ky2) - max(y1, ky1)
            smaller = min(area, (kx2 - kx1) * (ky2 - ky1))
            if k.card == d.card and w > 0 and h > 0 and w * h / smaller >= overlap:
                break
        else:
            kept.append(d)
    return kept


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
