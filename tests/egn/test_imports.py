"""`kiosk.egn` sits beside the rules engine (ARCHITECTURE.md, "hand records out"): it
imports the rules engine and the standard library only, so the director and a laptop
replaying games need nothing of the camera stack, nor `jsonschema`."""

from __future__ import annotations

import json
import subprocess
import sys


def test_egn_imports_only_the_rules_engine_and_the_standard_library() -> None:
    code = ("import json, sys\n"
            "import kiosk.egn.game, kiosk.egn.records, kiosk.egn.replay, kiosk.egn.kiosk_game\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                       capture_output=True, text=True).stdout)
    kiosk_parts = {m for m in loaded if m.startswith("kiosk.")}
    assert {m for m in kiosk_parts if not m.startswith(("kiosk.egn", "kiosk.rules"))} == set()
    assert "kiosk.egn.kiosk_game" in kiosk_parts
    assert not {"jsonschema", "numpy", "cv2", "kivy"} & set(loaded)
