"""Seat zones: which seat a card lies in front of (a card across the line between two
zones goes by the turn of play), and which seats have shown something for a while.

>>> from kiosk.vision.camera.calibration import SeatZones
>>> places = Places(SeatZones())
>>> trick = TableTrick(leader=Seat.N)
>>> places.seat_of_point((0.62, 0.40), "AS", trick, (Seat.N, Seat.E, Seat.S, Seat.W),
...                      sitting_out=None, now=0.0, cfg=ReaderConfig())
<Seat.N: 'N'>
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from kiosk.rules.cards import Seat
from kiosk.vision.camera.calibration import SeatZones
from kiosk.vision.reader.config import ACROSS_LINE, ReaderConfig
from kiosk.vision.reader.table_fit import TableFit
from kiosk.vision.reader.track import Track
from kiosk.vision.reader.trick import TableTrick


class Places:
    """The seat zones of one calibration, seen as the turn of play sees them."""

    def __init__(self, zones: SeatZones, fit: TableFit | None = None) -> None:
        self.zones = zones
        #: where the cards say the table lies, for a table nobody calibrated
        self.fit = fit or TableFit(active=False)

    def seat_of(self, track: Track, trick: TableTrick, players: Sequence[Seat],
                sitting_out: Seat | None, now: float, cfg: ReaderConfig) -> Seat | None:
        """The seat whose zone the card lies in (the centre of the corners seen), or None
        before any corner rested."""
        if not track.anchors:
            return None
        x, y = track.position
        return self.seat_of_point((float(x), float(y)), track.card, trick, players,
                                  sitting_out, now, cfg)

    def seat_of_point(self, point: tuple[float, float], card: str, trick: TableTrick,
                      players: Sequence[Seat], sitting_out: Seat | None, now: float,
                      cfg: ReaderConfig) -> Seat | None:
        """The seat a card named ``card`` lying at ``point`` is in front of.

        A card lying across the diagonal between two zones (within ``ACROSS_LINE``)
        belongs to the neighbouring seat when that seat has not played in this trick and
        either the zone's own seat has its card lying there already or, the zone's own
        seat not having played, it is the neighbour's turn (a card put where a card
        taken back lay stays the zone's own). tests/reader/test_across_the_line. (A card in
        the zone of the seat sitting out a lone hand is that seat's, a card played by
        mistake, unless it lies near a line as above.)

        The point is read where the table's fit puts it (:mod:`.table_fit`), and while a
        table nobody calibrated is not yet fitted the line is ``fit.across_line`` wide:
        the zones' lines may be off there, and a card played in its turn keeps its
        seat whatever the width (tests/reader/test_table_fit)."""
        point = self.fit.place(point)
        letter = self.zones.seat_at(point)
        across = self.zones.seat_across(point, self.fit.across_line)
        seat = None if letter is None else Seat(letter)
        other = None if across is None else Seat(across)
        if seat is None or other is None or card in trick.cards():
            return seat
        if other not in players or trick.play_of(other) is not None:
            return seat
        if (self.zones.seat_across(point, ACROSS_LINE) is None
                and not in_turn(trick, sitting_out)):
            # (in the wider line of a table only guessed, the turn decides only while the
            # cards read so far came in turn: a seat whose card went unread is no guide)
            return seat
        own = trick.play_of(seat)
        if own is not None:  # (its card gone: this may be the card put in its place)
            present = now - own.last_seen < cfg.takeback_gap
            return other if present else seat
        return other if trick.expected_seat(sitting_out) == other else seat


def in_turn(trick: TableTrick, sitting_out: Seat | None) -> bool:
    """Whether every card read in the trick so far came before the seat whose turn it is
    (none of them after a seat still to play, whose card may lie there unread).

    >>> trick = TableTrick(leader=Seat.N)
    >>> in_turn(trick, None)
    True
    >>> from kiosk.vision.reader.trick import TrickCard
    >>> trick.plays.append(TrickCard(Seat.E, "9C", t=1.0, confidence=0.9))
    >>> in_turn(trick, None)   # North led, but only East's card was read
    False
    """
    expected = trick.expected_seat(sitting_out)
    if expected is None or trick.leader is None:
        return True
    order = [s for s in trick.leader.clockwise() if s != sitting_out]
    return all(order.index(p.seat) < order.index(expected) for p in trick.plays
               if p.seat in order)


class Occupancy:
    """Which seats show *something* the reader cannot name yet, frame by frame, over the
    last ``ask_time``: an unreadable card is still a card, and should be asked about."""

    def __init__(self) -> None:
        self._busy: dict[Seat, deque[tuple[float, bool]]] = {}  # seat -> frames busy?

    def note(self, t: float, seats: set[Seat], cfg: ReaderConfig) -> None:
        """One frame: ``seats`` showed something not yet named."""
        horizon = t - cfg.ask_time
        for seat in Seat:
            history = self._busy.setdefault(seat, deque())
            history.append((t, seat in seats))
            while history and history[0][0] < horizon:
                history.popleft()

    def mostly(self, seat: Seat, t: float, cfg: ReaderConfig) -> bool:
        """Whether the seat has shown something in most frames of the last ``ask_time``."""
        history = self._busy.get(seat)
        if not history or t - history[0][0] < 0.9 * cfg.ask_time:
            return False
        return sum(1 for _t, busy in history if busy) >= 0.6 * len(history)

    def clear(self) -> None:
        self._busy.clear()
