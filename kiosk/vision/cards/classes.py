"""The detector's classes, in the project's card notation (``9C`` ... ``AS``, ``5H``, ``back``).

All 52 faces are classes, not only the 24 euchre cards: a 6H that had no class of its own
would be read as the nearest look-alike (9H) and become a false detection. The kiosk
ignores the non-euchre cards except the 5s (score markers). The training package
(``datasets``) takes its labels from here, so the kiosk and the model it loads agree.

>>> CLASSES[:3], CLASSES[-1], len(CLASSES)
(('9C', 'TC', 'JC'), 'back', 53)
>>> [is_euchre_or_five(c) for c in ("JH", "5S", "6D", "back")]
[True, True, False, False]
"""

from __future__ import annotations

from kiosk.rules.cards import Rank, Suit

#: the class of a face-down card (boxed whole, not by its index)
FACE_DOWN = "back"

SUITS: tuple[str, ...] = tuple(suit.value for suit in Suit)
EUCHRE_RANKS: tuple[str, ...] = ("9", "T", "J", "Q", "K", "A")
OTHER_RANKS: tuple[str, ...] = tuple(r.value for r in Rank if r.value not in EUCHRE_RANKS)

#: class id -> card name, as trained (also stored in the ONNX metadata, which wins):
#: euchre cards first (ids 0-23), then 2-8, then ``back``.
CLASSES: tuple[str, ...] = (
    tuple(r + s for s in SUITS for r in EUCHRE_RANKS)
    + tuple(r + s for s in SUITS for r in OTHER_RANKS)
    + (FACE_DOWN,)
)
CLASS_ID: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}
#: every class that is a card face (all but ``back``)
FACES: tuple[str, ...] = CLASSES[:-1]


def is_euchre_or_five(card: str) -> bool:
    """True for the cards the kiosk cares about: the 24 euchre cards and the four 5s
    (score markers)."""
    return card != FACE_DOWN and (card[0] in EUCHRE_RANKS or card[0] == "5")
