"""The examples in the vision modules' docstrings run as tests: each part of the trick
reader shows itself working alone."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kiosk.vision.cards.classes", "kiosk.vision.cards.detection", "kiosk.vision.wording",
           "kiosk.vision.reader.frame", "kiosk.vision.reader.track",
           "kiosk.vision.reader.zones", "kiosk.vision.reader.trick",
           "kiosk.vision.reader.hand", "kiosk.vision.reader.kitty", "kiosk.vision.reader",
           "kiosk.vision.cards.letterbox",
           "kiosk.vision.cards.boxes", "kiosk.vision.cards.detector",
           "kiosk.vision.fives.marker_look"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
