"""Live pages by server-sent events: every committed write wakes every open page.

The store calls `Changes.notify()` after each commit (from whichever thread
wrote). Each open page holds one `/events` stream; the stream wakes, reads
the sheet's version (the newest audit row) and, if it moved, sends
`event: change` with the version, and the page fetches its live part. A
comment line every `HEARTBEAT` seconds keeps proxies and the browser's
connection awake. Browsers without EventSource poll instead (static/live.js).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable

from kiosk.director.workers import in_worker

HEARTBEAT = 15.0
#: a stream ends after this long and the browser opens a new one (EventSource does so by
#: itself), so a stream left open by a gone or hostile client does not live for ever
STREAM_SECONDS = 600.0
#: open streams per client address (a phone shows one page at a time; a few tabs fit)
STREAMS_PER_CLIENT = 8
#: open streams in all; beyond, pages poll instead (live.js) and connections stay free
#: for the kiosks' posts and the director's pages
MAX_STREAMS = 2000


class Changes:
    """A wake-up call from any thread to every waiting stream on the event loop.

    `tick` counts the commits announced. A stream notes the tick *before* it reads the
    version and then waits for the tick to move past it, so a commit that lands between
    the read and the wait still wakes it (several posts at the end of a round).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.tick = 0
        self.closing = False

    def notify(self) -> None:
        """Something was committed: wake every stream (safe from any thread)."""
        with self._lock:
            self.tick += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(event.set)

    def close(self) -> None:
        """The server is stopping: every stream ends."""
        self.closing = True
        self.notify()

    async def wait(self, seen: int, timeout: float) -> None:
        """Until the tick moves past `seen` (at once if it already has), or `timeout`."""
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        with self._lock:
            if self.tick != seen:
                return
            self._waiters.add(waiter)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters.discard(waiter)


class StreamSlots:
    """How many `/events` streams each client holds, and all of them together."""

    def __init__(self, per_client: int = STREAMS_PER_CLIENT, total: int = MAX_STREAMS) -> None:
        self.per_client = per_client
        self.total = total
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str, unlimited: bool = False) -> bool:
        """Count a new stream for `client`; False (nothing counted) when it may not open one."""
        with self._lock:
            held = self._open.get(client, 0)
            if not unlimited and (held >= self.per_client or self.count() >= self.total):
                return False
            self._open[client] = held + 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            held = self._open.get(client, 0) - 1
            if held > 0:
                self._open[client] = held
            else:
                self._open.pop(client, None)

    def count(self) -> int:
        return sum(self._open.values())


async def event_stream(
    changes: Changes,
    version: Callable[[], int],
    since: int | None,
    lifetime: float | None = None,
) -> AsyncIterator[str]:
    """The text of one `/events` stream: `change` events as the version moves, for at
    most `lifetime` seconds (the browser then reconnects with the last event's id).

    Starlette's StreamingResponse ends the stream when the browser goes away.
    """
    last = since
    ends = asyncio.get_running_loop().time() + (STREAM_SECONDS if lifetime is None else lifetime)
    yield "retry: 2000\n\n"
    while not changes.closing:
        seen = changes.tick  # before the read: a commit after it wakes the wait below
        now = await in_worker(version)
        if now != last:
            last = now
            yield f"event: change\nid: {now}\ndata: {now}\n\n"
        else:
            yield ": still here\n\n"
        left = ends - asyncio.get_running_loop().time()
        if left <= 0:
            return
        await changes.wait(seen, min(HEARTBEAT, left))
