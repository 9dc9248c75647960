"""Movements: who sits at which table each round. Pure functions, no I/O.

Round robin (alberta55.txt, Tournament Play 6): tables stand in a circle,
numbered from 1. After each game the A team of every table moves up one table
(the last table's A team goes to table 1). B teams stay, or, at the director's
discretion, move down one table. With N tables every A team meets every B
team once in N rounds. When B teams move down and N is even, A and B would
meet again after N/2 rounds, so half-way through the B teams skip one table
(the usual fix on the paper cards) and every meeting still happens once.

Progressive event (tournament.txt): players, not teams. After each game the
winning pair of every table moves up one table (table 1 is the head table:
its winners stay); the losers stay, except at the head table, whose losers go
to the last table. Partners split: at every table the two who stayed each
take one of the arrivals as partner.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.cards import Seat


@dataclass(frozen=True)
class Matchup:
    """One game of a round robin: the slots of the A and B teams at a table."""

    round: int
    table: int
    a_slot: int
    b_slot: int


def a_slot(start_table: int) -> int:
    """The slot of the A team that starts at `start_table` (1-based)."""
    return 2 * (start_table - 1)


def b_slot(start_table: int) -> int:
    """The slot of the B team that starts at `start_table` (1-based)."""
    return 2 * (start_table - 1) + 1


def round_robin(
    tables: int, rounds: int | None = None, b_moves_down: bool = False
) -> list[Matchup]:
    """Every game of the round robin, round by round, table by table.

    >>> [(p.round, p.table, p.a_slot, p.b_slot) for p in round_robin(2)]
    [(1, 1, 0, 1), (1, 2, 2, 3), (2, 1, 2, 1), (2, 2, 0, 3)]
    >>> len({(p.a_slot, p.b_slot) for p in round_robin(4, b_moves_down=True)})
    16
    """
    if tables < 1:
        raise ValueError("a round robin needs at least one table")
    rounds = tables if rounds is None else rounds
    if not 1 <= rounds <= tables:
        raise ValueError(f"with {tables} tables a round robin has 1 to {tables} rounds")
    games: list[Matchup] = []
    for r in range(1, rounds + 1):
        step = r - 1
        skip = 1 if b_moves_down and tables % 2 == 0 and r > tables // 2 else 0
        at_table: dict[int, list[int]] = {t: [0, 0] for t in range(1, tables + 1)}
        for start in range(1, tables + 1):
            a_table = (start - 1 + step) % tables + 1
            at_table[a_table][0] = a_slot(start)
            b_table = (start - 1 - (step + skip if b_moves_down else 0)) % tables + 1
            at_table[b_table][1] = b_slot(start)
        for t in range(1, tables + 1):
            games.append(Matchup(r, t, at_table[t][0], at_table[t][1]))
    return games


def first_progressive_seating(players: list[str]) -> dict[int, dict[str, str]]:
    """Round one of a progressive event: four players a table in entry order.

    N and S are partners, E and W are partners.

    >>> first_progressive_seating(["a", "b", "c", "d"])
    {1: {'N': 'a', 'E': 'b', 'S': 'c', 'W': 'd'}}
    """
    if not players or len(players) % 4:
        raise ValueError("a progressive event needs four players a table")
    return {
        t + 1: dict(zip((str(s) for s in Seat), players[4 * t : 4 * t + 4], strict=True))
        for t in range(len(players) // 4)
    }


def next_progressive_seating(
    seating: dict[int, dict[str, str]], winners: dict[int, str]
) -> dict[int, dict[str, str]]:
    """The next round of a progressive event.

    `winners` maps each table to the pair that won there: "NS" or "EW".

    >>> s = {1: dict(N="a", E="b", S="c", W="d"), 2: dict(N="e", E="f", S="g", W="h")}
    >>> nxt = next_progressive_seating(s, {1: "NS", 2: "EW"})
    >>> nxt[1]  # a and c won the head table and stay, split; f and h came up
    {'N': 'a', 'E': 'c', 'S': 'f', 'W': 'h'}
    >>> nxt[2]  # g and e lost at table 2 and stay; b and d lost at the head table
    {'N': 'e', 'E': 'g', 'S': 'b', 'W': 'd'}
    """
    tables = sorted(seating)
    if tables != list(range(1, len(tables) + 1)):
        raise ValueError("tables must be numbered 1..N")
    pairs: dict[int, tuple[list[str], list[str]]] = {}
    for t in tables:
        seats = seating[t]
        ns, ew = [seats["N"], seats["S"]], [seats["E"], seats["W"]]
        won = winners.get(t)
        if won not in ("NS", "EW"):
            raise ValueError(f"table {t} has no winner")
        pairs[t] = (ns, ew) if won == "NS" else (ew, ns)
    last = tables[-1]
    result: dict[int, dict[str, str]] = {}
    for t in tables:
        if len(tables) == 1:
            stay, arrive = pairs[t][0], pairs[t][1]
        elif t == 1:
            stay, arrive = pairs[1][0], pairs[2][0]
        elif t == last:
            stay, arrive = pairs[t][1], pairs[1][1]
        else:
            stay, arrive = pairs[t][1], pairs[t + 1][0]
        result[t] = {"N": stay[0], "E": stay[1], "S": arrive[0], "W": arrive[1]}
    return result
