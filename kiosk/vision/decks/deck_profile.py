"""A deck profile: one table's own deck, learnt under its camera and light in seconds.

The shipped networks learnt card faces from rendered decks and a few real ones; a club's
design on a deck they never saw, through a cheap webcam, can look more like its spade
than like any club they know. A profile refits the last layer of two of them for this
deck: the index classifier's (which names the index) and the suit reader's (which reads
the suit from the card around it, the pips and the court's suit symbol: the hard pairs,
clubs against spades and hearts against diamonds, are where an unseen deck fails). Each
refitted layer is a softmax over that network's classes from the features its last
layer reads, starting from the shipped layer and pulled back towards it (:data:`PULL`),
fitted on patches of a few labelled photos of this deck (``kiosk enrol``) cut as the
kiosk cuts them, at every quarter turn and as a farther, softer camera would see them.
No torch: the fit is a few hundred steps of gradient descent in numpy.

Starting from the shipped layer is what keeps a profile safe: with no enrolment photo it
reads exactly as the networks do, a card the photos never showed keeps the shipped
opinion of it, and the pull keeps ten photos from unlearning what thousands taught. At
run time a network with a refitted layer reads through it instead of its own.

A *deep* profile (``kiosk enrol --deep``, :mod:`kiosk.vision.decks.deep_enrolment`) goes
further: the index classifier's whole network learnt again on this deck's own crops,
carried in the profile as an ONNX model (:attr:`DeckProfile.namer`) that the kiosk reads
in place of the shipped one, with ONNX Runtime alone. Its features are learnt on this
deck, which a last layer alone cannot do: another deck's features may not tell this
deck's clubs from its spades at all.

The file is a NumPy ``.npz``: each layer's weights, a deep profile's network as bytes
(``namer``), and a JSON header (format version, each layer's classes and the network it
was learnt on by its SHA-256, the deep network's SHA-256 and the shipped network it grew
from, the cards enrolled, the deck's name, how many photos and patches). A layer learnt
on one network is refused by another, since its features would mean something else.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiosk.rules.cards import Suit

#: the profile file's format version
VERSION = 4
#: older versions this one still reads (3: no deep network)
READS = (3, 4)
#: the networks a profile may refit, by the name its file gives each layer
INDEX, SUIT = "index", "suit"
#: the ridge pull of a refitted layer towards the shipped one, so a layer learnt from a
#: few photos stays near the shipped one where they show little; chosen by
#: ``scripts/bench_enrolment.py``
PULL = 0.05
#: what a profile play taught grew from when the table had no set-up profile
SHIPPED = "shipped"
#: the steps and rate of the fit
STEPS = 200
RATE = 0.01


class ProfileError(ValueError):
    """A deck profile that cannot be used; the message is one line naming the problem."""


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes (the network a layer was learnt on)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class Head:
    """A network's last layer: ``logits = features @ weights + bias`` over ``classes``."""

    weights: np.ndarray  #: (features, classes)
    bias: np.ndarray  #: (classes,)
    classes: tuple[str, ...]
    network: str = ""  #: SHA-256 of the network file whose features it reads

    def logits(self, features: np.ndarray) -> np.ndarray:
        """One row of logits per (N, features) row."""
        return np.asarray(features @ self.weights + self.bias, np.float32)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Softmax rows, one per (N, features) row."""
        return softmax(self.logits(features))


@dataclass(frozen=True)
class DeckProfile:
    """The refitted last layers for one deck under one camera, by network (:data:`INDEX`,
    :data:`SUIT`)."""

    heads: dict[str, Head]
    enrolled: tuple[str, ...] = ()  #: the cards the photos showed
    deck: str = ""  #: a name the director or the players gave the deck
    photos: int = 0  #: enrolment photos it was learnt from
    patches: int = 0  #: index patches (every turn and camera variant) it was fitted on
    #: for a profile play taught (kiosk.vision.decks.play_learning): the :meth:`fingerprint` of
    #: the set-up profile it grew from, or :data:`SHIPPED`; "" for one learnt at set-up
    grown_from: str = ""
    #: a deep profile's index classifier (ONNX bytes) read in place of the shipped one;
    #: empty for a quick profile
    namer: bytes = b""
    #: the SHA-256 of the shipped index classifier a deep network was learnt from
    namer_from: str = ""

    @property
    def deep(self) -> bool:
        """Whether the profile carries a network of its own (``kiosk enrol --deep``)."""
        return bool(self.namer)

    @property
    def namer_digest(self) -> str:
        """SHA-256 of the deep network's bytes ("" for a quick profile): what a layer
        learnt on that network records."""
        return hashlib.sha256(self.namer).hexdigest() if self.namer else ""

    def fingerprint(self) -> str:
        """SHA-256 of the layers' weights: which profile this is, whatever its file."""
        digest = hashlib.sha256()
        for name in sorted(self.heads):
            head = self.heads[name]
            digest.update(name.encode())
            digest.update(np.ascontiguousarray(head.weights, np.float32).tobytes())
            digest.update(np.ascontiguousarray(head.bias, np.float32).tobytes())
        digest.update(self.namer)
        return digest.hexdigest()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the profile (an ``.npz``; written aside, then moved into place)."""
        header = {
            "version": VERSION, "enrolled": list(self.enrolled), "deck": self.deck,
            "photos": self.photos, "patches": self.patches, "grown_from": self.grown_from,
            "namer": ({"sha256": self.namer_digest, "grown_from": self.namer_from}
                      if self.namer else None),
            "heads": {name: {"classes": list(h.classes), "network": h.network}
                      for name, h in self.heads.items()},
        }  # fmt: skip
        arrays: dict[str, np.ndarray] = {}
        for name, head in self.heads.items():
            arrays[f"{name}_weights"] = head.weights
            arrays[f"{name}_bias"] = head.bias
        if self.namer:
            arrays["namer"] = np.frombuffer(self.namer, np.uint8)
        target = Path(path)
        partial = target.with_name(target.name + ".partial.npz")
        arrays["header"] = np.array(json.dumps(header))
        np.savez_compressed(partial, **arrays)  # type: ignore[arg-type]  # (stub: allow_pickle)
        os.replace(partial, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> DeckProfile:
        """Read a profile; a missing, unreadable or foreign file is a :class:`ProfileError`."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                if not isinstance(header, dict) or header.get("version") not in READS:
                    version = header.get("version") if isinstance(header, dict) else None
                    raise ProfileError(f"deck profile {path} has format version {version}, "
                                       f"this kiosk reads {VERSION}: enrol the deck again")
                heads = {}
                for name, about in header["heads"].items():
                    head = Head(np.asarray(data[f"{name}_weights"], np.float32),
                                np.asarray(data[f"{name}_bias"], np.float32),
                                tuple(str(c) for c in about["classes"]), str(about["network"]))
                    if (head.weights.ndim != 2 or head.weights.shape[1] != len(head.classes)
                            or head.bias.shape != (len(head.classes),)):
                        raise ProfileError(f"not a deck profile (its arrays disagree): {path}")
                    heads[str(name)] = head
                namer, namer_from = b"", ""
                if header.get("namer"):
                    namer = np.asarray(data["namer"], np.uint8).tobytes()
                    namer_from = str(header["namer"].get("grown_from", ""))
                    if hashlib.sha256(namer).hexdigest() != header["namer"].get("sha256"):
                        raise ProfileError(f"deck profile {path} is damaged: its network "
                                           "does not match its header")
                return cls(heads, tuple(str(c) for c in header.get("enrolled", ())),
                           str(header.get("deck", "")), int(header.get("photos", 0)),
                           int(header.get("patches", 0)), str(header.get("grown_from", "")),
                           namer, namer_from)
        except ProfileError:
            raise
        except FileNotFoundError:
            raise ProfileError(f"no such deck profile: {path}") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, json.JSONDecodeError):
            raise ProfileError(f"not a deck profile (unreadable): {path}") from None


@dataclass(frozen=True)
class FitSettings:
    """How a layer is refitted: its pull towards the shipped one, the steps and rate."""

    pull: float = PULL
    steps: int = STEPS
    rate: float = RATE
    #: move only the cards the photos showed with their same-colour twin (the jack of
    #: clubs with the jack of spades), and ``none``: a card learnt without its twin pulls
    #: the twin's indices to itself, the others keep the shipped weights
    only_shown: bool = True


def fit_head(
    features: np.ndarray, names: Sequence[str], shipped: Head,
    settings: FitSettings = FitSettings(),  # noqa: B008 (frozen: one shared value is safe)
) -> Head:
    """The last layer refitted on (N, features) rows named ``names`` (each one of the
    shipped layer's classes), from ``shipped`` and pulled towards it; full-batch Adam,
    every name weighing the same however many patches it has, so the many ``none``
    patches do not drown a card."""
    if len(features) != len(names) or not len(names):
        raise ProfileError("a profile needs named patches to learn from")
    index = {c: i for i, c in enumerate(shipped.classes)}
    unknown = sorted(set(names) - set(index))
    if unknown:
        raise ProfileError(f"the network has no class {unknown[0]!r}")
    y = np.array([index[n] for n in names])
    x = np.asarray(features, np.float32)
    counts = np.bincount(y, minlength=len(shipped.classes)).astype(np.float32)
    sample_weight = (1.0 / np.clip(counts, 1, None))[y]
    sample_weight /= sample_weight.sum()
    onehot = np.eye(len(shipped.classes), dtype=np.float32)[y]
    pull, rate = settings.pull, settings.rate
    shown = (_movable(shipped.classes, counts > 0) if settings.only_shown
             else np.ones_like(counts))
    params = [shipped.weights.copy(), shipped.bias.copy()]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    for step in range(1, settings.steps + 1):
        w, b = params
        error = (softmax(x @ w + b) - onehot) * sample_weight[:, None]
        grads = ((x.T @ error + pull * (w - shipped.weights)) * shown,
                 (error.sum(axis=0) + pull * (b - shipped.bias)) * shown)
        for param, grad, (m, s) in zip(params, grads, moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            s *= 0.999
            s += 0.001 * grad * grad
            param -= rate * (m / (1 - 0.9**step)) / (np.sqrt(s / (1 - 0.999**step)) + 1e-8)
    return Head(params[0], params[1], shipped.classes, shipped.network)


def _movable(classes: Sequence[str], shown: np.ndarray) -> np.ndarray:
    """1.0 for each class a refit may move: shown, and for a card, shown with its
    same-colour twin where the network has one.

    >>> _movable(("JC", "JS", "QC", "QS", "none"), np.array([1, 1, 1, 0, 1], bool)).tolist()
    [1.0, 1.0, 0.0, 0.0, 1.0]
    """
    seen = {c for c, s in zip(classes, shown, strict=True) if s}
    out = []
    for c in classes:
        twin = c[0] + Suit.parse(c[1]).same_colour.value if is_card(c) else None
        out.append(c in seen and (twin is None or twin in seen or twin not in classes))
    return np.asarray(out, np.float32)


def is_card(name: str) -> bool:
    """Whether a class of the card networks names a card face (``QS``), not ``none`` or
    ``back``.

    >>> [is_card(c) for c in ("QS", "5H", "back", "none")]
    [True, True, False, False]
    """
    return len(name) == 2 and name[1] in "CDHS"


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row of (N, classes) logits as probabilities (an empty batch stays empty)."""
    if len(logits) == 0:
        return np.zeros(logits.shape, np.float32)
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), np.float32)
