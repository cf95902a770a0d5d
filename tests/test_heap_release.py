"""A big structure is freed a piece per turn of the loop (issue 32 item 2): the last `log` subscriber of a
100,000-event encounter leaving dropped its hub's whole log in one C call, 93 ms of CPU on the loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from server.ops import heap_trim
from server.ops.heap_trim import HEAP_TRIM, HeapTrim
from tests.support.client import Encounter, RunningServer, TussleClient
from tests.support.ws import subscribe, until


@contextlib.asynccontextmanager
async def notes(tmp_path: Any, count: int) -> AsyncIterator[tuple[RunningServer, Encounter]]:
    """A running server and a freeform encounter of `count` notes."""
    srv = await RunningServer(str(tmp_path / "t.db"), rate_reads=0, rate_commands=0).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await TussleClient(srv.base_url, session, srv.db_path).create("freeform")
            for i in range(count):
                await enc.ok("note", text=f"note {i}")
            yield srv, enc
    finally:
        await srv.stop()


class Lengths:
    """At each turn of the loop, the total length of the lists a HeapTrim still has to free."""

    def __init__(self, trim: HeapTrim):
        self.trim = trim
        self.seen: list[int] = []
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            self.seen.append(sum(len(items) for items in self.trim.releasing))
            await asyncio.sleep(0)

    def most_freed_in_one_turn(self) -> int:
        return max((a - b for a, b in zip(self.seen, self.seen[1:], strict=False)), default=0)


async def test_release_frees_a_long_list_a_piece_per_turn_then_trims():
    trim = HeapTrim(delay_s=60)
    items = [{"n": i, "text": f"entry {i}"} for i in range(10_000)]
    watch = Lengths(trim)
    trim.release(items)
    assert trim.releaser is not None
    await asyncio.wait_for(trim.releaser, 10)
    watch.task.cancel()
    assert items == [] and trim.releasing == []
    assert 0 < watch.most_freed_in_one_turn() <= heap_trim.RELEASE_PIECE
    assert trim.timer is not None or trim.trim is None  # the trim is asked for once the freeing is done
    await trim.close()


async def test_the_last_log_subscriber_leaving_frees_the_hubs_log_in_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(heap_trim, "RELEASE_PIECE", 100)
    async with notes(tmp_path, 600) as (srv, enc):
        ws = await subscribe(enc, "log", after=0)
        await until(ws, "caught_up")
        trim = srv.app[HEAP_TRIM]
        watch = Lengths(trim)
        await ws.close()
        for _ in range(500):
            await asyncio.sleep(0.01)
            if max(watch.seen, default=0) and not trim.releasing:
                break
        watch.task.cancel()
        assert max(watch.seen) >= 600  # the hub's log (an entry per note) went to the release...
        assert watch.most_freed_in_one_turn() <= 100  # ...and was freed a piece per turn
        assert trim.releasing == []


@pytest.mark.parametrize("pieces", [1, 3])
async def test_close_stops_a_release_under_way(pieces):
    trim = HeapTrim(delay_s=60)
    for _ in range(pieces):
        trim.release(list(range(50_000)))
    await trim.close()
    assert trim.releasing == [] and trim.releaser is not None and trim.releaser.done()


async def test_a_long_page_is_freed_in_pieces_once_sent(tmp_path, monkeypatch):
    monkeypatch.setattr(heap_trim, "RELEASE_PIECE", 100)
    async with notes(tmp_path, 1_100) as (srv, enc):  # past LONG_LIST: the pages are streamed
        trim = srv.app[HEAP_TRIM]
        for path in ("/events?limit=2000", "/log?limit=2000"):
            watch = Lengths(trim)
            r = await enc.get(path)
            assert r.status == 200
            assert trim.releaser is not None
            await asyncio.wait_for(trim.releaser, 30)
            watch.task.cancel()
            assert max(watch.seen) >= 1_100, path  # what the page held went to the release...
            assert watch.most_freed_in_one_turn() <= 100, path  # ...and was freed a piece per turn
