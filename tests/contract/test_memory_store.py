"""The store contract on the in-memory backend (tests/support/memory_store.py): a third backend is
"implement the ports, pass tests/contract/" (docs/storage.md), and this one shows it. Each handle
stands for another process on one shared database."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from events.store.port import Store
from tests.contract.store_contract import StoreContract
from tests.support.memory_store import MemoryDatabase, MemoryStore, SharedMemoryStore


class TestMemoryStore(StoreContract):
    name = "memory"

    @pytest.fixture
    def make_handle(self) -> Callable[..., Store]:
        db = MemoryDatabase()
        return lambda first, seed_key=None: MemoryStore(db, seed_key=seed_key)


class TestSharedMemoryStore(StoreContract):
    """The same backend as shared by several processes (it announces each commit: SharedFeed)."""

    name = "shared-memory"

    @pytest.fixture
    def make_handle(self) -> Callable[..., Store]:
        db = MemoryDatabase()
        return lambda first, seed_key=None: SharedMemoryStore(db, seed_key=seed_key)
