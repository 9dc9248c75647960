"""Deep enrolment: the index classifier's whole network learnt again on one table's deck.

Why: a quick profile (:func:`kiosk.vision.decks.enrolment.learn_deck`) refits only the last
layer, over features learnt on other decks' look; where those features do not separate
this deck's clubs from its spades, no last layer can, and the left bower reads as the
right. Learning every layer on the deck's own crops lets the network see what this
deck's symbols look like under this camera.

What it learns from (:func:`learn_deck_deeply`):

- the deck's own patches, cut as the kiosk cuts them
  (:func:`kiosk.vision.decks.enrolment.deck_patches`):
  each labelled index on its box, the first stage's proposals that match it and shifted
  boxes, every quarter turn, as nearer, farther, softer and differently lit cameras give
  it; and the proposals that touch no label, this deck's pips, court pictures and back,
  as ``none``;
- the network's own kind of training patches (``models/naming_replay.npz``, a few dozen of
  each class, :func:`load_replay`), in every batch, so that the cards a handful of shots
  never showed, and what is no card, are not forgotten.

Each class of the deck weighs the same in a batch however many patches it has, the batch
norms keep the shipped statistics (a few hundred patches of one deck would make them this
deck's alone), and the patches are augmented as the recipe augments them
(:func:`kiosk.vision.decks.naming_network.augment_harder`). The suit reader's last layer is
refitted as a quick profile refits it. The result is a :class:`DeckProfile` carrying the
learnt network as ONNX bytes, which the kiosk reads with ONNX Runtime alone.

Needs torch and onnx (the ``train`` extra): the director's laptop, any PC, or a kiosk
that has them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.shipped import shipped_model
from kiosk.vision.cards.detector import Detector
from kiosk.vision.cards.index_classifier import NONE
from kiosk.vision.decks.deck_profile import SUIT, DeckProfile
from kiosk.vision.decks.enrolment import LabelledPhoto, deck_patches, fit_suit_head

#: the network's own kind of training patches, replayed while it learns a deck
REPLAY = shipped_model("naming_replay.npz")


@dataclass(frozen=True)
class DeepSettings:
    """How the network learns a deck. The rate, batch and frozen batch norms are those of
    a probe that took a real webcam deck's naming from 0.771 to 0.941 (150 steps of 64 of
    the deck's patches); there are more steps here, since a third of each batch is replay.
    Measured on real photos left out of training by ``scripts/bench_enrolment.py --kinds
    quick deep``."""

    steps: int = 240
    #: the deck's patches in a batch, and the replayed patches beside them
    deck_batch: int = 64
    replay_batch: int = 32
    rate: float = 3e-4
    #: learning stops after this many seconds whatever the steps (a kiosk must not wait)
    most_seconds: float = 100.0
    #: the leading convolutions kept as they are (0: every layer learns)
    frozen: int = 0
    threads: int | None = None
    seed: int = 0


#: the settings ``kiosk enrol --deep`` learns with
SETTINGS = DeepSettings()


def missing_extras() -> str | None:
    """What deep enrolment needs and this machine lacks, in one line; None when it has it."""
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return ("deep enrolment needs the training extras (torch and onnx): "
                "pip install 'kiosk[train]', or learn the deck without --deep")
    return None


def load_replay(path: Path, classes: Sequence[str], patch: int) -> tuple[np.ndarray, np.ndarray]:
    """The replay patches (N, patch, patch, 3) BGR and their class ids in ``classes``; a
    file cut for another patch side or naming other classes is refused (ValueError)."""
    if not path.is_file():
        raise ValueError(f"no replay patches at {path}")
    with np.load(path, allow_pickle=False) as data:
        x = np.asarray(data["x"], np.uint8)
        labels = [str(v) for v in data["labels"]]
        y = np.asarray(data["y"], np.int64)
    if x.shape[1:] != (patch, patch, 3):
        raise ValueError(f"{path} holds {x.shape[1]}-pixel patches; the network reads {patch}")
    index = {c: i for i, c in enumerate(classes)}
    if not set(labels) <= set(index):
        raise ValueError(f"{path} names classes the network does not")
    return x, np.asarray([index[labels[i]] for i in y], np.int64)


def learn_deck_deeply(
    detector: Detector, photos: Sequence[LabelledPhoto], deck: str = "",
    settings: DeepSettings | None = None, replay: Path = REPLAY,
    progress: Callable[[float], None] | None = None,
) -> DeckProfile:
    """A deep deck profile learnt from ``photos`` through ``detector``'s networks (its
    shipped index classifier is where the learning starts, whatever profile it reads
    with now), with ``settings`` (default :data:`SETTINGS`). ``progress`` hears the
    share done, 0 to 1, as it learns."""
    from kiosk.vision.decks.naming_network import export_bytes

    settings = settings or SETTINGS

    shipped = detector.shipped_namer
    if shipped is None or not shipped.has_features:
        raise ValueError("learning a deck needs the index classifier with its features")
    if not shipped.path.is_file():
        raise ValueError("deep enrolment starts from the shipped index classifier's file")
    rng = np.random.default_rng(settings.seed)
    crops = deck_patches(detector, photos, rng)
    if not any(name != NONE for name in crops.index_names):
        raise ValueError("no card to learn: the photos hold no labelled index")
    classes = shipped.classes
    index = {c: i for i, c in enumerate(classes)}
    deck_x = np.stack(crops.index_patches)
    deck_y = np.asarray([index[n] for n in crops.index_names], np.int64)
    replay_x, replay_y = load_replay(replay, classes, shipped.patch)

    model = fine_tune(shipped.path.read_bytes(), deck_x, deck_y, replay_x, replay_y,
                      settings, rng, progress)
    namer = export_bytes(model, classes, shipped.patch, shipped.margin)
    heads = {}
    suit = fit_suit_head(detector, crops)
    if suit is not None:
        heads[SUIT] = suit
    enrolled = tuple(sorted(set(crops.index_names) - {NONE}))
    return DeckProfile(heads, enrolled, deck, len(photos), len(deck_y), namer=namer,
                       namer_from=shipped.digest)


def fine_tune(start: bytes, deck_x: np.ndarray, deck_y: np.ndarray, replay_x: np.ndarray,
              replay_y: np.ndarray, settings: DeepSettings, rng: np.random.Generator,
              progress: Callable[[float], None] | None = None) -> Any:
    """The recipe deep enrolment and play's deep learning share: the network ``start``
    (an ONNX export) learnt on the deck's patches ``deck_x`` (BGR, their class ids
    ``deck_y``, each class weighing the same in a batch) with the replay's patches in every
    batch, augmented harder, its batch norms keeping the statistics it came with; the
    torch network, in eval mode (``naming_network.export_bytes`` makes it ONNX again)."""
    import torch

    from kiosk.vision.decks.naming_network import augment_harder, network_from_export, to_tensor

    torch.manual_seed(settings.seed)
    if settings.threads:
        torch.set_num_threads(settings.threads)
    model = network_from_export(start, np.concatenate([replay_x, deck_x[: len(replay_x)]]))
    model.eval()  # the batch norms keep the shipped statistics; no dropout
    convs = [i for i, layer in enumerate(model) if isinstance(layer, torch.nn.Conv2d)]
    first = convs[settings.frozen] if settings.frozen < len(convs) else len(model) - 1
    learning = [p for layer in list(model)[first:] for p in layer.parameters()]
    optimizer = torch.optim.Adam(learning, lr=settings.rate)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator().manual_seed(settings.seed)
    counts = np.bincount(deck_y).astype(np.float64)
    weight = 1.0 / counts[deck_y]
    weight /= weight.sum()
    started = time.monotonic()
    for step in range(settings.steps):
        mine = rng.choice(len(deck_y), settings.deck_batch, p=weight)
        theirs = rng.integers(0, len(replay_y), settings.replay_batch)
        x = np.concatenate([deck_x[mine], replay_x[theirs]])
        y = np.concatenate([deck_y[mine], replay_y[theirs]])
        batch = augment_harder(to_tensor(x).float() / 255, generator)
        loss = loss_fn(model(batch), torch.from_numpy(y))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if progress is not None:
            progress((step + 1) / settings.steps)
        if time.monotonic() - started > settings.most_seconds:
            break
    model.eval()
    return model
