"""The server runs on a third backend as it is (issue 26 item 2): the in-memory store of the tests
(tests/support/memory_store.py) implements the ports and nothing else, and a real server on it creates an
encounter, takes commands, answers the state, the events and /verify and /audit (made on the loop: the
store offers no whole-stream reader for a worker), which it could not if any consumer went past a port.
Shared by several "processes" (SharedMemoryStore, a SharedFeed), it carries the feed listener written
for PostgreSQL (server/live/pg_listener.py) unchanged: each process's feed hears every process's events."""

from __future__ import annotations

import asyncio

import aiohttp
from aiohttp import web

from events.store.port import Append
from rules.registry import Registry
from server.app import make_app
from server.encounters.feed import LiveFeed
from server.http.context import ENCOUNTERS
from server.live.pg_listener import PgFeedListener
from tests.support.appends import command, creation
from tests.support.client import RunningServer, TussleClient
from tests.support.memory_store import MemoryDatabase, MemoryStore, SharedMemoryStore
from tests.test_pg_processes import collect, eventually


class MemoryServer(RunningServer):
    def __init__(self, db: MemoryDatabase | None = None, shared: bool = False) -> None:
        super().__init__("")
        self.db = db or MemoryDatabase()
        self.shared = shared

    def make_app(self) -> web.Application:
        store = SharedMemoryStore(self.db) if self.shared else MemoryStore(self.db)
        return make_app(store, Registry.discover())


async def test_a_server_on_the_memory_backend_plays_and_verifies():
    srv = await MemoryServer().start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(srv.base_url, session, "")
            enc = await client.create("freeform")
            await enc.ok("add_combatant", combatant={"id": "a", "name": "Ann", "side": "left"})
            await enc.ok("roll", expression="2d6", purpose="test")
            state = await enc.state()
            assert state["seq"] == 3 and "a" in state["combatants"]
            assert [e["seq"] for e in await enc.events()] == [1, 2, 3]
            verify = (await enc.get("/verify")).body
            assert verify["ok"], verify
            audit = (await enc.get("/audit")).body
            assert len(audit["rolls"]) == 1
            await enc.replay_matches_live()
    finally:
        await srv.stop()


async def test_the_feed_listener_runs_on_any_shared_feed():
    db = MemoryDatabase()
    reader, w1, w2 = SharedMemoryStore(db), SharedMemoryStore(db), SharedMemoryStore(db)
    for store in (reader, w1, w2):
        await store.open()
    streams = [f"m{i}" for i in range(4)]
    for s in streams:
        await w1.append(creation(s))
    feed = LiveFeed()
    got = {s: collect(feed, s) for s in streams}
    listener = PgFeedListener(reader, feed, poll_s=0.1, batch=5)  # small pages: the catch-up loops
    await listener.start()
    try:

        async def notes(store: SharedMemoryStore, stream: str) -> None:
            for i in range(6):
                await store.append(command(stream, 1 + i, f"{stream}-{i}"))

        await asyncio.gather(
            *(notes(w1 if i % 2 else w2, s) for i, s in enumerate(streams)),
            reader.append_many([Append("m0", 99, "stale", "b", "gm", [])]),
        )
        await eventually(lambda: all(len(v) == 6 for v in got.values()), "every stream's events")
        for s in streams:
            assert got[s] == await reader.read(s, 2)
        db.notices.clear()  # every notice from now on is lost: the poll still finds the events
        await w2.append(command("m1", 7, "unannounced", n=2))
        await eventually(lambda: len(got["m1"]) == 8, "the poll found them")
        assert got["m1"] == await reader.read("m1", 2)
    finally:
        await listener.stop()


async def test_two_servers_sharing_a_memory_database_hear_each_other():
    db = MemoryDatabase()
    one, two = await MemoryServer(db, shared=True).start(), await MemoryServer(db, shared=True).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await TussleClient(one.base_url, session, "").create("freeform")
            assert two.app is not None
            heard = collect(two.app[ENCOUNTERS].feed, enc.id)
            await enc.ok("add_combatant", combatant={"id": "a", "name": "Ann", "side": "left"})
            await eventually(lambda: bool(heard) and heard[-1].seq == 2, "the other server's event")
            # The creation too, when its notice was read after the subscription: each event once, in order.
            assert [e.seq for e in heard] in ([2], [1, 2]) and heard[-1].type == "CombatantJoined"
    finally:
        await one.stop()
        await two.stop()
