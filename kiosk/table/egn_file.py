"""Every game the kiosk scores, kept as Euchre Game Notation beside its journal.

When both teams have confirmed the score, the game (the result posted to the director,
with each hand's record) is written to ``games/<event>-r<round>-t<table>-<start>.egn``
in the journal's folder, for players and directors to replay anywhere EGN is read.  A
file that cannot be written costs the game nothing: the journal still holds it all,
and `kiosk egn` can be run on the result later.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.egn.kiosk_game import egn_of_result
from kiosk.egn.notation import EgnError

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

log = logging.getLogger(__name__)


def egn_path(session: TableSession) -> Path | None:
    """Where the session's game is kept; None for a journal in memory."""
    if session.journal.path == ":memory:" or session.setup is None:
        return None
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", session.game_id().replace("/", "-")).strip("-")
    return Path(session.journal.path).parent / "games" / f"{name}.egn"


def hand_times(session: TableSession) -> dict[int, float]:
    """When each finished hand of this game was scored: its `next_hand` (the last hand:
    `end_game`) in the journal, after the table's last `new_game`."""
    times: dict[int, float] = {}
    last = max((hand.number for hand in session.finished), default=0)
    for entry in session.journal.entries():
        if entry.kind == "new_game":
            times = {}
        elif entry.kind == "next_hand" and isinstance(entry.payload.get("hand"), int):
            times[entry.payload["hand"]] = entry.wall
        elif entry.kind == "end_game" and last:
            times.setdefault(last, entry.wall)
    return times


def keep_game(session: TableSession) -> Path | None:
    """Write the game as EGN (replacing an earlier copy); its path, or None if not kept."""
    path = egn_path(session)
    if path is None or session.setup is None:
        return None
    try:
        document = egn_of_result(session.game_result(), session.setup.points_to_win,
                                 hand_times=hand_times(session))
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".egn.partial")
        partial.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n",
                           encoding="utf-8")
        os.replace(partial, path)
    except (EgnError, OSError) as problem:
        log.warning("the game was not kept as EGN: %s", problem)
        return None
    return path
