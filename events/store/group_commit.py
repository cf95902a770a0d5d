"""Group commit, the one batching queue both backends append through.

Appends that arrive while a batch is being written wait, and then share the next batch: one
transaction, and one fsync (SQLite) or WAL flush (PostgreSQL), for every command that arrived
meanwhile, each command still succeeding or failing alone. The batch is written by the queue's own
task, so a caller that gives up (a cancelled request) never leaves a transaction half-done: its
command is appended or not, as for the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, TypeVar

from events.store.port import Append, AppendResult

Results = list[AppendResult | Exception]
T = TypeVar("T")


class GroupCommit:
    """`await queue.submit(requests)`: the results of one caller's requests, in order, once their
    batch is committed. `write(batch)` writes one batch in one transaction; `batch_max` caps how many
    requests a batch takes (a caller's requests always stay in one batch)."""

    def __init__(self, write: Callable[[list[Append]], Awaitable[Results]], batch_max: int | None = None):
        self._write = write
        self._batch_max = batch_max
        self._waiting: list[Waiting] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, requests: list[Append]) -> Results:
        return await self._queued(requests, None)

    async def submit_then(self, request: Append, then: Callable[[AppendResult | Exception], T]) -> T:
        """One request; `then(result)` runs in the queue's own task once its batch is committed, whether
        or not its caller still waits, and its value (or what it raises) is the caller's. What must
        follow a commit runs there, with no task of its own to shield it from the caller's cancellation."""
        return await self._queued([request], then)

    def _queued(self, requests: list[Append], then: Callable[[Any], Any] | None) -> asyncio.Future[Any]:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(Waiting(requests, done, then))
        if self._task is None:
            self._task = asyncio.create_task(self._drain())
        return done

    async def drained(self) -> None:
        """Wait until every batch handed over is written (before the store closes)."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _next_batch(self) -> list[Waiting]:
        taken, size = 0, 0
        for requests, _, _ in self._waiting:
            if taken and self._batch_max is not None and size + len(requests) > self._batch_max:
                break
            taken, size = taken + 1, size + len(requests)
        batch, self._waiting = self._waiting[:taken], self._waiting[taken:]
        return batch

    async def _drain(self) -> None:
        batch: list[Waiting] = []
        try:
            while self._waiting:
                batch = self._next_batch()
                try:
                    results = await self._write([r for w in batch for r in w.requests])
                except Exception as exc:  # noqa: BLE001 - every caller of the batch hears of it
                    for w in batch:
                        if not w.done.done():
                            w.done.set_exception(exc)
                else:
                    at = 0
                    for w in batch:
                        mine, at = results[at : at + len(w.requests)], at + len(w.requests)
                        if w.then is None:
                            if not w.done.done():  # its caller may have gone (cancelled)
                                w.done.set_result(mine)
                            continue
                        try:
                            value = w.then(mine[0])
                        except Exception as exc:  # noqa: BLE001 - the caller's to hear of, not the batch's
                            if not w.done.done():
                                w.done.set_exception(exc)
                        else:
                            if not w.done.done():
                                w.done.set_result(value)
                batch = []
        except BaseException as exc:
            failure = exc if isinstance(exc, Exception) else RuntimeError("the store is closing")
            for _, done, _ in batch + self._waiting:
                if not done.done():
                    done.set_exception(failure)
            self._waiting = []
            raise
        finally:
            self._task = None


class Waiting(NamedTuple):
    """A caller's requests, the future it waits on, and what runs on their results once committed."""

    requests: list[Append]
    done: asyncio.Future[Any]
    then: Callable[[Any], Any] | None
