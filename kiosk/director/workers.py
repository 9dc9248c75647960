"""The worker threads the views run on (they talk to SQLite and wait for the writer).

Why not Starlette's `run_in_threadpool`: it goes through anyio's thread
limiter and cancel scopes, which the profile of a hall of kiosks posting at
once (issue 59, scripts/load_director_async.py --profile) showed costing the
event loop more than parsing the requests. A plain executor hands a function
to a thread and its result back to the loop with one call each way.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: threads for the views: enough that many posts wait on one group commit together
WORKER_THREADS = 32

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def pool() -> ThreadPoolExecutor:
    """The one executor of this process, made on first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="director-view")
        return _pool


async def in_worker(function: Callable[[], T]) -> T:
    """Run `function` on a worker thread; the event loop goes on meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(pool(), function)
