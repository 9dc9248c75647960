"""The kiosk's outbox: results survive the director being down and the kiosk restarting,
and the director counts each game once."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

from kiosk.table.outbox import Outbox, Transport
from tests.director.helpers import Client, game_at, pair, result


class Network:
    """A transport to the live server, as a kiosk on the hall's network, that can be cut
    or lose the answers."""

    def __init__(self, client: Client) -> None:
        self.client = client.device("10.1.2.50")
        self.down = False
        self.lose_answers = 0
        self.calls = 0

    def __call__(
        self, url: str, body: bytes, headers: dict[str, str], timeout: float
    ) -> tuple[int, bytes]:
        self.calls += 1
        if self.down:
            raise ConnectionRefusedError("[Errno 111] Connection refused")
        path = urllib.parse.urlsplit(url).path
        response = self.client.request("POST", path, body, headers)
        if self.lose_answers:
            self.lose_answers -= 1
            raise TimeoutError("timed out")  # the director stored it; the answer got lost
        return response.status, response.body


def game(
    key: str = "spring/r1/t1/1700000000", points: list[int] | None = None
) -> dict[str, object]:
    return result(1, ["Ann & Bob", "Cy & Di"], points or [10, 6], game_id=key, table=1)


def outbox_for(tournament: Client, path: Path, net: Transport) -> Outbox:
    kiosk = pair(tournament, 1)
    return Outbox(path, server="http://10.1.2.3:8555", token=kiosk.token, transport=net)


def test_a_result_is_sent_and_acknowledged(tournament: Client, tmp_path: Path) -> None:
    net = Network(tournament)
    box = outbox_for(tournament, tmp_path / "o.sqlite3", net)
    key = box.submit(game())
    assert key == "spring/r1/t1/1700000000"
    report = box.flush()
    assert (report.sent, report.acknowledged, report.waiting) == (1, 1, 0)
    item = box.item(key)
    assert item is not None and item.state == "acknowledged" and item.answer["status"] == "counted"
    assert game_at(tournament, 1, 1)["points"] == [10, 6]


def test_the_director_being_down_only_delays_the_result(tournament: Client, tmp_path: Path) -> None:
    clock = [1000.0]
    net = Network(tournament)
    box = outbox_for(tournament, tmp_path / "o.sqlite3", net)
    box.clock = lambda: clock[0]
    net.down = True
    key = box.submit(game())
    pauses = []
    for _ in range(4):
        box.flush(force=True)
        item = box.item(key)
        assert item is not None and item.state == "pending"
        pauses.append(item.next_try - clock[0])
    assert "cannot reach the director" in item.last_error and item.attempts == 4
    assert pauses[-1] > pauses[0]  # it backs off
    assert box.flush().sent == 0  # not due yet
    net.down = False
    clock[0] += 3600
    assert box.flush().acknowledged == 1
    assert game_at(tournament, 1, 1)["posts"] == 1


def test_pending_results_survive_the_kiosk_restarting(tournament: Client, tmp_path: Path) -> None:
    net = Network(tournament)
    net.down = True
    path = tmp_path / "o.sqlite3"
    box = outbox_for(tournament, path, net)
    box.submit(game())
    box.flush()
    box.close()
    net.down = False
    reopened = Outbox(path, transport=net)  # server and token were kept too
    assert [i.key for i in reopened.pending()] == ["spring/r1/t1/1700000000"]
    assert reopened.flush(force=True).acknowledged == 1


def test_a_lost_acknowledgement_does_not_count_the_game_twice(
    tournament: Client, tmp_path: Path
) -> None:
    net = Network(tournament)
    box = outbox_for(tournament, tmp_path / "o.sqlite3", net)
    net.lose_answers = 2
    key = box.submit(game())
    box.flush(force=True)
    box.flush(force=True)
    assert box.flush(force=True).acknowledged == 1
    item = box.item(key)
    assert item is not None and item.answer["replay"] is True and net.calls == 3
    sheet_game = game_at(tournament, 1, 1)
    assert sheet_game["posts"] == 1 and sheet_game["points"] == [10, 6]


def test_submitting_the_same_game_twice_queues_it_once(tournament: Client, tmp_path: Path) -> None:
    box = outbox_for(tournament, tmp_path / "o.sqlite3", Network(tournament))
    box.submit(game())
    box.submit(game())
    assert len(box.pending()) == 1


def test_an_unpaired_or_revoked_kiosk_keeps_its_results(tournament: Client, tmp_path: Path) -> None:
    net = Network(tournament)
    box = Outbox(tmp_path / "o.sqlite3", transport=net)
    box.submit(game())
    assert box.flush(force=True).sent == 0  # not paired: nothing to send to
    box.configure("http://10.1.2.3:8555", "not-a-token")
    box.flush(force=True)
    [item] = box.pending()
    assert "not paired" in item.last_error
    box.configure("http://10.1.2.3:8555", pair(tournament, 1).token)  # paired again
    assert box.flush().acknowledged == 1  # configure() makes everything due at once


def test_a_refused_result_is_kept_with_the_reason(tournament: Client, tmp_path: Path) -> None:
    box = outbox_for(tournament, tmp_path / "o.sqlite3", Network(tournament))
    key = box.submit({"game_id": "bad", "round": 0, "teams": ["a", "b"], "points": [1, 2]})
    assert box.flush().rejected == 1
    item = box.item(key)
    assert item is not None and item.state == "rejected" and item.answer["status"] == 422
    assert "round" in item.answer["error"]
    assert box.counts() == {"pending": 1, "acknowledged": 0, "rejected": 1}  # the call below
    assert box.flush(force=True).acknowledged == 1  # the director is told it was set aside
    assert box.counts() == {"pending": 0, "acknowledged": 1, "rejected": 1}


def test_the_background_sender_delivers_without_being_asked(
    tournament: Client, tmp_path: Path
) -> None:
    net = Network(tournament)
    box = outbox_for(tournament, tmp_path / "o.sqlite3", net)
    box.start()
    try:
        box.submit(game())
        assert box.wait_until_sent(timeout=10)
    finally:
        box.stop()
    assert game_at(tournament, 1, 1)["points"] == [10, 6]


def test_calling_the_director_goes_through_the_outbox(tournament: Client, tmp_path: Path) -> None:
    box = outbox_for(tournament, tmp_path / "o.sqlite3", Network(tournament))
    box.call_director({"table": 1, "round": 1}, 3)
    assert box.flush().acknowledged == 1
    assert [c["hand"] for c in tournament.get("/sheet.json").json()["calls"]] == [3]


def test_a_dropped_network_costs_one_attempt_per_pass_not_one_per_result(
    tournament: Client, tmp_path: Path
) -> None:
    net = Network(tournament)
    box = outbox_for(tournament, tmp_path / "o.sqlite3", net)
    for n in range(3):
        box.submit(game(key=f"g{n}"))
    net.down = True
    report = box.flush(force=True)
    assert net.calls == 1 and report.failed == 1 and report.waiting == 3
    assert all(i.attempts == 1 and "cannot reach" in i.last_error for i in box.pending())
