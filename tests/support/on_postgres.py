"""A pytest plugin that runs the HTTP and websocket suites on PostgreSQL instead of SQLite.

    python -m pytest -p tests.support.on_postgres tests

Every `RunningServer` (the `server` and `tussle` fixtures, and the tests that start their own) then
serves from a fresh PostgreSQL schema, with the cross-process feed listener attached exactly as
`tussle serve --pg` does; the schema is dropped when the server stops. Tests that open the SQLite
file itself (tampering with it, `tussle export --db`) have nothing to open and fail: deselect them.
"""

from __future__ import annotations

import contextlib
import secrets

import asyncpg
from aiohttp import web

from events.store.postgres import PostgresStore
from rules.registry import Registry
from server.app import make_app
from tests.support import client
from tests.support.postgres import base_dsn, with_search_path

_stop_on_sqlite = client.RunningServer.stop


async def _start(self: client.RunningServer) -> client.RunningServer:
    dsn = base_dsn()
    self.pg_schema = f"e_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"CREATE SCHEMA {self.pg_schema}")
    finally:
        await conn.close()
    try:
        store = PostgresStore(with_search_path(dsn, self.pg_schema))
        self.app = make_app(store, Registry.discover(), **self.settings)
        self.runner = web.AppRunner(self.app, access_log=None)
        await self.runner.setup()
        self.port = await client.listen(self.runner, self.port)
    except BaseException:
        with contextlib.suppress(Exception):
            await _stop(self)  # a failed start leaves no schema behind
        raise
    return self


async def _stop(self: client.RunningServer) -> None:
    try:
        await _stop_on_sqlite(self)
    finally:
        schema = getattr(self, "pg_schema", None)
        if schema:
            self.pg_schema = None
            conn = await asyncpg.connect(base_dsn())
            try:
                await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            finally:
                await conn.close()


client.RunningServer.start = _start  # type: ignore[method-assign]
client.RunningServer.stop = _stop  # type: ignore[method-assign]
