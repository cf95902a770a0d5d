"""One thread that runs the calls handed to it, in order, for an asyncio caller.

The SQLite writer hands its thread one call per group commit (the commit and its fsync), so the hop
costs every batch. `loop.run_in_executor` with a ThreadPoolExecutor builds a concurrent Future (a
Condition and its RLock), takes two Python-level locks and checks an idle semaphore on every call;
here a call is one put on a C-level queue and one future set back on the loop.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any


class WriterThread:
    """Runs `await thread.run(fn, *args)` calls on one daemon thread, in the order they were made."""

    def __init__(self, name: str):
        self._calls: queue.SimpleQueue[
            tuple[Callable[..., Any], tuple[Any, ...], asyncio.AbstractEventLoop, asyncio.Future[Any]] | None
        ] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) on the thread. A cancelled caller stops waiting; the call itself still runs."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._calls.put((fn, args, loop, done))
        return await done

    def stop(self) -> None:
        """Run what was handed over, then end the thread."""
        self._calls.put(None)
        self._thread.join()

    def _work(self) -> None:
        while (call := self._calls.get()) is not None:
            fn, args, loop, done = call
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(_settle, done, result, error)
            except RuntimeError:  # the loop has closed: nobody is waiting any more
                pass


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
