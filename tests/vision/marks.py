"""Skip marks the vision tests share: a deck's card art, and torch for the learning that
needs it (looked up, not imported: every pytest worker collects every module)."""

from __future__ import annotations

import importlib.util

import pytest

from datasets import cards_art


def needs_deck_and_torch(deck: str) -> list[pytest.MarkDecorator]:
    """A module's marks: ``deck``'s card art drawn (it is held out of training), and
    torch installed (make setup-dev)."""
    return [
        pytest.mark.skipif(
            deck not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
            reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed"),
        pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                           reason="needs torch (make setup-dev)"),
    ]
