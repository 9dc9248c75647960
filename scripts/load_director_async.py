"""A cheap load generator: many kiosks post their games to one director, from one asyncio loop.

Why beside `load_test_director.py`: that script runs each kiosk's real outbox
(a thread and an SQLite file each), which tests the outbox but costs the
laptop more than the director does, so its latencies measure the client as
much as the server. Here a kiosk is a coroutine speaking raw HTTP/1.1 on its
own connection (as a kiosk on the Wi-Fi does): it posts its game once, at a
moment spread over `--spread` seconds, and retries with the same idempotency
key until acknowledged, as the outbox would. The director runs as its own
process (`kiosk director`, 127.0.0.1 only); with `--kill` it is SIGKILLed
after a quarter of the acknowledgements and started again on the same port
and data, and the kiosks carry on. Printed: what the kiosks saw, what the
director measured itself (`/timings.json`), and lost / doubled / wrong.

    python scripts/load_director_async.py --kiosks 500 --spread 3
    python scripts/load_director_async.py --kiosks 2000 --spread 3 --kill --json
    python scripts/load_director_async.py --kiosks 500 --tls     # kiosks over TLS
    python scripts/load_director_async.py --kiosks 2000 --profile 4   # where the time goes

`--profile` samples the director with py-spy (a dev tool: `pip install py-spy`)
while the kiosks post, and sorts the samples into the SQLite writer, the event
loop (HTTP parsing, the guard, routing), JSON, templates, SQLite reads and the
rest of the views, and idle.

Bounded: at most 5000 kiosks, every phase has a deadline, 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "scripts"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from load_test_director import fake_hands, set_up  # noqa: E402

from devtools.director_process import HOST, DirectorProcess, free_port, http  # noqa: E402
from kiosk.director.timing import percentile  # noqa: E402

MAX_KIOSKS = 5000


class Answer(Exception):
    """No usable answer (connection refused, cut, or a status worth retrying)."""


async def post(port: int, tls: ssl.SSLContext | None, path: str, body: bytes,
               headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
    """One POST on a fresh connection: (status, body)."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(HOST, port, ssl=tls), timeout)
    try:
        head = [f"POST {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close",
                f"Content-Length: {len(body)}", "Content-Type: application/json"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next((int(line.split(":", 1)[1]) for line in lines[1:]
                       if line.lower().startswith("content-length:")), 0)
        data = await asyncio.wait_for(reader.readexactly(length), timeout)
        return status, data
    finally:
        writer.close()


class Kiosks:
    """The kiosks' shared tally: latencies, acknowledgements, retries."""

    def __init__(self) -> None:
        self.first_try: list[float] = []  # a post answered 200 at its first attempt
        self.to_ack: list[float] = []  # from the kiosk's moment to its acknowledgement
        self.acks = 0
        self.retries = 0
        self.acked: set[str] = set()


async def kiosk(port: int, tls: ssl.SSLContext | None, token: str, key: str,
                game: dict[str, Any], at: float, deadline: float, tally: Kiosks) -> None:
    """One kiosk: wait for its moment, post, retry with the same key until acknowledged."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    body = json.dumps(game).encode()
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key}
    began = time.monotonic()
    attempt = 0
    while time.monotonic() < deadline:
        attempt += 1
        sent = time.monotonic()
        try:
            status, raw = await post(port, tls, "/api/v1/results", body, headers, 20.0)
            if status == 200 and json.loads(raw).get("acknowledged"):
                now = time.monotonic()
                if attempt == 1:
                    tally.first_try.append(now - sent)
                tally.to_ack.append(now - began)
                tally.acks += 1
                tally.acked.add(key)
                return
            if status < 500 and status not in (408, 429):
                raise RuntimeError(f"refused for good: HTTP {status} {raw[:200]!r}")
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            pass
        tally.retries += 1
        await asyncio.sleep(random.uniform(0.1, 0.4) * min(attempt, 5))


async def pair_all(port: int, tables: list[tuple[int, str]]) -> list[str]:
    """Every table's token (32 pairings at a time)."""
    gate = asyncio.Semaphore(32)

    async def one(code: str) -> str:
        async with gate:
            status, raw = await post(port, None, "/api/v1/pair",
                                     json.dumps({"code": code}).encode(), {}, 30.0)
            assert status == 200, f"pairing: HTTP {status} {raw[:200]!r}"
            return str(json.loads(raw)["token"])

    return list(await asyncio.gather(*(one(code) for _table, code in tables)))


def game_of(table: int) -> dict[str, Any]:
    return {
        "game_id": f"load/r1/t{table}",
        "round": 1,
        "table": table,
        "teams": [f"Team {2 * (table - 1):04d} & Partner",
                  f"Team {2 * (table - 1) + 1:04d} & Partner"],
        "points": [10, table % 10],
        "hands": fake_hands(table),
        "time_up": False,
    }


IDLE = ("Condition.wait", "EpollSelector.select", "Queue.get", "SimpleQueue.get",
        "Event.wait", "_worker", "sleep")


def where(frames: list[str]) -> str:
    """The part of the director a py-spy sample (its stack, outermost first) stands in."""
    leaf = frames[-1]
    names = " ".join(frames)
    if any(leaf.startswith(word) for word in IDLE):
        return "idle (waiting: epoll, a queue, a lock)"
    if "db-writer" in frames[0]:
        return "SQLite writer thread (jobs, commit, fsync)"
    if "jinja2" in names:
        return "templates (Jinja2)"
    if "json/" in names or "JSONResponse" in names or "(json" in names:
        return "JSON (parse and write)"
    if "Database.read" in names or "Database.reader" in names or "sqlite3" in names:
        return "SQLite reads (worker threads)"
    if "MainThread" in frames[0]:
        return "event loop (HTTP parsing, TLS, uvicorn, the guard, routing)"
    return "views (worker threads: checks, posting's Python)"


def profile_summary(raw: Path) -> dict[str, float]:
    """Per part of the director, its share of py-spy's samples (percent)."""
    parts: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            parts[where(stack.split(";"))] += int(count)
    total = sum(parts.values()) or 1
    return {part: round(100 * n / total, 1) for part, n in parts.most_common()}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ms(values: list[float], q: float) -> float:
    return round(percentile(values, q) * 1000, 1)


async def drive(director: DirectorProcess, kiosks: int, spread: float, kill: bool,
                deadline: float, tls_port: int | None, profile: float = 0.0
                ) -> dict[str, Any]:
    tables = set_up(director, kiosks)
    tokens = await pair_all(director.port, tables)
    tls = None
    port = director.port
    if tls_port is not None:  # the load test checks no pin: tests/director/test_tls.py does
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        tls.check_hostname = False
        tls.verify_mode = ssl.CERT_NONE
        port = tls_port
    tally = Kiosks()
    pid = director.proc.pid if director.proc is not None else 0
    cpu_before = cpu_seconds(pid)
    wall_start, start = time.time(), time.monotonic() + 0.5
    end = start + deadline
    tasks = [
        asyncio.create_task(kiosk(port, tls, token, f"load/r1/t{table}", game_of(table),
                                  start + spread * i / kiosks, end, tally))
        for i, ((table, _code), token) in enumerate(zip(tables, tokens, strict=True))
    ]
    report: dict[str, Any] = {"kiosks": kiosks, "spread_s": spread, "kill": kill,
                              "tls": tls is not None}
    spy = None
    if profile and director.proc is not None:
        raw = director.data / "profile.raw"
        spy = subprocess.Popen(
            [str(Path(sys.executable).with_name("py-spy")), "record", "-p",
             str(director.proc.pid), "-d", str(max(1, round(profile))), "-r", "200", "--threads",
             "--nonblocking", "-f", "raw", "-o", str(raw)],
            stdout=subprocess.DEVNULL, stderr=(director.data / "py-spy.log").open("wb"))
    if kill:
        while tally.acks < max(1, kiosks // 4) and time.monotonic() < end:
            await asyncio.sleep(0.002)
        director.kill()
        report["killed_after_acks"] = tally.acks
        acked_before = set(tally.acked)
        report["restart_seconds"] = round(
            await asyncio.get_running_loop().run_in_executor(None, director.start), 2)
    await asyncio.wait(tasks, timeout=max(1.0, end - time.monotonic()) + 25)
    report["wall_seconds"] = round(time.monotonic() - start, 2)
    if not kill:  # (a killed director's CPU time went with it)
        report["director_cpu_ms_per_post"] = round(
            (cpu_seconds(pid) - cpu_before) * 1000 / kiosks, 2)
    if spy is not None:
        spy.wait(timeout=profile + 30)
        if os.environ.get("DIRECTOR_PROFILE_KEEP"):  # the raw stacks, for a closer look
            shutil.copy(director.data / "profile.raw", os.environ["DIRECTOR_PROFILE_KEEP"])
        report["profile_percent"] = (profile_summary(director.data / "profile.raw")
                                     if (director.data / "profile.raw").exists() else
                                     {(director.data / "py-spy.log").read_text()[-300:]: 0.0})
    sheet = json.loads(http("GET", director.url + "/sheet.json", timeout=120)[1])
    games = {(g["round"], g["table"]): g for g in sheet["games"]}
    lost = doubled = wrong = 0
    for table, _code in tables:
        found = games.get((1, table))
        if found is None or found["points"] is None:
            lost += 1
        elif found["posts"] != 1 or found["status"] != "counted":
            doubled += 1
        elif found["points"] != [10, table % 10]:
            wrong += 1
    timings = json.loads(http("GET", director.url + f"/timings.json?since={wall_start}")[1])
    server = timings["requests"].get("POST /api/v1/results", {})
    report |= {
        "acknowledged": tally.acks, "lost": lost, "doubled": doubled, "wrong": wrong,
        "retries": tally.retries,
        "client_first_try": {"count": len(tally.first_try), "p50_ms": ms(tally.first_try, .5),
                             "p99_ms": ms(tally.first_try, .99),
                             "max_ms": ms(tally.first_try, 1.0)},
        "client_to_ack": {"p50_ms": ms(tally.to_ack, .5), "p99_ms": ms(tally.to_ack, .99),
                          "max_ms": ms(tally.to_ack, 1.0)},
        "server": server,
        "server_writer": timings["writer"],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if kill:
        report["acknowledged_before_kill_present"] = sum(
            1 for key in acked_before
            if games[(1, int(key.rsplit("t", 1)[1]))]["points"] is not None)
        report["acknowledged_before_kill"] = len(acked_before)
    report["ok"] = (tally.acks == kiosks and lost == doubled == wrong == 0 and (
        not kill or report["acknowledged_before_kill_present"] == len(acked_before)))
    return report


def run(kiosks: int = 500, spread: float = 3.0, kill: bool = False, deadline: float = 60.0,
        tls: bool = False, profile: float = 0.0) -> dict[str, Any]:
    if not 1 <= kiosks <= MAX_KIOSKS:
        raise ValueError(f"--kiosks must be 1 to {MAX_KIOSKS}")
    work = Path(tempfile.mkdtemp(prefix="director-aload-"))
    port = free_port()
    tls_port = free_port() if tls else None
    extra = ["--tls-port", str(tls_port)] if tls_port else ["--no-tls"]
    (work / "data").mkdir(parents=True)
    director = DirectorProcess(work / "data", port, *extra, "--public-url", f"http://{HOST}:{port}")
    try:
        director.start()
        return asyncio.run(drive(director, kiosks, spread, kill, deadline, tls_port, profile))
    finally:
        director.stop()
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=500, help=f"kiosks (max {MAX_KIOSKS})")
    parser.add_argument("--spread", type=float, default=3.0,
                        help="seconds over which the kiosks' first posts are spread")
    parser.add_argument("--kill", action="store_true",
                        help="SIGKILL the director after a quarter of the acks, restart it")
    parser.add_argument("--tls", action="store_true", help="kiosks post over TLS")
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds for sending")
    parser.add_argument("--profile", type=float, default=0.0,
                        help="seconds to sample the director with py-spy while kiosks post")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")
    args = parser.parse_args(argv)
    report = run(args.kiosks, args.spread, args.kill, args.deadline, args.tls, args.profile)
    if args.json:
        print(json.dumps(report))
    else:
        first, server = report["client_first_try"], report["server"]
        print(f"kiosks {report['kiosks']} over {report['spread_s']} s"
              f"{' (TLS)' if report['tls'] else ''}: acknowledged {report['acknowledged']},"
              f" lost {report['lost']}, doubled {report['doubled']}, wrong {report['wrong']},"
              f" retries {report['retries']}")
        print(f"kiosks saw (first try): p50 {first['p50_ms']} ms, p99 {first['p99_ms']} ms,"
              f" max {first['max_ms']} ms")
        print(f"director CPU per post: {report.get('director_cpu_ms_per_post', '?')} ms")
        print(f"director measured: p50 {server.get('p50_ms')} ms, p99 {server.get('p99_ms')} ms,"
              f" max {server.get('max_ms')} ms over {server.get('count')} posts;"
              f" writer {report['server_writer']}")
        if args.kill:
            print(f"SIGKILL after {report['killed_after_acks']} acks, restart"
                  f" {report['restart_seconds']} s; acknowledged before the kill and still"
                  f" there: {report['acknowledged_before_kill_present']}"
                  f"/{report['acknowledged_before_kill']}")
        for part, share in report.get("profile_percent", {}).items():
            print(f"  {share:5.1f} %  {part}")
        print(f"load average {report['load_average']}; {'OK' if report['ok'] else 'FAILED'}")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
