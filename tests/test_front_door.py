"""One middleware (issue 32 item 1): every request passes server/ops/front_door.py alone, and a request
refused at its first steps (a 429, a NUL in the URL) is still logged and counted by its final status."""

from __future__ import annotations

import aiohttp

from events.store.sqlite import SqliteStore
from server.app import make_app
from tests.support.client import RunningServer


def test_the_app_has_one_middleware(tmp_path):
    app = make_app(SqliteStore(str(tmp_path / "one.db")), trusted_proxies=["127.0.0.1/32"])
    assert len(app.middlewares) == 1


async def test_refusals_at_the_door_are_counted(tmp_path):
    server = await RunningServer(str(tmp_path / "door.db"), rate_reads=1, rate_burst=1).start()
    try:
        async with aiohttp.ClientSession() as session:
            statuses = []
            for _ in range(3):
                async with session.get(f"{server.base_url}/encounters") as r:
                    statuses.append(r.status)
            async with session.get(f"{server.base_url}/encounters/a%00b/events") as r:
                statuses.append(r.status)
            async with session.get(f"{server.base_url}/metrics") as r:
                text = await r.text()
        assert 429 in statuses, statuses
        assert 'status="429"' in text
    finally:
        await server.stop()
