"""The console's story of a game (a kiosk with no screen tells it this way)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kiosk.app.demo import DEMO_SETUP, DemoDriver, start_demo
from kiosk.app.narrator import Narrator
from kiosk.table.session import TableSession


def test_the_demo_game_told_line_by_line_from_the_deal_to_both_teams_agreeing(
        tmp_path: Path) -> None:
    session = TableSession.open(tmp_path / "j.sqlite3")
    lines: list[str] = []
    Narrator(session, write=lines.append)
    start_demo(session, setup=replace(DEMO_SETUP, points_to_win=1))
    driver = DemoDriver(session, pace=0.01, confirm=True)
    for _ in range(2000):
        if session.phase == "confirmed":
            break
        driver.tick(0.01)
    assert session.phase == "confirmed"
    text = "\n".join(lines)
    assert lines[0].startswith("Table 1, Demo night: Ann & Bob (North-South) against Cy & Di")
    assert "1 point to win" in lines[0]
    for expected in ("Hand 1: North deals.", "  Turn-up: nine of hearts (9H).",
                     "  Bid: East: pass", "  Bid: West: order it up",
                     "  Trump is hearts: West made it.",
                     "  Trick 1: East played AS (ace of spades).",
                     "  Trick 1 to East. Tricks: Ann & Bob 0, Cy & Di 1.",
                     "  Trick 5 to West. Tricks: Ann & Bob 1, Cy & Di 4.",
                     "Hand 1 over: Cy & Di made it: Cy & Di +1. Score: Ann & Bob 0, Cy & Di 1.",
                     "Game over: Cy & Di win 1 to 0 (Ann & Bob 0, Cy & Di 1).",
                     "  Ann & Bob agree with the score.", "  Cy & Di agree with the score.",
                     "Both teams agreed: the result is saved for the director."):
        assert expected in lines, expected
    # 20 cards, each once; every line once, in the order of play
    assert sum(1 for line in lines if " played " in line) == 20
    assert len(lines) == len(set(lines))
    assert text.index("Bid: West") < text.index("Trick 1: East") < text.index("Hand 1 over")


def test_a_reopened_journal_is_told_once_not_again_on_every_change(tmp_path: Path) -> None:
    session = TableSession.open(tmp_path / "j.sqlite3")
    start_demo(session, deal=True)
    driver = DemoDriver(session, pace=0.01, autoplay=False)
    for _ in range(40):
        driver.tick(0.01)
    reopened = TableSession.open(tmp_path / "j.sqlite3")
    lines: list[str] = []
    narrator = Narrator(reopened, write=lines.append)
    narrator.update()
    told = list(lines)
    narrator.update()
    assert lines == told and "Hand 1: North deals." in told
