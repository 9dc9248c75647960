"""A kiosk without a screen, for the kill-and-restart test: plays the demo hand into a
journal and prints one line per committed change: `<journal entries> <state digest>`."""

from __future__ import annotations

import hashlib
import json
import sys
import time

from kiosk.app.demo import DemoDriver, start_demo
from kiosk.table.session import TableSession


def digest(session: TableSession) -> str:
    return hashlib.sha256(json.dumps(session.snapshot(), sort_keys=True).encode()).hexdigest()


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
