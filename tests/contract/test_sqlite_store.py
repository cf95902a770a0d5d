"""The store contract on SQLite: the first handle takes the process lock, as a server does; the others
read and write beside it."""

from __future__ import annotations

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
