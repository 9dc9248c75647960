"""The question put to both teams when their 5s and the kiosk's score differ, in plain
words, with one large tap for each answer (kiosk.table.markers keeps the facts).

Why a screen of its own: the players over 55 this kiosk serves keep score with their 5s
and trust them; a difference found by the camera must be put to both teams before the
next deal, said once, and never decided behind their backs. "The kiosk" settles it
(they move their 5s); "our fives" keeps it open, and the director sees it with the game.

>>> from kiosk.rules.cards import Team
>>> from kiosk.table.markers import MarkerDispute
>>> v = fives_view(MarkerDispute(2, Team.EW, 6, 7, 9), {"NS": "Ann & Bob", "EW": "Cy & Di"})
>>> v.question
'Your fives show 6; the kiosk has 7 for Cy & Di: which is right?'
>>> [a.label for a in v.answers]
['The kiosk: 7', 'Our fives: 6']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.table.markers import MARKER_TOP, MarkerDispute
from kiosk.table.phases import Phase

#: when the question is put: between hands, before a deal's bids, at the game's end
FIVES_PHASES = frozenset({Phase.HAND_OVER, Phase.READY, Phase.BIDDING, Phase.GAME_OVER})


@dataclass(frozen=True)
class FivesAnswer:
    label: str
    answer: str  # 'kiosk' or 'fives' (kiosk.table.markers.ANSWERS)
    then: str  # what happens after the tap, in a sentence


@dataclass(frozen=True)
class FivesView:
    side: str
    question: str
    detail: str
    answers: tuple[FivesAnswer, ...]
    fives: int
    kiosk: int


def fives_view(dispute: MarkerDispute, teams: dict[str, str]) -> FivesView:
    """The question for one side's difference, and its two answers."""
    team = teams.get(str(dispute.side)) or str(dispute.side)
    kiosk = min(dispute.kiosk, MARKER_TOP)
    return FivesView(
        side=str(dispute.side),
        question=f"Your fives show {dispute.fives}; the kiosk has {kiosk} for {team}: "
                 "which is right?",
        detail=f"Read by the camera after hand {dispute.hand}. Both teams: look at "
               f"{team}'s fives and agree.",
        answers=(FivesAnswer(f"The kiosk: {kiosk}", "kiosk",
                             f"Then move {team}'s fives to show {kiosk}."),
                 FivesAnswer(f"Our fives: {dispute.fives}", "fives",
                             "The kiosk keeps its score and tells the director, who "
                             "will decide.")),
        fives=dispute.fives, kiosk=kiosk)


class FivesCheck:
    """The presenter's part for the fives' question (kiosk.app.presenter)."""

    def __init__(self, session: object, teams: Callable[[], dict[str, str]],
                 say: Callable[[str], object]) -> None:
        from kiosk.table.session import TableSession

        assert isinstance(session, TableSession)
        self.session = session
        self.teams = teams
        self.say = say

    def view(self) -> FivesView | None:
        """The oldest open difference as a question; None when there is none."""
        waiting = self.session.markers.open()
        return fives_view(waiting[0], self.teams()) if waiting else None

    def answer(self, index: int) -> bool:
        """A team tapped one of the answers (by its place on the screen)."""
        view = self.view()
        if view is None or not 0 <= index < len(view.answers):
            return False
        chosen = view.answers[index]
        try:
            self.session.answer_markers(view.side, chosen.answer)
        except ValueError as refused:
            self.say(str(refused))
            return False
        self.say(chosen.then)
        return True
