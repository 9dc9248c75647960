"""A kiosk without a screen, for the kill-and-restart test: plays the demo hand into a
journal and prints one line per committed change: `<journal entries> <state digest>`."""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))  # run as a script: the checkout's tests

from kiosk.app.demo import DemoDriver, start_demo  # noqa: E402
from kiosk.table.session import TableSession  # noqa: E402
from tests.table.journal_state import snapshot  # noqa: E402


def digest(session: TableSession) -> str:
    return hashlib.sha256(json.dumps(snapshot(session), sort_keys=True).encode()).hexdigest()


def main() -> int:
    journal, pace = sys.argv[1], float(sys.argv[2])
    session = TableSession.open(journal)
    session.subscribe(lambda s: print(len(s.journal), digest(s), s.phase, flush=True))
    start_demo(session, deal=True)
    driver = DemoDriver(session, pace=pace, autoplay=False)
    while session.phase not in ("hand_over", "renege"):
        driver.tick(0.01)
        time.sleep(0.01)
    print("done", len(session.journal), digest(session), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
