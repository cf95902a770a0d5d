"""Schema versions: both stores run the migrations a database lacks at open, once, all or nothing.

Every test runs on SQLite and on PostgreSQL. "Several processes" are several store handles opened at
once on one database (on PostgreSQL each has its own pool, as a server process does).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest

from events.store.migrations import MIGRATIONS, Migration, SchemaMismatch
from events.store.port import Store
from events.store.postgres import PostgresStore
from events.store.sqlite import SqliteStore
from tests.support.appends import command, created

# A later release's migrations, as another engineer would append them.
EXTRA = Migration(
    "test_notes",
    sqlite="CREATE TABLE test_notes (stream TEXT NOT NULL, text TEXT NOT NULL);"
    " INSERT INTO test_runs (n) VALUES (1);",
    postgres="CREATE TABLE test_notes (stream TEXT NOT NULL, text TEXT NOT NULL);"
    " INSERT INTO test_runs (n) VALUES (1);",
    stream_tables=("test_notes",),
)
RUNS = Migration(
    "test_runs",
    sqlite="CREATE TABLE test_runs (n INTEGER NOT NULL)",
    postgres="CREATE TABLE test_runs (n INTEGER NOT NULL)",
)
BROKEN = Migration(
    "test_broken",
    sqlite="CREATE TABLE test_half (x INTEGER); INSERT INTO no_such_table VALUES (1)",
    postgres="CREATE TABLE test_half (x INTEGER); INSERT INTO no_such_table VALUES (1)",
)


@dataclass
class Db:
    """One database, store handles on it with a chosen migration list, and plain SQL beside them."""

    name: str
    make: Callable[[list[Migration], bool], Store]
    query: Callable[[str], Any]
    opened: list[Store] = field(default_factory=list)

    async def open(self, migrations: list[Migration] = MIGRATIONS, *, lock: bool | None = None) -> Store:
        """A handle; on SQLite the first takes the process lock, as a server does (unless `lock` says)."""
        store = self.make(migrations, not self.opened if lock is None else lock)
        await store.open()
        self.opened.append(store)
        return store

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return await self.query(sql)

    async def versions(self) -> list[tuple[int, str]]:
        return [
            (r[0], r[1])
            for r in await self.rows("SELECT version, name FROM schema_migrations ORDER BY version")
        ]

    async def has_table(self, table: str) -> bool:
        if self.name == "sqlite":
            found = await self.rows(
                f"SELECT name FROM sqlite_master WHERE type = 'table' AND name = '{table}'"
            )
        else:
            found = await self.rows(
                f"SELECT to_regclass('{table}')::text WHERE to_regclass('{table}') IS NOT NULL"
            )
        return bool(found)


@pytest.fixture(params=["sqlite", "postgres"])
def db_spec(request: pytest.FixtureRequest, tmp_path: Any) -> tuple[str, Any]:
    if request.param == "sqlite":
        return "sqlite", str(tmp_path / "migrations.db")
    return "postgres", request.getfixturevalue("pg_schema_dsn")


@pytest.fixture
async def db(db_spec: tuple[str, Any]) -> AsyncIterator[Db]:
    kind, where = db_spec
    if kind == "sqlite":
        path = where

        async def sqlite_query(sql: str) -> list[tuple[Any, ...]]:
            con = sqlite3.connect(path, isolation_level=None)
            try:
                return con.execute(sql).fetchall()
            finally:
                con.close()

        d = Db("sqlite", lambda m, first: SqliteStore(path, lock=first, migrations=m), sqlite_query)
    else:
        dsn = where

        async def pg_query(sql: str) -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(dsn)
            try:
                return [tuple(r) for r in await conn.fetch(sql)]
            finally:
                await conn.close()

        d = Db("postgres", lambda m, first: PostgresStore(dsn, migrations=m), pg_query)
    yield d
    for store in reversed(d.opened):
        await store.close()


async def test_a_new_database_is_at_the_latest_version(db: Db):
    store = await db.open()
    assert await db.versions() == [(i, m.name) for i, m in enumerate(MIGRATIONS, start=1)]
    await created(store, "s1")
    assert (await store.stream_info("s1")).seq == 1


async def test_opening_again_runs_nothing(db: Db):
    store = await db.open()
    first = await db.rows("SELECT version, applied_at FROM schema_migrations ORDER BY version")
    await store.close()
    db.opened.remove(store)
    await db.open()
    assert await db.rows("SELECT version, applied_at FROM schema_migrations ORDER BY version") == first


async def test_an_appended_migration_upgrades_a_database_in_use(db: Db):
    store = await db.open()
    await created(store, "s1")
    await store.append(command("s1", 1, "c1"))
    await store.close()
    db.opened.remove(store)
    upgraded = await db.open(MIGRATIONS + [RUNS, EXTRA])
    assert [name for _, name in await db.versions()][-2:] == ["test_runs", "test_notes"]
    assert (await upgraded.stream_info("s1")).seq == 2, "the data stays"
    assert [e.seq for e in await upgraded.read("s1")] == [1, 2]
    await db.rows("INSERT INTO test_notes (stream, text) VALUES ('s1', 'hello')")
    assert await upgraded.delete_stream("s1")
    assert await db.rows("SELECT * FROM test_notes") == [], (
        "a migration's stream_tables empty with their encounter"
    )


async def test_several_processes_starting_at_once_migrate_once(db: Db):
    first = await db.open(MIGRATIONS + [RUNS])
    await first.close()
    db.opened.remove(first)
    # Five handles at once (none holding SQLite's process lock): each finds the database one migration short.
    await asyncio.gather(*(db.open(MIGRATIONS + [RUNS, EXTRA], lock=False) for _ in range(5)))
    assert await db.rows("SELECT n FROM test_runs") == [(1,)], "the migration ran once"
    assert [name for _, name in await db.versions()].count("test_notes") == 1


async def test_a_failing_migration_leaves_the_database_as_it_was(db: Db):
    store = await db.open()
    await store.close()
    db.opened.remove(store)
    before = await db.versions()
    with pytest.raises((sqlite3.OperationalError, asyncpg.PostgresError)):
        await db.open(MIGRATIONS + [RUNS, BROKEN])
    assert await db.versions() == before
    assert not await db.has_table("test_runs") and not await db.has_table("test_half"), "nothing half-applied"
    await db.open()  # and the release it had still opens it


async def test_a_database_from_a_newer_release_is_refused(db: Db):
    store = await db.open(MIGRATIONS + [RUNS])
    await store.close()
    db.opened.remove(store)
    with pytest.raises(SchemaMismatch, match=f"version {len(MIGRATIONS) + 1} \\(test_runs\\)"):
        await db.open()
    with pytest.raises(SchemaMismatch):
        await db.open(MIGRATIONS + [EXTRA])  # another history of the same length
