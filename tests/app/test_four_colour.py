"""The four-colour pack (clubs green, diamonds blue) is one set-up switch: every place the
kiosk draws a card or a suit symbol must pass it on, or one screen would show the
two-colour pack to a player who asked for four."""

from __future__ import annotations

import re
from pathlib import Path

from kiosk.app.palette import suit_colour

APP = Path(__file__).resolve().parents[2] / "kiosk" / "app"


def test_the_four_suits_have_four_inks_and_the_two_colour_pack_two() -> None:
    assert len({suit_colour(s, True) for s in "CDHS"}) == 4
    assert len({suit_colour(s, False) for s in "CDHS"}) == 2


def test_every_card_drawn_in_a_kv_file_is_told_the_pack() -> None:
    for kv in APP.rglob("*.kv"):
        text = kv.read_text()
        for match in re.finditer(r"^(\s*)(CardFace|SeatCard):\s*$", text, re.M):
            indent = len(match.group(1))
            block = []
            for line in text[match.end():].splitlines()[1:]:
                if line.strip() and len(line) - len(line.lstrip()) <= indent:
                    break
                block.append(line)
            assert any("four_colour: root.four_colour" in b for b in block), (
                f"{kv.name}: a {match.group(2)} without four_colour")


def test_every_card_and_suit_drawn_in_python_is_told_the_pack() -> None:
    for py in (APP / "screens").glob("*.py"):
        text = py.read_text()
        for call in re.finditer(r"(CardFace|suit_markup)\((.*?)\)\n", text, re.S):
            assert "four_colour" in call.group(2), f"{py.name}: {call.group(0)[:60]}"
