"""Learning the table's deck during play, from the cards the players accepted.

A profile learnt at set-up saw the pack once, laid flat under the set-up light. Every
hand then shows twenty cards of the same deck under the light, angles and hands of play,
and each card the hand accepted (read by the camera and let stand, or asked about and
answered by the players) is a labelled example of this deck that cost nobody a tap.
The frames in which such a card was read as its same-colour twin, a club as a spade, are
exactly what the profile must learn.

What keeps it safe:

- *Only accepted cards teach.* A card the players corrected teaches nothing, neither the
  name the camera gave it nor the one the players put in its place: whatever the camera
  boxed there may not be that card at all.
- *A box teaches its seat's card only when it reads that card's rank*, and only when the
  seat played no other card of that rank in the hand (two jacks from one seat: neither
  box is sure to be which). Ranks read well on decks the networks never saw; suits are
  what a profile corrects.
- *Bounded.* At most :data:`PER_CARD` patches a card are kept (the newest), and the fit
  starts from the layer the table reads with (its set-up profile's, else the shipped
  one) and is pulled back towards it (:mod:`kiosk.vision.decks.deck_profile`).
- *Checked before use.* A refit learnt from the earlier hands must name the latest
  hand's patches, which it never saw, at least as well as the layer in use; only then
  is it refitted on every hand and adopted.

A *deep* profile (``kiosk enrol --deep``: a network of its own) learns deeply in play too,
where torch is installed: its network learns the pool again with deep enrolment's recipe
(:func:`kiosk.vision.decks.deep_enrolment.fine_tune`, the replay patches in every batch,
:data:`PLAY_DEEP`'s fewer steps on one thread, between hands), from the earlier hands,
and is adopted as it was checked: only if it names the latest hand's patches at least
as well as the network in use, and names no more of the replay's patches of no card
(half of them held back from its learning) as cards: play shows no card's negatives.
Without torch, or for a quick profile, the last layer is refitted as above.

No torch and no camera here: the table's camera thread hands in each frame's picture
and boxes (:meth:`PlayLearning.look`), the table session says which cards each hand
accepted (:meth:`PlayLearning.settle`), and :meth:`PlayLearning.refit` returns the
profile to read with next, or None.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.cards.index_classifier import crop
from kiosk.vision.decks.deck_profile import INDEX, SHIPPED, DeckProfile, FitSettings, Head, fit_head
from kiosk.vision.decks.deep_enrolment import DeepSettings

#: the newest patches kept for each card (every quarter turn of each is learnt from)
PER_CARD = 24
#: the patches kept from one seat's boxes of one rank in one hand, as they are seen
#: (a card lies there for many frames; a few dozen views of it are plenty)
PER_SIGHTING = 12
#: a box nearer the picture's edge than this share of its size is cut off: not kept
EDGE = 0.1
#: the fewest accepted cards of finished hands before a refit is tried
FEWEST_CARDS = 8
#: the pull of a play refit towards the layer it starts from: stronger than enrolment's,
#: since what it learns from was chosen by the networks' own reading
PULL = 0.2
#: the cards and markers a table's pack holds: nothing else is learnt
PACK = frozenset(EUCHRE_NAMES) | {"5C", "5D", "5H", "5S"}
#: what no card is, among the network's classes: what play never shows it
NOTHING = ("none", "back")
#: how a deep profile's network learns between hands: deep enrolment's recipe, fewer
#: steps, on one thread (the camera's reading keeps the other cores), within a minute
PLAY_DEEP = DeepSettings(steps=120, most_seconds=60.0, threads=1)


class Namer(Protocol):
    """What learning needs of the index classifier (kiosk.vision.cards.index_classifier)."""

    patch: int
    margin: float
    classes: tuple[str, ...]

    def features(self, patches: Sequence[np.ndarray]) -> np.ndarray: ...

    def head(self) -> Head: ...


@dataclass
class HandPatches:
    """The patches one hand's frames gave, by (seat, rank), until the hand is settled."""

    number: Any
    by_seat_rank: dict[tuple[str, str], list[np.ndarray]] = field(default_factory=dict)


@dataclass(frozen=True)
class Refit:
    """What one refit found: adopted or not, and the latest hand's patches named right
    by the layer in use and by the refit (the check), over how many."""

    adopted: bool
    before: int
    after: int
    checked: int
    cards: int  #: cards with patches in the pool
    deep: bool = False  #: the profile's own network learnt again, not its last layer
    #: for a network learnt again: the held-back replay patches of no card named so by
    #: the network in use and by the one learnt (it must not name more of them cards)
    nothing_before: int = 0
    nothing_after: int = 0


class PlayLearning:
    """Collects patches of accepted cards hand by hand and refits the profile's index layer."""

    def __init__(self, namer: Namer, profile: DeckProfile | None = None, *,
                 per_card: int = PER_CARD, pull: float = PULL,
                 deep: DeepSettings | None = PLAY_DEEP) -> None:
        """``deep``: how a deep profile's network learns in play (None: only its last
        layer, as a quick profile's)."""
        self.namer = _namer_of(profile, namer)
        self.profile = profile
        self.deep = deep
        #: why learning the network failed, after which only the layer is refitted
        self.deep_failed = ""
        #: what every profile this learning adopts grew from: the table's set-up profile
        #: (its fingerprint; a profile play taught before keeps its own origin), or SHIPPED
        self.origin = origin_of(profile)
        self.per_card = per_card
        self.settings = FitSettings(pull=pull)
        self._hand: HandPatches | None = None
        #: per card, its patches by hand: deque of (hand order, patch)
        self._pool: dict[str, deque[tuple[int, np.ndarray]]] = {}
        self._hands = 0
        self.refits: list[Refit] = []

    # -- the camera's side ---------------------------------------------------------------

    def look(self, hand: Any, picture: np.ndarray, seen: Iterable[tuple[str, str, Sequence[float]]]
             ) -> None:
        """One frame of hand ``hand`` in play: ``seen`` holds (seat, name, box) for each box
        in a seat's zone, the box in ``picture``'s pixels. A new hand number starts a new
        collection (the one before, unsettled, is dropped)."""
        if self._hand is None or self._hand.number != hand:
            self._hand = HandPatches(hand)
        collection = self._hand
        height, width = picture.shape[:2]
        for seat, name, box in seen:
            if name not in PACK or not _inside(box, width, height):
                continue
            kept = collection.by_seat_rank.setdefault((seat, name[0]), [])
            if len(kept) >= PER_SIGHTING * 4:
                continue
            kept.append(crop(picture, tuple(box), self.namer.patch, self.namer.margin))

    # -- the session's side --------------------------------------------------------------

    def settle(self, hand: Any, accepted: Iterable[tuple[str, str]],
               corrected: Iterable[tuple[str, str]] = ()) -> int:
        """Hand ``hand`` is over: ``accepted`` (seat, card) are the cards it counted,
        ``corrected`` (seat, card) every card a player changed (the name before and the
        name after). Returns the patches added to the pool."""
        collection, self._hand = self._hand, None
        if collection is None or collection.number != hand:
            return 0
        barred = {(seat, card[0]) for seat, card in corrected}
        by_seat_rank: dict[tuple[str, str], list[str]] = {}
        for seat, card in accepted:
            by_seat_rank.setdefault((seat, card[0]), []).append(card)
        self._hands += 1
        added = 0
        for key, cards in by_seat_rank.items():
            if len(cards) != 1 or key in barred or cards[0] not in PACK:
                continue
            patches = _spread(collection.by_seat_rank.get(key, []), PER_SIGHTING)
            if not patches:
                continue
            pool = self._pool.setdefault(cards[0], deque(maxlen=self.per_card))
            for patch in patches:
                pool.append((self._hands, patch))
                added += 1
        return added

    @property
    def cards(self) -> int:
        """Cards with patches in the pool."""
        return sum(1 for patches in self._pool.values() if patches)

    def refit(self) -> DeckProfile | None:
        """A profile whose index layer learnt the pool, when the check allows it (see the
        module's docstring); None when there is too little to learn or the check fails.
        Seconds on a kiosk's CPU: run it away from the screen's thread."""
        rows = [(card, hand, patch) for card, patches in self._pool.items()
                for hand, patch in patches]
        if self.cards < FEWEST_CARDS or not rows:
            return None
        latest = max(hand for _, hand, _ in rows)
        if len({n for n, h, _ in rows if h < latest}) < FEWEST_CARDS:
            return None
        if self._learns_deeply():
            try:
                return self._refit_deeply(rows, latest)
            except (ImportError, OSError, RuntimeError, ValueError) as problem:
                # (no replay patches, an export torch refuses): the layer, from now on
                self.deep, self.deep_failed = None, str(problem)
        names, hands, patches = zip(*rows, strict=True)
        features, labels = self._features(list(patches), list(names))
        turned_hands = np.repeat(np.array(hands), 4)
        current = self._current_head()
        earlier = turned_hands < latest
        held = ~earlier
        trial = fit_head(features[earlier], [labels[i] for i in np.flatnonzero(earlier)],
                         current, self.settings)
        truth = np.array([current.classes.index(n) for n in labels])
        before = int((current.logits(features[held]).argmax(1) == truth[held]).sum())
        after = int((trial.logits(features[held]).argmax(1) == truth[held]).sum())
        adopted = after >= before
        self.refits.append(Refit(adopted, before, after, int(held.sum()), self.cards))
        if not adopted:
            return None
        head = fit_head(features, labels, current, self.settings)
        self.profile = replace(
            _with_index(self.profile, head, sorted(self._pool),
                        sum(len(p) for p in self._pool.values())),
            grown_from=self.origin)
        return self.profile

    def _learns_deeply(self) -> bool:
        """A deep profile, settings to learn it with, and torch to learn with."""
        if self.deep is None or self.profile is None or not self.profile.deep:
            return False
        from kiosk.vision.decks.deep_enrolment import missing_extras

        return missing_extras() is None

    def _refit_deeply(self, rows: list[tuple[str, int, np.ndarray]], latest: int
                      ) -> DeckProfile | None:
        """The profile's network learnt on the earlier hands' patches (deep enrolment's
        recipe), adopted if it names the latest hand's patches at least as well as the
        network and layer in use (the network adopted is the one checked)."""
        from kiosk.vision.cards.index_classifier import IndexClassifier
        from kiosk.vision.decks.deep_enrolment import REPLAY, fine_tune, load_replay
        from kiosk.vision.decks.naming_network import export_bytes

        profile, settings = self.profile, self.deep
        assert profile is not None and settings is not None
        classes = tuple(self.namer.classes)
        index = {c: i for i, c in enumerate(classes)}
        earlier = [(n, p) for n, h, p in rows if h < latest and n in index]
        held = [(n, p) for n, h, p in rows if h == latest and n in index]
        if not earlier or not held:
            return None
        turned = [(n, np.ascontiguousarray(np.rot90(p, k))) for n, p in earlier
                  for k in range(4)]  # cards lie at any angle
        deck_x = np.stack([p for _, p in turned])
        deck_y = np.asarray([index[n] for n, _ in turned], np.int64)
        replay_x, replay_y = load_replay(REPLAY, classes, self.namer.patch)
        # play shows no card's negatives (its pips, court pictures, back): half the
        # replay's patches of no card are held back to check the network does not learn
        # to name them cards
        nothing = np.flatnonzero(np.isin(replay_y, [index[n] for n in NOTHING if n in index]))
        kept = np.setdiff1d(np.arange(len(replay_y)), nothing[::2])
        model = fine_tune(profile.namer, deck_x, deck_y, replay_x[kept], replay_y[kept],
                          settings, np.random.default_rng(settings.seed + latest))
        network = export_bytes(model, classes, self.namer.patch, self.namer.margin)
        learnt = IndexClassifier(network, settings.threads)
        patches = [p for _, p in held]
        names = [n for n, _ in held]
        current = self._current_head()
        before = _named_right(self.namer, current, patches, names)
        after = _named_right(learnt, learnt.head(), patches, names)
        negatives = [replay_x[i] for i in nothing[::2]]
        no_card = [classes[replay_y[i]] for i in nothing[::2]]
        nothing_before = _named_right(self.namer, current, negatives, no_card)
        nothing_after = _named_right(learnt, learnt.head(), negatives, no_card)
        adopted = after >= before and nothing_after >= nothing_before
        self.refits.append(Refit(adopted, before, after, 4 * len(held), self.cards, deep=True,
                                 nothing_before=nothing_before, nothing_after=nothing_after))
        if not adopted:
            return None
        cards = sorted(self._pool)
        self.namer = learnt
        self.profile = replace(
            profile, namer=network,
            heads={k: v for k, v in profile.heads.items() if k != INDEX},  # learnt anew
            enrolled=tuple(sorted(set(profile.enrolled) | set(cards))),
            patches=sum(len(p) for p in self._pool.values()), grown_from=self.origin)
        return self.profile

    def _current_head(self) -> Head:
        """The index layer the table reads with now: the profile's, else the shipped one."""
        if self.profile is not None and INDEX in self.profile.heads:
            return self.profile.heads[INDEX]
        return self.namer.head()

    def _features(self, patches: list[np.ndarray], names: list[str]
                  ) -> tuple[np.ndarray, list[str]]:
        """Features of every patch at every quarter turn (cards lie at any angle)."""
        turned = [np.ascontiguousarray(np.rot90(p, k)) for p in patches for k in range(4)]
        rows = np.concatenate([self.namer.features(turned[s : s + 512])
                               for s in range(0, len(turned), 512)])
        return rows, [n for n in names for _ in range(4)]


def _named_right(namer: Namer, head: Head, patches: list[np.ndarray], names: list[str]
                 ) -> int:
    """How many of ``patches``, each at every quarter turn, ``head`` over ``namer``'s
    features names as ``names`` says."""
    turned = [np.ascontiguousarray(np.rot90(p, k)) for p in patches for k in range(4)]
    features = np.concatenate([namer.features(turned[s : s + 512])
                               for s in range(0, len(turned), 512)])
    truth = np.array([head.classes.index(n) for n in names for _ in range(4)])
    return int((head.logits(features).argmax(1) == truth).sum())


def _namer_of(profile: DeckProfile | None, namer: Namer) -> Namer:
    """The network a profile reads with: a deep profile's own (read from its bytes when
    ``namer``, the one the detector reads with now, is another), else ``namer``."""
    if profile is None or not profile.deep:
        return namer
    if getattr(namer, "digest", None) == profile.namer_digest:
        return namer
    from kiosk.vision.cards.index_classifier import IndexClassifier

    return IndexClassifier(profile.namer, 1)


def origin_of(profile: DeckProfile | None) -> str:
    """What a profile learnt in play from ``profile`` grew from
    (:attr:`~kiosk.vision.decks.deck_profile.DeckProfile.grown_from`)."""
    if profile is None:
        return SHIPPED
    return profile.grown_from or profile.fingerprint()


def _inside(box: Sequence[float], width: int, height: int) -> bool:
    """Whether a box lies within the picture, clear of its edge (a cut index misleads)."""
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * EDGE, (y2 - y1) * EDGE
    return x1 >= mx and y1 >= my and x2 <= width - mx and y2 <= height - my and x2 > x1


def _spread(items: list[Any], most: int) -> list[Any]:
    """At most ``most`` of ``items``, evenly over them (a card's early and late views).

    >>> _spread(list(range(10)), 3)
    [0, 4, 9]
    """
    if len(items) <= most:
        return list(items)
    picks = np.linspace(0, len(items) - 1, most).round().astype(int)
    return [items[i] for i in picks]


def _with_index(profile: DeckProfile | None, head: Head, cards: Sequence[str], patches: int
                ) -> DeckProfile:
    """``profile`` with its index layer replaced (a new profile when there was none)."""
    if profile is None:
        return DeckProfile({INDEX: head}, tuple(cards), "learnt in play", 0, patches)
    enrolled = tuple(sorted(set(profile.enrolled) | set(cards)))
    return replace(profile, heads={**profile.heads, INDEX: head}, enrolled=enrolled)
