"""Shared fixtures: a real server on a free port with a real SQLite file, and a real HTTP client."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, settings

from tests.support import needs
from tests.support.client import PgServer, RunningServer, TussleClient
from tests.support.postgres import pg_dsn, pg_schema_dsn, stop_private_server  # noqa: F401 - PostgreSQL fixtures

# The test-only ruleset (tests/support/probe_ruleset.py) is installed beside the real ones.
os.environ.setdefault("TUSSLE_EXTRA_RULESETS", "tests.support.probe_ruleset:ruleset")

# Every store of the run, and every server it starts, seals dice seeds under one key (a PostgreSQL store
# refuses to start without one); tests/test_seed_key.py unsets it to see SQLite's key file at work.
os.environ.setdefault("TUSSLE_SEED_KEY", secrets.token_hex(32))

# Property tests judge results, never speed: Hypothesis's per-example deadline (200 ms) and its
# too-slow health check would fail a correct test on a busy machine.
settings.register_profile("tussle", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tussle")


@pytest.fixture
async def server(tmp_path) -> AsyncIterator[RunningServer]:
    srv = await RunningServer(str(tmp_path / "tussle.db")).start()
    yield srv
    await srv.stop()


@pytest.fixture
async def tussle(server: RunningServer) -> AsyncIterator[TussleClient]:
    async with aiohttp.ClientSession() as session:
        yield TussleClient(server.base_url, session, server.db_path)


@pytest.fixture(params=["sqlite", "postgres"])
def store_dsn(request: pytest.FixtureRequest) -> str | None:
    """None for SQLite; for PostgreSQL a fresh schema's DSN."""
    return request.getfixturevalue("pg_schema_dsn") if request.param == "postgres" else None


@pytest.fixture
def serve_args(store_dsn: str | None, tmp_path) -> list[str]:
    """`tussle serve`'s store arguments, SQLite's file or (a second run) a fresh PostgreSQL schema."""
    return ["--db", str(tmp_path / "serve.db")] if store_dsn is None else ["--pg", store_dsn]


@pytest.fixture
async def serve(store_dsn: str | None, tmp_path) -> AsyncIterator[Callable[..., Awaitable[RunningServer]]]:
    """Start real servers with the given settings, on SQLite and (a second run) on PostgreSQL."""
    started: list[RunningServer] = []

    async def start(**settings: Any) -> RunningServer:
        if store_dsn is None:
            srv = RunningServer(str(tmp_path / f"tussle{len(started)}.db"), **settings)
        else:
            srv = PgServer(store_dsn, **settings)
        started.append(await srv.start())
        return srv

    yield start
    for srv in started:
        await srv.stop()


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser"):
        needs.chromium()


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_private_server()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium, for Playwright's `executable_path` (a skip without it; under CI=true a failure)."""
    return needs.chromium()
