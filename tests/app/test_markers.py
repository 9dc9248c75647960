"""The two 5s: every score from 0 to 10 shows the right card face and pip count,
and every pip is plainly in or out of sight (never half-covered)."""

from __future__ import annotations

import pytest

from kiosk.vision.fives import poses as markers


@pytest.mark.parametrize("points", range(11))
def test_each_score_exposes_its_pips(points: int) -> None:
    m = markers.marker(points)
    assert m.top_face_up == (points >= 5)
    expected = 5 if points == 10 else points % 5
    assert markers.exposed_pips(m) == expected
    gaps = [abs(markers.clearance(x, y, m)) - markers.PIP_RADIUS for x, y in markers.PIPS]
    assert min(gaps) > 0.05  # a clear margin, in card widths


def test_pips_appear_one_at_a_time_in_reading_order() -> None:
    shown = []
    for points in (0, 1, 2, 3, 4, 10):
        m = markers.marker(points)
        shown.append({i for i, (x, y) in enumerate(markers.PIPS)
                      if markers.clearance(x, y, m) > markers.PIP_RADIUS})
    assert shown == [set(range(k)) for k in range(6)]


def test_scores_past_the_markers_are_capped() -> None:
    assert markers.marker(13).points == 10
    assert markers.marker(-2).points == 0
