"""The benchmark scripts' own tests: beside the scripts they check, so the product's
suite (tests/) never imports a benchmark. ``make test`` runs them too: they are quick,
and a benchmark that no longer runs measures nothing. The checkout's root and this
folder's parent go on ``sys.path`` as when the scripts run from the root."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for folder in (REPO / "scripts", REPO):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
