"""Load test: many kiosks post their results to one director at the same moment.

Starts `kiosk director` as a separate process on 127.0.0.1 (never any other
address) with a fresh data folder, sets up one round with a table per kiosk,
pairs every kiosk, then lets every kiosk's real `Outbox` send its game at
once. Checks that every result was acknowledged, none was lost and none was
counted twice, and prints latency percentiles.

With `--kill`, the director is killed with SIGKILL while the results are
arriving, restarted on the same port and data folder, and the kiosks' outboxes
carry on; every result acknowledged before the kill must still be there.

Bounded: at most 1000 kiosks, and every phase has a deadline.

    python scripts/load_test_director.py --kiosks 200
    python scripts/load_test_director.py --kiosks 200 --kill --json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from devtools.director_process import HOST, DirectorProcess, free_port, http  # noqa: E402
from kiosk.table.outbox import Outbox, urllib_transport  # noqa: E402

MAX_KIOSKS = 1000


def set_up(director: DirectorProcess, kiosks: int) -> list[tuple[int, str]]:
    """One round, `kiosks` tables; returns (table, pairing code) for each."""
    form = {
        "name": "Load test",
        "profile": "alberta55",
        "format": "round_robin",
        "entry": "teams",
        "entrants": "\n".join(f"Team {i:04d} & Partner" for i in range(2 * kiosks)),
        "rounds": "1",
    }
    status = director.post_setup(form)
    assert status in (200, 303), f"set-up failed: HTTP {status}"  # urllib follows the 303
    tables = json.loads(http("GET", director.url + "/tables.json")[1])["tables"]
    return [(t["table_no"], t["code"]) for t in tables]


def fake_hands(table: int) -> list[dict[str, Any]]:
    """Realistic bulk: a game's worth of hand records."""
    trick = ["E:AS", "S:9S", "W:KS", "N:TS"]
    return [
        {
            "record": {
                "dealer": "NESW"[h % 4],
                "turn_up": "9H",
                "bids": [{"seat": "E", "call": "order", "alone": False}],
                "tricks": [trick] * 5,
            },
            "result": {"points": {"NS": 0, "EW": 1}},
            "points": {"NS": 0, "EW": 1},
        }
        for h in range(10 + table % 5)
    ]


class Meter:
    """Wraps the outboxes' transport: times every post, counts acknowledgements."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.acks = 0
        self.errors = 0
        self.first_ack = threading.Event()

    def transport(
        self, url: str, body: bytes, headers: dict[str, str], timeout: float
    ) -> tuple[int, bytes]:
        began = time.perf_counter()
        try:
            status, raw = urllib_transport(url, body, headers, timeout)
        except OSError:
            with self.lock:
                self.errors += 1
            raise
        with self.lock:
            if status == 200:
                self.latencies.append(time.perf_counter() - began)
                self.acks += 1
        return status, raw


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(
    kiosks: int = 200, kill: bool = False, deadline: float = 45.0, work: Path | None = None
) -> dict[str, Any]:
    """Run the load test; return the report (see `main` for the checks)."""
    if not 1 <= kiosks <= MAX_KIOSKS:
        raise ValueError(f"--kiosks must be 1 to {MAX_KIOSKS}")
    own = work is None
    work = Path(tempfile.mkdtemp(prefix="director-load-")) if work is None else work
    port = free_port()
    director = DirectorProcess(work / "data", port, "--public-url", f"http://{HOST}:{port}")
    (work / "data").mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"kiosks": kiosks, "kill": kill}
    boxes: list[Outbox] = []
    try:
        director.start()
        tables = set_up(director, kiosks)
        meter = Meter()
        expected: dict[str, tuple[int, list[int]]] = {}

        def pair(table_code: tuple[int, str]) -> str:
            table, code = table_code
            status, raw = http(
                "POST",
                director.url + "/api/v1/pair",
                json.dumps({"code": code}).encode(),
                {"Content-Type": "application/json"},
            )
            assert status == 200, f"pairing table {table}: HTTP {status}"
            return str(json.loads(raw)["token"])

        with ThreadPoolExecutor(16) as pool:
            tokens = list(pool.map(pair, tables))
        for (table, _code), token in zip(tables, tokens, strict=True):
            boxes.append(
                Outbox(
                    work / "kiosks" / f"table-{table}.sqlite3",
                    server=director.url,
                    token=token,
                    transport=meter.transport,
                    timeout=20,
                    max_pause=1.0,
                )
            )
        # Every kiosk's game, queued (committed to its own outbox) before anything is sent.
        for box, (table, _code) in zip(boxes, tables, strict=True):
            points = [10, table % 10]
            game = {
                "game_id": f"load/r1/t{table}",
                "round": 1,
                "table": table,
                "teams": [
                    f"Team {2 * (table - 1):04d} & Partner",
                    f"Team {2 * (table - 1) + 1:04d} & Partner",
                ],
                "points": points,
                "hands": fake_hands(table),
                "time_up": False,
            }
            expected[box.submit(game)] = (table, points)
        began = time.monotonic()
        acked_before_kill: set[str] = set()
        for box in boxes:  # all at once: each outbox's sender wakes and posts
            box.start()
        if kill:
            threshold = max(1, kiosks // 4)
            while meter.acks < threshold and time.monotonic() - began < deadline:
                time.sleep(0.002)
            director.kill()
            report["killed_after_acks"] = meter.acks
            acked_before_kill = {i.key for box in boxes for i in box.items("acknowledged")}
            report["restart_seconds"] = round(director.start(), 2)
        for box in boxes:
            remaining = deadline - (time.monotonic() - began)
            box.wait_until_sent(timeout=max(0.0, remaining))
        report["wall_seconds"] = round(time.monotonic() - began, 2)
        for box in boxes:
            box.stop()
        acknowledged = {i.key: i for box in boxes for i in box.items("acknowledged")}
        report["acknowledged"] = len(acknowledged)
        report["pending"] = sum(len(box.pending()) for box in boxes)
        report["rejected"] = sum(len(box.items("rejected")) for box in boxes)
        sheet = json.loads(http("GET", director.url + "/sheet.json", timeout=60)[1])
        games = {(g["round"], g["table"]): g for g in sheet["games"]}
        lost, doubled, wrong = _tally(games, expected.values())
        report |= {"lost": lost, "doubled": doubled, "wrong": wrong}
        if kill:
            report["acknowledged_before_kill"] = len(acked_before_kill)
            report["acknowledged_before_kill_present"] = sum(
                1 for k in acked_before_kill if games[(1, expected[k][0])]["points"] is not None
            )
        report["requests_ok"] = len(meter.latencies)
        report["connection_errors"] = meter.errors
        report["p50_ms"] = round(percentile(meter.latencies, 0.50) * 1000, 1)
        report["p99_ms"] = round(percentile(meter.latencies, 0.99) * 1000, 1)
        report["max_ms"] = round(max(meter.latencies, default=0.0) * 1000, 1)
        report["ok"] = (
            report["acknowledged"] == kiosks
            and lost == 0
            and doubled == 0
            and wrong == 0
            and (not kill or report["acknowledged_before_kill_present"] == len(acked_before_kill))
        )
        return report
    finally:
        for box in boxes:
            box.close()
        director.stop()
        if own:
            import shutil

            shutil.rmtree(work, ignore_errors=True)


def _tally(games: dict[tuple[int, int], dict[str, Any]],
           expected: Iterable[tuple[int, list[int]]]) -> tuple[int, int, int]:
    """The games sent that the sheet lost, counted more than once, or holds wrongly."""
    lost = doubled = wrong = 0
    for table, points in expected:
        found = games.get((1, table))
        if found is None or found["points"] is None:
            lost += 1
        elif found["posts"] != 1 or found["status"] != "counted":
            doubled += 1
        elif found["points"] != points:
            wrong += 1
    return lost, doubled, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=200, help="simulated kiosks (max 1000)")
    parser.add_argument(
        "--kill", action="store_true", help="SIGKILL the director mid-load, restart it"
    )
    parser.add_argument("--deadline", type=float, default=45.0, help="seconds allowed for sending")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")
    args = parser.parse_args(argv)
    report = run(args.kiosks, args.kill, args.deadline)
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"kiosks {report['kiosks']}: acknowledged {report['acknowledged']}, "
            f"lost {report['lost']}, doubled {report['doubled']}, wrong {report['wrong']}"
        )
        print(
            f"latency of acknowledged posts: p50 {report['p50_ms']} ms, "
            f"p99 {report['p99_ms']} ms, max {report['max_ms']} ms; "
            f"all sent in {report['wall_seconds']} s; "
            f"{report['connection_errors']} posts cut off and retried"
        )
        if args.kill:
            print(
                f"director SIGKILLed after {report['killed_after_acks']} acknowledgements, "
                f"restarted in {report['restart_seconds']} s; acknowledged before the kill and "
                f"still there: {report['acknowledged_before_kill_present']}"
                f"/{report['acknowledged_before_kill']}"
            )
        print("OK" if report["ok"] else "FAILED")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
