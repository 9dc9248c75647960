"""A whole EGN game replayed by the kiosk's rules engine: each deal's trick winners and
score change, as `kiosk egn replay` prints them (CONTRACTS.md).

A deal whose play stops short with nothing that ends a hand (a file that highlights
part of a game) lists the winners of the tricks it has and changes no score.

>>> game = EgnGame.from_json({"fileType": "Euchre Game Notation", "version": "1.4",
...     "metadata": {"players": [], "initialScore": [0, 0]},
...     "deals": [{"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "9h"}, "phases": [
...         {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass", "Order"]},
...         {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [["As", "9s", "Ks", "Ts"],
...          ["Ah", "Qh", "Kh", "Jh"], ["Ac", "Tc", "Qc", "9c"]]}]}]})
>>> [deal.to_json() for deal in replay_game(game)]
[{'deal': 0, 'trick_winners': ['E', 'N', 'N'], 'score_change': [0, 0]}]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.egn.game import EgnGame
from kiosk.egn.records import DealPlayed, play_deal
from kiosk.rules.cards import TEAMS, Seat
from kiosk.rules.profiles import RuleProfile
from kiosk.rules.scoring import UnfinishedHandError, score_state


@dataclass(frozen=True)
class DealReplayed:
    """One deal's outcome: who took each trick, and the points to N-S and E-W."""

    deal: int
    trick_winners: tuple[Seat, ...]
    score_change: tuple[int, int]
    played: DealPlayed

    def to_json(self) -> dict[str, Any]:
        """The CONTRACTS object of `kiosk egn replay`."""
        return {
            "deal": self.deal,
            "trick_winners": [seat.value for seat in self.trick_winners],
            "score_change": list(self.score_change),
        }


def replay_game(game: EgnGame, base: RuleProfile | None = None) -> list[DealReplayed]:
    """Replay every deal under the game's ruleset laid over `base` (the tournament book);
    an `EgnError` names the first call or card the rules refuse."""
    profile = game.ruleset.profile(base)
    out = []
    for index, deal in enumerate(game.deals):
        played = play_deal(deal, profile, f"$.deals[{index}]")
        state = played.state
        try:
            points = score_state(state).points
            change = (points[TEAMS[0]], points[TEAMS[1]])
        except UnfinishedHandError:
            change = (0, 0)
        winners = tuple(trick.winner for trick in state.tricks)
        out.append(DealReplayed(deal.number, winners, change, played))
    return out
