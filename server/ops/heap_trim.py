"""Freed heap memory goes back to the operating system after a large read ends (issue 33 item 10).

A large read (a 10 MB encounter's log snapshot, sent to twenty stalled readers) allocates thousands of
medium blocks from glibc's heap: each note's text, each frame's pieces, each fragment. Freed, they stay
mapped, because glibc gives back only the top of its heap, so the server's RSS never came down once the
readers were gone (187 to 283 MiB in the drill; measured here: 350 MiB resident, 19 MiB of it in use).
No Python object stays alive (a collection finds none of them): the cause is the allocator keeping
pages, so after such a read ends the server asks glibc for every free page back (`malloc_trim`), in a
worker thread so that the event loop never waits for it (about 20 ms over 150 MB), at most once per
`DELAY_S`. Where the C library has no `malloc_trim` (musl, macOS) nothing is done.

The freeing itself is spread too (issue 32 item 2): the last reference to a 100,000-entry log dropped at
once freed every entry in one C call, which held the loop 93 ms of CPU when the last `log` subscriber of
a big encounter left; `release` frees such a list a piece per turn of the loop, then trims.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import web

# A burst of closing connections (twenty stalled readers ended as lagging) asks for one trim, not twenty.
DELAY_S = 1.0
# Items freed per turn of the loop by `release`: about a microsecond each for a log's entries.
RELEASE_PIECE = 2000


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


class HeapTrim:
    """Ask for a trim with `soon()`; it runs `DELAY_S` later, off the loop, once for all asked meanwhile."""

    def __init__(self, delay_s: float = DELAY_S) -> None:
        self.delay_s = delay_s
        self.trim = _malloc_trim()
        self.timer: asyncio.TimerHandle | None = None
        self.running: asyncio.Future[int] | None = None
        self.releasing: list[list[Any]] = []
        self.releaser: asyncio.Task[None] | None = None

    def release(self, items: list[Any]) -> None:
        """Free `items`, which the caller no longer needs and nothing else holds, RELEASE_PIECE at a time
        with a turn of the loop between, then trim."""
        self.releasing.append(items)
        if self.releaser is None or self.releaser.done():
            self.releaser = asyncio.get_running_loop().create_task(self._release())

    async def _release(self) -> None:
        while self.releasing:
            items = self.releasing[-1]
            del items[-RELEASE_PIECE:]
            if not items:
                self.releasing.pop()
            await asyncio.sleep(0)
        self.soon()

    def soon(self) -> None:
        """After a large read ended: give its freed pages back shortly (the freeing may still be under way)."""
        if self.trim is None or self.timer is not None:
            return
        self.timer = asyncio.get_running_loop().call_later(self.delay_s, self._start)

    def _start(self) -> None:
        self.timer = None
        if self.running is not None and not self.running.done():
            self.soon()  # one at a time: the pages freed since are trimmed next
            return
        assert self.trim is not None
        self.running = asyncio.get_running_loop().run_in_executor(None, self.trim, 0)

    async def close(self) -> None:
        if self.releaser is not None:
            self.releaser.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.releaser
        self.releasing.clear()  # the process is stopping: the rest may go at once
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.running is not None:  # a thread's call cannot be cancelled: let it end
            with contextlib.suppress(Exception):
                await self.running


HEAP_TRIM = web.AppKey("heap_trim", HeapTrim)


def install(app: web.Application) -> None:
    """`app[HEAP_TRIM]`, its pending trim awaited at shutdown."""
    app[HEAP_TRIM] = HeapTrim()

    async def running(app: web.Application) -> AsyncIterator[None]:
        yield
        await app[HEAP_TRIM].close()

    app.cleanup_ctx.append(running)
