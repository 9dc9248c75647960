"""The examples in the table, vision and app modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kiosk.table.journal", "kiosk.table.feed", "kiosk.table.setup", "kiosk.table.assignment",
           "kiosk.table.deck_keeping", "kiosk.table.turn_up", "kiosk.vision.decks.deck_file",
           "kiosk.vision.events", "kiosk.vision.camera.calibration", "kiosk.vision.camera.rectify",
           "kiosk.vision.cards.detector", "kiosk.vision.cards.suit_reader",
           "kiosk.vision.cards.context_reader",
           "kiosk.vision.cards.index_classifier",
           "kiosk.vision.brief", "kiosk.vision.reader", "kiosk.vision.reader.twins",
           "kiosk.table.twins", "kiosk.table.director_problem",
           "kiosk.vision.fives.poses", "kiosk.app.demo", "kiosk.app.headless", "kiosk.app.palette",
           "kiosk.commands.run"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
