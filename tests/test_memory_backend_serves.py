"""The server runs on a third backend as it is (issue 26 item 2): the in-memory store of the tests
(tests/support/memory_store.py) implements the ports and nothing else, and a real server on it creates an
encounter, takes commands, answers the state, the events and /verify and /audit (made on the loop: the
store offers no whole-stream reader for a worker), which it could not if any consumer went past a port."""

from __future__ import annotations

import aiohttp
from aiohttp import web

from rules.registry import Registry
from server.app import make_app
from tests.support.client import RunningServer, TussleClient
from tests.support.memory_store import MemoryDatabase, MemoryStore


class MemoryServer(RunningServer):
    def __init__(self) -> None:
        super().__init__("")
        self.db = MemoryDatabase()

    def make_app(self) -> web.Application:
        return make_app(MemoryStore(self.db), Registry.discover())


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
