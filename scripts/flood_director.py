"""Where the director's connection limits bite: a flood, step by step, while a kiosk posts.

Starts `kiosk director` on 127.0.0.1 (its own process, a fresh data folder),
then, in steps, opens live streams (`/events`) and half-sent request heads
from many loopback addresses (127.0.1.1, 127.0.1.2, ...: a hall of devices,
or one device, `--devices 1`), and after each step times what everyone else
needs: the health check, a kiosk's post, the director's sheet. It prints, per
step, how many streams and heads the director kept open and what the others
got. Heads are re-sent within the head deadline's reach only once: the
director cuts each after 10 s, so every step is measured within that.

    python scripts/flood_director.py --devices 1 --streams 1000 --heads 1500
    python scripts/flood_director.py --devices 300 --streams 2400 --heads 4000 --step 400

Bounded: at most 6,000 sockets, 127.0.0.1 only, it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "scripts"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from load_director_async import pair_all  # noqa: E402
from load_test_director import set_up  # noqa: E402

from devtools.director_process import HOST, DirectorProcess, free_port  # noqa: E402

MAX_SOCKETS = 6000


def address(device: int) -> str:
    """The loopback address device `device` speaks from (127.0.1.1 up)."""
    return f"127.0.{1 + device // 250}.{1 + device % 250}"


async def open_one(port: int, source: str, head: bytes) -> tuple[asyncio.StreamWriter, bytes]:
    """A connection from `source` that sends `head`; the first bytes it got (if any)."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    writer.write(head)
    await writer.drain()
    try:
        first = await asyncio.wait_for(reader.read(64), 0.5)
    except TimeoutError:
        first = b""  # kept waiting: a half-sent head, or a stream that has said nothing yet
    return writer, first


async def timed(call: Any) -> tuple[int, float]:
    began = time.monotonic()
    try:
        status = await call
    except (OSError, TimeoutError) as problem:
        return -1, round((time.monotonic() - began) * 1000, 1) if problem else 0.0
    return status, round((time.monotonic() - began) * 1000, 1)


#: a paired kiosk on the hall's network, and a player's phone the director has never seen
KIOSK, PHONE = "127.0.9.9", "127.0.9.10"


async def status(port: int, source: str, request: bytes) -> int:
    """The status of one request sent from `source` on a fresh connection."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(HOST, port, local_addr=(source, 0)), 10)
    writer.write(request)
    line = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return int(line.split()[1]) if line else -1


def request(method: str, path: str, body: bytes = b"", token: str = "") -> bytes:
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close",
            f"Content-Length: {len(body)}", "Content-Type: application/json"]
    if token:
        head += [f"Authorization: Bearer {token}", f"Idempotency-Key: flood-{time.time()}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def others(port: int, token: str, step: int) -> dict[str, Any]:
    """What the laptop, a paired kiosk (a call for the director) and a new phone get now."""
    call = json.dumps({"hand": step % 20 + 1}).encode()
    return {
        "laptop_health": await timed(status(port, HOST, request("GET", "/api/v1/health"))),
        "laptop_sheet": await timed(status(port, HOST, request("GET", "/sheet"))),
        "kiosk_call": await timed(status(port, KIOSK, request("POST", "/api/v1/calls", call,
                                                              token))),
        "new_phone": await timed(status(port, PHONE, request("GET", "/standings"))),
    }


async def flood(port: int, token: str, devices: int, streams: int, heads: int,
                step: int) -> list[dict[str, Any]]:
    held: list[asyncio.StreamWriter] = []
    rows = []
    kept_streams = kept_heads = refused = 0
    opened_streams = opened_heads = 0
    while opened_streams < streams or opened_heads < heads:
        batch: list[Any] = []
        for _ in range(step):
            if opened_streams < streams:
                source = address(opened_streams % devices)
                batch.append(("stream", open_one(port, source, (
                    f"GET /events HTTP/1.1\r\nHost: {HOST}\r\n\r\n").encode())))
                opened_streams += 1
            elif opened_heads < heads:
                source = address(opened_heads % devices)
                batch.append(("head", open_one(port, source,
                                               b"GET /sheet HTTP/1.1\r\nHost: " + HOST.encode()
                                               + b"\r\nX-Slow: ")))
                opened_heads += 1
        began = time.monotonic()
        done = await asyncio.gather(*(c for _k, c in batch), return_exceptions=True)
        for (kind, _c), outcome in zip(batch, done, strict=True):
            if isinstance(outcome, BaseException):
                refused += 1
                continue
            writer, first = outcome
            if kind == "stream" and first.startswith(b"HTTP/1.1 200"):
                kept_streams += 1
                held.append(writer)
            elif kind == "head" and first == b"":
                kept_heads += 1
                held.append(writer)
            else:
                refused += 1
                writer.close()
        row = {"streams_asked": opened_streams, "heads_asked": opened_heads,
               "streams_open": kept_streams, "heads_open": kept_heads,
               "turned_away": refused, "opened_in_s": round(time.monotonic() - began, 2)}
        row |= await others(port, token, len(rows))
        rows.append(row)
        print(json.dumps(row), flush=True)
    for writer in held:
        writer.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1, help="loopback addresses (devices)")
    parser.add_argument("--streams", type=int, default=1000, help="live streams to open")
    parser.add_argument("--heads", type=int, default=1500, help="half-sent heads to open")
    parser.add_argument("--step", type=int, default=250, help="sockets opened per step")
    args = parser.parse_args(argv)
    if args.streams + args.heads > MAX_SOCKETS or not 1 <= args.devices <= 1000:
        parser.error(f"at most {MAX_SOCKETS} sockets and 1000 devices")
    work = Path(tempfile.mkdtemp(prefix="director-flood-"))
    (work / "data").mkdir()
    port = free_port()
    director = DirectorProcess(work / "data", port, "--no-tls",
                               "--public-url", f"http://{HOST}:{port}")
    try:
        director.start()
        tables = set_up(director, 2)
        [token, _other] = asyncio.run(pair_all(port, tables))
        asyncio.run(others(port, token, 0))  # the kiosk is seen once before the flood
        asyncio.run(flood(port, token, args.devices, args.streams, args.heads, args.step))
    finally:
        director.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
