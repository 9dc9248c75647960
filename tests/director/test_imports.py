"""The director imports the rules engine and nothing else of the kiosk (ARCHITECTURE.md)
but the hand records out beside it (Euchre Game Notation, `kiosk.egn`, itself the rules
engine's and the standard library's only) and two standard-library modules every part
shares (where the shipped models lie, the bounds a deck profile's bytes are held to): no
vision, no table, no screens, and so neither NumPy nor OpenCV. A laptop running the
director needs none of the kiosk's camera stack, even to check a deck profile."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_director_imports_only_the_rules_engine() -> None:
    code = (
        "import json, sys\n"
        "import kiosk.director.app, kiosk.director.decks, kiosk.director.server\n"
        "import kiosk.director.routes, kiosk.director.deck_check\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                       capture_output=True, text=True).stdout)
    kiosk_parts = {m for m in loaded if m.startswith("kiosk.")}
    allowed = ("kiosk.director", "kiosk.rules", "kiosk.egn", "kiosk.shipped", "kiosk.deck_bytes")
    assert {m for m in kiosk_parts if not m.startswith(allowed)} == set()
    assert "kiosk.director.deck_check" in kiosk_parts  # the check ran in the same process
    assert "numpy" not in loaded and "cv2" not in loaded
