"""How the suite shares two cores (``make test`` runs ``pytest -n 2 --dist loadfile``).

Each test module is one unit of work for pytest-xdist, so a module's expensive
module-scoped fixtures (a detector loaded, a deck rendered and learnt) are built once,
on one worker, as in a plain run. The longest modules are handed out first, so that
the two workers finish together instead of one waiting on a long module dealt last.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's own packages beside kiosk: devtools, datasets
    sys.path.insert(0, str(ROOT))

#: the modules that take the longest (seconds under ``--durations`` on two cores at load
#: average 10), dealt first; any module not named here counts as short
LONGEST = {
    "tests/app/test_headless.py": 212,
    "tests/app/test_ui.py": 208,
    "tests/vision/test_training.py": 190,
    "tests/app/test_deck_setup.py": 162,
    "tests/app/test_ui_sizes.py": 150,
    "tests/vision/test_deep_enrolment.py": 150,
    "tests/vision/test_index_classifier.py": 142,
    "tests/vision/test_enrol.py": 134,
    "tests/packaging/test_wheel.py": 110,
    "tests/vision/test_deep_play_learning.py": 102,
    "tests/e2e/test_deck_handout.py": 74,
    "tests/table/test_deck_learning.py": 72,
    "tests/vision/test_layouts.py": 52,
    "tests/reader/test_hand_frames.py": 49,
    "tests/director/test_load.py": 49,
    "tests/vision/test_markers_reader.py": 43,
    "tests/vision/test_photo_reading.py": 38,
    "tests/director/test_deck_learning.py": 37,
    "tests/reader/test_read_video_kitty.py": 36,
}


def _module(item: pytest.Item) -> str:
    try:
        return item.path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(item.path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # a stable sort: each module's tests stay together and in their order
    items.sort(key=lambda item: -LONGEST.get(_module(item), 0))
