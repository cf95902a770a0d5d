"""The store contract on PostgreSQL: each handle stands for another server process on one database (a
schema of the suite's own PostgreSQL server, tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from events.store.port import Store
from events.store.postgres import PostgresStore
from tests.contract.store_contract import StoreContract


class TestPostgresStore(StoreContract):
    name = "postgres"

    @pytest.fixture
    def make_handle(self, pg_schema_dsn: str) -> Callable[..., Store]:
        return lambda first, seed_key=None: PostgresStore(pg_schema_dsn, seed_key=seed_key)
