"""Where a table keeps its camera calibration: one JSON file per table number.

Why per table: kiosks move between tables between rounds, and each table's
camera stands differently. The file sits beside the journal
(`var/kiosk/calibration/table-3.json`), written by the calibration screen and
read when the camera starts; kiosk.vision.camera.calibration makes and checks it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.table.session import TableSession
    from kiosk.vision.camera.calibration import Calibration


def calibration_path(session: TableSession) -> Path | None:
    """The file for this table's calibration (None before the table is set up)."""
    if session.setup is None or session.journal.path == ":memory:":
        return None
    return Path(session.journal.path).parent / "calibration" / f"table-{session.setup.table}.json"


def load_for_table(session: TableSession) -> Calibration | None:
    """This table's saved calibration, or None (none saved, or unreadable)."""
    from kiosk.vision.camera.calibration import Calibration, CalibrationError

    path = calibration_path(session)
    if path is None or not path.is_file():
        return None
    try:
        return Calibration.load(path)
    except CalibrationError:
        return None


def save_for_table(session: TableSession, calibration: Calibration) -> Path:
    """Keep a calibration for this table; returns where it went."""
    path = calibration_path(session)
    if path is None:
        raise ValueError("Set up the table first: the calibration is kept per table.")
    path.parent.mkdir(parents=True, exist_ok=True)
    calibration.save(path)
    return path
