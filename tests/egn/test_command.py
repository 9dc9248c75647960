"""`kiosk egn` at the command line: what it prints, and bad EGN refused in one line that
names the JSON path or the rule and the deal, with exit status 2 and nothing written."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main
from tests.egn.helpers import EGN, GAMES

VWEC = EGN / "examples" / "VWEC Finals.egn"


def vwec() -> dict[str, Any]:
    return dict(json.loads(VWEC.read_text(encoding="utf-8")))


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command that must fail; its one line on standard error."""
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("kiosk egn: ")
    return err.strip().removeprefix("kiosk egn: ")


def broken(tmp_path: Path, change: Any) -> str:
    """The VWEC final with one change made, as a file."""
    game = vwec()
    change(game)
    path = tmp_path / "broken.egn"
    path.write_text(json.dumps(game), encoding="utf-8")
    return str(path)


def test_replay_prints_each_deal_as_the_contract_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egn", "replay", str(VWEC)]) == 0
    deals = json.loads(capsys.readouterr().out)
    assert len(deals) == 13
    assert deals[0] == {"deal": 0, "trick_winners": ["S", "E", "N", "S", "S"],
                        "score_change": [1, 0]}
    # the final: E-W, at 10, won it (both sides' running totals from the deals)
    assert [sum(d["score_change"][i] for d in deals) for i in (0, 1)] == [8, 10]


def test_read_prints_one_hand_record_a_deal_with_the_games_metadata_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["egn", "read", str(VWEC)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 13
    assert lines[0]["egn"]["metadata"]["players"] == ["WWMM", "Llama", "Euchrazy1",
                                                       "LeftyKnavey"]
    assert all("metadata" not in line["egn"] for line in lines[1:])
    assert lines[0]["dealer"] == "S" and lines[0]["turn_up"] == "KC"


def test_write_without_notes_names_the_seats_and_the_books_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema_errors: Any
) -> None:
    records = tmp_path / "hands.jsonl"
    records.write_text(json.dumps({
        "dealer": "N", "turn_up": "9H",
        "bids": [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "order"}],
        "tricks": [["E:AS", "S:9S", "W:KS"]]}) + "\n", encoding="utf-8")
    assert main(["egn", "write", "--rules", "alberta55", "--title", "Hand 1", str(records)]) == 0
    game = json.loads(capsys.readouterr().out)
    assert schema_errors(game) == []
    assert game["metadata"]["players"] == ["North", "East", "South", "West"]
    assert game["metadata"]["ruleset"] == {"std": False, "canadian": True,
                                           "loner_lead": "LEFT_OF_DEALER"}
    # alberta55: the dealer's partner who orders up plays alone, so S's partner N sits out
    assert game["deals"][0]["phases"][0] == {"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                                             "calls": ["Pass", "Order"], "isAlone": True}
    assert game["deals"][0]["phases"][1]["tricks"] == [["As", "9s", "Ks"]]


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: g.update(version="2.0"),
     "$.version: '2.0' is not an EGN version the kiosk reads (1.0 to 1.4)"),
    (lambda g: g["metadata"]["ruleset"].update(joker=True),
     "$.metadata.ruleset.joker: the joker (best bower): not a rule the kiosk plays"),
    (lambda g: g["metadata"]["ruleset"].update(partners_best=True),
     "$.metadata.ruleset.partners_best: calling for a partner's best card:"
     " not a rule the kiosk plays"),
    (lambda g: g["metadata"]["ruleset"].update(min_rank=7),
     "$.metadata.ruleset.min_rank: 7: the kiosk plays the 24-card pack (9 up)"),
    (lambda g: g["deals"][2]["phases"][0].update(aloneDefender=1),
     "$.deals[2].phases[0].aloneDefender: defending alone (defend_alone):"
     " not a rule the kiosk plays"),
    (lambda g: g["deals"][4]["phases"][1]["tricks"][2].__setitem__(1, "Xx"),
     "$.deals[4].phases[1].tricks[2][1]: 'Xx' is an unknown card (the kiosk replays known ones)"),
    (lambda g: g["deals"][4]["phases"][1]["tricks"][2].__setitem__(1, "Qz"),
     "$.deals[4].phases[1].tricks[2][1]: 'Qz' is not an EGN card (like 'Jd' or 'Tc')"),
    (lambda g: g["deals"][0]["initialState"].pop("upCard"),
     "$.deals[0].initialState: needs the dealer and the upCard"),
    (lambda g: g["deals"].__setitem__(1, "AAEC"),
     "$.deals[1]: a condensed (bitpacked) deal; the kiosk reads expanded deals"
     " (egn-convert expands them)"),
])
def test_a_file_that_is_not_egn_is_refused_at_its_json_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    for action in ("replay", "read"):
        assert refused(["egn", action, broken(tmp_path, change)], capsys) == message


def pass_eight_times(game: dict[str, Any]) -> None:
    game["deals"][3]["phases"] = [{"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                                   "calls": ["Pass"] * 8, "isAlone": False}]


def dealers_partner_orders_not_alone(game: dict[str, Any]) -> None:
    game["metadata"]["ruleset"]["canadian"] = True
    game["deals"][0]["phases"][0]["calls"] = ["Pass", "Order"]


def card_twice(game: dict[str, Any]) -> None:
    tricks = game["deals"][5]["phases"][1]["tricks"]
    tricks[3][2] = tricks[0][0]


@pytest.mark.parametrize(("change", "message"), [
    (pass_eight_times,
     "$.deals[3].phases[0].calls[7]: stick the dealer: E (dealer) must name trump, not pass"),
    (dealers_partner_orders_not_alone,
     "$.deals[0].phases[0].isAlone: canadian: N, the dealer's partner, ordered up"
     " and so plays alone, but isAlone is false"),
    (card_twice, "$.deals[5].phases[1].tricks[3][2]: QC is played twice (by N in trick 1)"),
])
def test_a_game_that_breaks_its_ruleset_is_refused_naming_the_rule_and_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    assert refused(["egn", "replay", broken(tmp_path, change)], capsys) == message


def test_without_stick_the_dealer_eight_passes_are_a_deal_passed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(game: dict[str, Any]) -> None:
        game["metadata"]["ruleset"]["std"] = False
        pass_eight_times(game)

    assert main(["egn", "replay", broken(tmp_path, change)]) == 0
    deal = json.loads(capsys.readouterr().out)[3]
    assert deal == {"deal": 3, "trick_winners": [], "score_change": [0, 0]}


def test_bad_json_a_missing_file_and_an_unknown_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.egn"
    junk.write_text("{not json", encoding="utf-8")
    assert refused(["egn", "replay", str(junk)], capsys).startswith("not valid JSON")
    assert refused(["egn", "read", str(tmp_path / "none.egn")], capsys).startswith(
        "cannot read")
    assert refused(["egn", "replay", "--rules", "hoyle", str(VWEC)], capsys).startswith(
        "unknown rule profile 'hoyle'")


def test_write_refuses_what_egn_cannot_hold_naming_the_line_or_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "hands.jsonl"
    records.write_text(json.dumps({"dealer": "N", "turn_up": "9H",
                                   "bids": [{"seat": "S", "call": "pass"}], "tricks": []}),
                       encoding="utf-8")
    assert refused(["egn", "write", str(records)], capsys) == (
        "hand 1: bid 1 is S's, out of turn (E to bid); EGN records bids in turn only")
    records.write_text('{"dealer": "N"}\n', encoding="utf-8")
    assert refused(["egn", "write", str(records)], capsys) == "line 1: the record has no 'turn_up'"
    records.write_text("", encoding="utf-8")
    assert refused(["egn", "write", str(records)], capsys) == "no hand records to write"


def test_read_then_write_at_the_command_line_gives_the_file_back(tmp_path: Path) -> None:
    """The pipe a user types: `kiosk egn read GAME | kiosk egn write`."""
    game = GAMES / "lone-lead.egn"
    read = subprocess.run([sys.executable, "-m", "kiosk", "egn", "read", str(game)],
                          capture_output=True, text=True, check=True)
    written = subprocess.run([sys.executable, "-m", "kiosk", "egn", "write"], input=read.stdout,
                             capture_output=True, text=True, check=True)
    assert json.loads(written.stdout) == json.loads(game.read_text(encoding="utf-8"))


def test_a_game_read_keeps_unknown_hands_as_written() -> None:
    game = copy.deepcopy(vwec())
    game["deals"][0]["initialState"]["playerCards"] = [[], [], [], []]
    from kiosk.egn.game import EgnGame
    from kiosk.egn.records import game_of_records, records_of_game

    parsed = EgnGame.from_json(game)
    assert game_of_records(records_of_game(parsed), parsed.metadata).to_json() == game
