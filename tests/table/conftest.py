"""Shared helpers for the table session tests: a session on a temporary journal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup


class FakeClock:
    """Deterministic wall clock for the journal and the game timer."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def make_setup(profile: str = "tournament", minutes: int = 30, points: int = 10) -> TableSetup:
    return TableSetup(tournament="Test", table=4, round=2, team_ns="Ann & Bob",
                      team_ew="Cy & Di", profile=profile, points_to_win=points, minutes=minutes)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def new_session(tmp_path: Path, clock: FakeClock) -> Callable[..., TableSession]:
    """Open (or reopen) the session on one journal file."""

    def opener(profile: str = "tournament", dealer: str | None = "N", points: int = 10,
               **kwargs: object) -> TableSession:
        session = TableSession.open(tmp_path / "journal.sqlite3", clock=clock, **kwargs)
        if session.setup is None:
            session.configure(make_setup(profile, points=points))
        if dealer and session.started_at is None:
            session.start_game(dealer)
        return session

    return opener


#: a program the kill-and-restart test starts in a subprocess
collect_ignore = ["demo_child.py"]
