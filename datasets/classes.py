"""The detector's classes, in the project's card notation (``9C`` ... ``AS``, ``5H``, ``back``).

All 52 faces are classes, not only the 24 euchre cards: a 6H that had no class of its own
would be read as the nearest look-alike (9H) and become a false detection. The kiosk
ignores the non-euchre cards except the 5s (score markers).

>>> CLASSES[:3], CLASSES[-1], len(CLASSES)
(('9C', 'TC', 'JC'), 'back', 53)
>>> is_euchre_or_five("5H"), is_euchre_or_five("6H"), is_euchre_or_five("TS")
(True, False, True)
"""

from __future__ import annotations

SUITS = ("C", "D", "H", "S")
EUCHRE_RANKS = ("9", "T", "J", "Q", "K", "A")
OTHER_RANKS = ("2", "3", "4", "5", "6", "7", "8")
ALL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")

#: class id -> card name; euchre cards first (ids 0-23), then 2-8, then ``back``.
CLASSES: tuple[str, ...] = (
    tuple(r + s for s in SUITS for r in EUCHRE_RANKS)
    + tuple(r + s for s in SUITS for r in OTHER_RANKS)
    + ("back",)
)
CLASS_ID: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}
FACES: tuple[str, ...] = CLASSES[:-1]
BACK = "back"


def is_euchre_or_five(card: str) -> bool:
    """True for the cards the kiosk cares about: the 24 euchre cards and the four 5s."""
    return card != BACK and (card[0] in EUCHRE_RANKS or card[0] == "5")
