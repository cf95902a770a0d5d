"""Whole-stream reads of a big encounter never hold the event loop for the whole stream (issue 19 item 1).

Not timed: the test counts the work done between two turns of the loop. A task that only yields
(`asyncio.sleep(0)`) runs once per turn and notes how many sentences were described, or hashes
checked, in this process since its last turn. A read that describes or checks the whole stream in one
go shows the whole stream in one turn; one that works in pieces, or in another process, never more
than a piece. Meanwhile a command on another encounter is answered before the read is done.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import msgspec
import pytest

import projections.log
import server.audit.verifying
import server.audit.whole_stream
from events.envelope import NewEvent
from events.store.port import Append
from events.store.sqlite import SqliteStore
from rules.registry import Registry
from server.encounters.service import Encounters
from tests.support.appends import command
from tests.support.client import Encounter, RunningServer, TussleClient
from tests.support.ws import frame
from tests.test_pg_processes import InProcessServer

EVENTS = 12_000
# The most work one turn of the loop may show: far below the stream, above one piece of it.
PIECE_BOUND = 1_000


async def fill(store: Any) -> str:
    """A public freeform encounter of EVENTS events, written straight to the store; its id."""
    await store.open()
    try:
        enc = Encounters(store, Registry.discover())
        info, _, _ = await enc.create({"name": "Long campaign", "ruleset": "freeform", "public": True}, "gm")
        seq = 1
        version = Registry.discover().get("freeform").version  # type: ignore[union-attr]
        while seq < EVENTS:
            batch: Append = command(info.id, seq, f"batch-{seq}", n=min(2000, EVENTS - seq))
            # Each command declares itself in its first event, as the pipeline writes it: a stream of
            # stream rules 3 that leaves a declaration out fails verification (docs/verifying.md).
            first = batch.events[0]
            declared = {"command": {"type": "note", "text": first.data["text"]}, "keyed_by": "client"}
            declared |= {"ruleset": "freeform", "version": version}
            batch.events[0] = NewEvent(first.type, {**first.data, "declaration": declared})
            seq = (await store.append(batch)).events[-1].seq
        return info.id
    finally:
        await store.close()


class Turns:
    """Counts calls of a function and, at every turn of the loop, the most calls seen within one turn."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str):
        self.calls = 0
        self.most_in_one_turn = 0
        original: Callable[..., Any] = getattr(module, name)

        def counted(*args: Any, **kw: Any) -> Any:
            self.calls += 1
            return original(*args, **kw)

        monkeypatch.setattr(module, name, counted)
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        seen = self.calls
        while True:
            await asyncio.sleep(0)
            self.most_in_one_turn = max(self.most_in_one_turn, self.calls - seen)
            seen = self.calls

    def stop(self) -> None:
        self.task.cancel()


@pytest.fixture(params=["sqlite", "postgres"])
def pg_or_sqlite(request: pytest.FixtureRequest) -> str | None:
    """A fresh PostgreSQL schema's DSN, or None for SQLite."""
    return request.getfixturevalue("pg_schema_dsn") if request.param == "postgres" else None


@pytest.fixture
async def big(pg_or_sqlite: str | None, tmp_path: Any) -> AsyncIterator[tuple[TussleClient, str]]:
    """A running server over a store holding one EVENTS-event encounter: (client, its id)."""
    if pg_or_sqlite is None:
        path = str(tmp_path / "tussle.db")
        stream = await fill(SqliteStore(path))
        srv: Any = await RunningServer(path).start()
        url = srv.base_url
    else:
        from events.store.postgres import PostgresStore

        stream = await fill(PostgresStore(pg_or_sqlite))
        srv = await InProcessServer(pg_or_sqlite).start()
        url = srv.url
    async with aiohttp.ClientSession() as session:
        yield TussleClient(url, session, ""), stream
    await srv.stop()


async def commands_meanwhile(small: Encounter, read: asyncio.Task[Any]) -> int:
    """Commands answered on a small encounter while `read` runs."""
    answered = 0
    while not read.done():
        await small.ok("note", text=f"meanwhile {answered}")
        answered += 1
    await read
    return answered


async def test_a_log_subscription_describes_a_big_stream_in_pieces(big, monkeypatch):
    client, stream = big
    small = await client.create("freeform")
    turns = Turns(monkeypatch, projections.log, "sentence")

    async def snapshot() -> dict[str, Any]:
        async with client.session.ws_connect(
            f"{client.base_url}/encounters/{stream}/ws", max_msg_size=64 * 1024 * 1024
        ) as ws:
            await ws.send_json({"op": "subscribe", "projection": "log", "after": 0})
            first = await frame(ws)
            assert (await frame(ws))["type"] == "caught_up"
            return first

    read = asyncio.create_task(snapshot())
    assert await commands_meanwhile(small, read) >= 1
    turns.stop()
    first = read.result()
    assert first["type"] == "snapshot" and first["seq"] == EVENTS
    assert [e["seq"] for e in first["data"]] == list(range(1, EVENTS + 1))
    assert turns.calls >= EVENTS  # the whole log was described here...
    assert turns.most_in_one_turn <= PIECE_BOUND  # ...a piece per turn of the loop


async def test_a_log_page_of_ten_thousand_is_described_in_pieces(big, monkeypatch):
    client, stream = big
    small = await client.create("freeform")
    turns = Turns(monkeypatch, projections.log, "sentence")
    read = asyncio.create_task(client.session.get(f"{client.base_url}/encounters/{stream}/log?limit=10000"))
    assert await commands_meanwhile(small, read) >= 1
    turns.stop()
    async with read.result() as r:
        assert r.status == 200
        assert len((await r.json())["entries"]) == 10_000
    assert turns.calls >= 10_000
    assert turns.most_in_one_turn <= PIECE_BOUND


@pytest.mark.parametrize("report", ["verify", "audit"])
async def test_verify_and_audit_check_a_big_stream_off_the_loop(big, monkeypatch, report):
    client, stream = big
    small = await client.create("freeform")
    made_here = Turns(monkeypatch, server.audit.whole_stream, f"{report}_report")
    hashed_here = Turns(monkeypatch, server.audit.verifying, "event_hash")
    read = asyncio.create_task(client.session.get(f"{client.base_url}/encounters/{stream}/{report}"))
    assert await commands_meanwhile(small, read) >= 1
    made_here.stop()
    hashed_here.stop()
    async with read.result() as r:
        assert r.status == 200
        body = await r.json()
    if report == "verify":
        assert body["ok"] is True and body["events_checked"] == EVENTS
    # Made in the worker process: neither the report nor a hash of it in this one.
    assert made_here.calls == 0 and hashed_here.calls == 0


@pytest.mark.parametrize("path", ["/events", "/log"])
async def test_a_ten_thousand_answer_sent_in_pieces_is_its_pages_put_together(big, path):
    """The long answer, cut into pieces as its items are converted and encoded, is the compact JSON of
    the same fields in the same order as a short page, and its items are the short pages' items."""
    client, stream = big
    url = f"{client.base_url}/encounters/{stream}{path}"
    items = "events" if path == "/events" else "entries"
    async with client.session.get(f"{url}?limit=10000") as r:
        assert r.status == 200 and r.headers.get("Transfer-Encoding") == "chunked"
        raw = await r.read()
    whole = json.loads(raw)
    assert raw == msgspec.json.encode(whole)
    paged: list[Any] = []
    for first in range(1, 10_001, 1000):
        async with client.session.get(f"{url}?from={first}&limit=1000") as r:
            page = await r.json()
        assert list(page) == list(whole)
        paged += page[items]
    assert whole[items] == paged
    assert whole["next_from"] == 10_001
