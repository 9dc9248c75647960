"""The movements of alberta55.txt (Tournament Play 6) and the progressive event."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.director.schedule import (
    first_progressive_seating,
    next_progressive_seating,
    round_robin,
)


def positions(tables: int, b_moves_down: bool) -> dict[int, dict[int, int]]:
    """slot -> round -> table."""
    where: dict[int, dict[int, int]] = {}
    for game in round_robin(tables, b_moves_down=b_moves_down):
        where.setdefault(game.a_slot, {})[game.round] = game.table
        where.setdefault(game.b_slot, {})[game.round] = game.table
    return where


@given(st.integers(1, 24), st.booleans())
def test_every_a_team_meets_every_b_team_exactly_once(tables: int, b_down: bool) -> None:
    games = round_robin(tables, b_moves_down=b_down)
    meetings = Counter((g.a_slot, g.b_slot) for g in games)
    a_slots = {2 * t for t in range(tables)}
    b_slots = {2 * t + 1 for t in range(tables)}
    assert set(meetings) == {(a, b) for a in a_slots for b in b_slots}
    assert set(meetings.values()) == {1}


@given(st.integers(1, 24), st.booleans())
def test_each_table_seats_one_a_and_one_b_team_each_round(tables: int, b_down: bool) -> None:
    for rnd in range(1, tables + 1):
        games = [g for g in round_robin(tables, b_moves_down=b_down) if g.round == rnd]
        assert sorted(g.table for g in games) == list(range(1, tables + 1))
        assert all(g.a_slot % 2 == 0 and g.b_slot % 2 == 1 for g in games)


@given(st.integers(2, 24))
def test_a_teams_move_up_one_table_and_b_teams_stay(tables: int) -> None:
    where = positions(tables, b_moves_down=False)
    for start in range(tables):
        a, b = where[2 * start], where[2 * start + 1]
        for rnd in range(2, tables + 1):
            assert a[rnd] == a[rnd - 1] % tables + 1  # up one, the last table back to 1
            assert b[rnd] == b[1] == start + 1


@given(st.integers(3, 23).filter(lambda n: n % 2 == 1))
def test_b_teams_may_move_down_one_table(tables: int) -> None:
    where = positions(tables, b_moves_down=True)
    for start in range(tables):
        b = where[2 * start + 1]
        for rnd in range(2, tables + 1):
            assert b[rnd] == (b[rnd - 1] - 2) % tables + 1


def test_even_tables_with_b_moving_down_skip_once_half_way() -> None:
    where = positions(4, b_moves_down=True)
    assert [where[1][r] for r in range(1, 5)] == [1, 4, 2, 1]  # 1 -> 4 -> (skip 3) 2 -> 1


def test_rounds_can_be_fewer_than_tables_but_not_more() -> None:
    assert {g.round for g in round_robin(5, rounds=3)} == {1, 2, 3}
    with pytest.raises(ValueError, match="1 to 5 rounds"):
        round_robin(5, rounds=6)


@given(st.integers(1, 8), st.data())
def test_progressive_keeps_four_a_table_and_splits_partners(
    tables: int, data: st.DataObject
) -> None:
    players = [f"p{i}" for i in range(4 * tables)]
    seating = first_progressive_seating(players)
    winners = {t: data.draw(st.sampled_from(["NS", "EW"])) for t in seating}
    nxt = next_progressive_seating(seating, winners)
    assert sorted(p for seats in nxt.values() for p in seats.values()) == sorted(players)
    old_pairs = {frozenset((s["N"], s["S"])) for s in seating.values()} | {
        frozenset((s["E"], s["W"])) for s in seating.values()
    }
    for seats in nxt.values():
        assert frozenset((seats["N"], seats["S"])) not in old_pairs
        assert frozenset((seats["E"], seats["W"])) not in old_pairs


def test_progressive_winners_move_up_and_head_table_losers_go_to_the_foot() -> None:
    seating = first_progressive_seating([f"p{i}" for i in range(12)])
    nxt = next_progressive_seating(seating, {1: "NS", 2: "NS", 3: "EW"})
    table_of = {p: t for t, seats in nxt.items() for p in seats.values()}
    assert table_of["p0"] == table_of["p2"] == 1  # head table winners stay
    assert table_of["p1"] == table_of["p3"] == 3  # head table losers go to the last table
    assert table_of["p4"] == table_of["p6"] == 1  # table 2 winners move up
    assert table_of["p9"] == table_of["p11"] == 2  # table 3 winners (E-W) move up
    assert table_of["p8"] == table_of["p10"] == 3  # table 3 losers stay


def test_progressive_needs_four_players_a_table() -> None:
    with pytest.raises(ValueError, match="four players"):
        first_progressive_seating(["a", "b", "c"])
