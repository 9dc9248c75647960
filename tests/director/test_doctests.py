"""The director's doctests run with the suite (`make test` collects tests/, not kiosk/director)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kiosk.director.auth",
    "kiosk.deck_bytes",
    "kiosk.director.deck_check",
    "kiosk.director.decks",
    "kiosk.director.multipart",
    "kiosk.director.views.decks",
    "kiosk.director.gamecheck",
    "kiosk.director.guard",
    "kiosk.director.posting",
    "kiosk.director.sessions",
    "kiosk.director.web",
    "kiosk.director.views.login",
    "kiosk.director.planning",
    "kiosk.director.schedule",
    "kiosk.director.sheetdata",
    "kiosk.director.store",
    "kiosk.director.views.layout",
    "kiosk.director.views.tables",
    "kiosk.table.pairing",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
