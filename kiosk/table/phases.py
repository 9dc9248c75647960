"""Where a table's game stands: each phase has its screen."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """The table's phase, from set-up to a confirmed result. Equal to its code, as the
    screens and the journal's readers compare it.

    >>> Phase.HAND_OVER == "hand_over"
    True
    """

    SETUP = "setup"  #: nothing set up yet
    READY = "ready"  #: set up, the first dealer not drawn
    BIDDING = "bidding"
    PLAYING = "playing"
    RENEGE = "renege"  #: a proven renege waits for the players
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"  #: ended, waiting for both teams to agree
    CONFIRMED = "confirmed"
