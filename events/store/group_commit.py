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

from events.store.port import Append, AppendResult

Results = list[AppendResult | Exception]


class GroupCommit:
    """`await queue.submit(requests)`: the results of one caller's requests, in order, once their
    batch is committed. `write(batch)` writes one batch in one transaction; `batch_max` caps how many
    requests a batch takes (a caller's requests always stay in one batch)."""

    def __init__(self, write: Callable[[list[Append]], Awaitable[Results]], batch_max: int | None = None):
        self._write = write
        self._batch_max = batch_max
        self._waiting: list[tuple[list[Append], asyncio.Future[Results]]] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, requests: list[Append]) -> Results:
        done: asyncio.Future[Results] = asyncio.get_running_loop().create_future()
        self._waiting.append((requests, done))
        if self._task is None:
            self._task = asyncio.create_task(self._drain())
        return await done

    async def drained(self) -> None:
        """Wait until every batch handed over is written (before the store closes)."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _next_batch(self) -> list[tuple[list[Append], asyncio.Future[Results]]]:
        taken, size = 0, 0
        for requests, _ in self._waiting:
            if taken and self._batch_max is not None and size + len(requests) > self._batch_max:
                break
            taken, size = taken + 1, size + len(requests)
        batch, self._waiting = self._waiting[:taken], self._waiting[taken:]
        return batch

    async def _drain(self) -> None:
        batch: list[tuple[list[Append], asyncio.Future[Results]]] = []
        try:
            while self._waiting:
                batch = self._next_batch()
                try:
                    results = await self._write([r for reqs, _ in batch for r in reqs])
                except Exception as exc:  # noqa: BLE001 - every caller of the batch hears of it
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                else:
                    at = 0
                    for reqs, done in batch:
                        if not done.done():  # its caller may have gone (cancelled)
                            done.set_result(results[at : at + len(reqs)])
                        at += len(reqs)
                batch = []
        except BaseException as exc:
            failure = exc if isinstance(exc, Exception) else RuntimeError("the store is closing")
            for _, done in batch + self._waiting:
                if not done.done():
                    done.set_exception(failure)
            self._waiting = []
            raise
        finally:
            self._task = None
