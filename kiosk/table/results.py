"""A finished game as the director records it (CONTRACTS: one game of `standings`), with
each proven renege and the camera's frames that show it."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiosk.rules.cards import Seat, Team

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

#: a frame larger than this is left out of the report, and a game sends at most
#: `MAX_FRAMES` (the director's limits: 1 MB, 10 frames; so a result always fits its body)
FRAME_LIMIT = 1_000_000
MAX_FRAMES = 10


def game_result(session: TableSession) -> dict[str, Any]:
    """The result the director records."""
    assert session.setup is not None
    s = session.setup
    scores = session.scores
    return {
        "game_id": session.game_id(),
        "tournament": s.tournament,
        "round": s.round,
        "table": s.table,
        "profile": s.profile,
        "teams": [s.team_name("NS"), s.team_name("EW")],
        "points": [scores["NS"], scores["EW"]],
        "hands": [{"record": h.record, "result": h.result, "points": h.points}
                  for h in session.finished],
        "time_up": session.ended_by_time(),
        "reneges": renege_reports(session),
        "corrections": [c.to_json() for c in session.corrections],
    } | marker_reports(session)


def marker_reports(session: TableSession) -> dict[str, Any]:
    """``markers``: each side's 5s that showed another count than the kiosk's score and
    that the players did not settle for the kiosk (none: the key is left out, so a table
    without 5s posts what it always did)."""
    teams = {side: session.setup.team_name(side) for side in Team} if session.setup else {}
    open_ = [d.to_json() | {"team": teams.get(d.side, str(d.side))}
             for d in session.markers.unsettled()]
    return {"markers": open_} if open_ else {}


@dataclass(frozen=True)
class RenegePenalty:
    """What a proven renege cost, as facts: ``points`` to the side owed them
    (``gained``), or taken from the offending side; 0 points: the hand scored as played.
    ``team`` is the name of the side the points went to or came from."""

    points: int
    team: str
    gained: bool

    @classmethod
    def of(cls, points: dict[str, int], offender: Team, teams: dict[Team, str]) -> RenegePenalty:
        owed = offender.other
        gained, lost = points.get(owed, 0), points.get(offender, 0)
        if gained > 0:
            return cls(gained, teams.get(owed, str(owed)), gained=True)
        if lost < 0:
            return cls(-lost, str(teams.get(offender)), gained=False)
        return cls(0, "", gained=False)

    def wire_text(self) -> str:
        """The director API's ``penalty`` text (docs/director-api.md: a renege report's
        penalty is text, written as the director's sheet shows it)."""
        if self.points and self.gained:
            return f"{self.points} points to {self.team}"
        if self.points:
            return f"{self.points} points from {self.team}"
        return "hand scored as played"


def renege_reports(session: TableSession) -> list[dict[str, Any]]:
    """Each proven renege with its evidence, as the director's sheet shows it (the first
    `MAX_FRAMES` frames of the game; later reneges are reported without theirs)."""
    reports: list[dict[str, Any]] = []
    room = MAX_FRAMES
    teams = {side: session.setup.team_name(side) for side in Team} if session.setup else {}
    for hand in session.finished:
        for proof in hand.result.get("reneges", [])[:1]:
            offender = Seat.parse(proof["seat"]).team
            penalty = RenegePenalty.of(hand.points, offender, teams)
            shown = frames(session, hand.number, proof)[:room]
            room -= len(shown)
            reports.append({"hand": hand.number, **proof,
                            "team": teams.get(offender, str(offender)),
                            "penalty": penalty.wire_text(),
                            "frames": shown})
    return reports


def frames(session: TableSession, hand: int, proof: dict[str, Any]) -> list[dict[str, str]]:
    """The saved frames of the trick the seat failed to follow in and of the proof."""
    found = []
    for label, trick in (("failed to follow", proof["trick"]),
                         ("the proof", proof["proven_at"])):
        path = session.frame_path(hand, trick, Seat.parse(str(proof["seat"])))
        if path is not None and path.is_file() and path.stat().st_size < FRAME_LIMIT:
            data = base64.b64encode(path.read_bytes()).decode()
            found.append({"label": f"trick {trick}: {label}",
                          "image": f"data:image/jpeg;base64,{data}"})
    return found
