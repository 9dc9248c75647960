"""The lab's own tests: the experiment scripts beside them, not the product.

They run by hand (``pytest lab/tests``), not in ``make test``: an experiment's tool is
checked where it lives, and the product's suite never imports the lab. The repository
root goes on ``sys.path`` so ``lab``, ``datasets`` and ``models`` import as they do when
the scripts run from the root.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
