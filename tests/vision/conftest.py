"""Vision tests: the generator (datasets/), the detector (kiosk/vision/cards/detector.py), the CLI.

The repository root goes on ``sys.path`` so ``datasets`` and ``models`` import as they do
when the scripts run from the root.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MODEL = REPO / "models" / "cards.onnx"


@pytest.fixture(scope="session")
def have_card_art() -> None:
    """Skip where the Debian card decks or rsvg-convert are missing."""
    from datasets.cards_art import CACHE_DIR, usable_decks

    if not usable_decks():
        pytest.skip("gnome-cards-data is not installed")
    if not any(CACHE_DIR.glob("*.png")) and shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert (librsvg2-bin) is not installed")
