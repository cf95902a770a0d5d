"""The store contract on SQLite: the first handle takes the process lock, as a server does; the others
read and write beside it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from events.store.port import Store
from events.store.sqlite import SqliteStore
from tests.contract.store_contract import StoreContract


class TestSqliteStore(StoreContract):
    name = "sqlite"

    @pytest.fixture
    def make_handle(self, tmp_path: Any) -> Callable[..., Store]:
        path = str(tmp_path / "contract.db")
        return lambda first, seed_key=None: SqliteStore(path, lock=first, seed_key=seed_key)


async def test_a_write_by_another_connection_moves_the_external_writes_marker(tmp_path: Any) -> None:
    path = str(tmp_path / "marked.db")
    store = SqliteStore(path)
    await store.open()
    try:
        before = await store.external_writes_marker()
        other = sqlite3.connect(path)
        with other:
            other.execute("UPDATE events SET data = data WHERE 0")
            other.execute("CREATE TABLE IF NOT EXISTS scribbles (x)")
        other.close()
        assert before is not None and await store.external_writes_marker() != before
    finally:
        await store.close()
