"""Second stage of the card detector: name the printed index inside each found box.

Measured on the held-out real photos, the first YOLO model *found* the indices far better
than it *named* them: at a low threshold its boxes covered 82 % of the labelled indices,
but only 24 % carried the right card (models/README.md). Finding "a corner index" is one
easy pattern; telling 52 faces apart from a 25-pixel patch is the hard part, and a small
classifier trained on crops learns it in minutes on a CPU, where the detector's
classification head needs many hours. So the detector proposes boxes and this network,
trained on crops cut exactly as below, names them, or says ``none`` (not an index).

:func:`crop` is the one definition of the crop: training (``datasets/index_crops.py``)
and run time both call it, so the network sees at run time what it learnt from.

>>> import numpy as np
>>> patch = crop(np.zeros((100, 200, 3), np.uint8), (10, 10, 30, 40))
>>> patch.shape
(32, 32, 3)
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from kiosk.shipped import shipped_model
from kiosk.vision.decks.deck_profile import Head, ProfileError, file_digest, softmax

#: the exported classifier committed with the repository
DEFAULT_CLASSIFIER = shipped_model("index_classifier.onnx")

#: side of the square patch the classifier reads, in pixels
PATCH = 32
#: the patch covers the box's longer side times this (some context around the index)
MARGIN = 1.3
#: the classifier's extra class: the box holds no index
NONE = "none"
#: a runner-up name less sure than this is the classifier's noise: the detector keeps no
#: such name as a detection's alternative (``Detection.alternative``) and the suit reader
#: is not asked to choose between it and the first (``suit_reader.card_rows``)
RUNNER_UP_FLOOR = 0.02
#: a patch whose first reading names a class less surely than this is read at the other
#: quarter turns too (None: every patch at every turn). At 0.9 about 40 % of a rendered
#: hand's proposals are read again (2.2 readings a patch instead of 4), and the validation
#: scenes and real photos score as with four turns; reading once only doubles the false
#: detections on the validation scenes
RECHECK_BELOW: float | None = 0.9
#: ONNX Runtime's session option that keeps a session's threads busy-waiting after each
#: run, ready for the next. The detector runs four networks one after another in one
#: process, and this network's sessions (the index classifier, the suit and context
#: readers) each run for a millisecond or two on a few patches, after which their
#: waiting threads took the two cores from the YOLO pass that follows: off, the whole
#: ``Detector.detect`` on the benchmark's 1280x720 frame went from 68-72 ms to 38-40 ms,
#: the play-area crop from 42 to 25-26. The YOLO session keeps
#: its own (it is the long run, and alone it is faster with it).
SPINNING_OFF = ("session.intra_op.allow_spinning", "0")
#: the output holding what the network's last layer reads (its pooled last convolution),
#: which a deck profile reads (``models/add_feature_output.py`` adds it to an export)
FEATURES = "features"
#: the outputs holding the network's last layer (``logits = features @ W.T + b``), which
#: a deck profile starts from
HEAD_WEIGHT, HEAD_BIAS = "head_weight", "head_bias"


def crop(
    image: np.ndarray, box: Sequence[float], size: int = PATCH, margin: float = MARGIN
) -> np.ndarray:
    """A ``size`` x ``size`` patch centred on ``box`` (x1, y1, x2, y2), square, ``margin``
    times the box's longer side.

    Square so that a turned index keeps its shape; edges beyond the image repeat the
    border pixels rather than inventing black.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1, 4.0) * margin
    scale = size / side
    # boxes are in edge coordinates (pixel i spans i..i+1), warpAffine in pixel centres:
    # the box centre goes to the patch's middle, the same way whatever the quarter turn
    cx, cy = (x1 + x2) / 2 - 0.5, (y1 + y2) / 2 - 0.5
    middle = (size - 1) / 2
    matrix = np.array(
        [[scale, 0.0, middle - cx * scale], [0.0, scale, middle - cy * scale]], np.float32
    )
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(
        image, matrix, (size, size), flags=interpolation, borderMode=cv2.BORDER_REPLICATE
    )


def to_blob(patches: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 patches to the network's (N, 3, side, side) RGB float input in 0..1."""
    stack = np.stack(patches)[..., ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(stack.transpose(0, 3, 1, 2))


class IndexClassifier:
    """Names the card index in boxes of a BGR image (ONNX Runtime, no torch)."""

    def __init__(
        self,
        path: str | os.PathLike[str] | bytes | None = None,
        threads: int | None = None,
        turns: int = 4,
        recheck_below: float | None = RECHECK_BELOW,
    ):
        """``path``: the network's ONNX file, or its bytes (a deep deck profile's own
        network, :attr:`kiosk.vision.decks.deck_profile.DeckProfile.namer`)."""
        import onnxruntime as ort

        #: read each patch this many times, a quarter turn apart, and average: a card
        #: lies at any angle, and the network was trained on all four turns
        self.turns = turns
        #: the other turns are read only for patches whose first reading names nothing
        #: this surely (None: every patch, every turn)
        self.recheck_below = recheck_below
        self._digest: str | None = None
        if isinstance(path, bytes):
            self.path = Path("deck-profile-network.onnx")
            self._digest = hashlib.sha256(path).hexdigest()
            model: str | bytes = path
        else:
            self.path = Path(path or DEFAULT_CLASSIFIER)
            model = str(self.path)
        options = ort.SessionOptions()
        options.add_session_config_entry(*SPINNING_OFF)
        if threads:
            options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        names = self._session.get_modelmeta().custom_metadata_map.get("names")
        if not names:
            raise ValueError(f"{self.path}: no class names in the model metadata")
        self.classes: tuple[str, ...] = tuple(ast.literal_eval(names))
        meta = self._session.get_modelmeta().custom_metadata_map
        #: the patch side and margin the network was trained on (its export records them)
        self.patch = int(meta.get("patch", PATCH))
        self.margin = float(meta.get("margin", MARGIN))
        outputs = [output.name for output in self._session.get_outputs()]
        self._logits = outputs[0]
        #: whether the network gives its feature map, which a deck profile needs
        self.has_features = {FEATURES, HEAD_WEIGHT, HEAD_BIAS} <= set(outputs)
        #: this deck's own last layer (a deck profile's), read instead of the network's
        self.deck_head: Head | None = None

    def use_head(self, head: Head | None) -> None:
        """Read through ``head`` (a deck profile's refitted last layer) instead of the
        network's own; None: the network's own. A layer learnt on another network file,
        or a network that gives no features, is refused."""
        if head is not None:
            if not self.has_features:
                raise ProfileError(f"{self.path} gives no features: a deck profile needs "
                                   "them (models/add_feature_output.py)")
            if head.network != self.digest or head.classes != self.classes:
                raise ProfileError("this deck profile was learnt with other networks than "
                                   "the kiosk's: enrol the deck again")
        self.deck_head = head

    @property
    def digest(self) -> str:
        """SHA-256 of the network file (what a deck profile records it was learnt on)."""
        if self._digest is None:
            self._digest = file_digest(self.path)
        return self._digest

    def features(self, patches: Sequence[np.ndarray]) -> np.ndarray:
        """What the last layer reads, (N, features), for patches cut by :func:`crop` as
        they lie (what a deck profile is fitted on)."""
        if not self.has_features:
            raise ProfileError(f"{self.path} gives no features (models/add_feature_output.py)")
        rows = self._session.run([FEATURES], {self._input: to_blob(patches)})[0]
        return np.asarray(rows, np.float32)

    def head(self) -> Head:
        """The network's own last layer, where a deck profile starts from."""
        if not self.has_features:
            raise ProfileError(f"{self.path} gives no features (models/add_feature_output.py)")
        blank = np.zeros((1, 3, self.patch, self.patch), np.float32)
        weight, bias = self._session.run([HEAD_WEIGHT, HEAD_BIAS], {self._input: blank})
        return Head(np.asarray(weight, np.float32).T.copy(), np.asarray(bias, np.float32),
                    self.classes, self.digest)

    def probabilities(self, image: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
        """Class probabilities, one row per box (softmax over ``self.classes``).

        Each patch is read as it lies; with ``recheck_below`` set, only the patches read
        less surely than that are read again at the other quarter turns (the average of
        all turns is their answer), so a busy frame of plain answers costs one pass.
        """
        if not boxes:
            return np.zeros((0, len(self.classes)), np.float32)
        patches = [crop(image, box, self.patch, self.margin) for box in boxes]
        if self.recheck_below is None or self.turns < 2:
            return self._read(patches, self.turns)
        first = self._read(patches, 1)
        unsure = np.flatnonzero(first.max(axis=1) < self.recheck_below)
        if len(unsure):
            others = self._read([patches[i] for i in unsure], self.turns, start=1)
            first[unsure] = (first[unsure] + others * (self.turns - 1)) / self.turns
        return first

    def _read(self, patches: Sequence[np.ndarray], turns: int, start: int = 0) -> np.ndarray:
        """The mean of the softmax over quarter turns ``start`` .. ``turns - 1`` of each patch."""
        count = turns - start
        turned = [np.rot90(patch, k) for k in range(start, turns) for patch in patches]
        if self.deck_head is not None:  # this deck's own last layer reads the features
            logits = self.deck_head.logits(self.features(turned))
        else:
            logits = np.asarray(
                self._session.run([self._logits], {self._input: to_blob(turned)})[0], np.float32)
        each = softmax(logits)
        return np.asarray(each.reshape(count, len(patches), -1).mean(axis=0))
