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

from starlette.concurrency import run_in_threadpool

HEARTBEAT = 15.0


class Changes:
    """A wake-up call from any thread to every waiting stream on the event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.closing = False

    def notify(self) -> None:
        """Something was committed: wake every stream (safe from any thread)."""
        with self._lock:
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(event.set)

    def close(self) -> None:
        """The server is stopping: every stream ends."""
        self.closing = True
        self.notify()

    async def wait(self, timeout: float) -> None:
        """Until the next notify, or `timeout` seconds."""
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        with self._lock:
            self._waiters.add(waiter)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters.discard(waiter)


async def event_stream(
    changes: Changes,
    version: Callable[[], int],
    since: int | None,
) -> AsyncIterator[str]:
    """The text of one `/events` stream: `change` events as the version moves.

    Starlette's StreamingResponse ends the stream when the browser goes away.
    """
    last = since
    yield "retry: 2000\n\n"
    while not changes.closing:
        now = await run_in_threadpool(version)
        if now != last:
            last = now
            yield f"event: change\ndata: {now}\n\n"
        else:
            yield ": still here\n\n"
        await changes.wait(HEARTBEAT)
