"""How the suite shares two cores (``make test`` runs ``pytest -n 3 --dist loadfile``: a
third worker takes the cores the Kivy walks and browsers leave idle while they wait on a
frame or a page).

Each test module is one unit of work for pytest-xdist, so a module's expensive
module-scoped fixtures (a detector loaded, a deck rendered and learnt) are built once,
on one worker, as in a plain run. The longest modules are handed out first, so that
the workers finish together instead of one waiting on a long module dealt last.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's own packages beside kiosk: devtools, datasets
    sys.path.insert(0, str(ROOT))

#: the modules that take the longest (seconds under ``--durations`` with three workers on
#: two cores), dealt first; any module not named here counts as short
LONGEST = {
    "tests/app/test_ui_sizes.py": 137,
    "tests/app/test_ui.py": 77,
    "tests/vision/test_deep_enrolment.py": 55,
    "tests/packaging/test_wheel.py": 54,
    "tests/vision/test_enrol.py": 50,
    "tests/vision/test_index_classifier.py": 49,
    "tests/app/test_deck_setup.py": 47,
    "tests/vision/test_training.py": 33,
    "tests/vision/test_deep_play_learning.py": 21,
    "tests/table/test_deck_learning.py": 17,
    "tests/director/test_live.py": 15,
    "tests/reader/test_hand_frames.py": 14,
    "tests/reader/test_rendered_kitty.py": 13,
    "tests/e2e/test_deck_handout.py": 13,
    "tests/director/test_deck_learning.py": 13,
    "tests/vision/test_markers_reader.py": 12,
    "tests/reader/test_streams.py": 10,
    "tests/director/test_sheet.py": 10,
}


def _module(item: pytest.Item) -> str:
    try:
        return item.path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(item.path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # a stable sort: each module's tests stay together and in their order
    items.sort(key=lambda item: -LONGEST.get(_module(item), 0))
