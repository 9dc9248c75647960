"""The real app, tapped through under Xvfb: set-up, bidding, a whole hand, the score,
a renege, the game end. The screenshots it saves are worth a look (docs/app-*.png)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from kiosk.table.session import TableSession

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("ui_run.py")
SHOTS = ("rules", "setup", "setup-keyboard", "voice", "pairing", "calibration-taps",
         "calibration", "bidding-turn-up", "bidding-explained", "bidding-undo",
         "bidding-camera-turn-up", "live", "correction", "correction-question",
         "correction-undo", "live-camera-stopped", "score-hand-1", "twin", "renege",
         "renege-confirm", "score-game-won", "game-end-agree", "game-end")


def test_tap_through_a_game(tmp_path: Path, virtual_screen: Callable[[str], str]) -> None:
    journal = tmp_path / "ui.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path),
               DISPLAY=virtual_screen("1280x800"))
    done = subprocess.run([sys.executable, str(SCRIPT), str(journal), str(tmp_path / "shots")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert "UI OK" in done.stdout, done.stderr[-3000:] + done.stdout[-3000:]
    # every screen was measured against the accessibility bar, and passed
    audited = [line for line in done.stdout.splitlines() if line.startswith("AUDIT ")]
    assert len(audited) >= len(SHOTS) and all(" 0 finding(s)" in a for a in audited), audited
    for name in SHOTS:
        shot = tmp_path / "shots" / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000, name
    # What the taps left in the journal is a finished, confirmed game.
    session = TableSession.open(journal)
    assert session.phase == "confirmed"
    assert session.scores == {"NS": 2, "EW": 1}
    assert [h.points for h in session.finished] == [{"NS": 0, "EW": 1}, {"NS": 2, "EW": 0}]
    assert session.finished[1].result["chosen"] == "penalty_added"
    # the camera set-up found the printed mat in the picture and kept it for table 3
    saved = json.loads((tmp_path / "calibration" / "table-3.json").read_text())
    assert saved["source"] == "mat" and len(saved["markers"]) == 4
