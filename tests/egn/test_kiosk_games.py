"""Every game the kiosk scores is kept as EGN beside its journal, and EGN's own tools
read it: the file validates against EGN's schema, EGN's reference engine replays it to
the kiosk's trick winners (and score changes, but for a renege, which EGN cannot
score), and the kiosk's annotations say what EGN has no field for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.app.demo import RECORD
from kiosk.egn.game import EgnGame
from kiosk.egn.records import game_of_records, records_of_game
from kiosk.egn.replay import replay_game
from kiosk.rules.cards import Seat
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup
from kiosk.vision.events import CardPlayed, TrickCleared, face
from tests.egn.helpers import as_reference

DEMO = json.loads(RECORD.read_text())
SEATS = "NESW"
#: S trumps the spade led in trick 1 and leads a spade in trick 2: a renege, proven
RENEGE_TRICKS = [["E:AS", "S:QH", "W:KS", "N:QS"], ["S:9S"]]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def turned(play: str, by: int) -> str:
    return SEATS[(SEATS.index(play[0]) + by) % 4] + play[1:]


def bid(session: TableSession, by: int) -> None:
    session.see_turn_up("9H")
    for entry in DEMO["bids"]:
        session.bid(entry["call"], entry.get("suit"), bool(entry.get("alone", False)))


def feed(session: TableSession, tricks: list[list[str]], hand: int) -> None:
    for number, trick in enumerate(tricks):
        for play in trick:
            seat, card = play.split(":")
            session.feed(CardPlayed(Seat.parse(seat), face(card), hand * 100 + number, 0.95),
                         source=f"h{hand}")
        session.feed(TrickCleared(hand * 100 + number + 0.5), source=f"h{hand}")


@pytest.fixture
def kept_game(tmp_path: Path) -> tuple[TableSession, Path]:
    """Three hands to 3 points under the tournament book: a renege (2 to E-W), a hand
    with a card the players corrected (1 to N-S), a hand made (1 to E-W)."""
    session = TableSession.open(tmp_path / "journal.sqlite3", clock=Clock())
    session.configure(TableSetup(tournament="Spring Open", table=4, round=2,
                                 team_ns="Ann & Bob", team_ew="Cy & Di",
                                 profile="tournament", points_to_win=3, minutes=0))
    session.start_game("N")
    bid(session, 0)
    feed(session, RENEGE_TRICKS, 1)
    while session.hand is not None and session.hand.suggestion is not None:
        session.keep_card()  # each card the renege hangs on, put to the players: as read
    session.choose_renege("accept")
    session.next_hand()
    bid(session, 1)
    tricks = [[turned(play, 1) for play in trick] for trick in DEMO["tricks"]]
    session.feed(CardPlayed(Seat.S, face("AC"), 200, 0.6), source="h2")  # the camera misreads AS
    session.correct(1, "S", "AS")
    feed(session, [tricks[0][1:], *tricks[1:]], 2)
    session.next_hand()
    bid(session, 2)
    feed(session, [[turned(play, 2) for play in trick] for trick in DEMO["tricks"]], 3)
    session.end_game()
    session.confirm("NS")
    assert not (tmp_path / "games").exists()  # kept once both sides agree
    session.confirm("EW")
    [path] = (tmp_path / "games").glob("*.egn")
    return session, path


def test_the_game_is_kept_beside_the_journal_once_both_sides_confirm(
    kept_game: tuple[TableSession, Path], tmp_path: Path, schema_errors: Any
) -> None:
    session, path = kept_game
    assert path == tmp_path / "games" / "Spring-Open-r2-t4-1000002.egn"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert schema_errors(document) == []
    metadata = document["metadata"]
    assert metadata["title"] == "Spring Open: round 2, table 4"
    assert metadata["players"] == ["Ann & Bob (North)", "Cy & Di (East)",
                                   "Ann & Bob (South)", "Cy & Di (West)"]
    assert metadata["finalScore"] == [1, 3] == [session.scores["NS"], session.scores["EW"]]
    assert metadata["date"] == "1970-01-12T13:46:42Z"
    assert metadata["ruleset"] == {"std": True, "canadian": False,
                                   "loner_lead": "LEFT_OF_DEALER", "winning_score": 3}
    assert "tournament rule book (tournament.txt)" in metadata["description"]


def test_the_kiosks_engine_replays_the_kept_game_to_the_scores_it_kept(
    kept_game: tuple[TableSession, Path],
) -> None:
    session, path = kept_game
    replayed = replay_game(EgnGame.from_json(json.loads(path.read_text(encoding="utf-8"))))
    assert [list(d.score_change) for d in replayed] == [
        [hand.points["NS"], hand.points["EW"]] for hand in session.finished]
    assert [[str(s) for s in d.trick_winners] for d in replayed] == [
        hand.result["trick_winners"] for hand in session.finished]


def test_egns_reference_engine_agrees_but_for_the_renege_it_cannot_score(
    kept_game: tuple[TableSession, Path], reference_replay: Any
) -> None:
    _session, path = kept_game
    ours = as_reference(replay_game(EgnGame.from_json(json.loads(path.read_text()))))
    theirs = reference_replay(path)
    assert [d["trick_winners"] for d in theirs] == [d["trick_winners"] for d in ours]
    assert theirs[1:] == ours[1:]
    # the renege: EGN scores the one trick played (nothing), the kiosk the penalty
    assert (theirs[0]["score_change"], ours[0]["score_change"]) == ([0, 0], [0, 2])


def test_annotations_carry_the_renege_the_correction_the_ruling_and_the_time(
    kept_game: tuple[TableSession, Path],
) -> None:
    _session, path = kept_game
    deals = json.loads(path.read_text(encoding="utf-8"))["deals"]
    renege, corrected = deals[0]["phases"], deals[1]["phases"]
    assert renege[1]["playAnnotations"] == {
        "1": ["[??]Kiosk: renege: South did not follow suit (proven in trick 2)"],
        "4": ["Kiosk: scored 0 to North-South and 2 to East-West"
              " (renege; the players' choice: accept)"],
    }
    assert corrected[1]["playAnnotations"] == {
        "0": ["Kiosk: the players corrected this card (the camera read AC)"]}
    assert renege[0]["callAnnotations"]["0"][0].startswith(
        "Kiosk: hand 1, dealt by North, scored at 13:4")
    assert all(note.startswith("Kiosk: ") or note.startswith("[??]Kiosk: ")
               for deal in deals for phase in deal["phases"]
               for key in ("callAnnotations", "playAnnotations")
               for notes in phase.get(key, {}).values() for note in notes)


def test_the_kept_game_reads_and_writes_back_the_same(
    kept_game: tuple[TableSession, Path],
) -> None:
    _session, path = kept_game
    document = json.loads(path.read_text(encoding="utf-8"))
    game = EgnGame.from_json(document)
    assert game_of_records(records_of_game(game), game.metadata).to_json() == document


def test_a_hand_egn_cannot_hold_whole_is_kept_up_to_the_lead_out_of_turn(
    schema_errors: Any,
) -> None:
    """alberta55: a lead out of turn stands once all have played to it, but EGN lists
    each trick from the seat the rules say leads it: the hand is kept to that point."""
    from kiosk.egn.kiosk_game import egn_of_result
    from kiosk.rules.profiles import get_profile
    from kiosk.rules.record import HandRecord
    from kiosk.rules.scoring import score_hand

    tricks = [list(trick) for trick in DEMO["tricks"]]
    tricks[1] = ["S:QH", "W:KH", "N:9H", "E:JH"]  # E won trick 1 and should lead
    record = {key: DEMO[key] for key in ("dealer", "turn_up", "bids")} | {"tricks": tricks}
    verdict = score_hand(HandRecord.from_json(record), get_profile("alberta55")).to_json()
    assert verdict["irregularities"][0]["kind"] == "lead_out_of_turn"
    result = {"game_id": "x/r1/t1/0", "profile": "alberta55", "teams": ["A", "B"],
              "points": [0, 1], "hands": [{"record": record, "result": verdict,
                                           "points": verdict["points"]}]}
    document = egn_of_result(result, points_to_win=10)
    assert schema_errors(document) == []
    [deal] = document["deals"]
    assert deal["phases"][1]["tricks"] == [["As", "9s", "Ks", "Qs"]]
    assert deal["phases"][1]["playAnnotations"] == {"3": [
        "Kiosk: the rest of this hand is not in EGN (trick 2: S plays QH out of turn"
        " (E to play); EGN lists cards in turn only)",
        f"Kiosk: scored {verdict['points']['NS']} to North-South and"
        f" {verdict['points']['EW']} to East-West ({verdict['outcome']})"]}
    assert "date" not in document["metadata"]  # no start time in the game id
