"""PostgreSQL for the tests: started if it is down, one fresh schema per test, never a silent skip.

The PostgreSQL tests are part of the suite like any other: when the server cannot be reached (or
started) they fail with the reason, they do not skip. `TUSSLE_TEST_PG_DSN` names another server.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from urllib.parse import urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def base_dsn() -> str:
    return os.environ.get("TUSSLE_TEST_PG_DSN", DEFAULT_DSN)


def _reachable(dsn: str) -> bool:
    parts = urlsplit(dsn)
    if shutil.which("pg_isready"):
        return subprocess.run(["pg_isready", "-q", "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432)],
                              check=False, timeout=30).returncode == 0
    import socket

    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), timeout=1).close()
        return True
    except OSError:
        return False


def ensure_postgres(dsn: str, wait_s: float = 30.0) -> None:
    """Start the local cluster if PostgreSQL is down; raise (failing the test) if it stays unreachable."""
    if _reachable(dsn):
        return
    tried = "nothing to start it with"
    if shutil.which("pg_ctlcluster") and os.path.isdir("/etc/postgresql"):
        for version in sorted(os.listdir("/etc/postgresql")):
            run = subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
                                 capture_output=True, text=True, check=False, timeout=120)
            tried = f"pg_ctlcluster {version} main start: {run.returncode} {run.stderr.strip()}"
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if _reachable(dsn):
            return
        time.sleep(0.5)
    raise RuntimeError(f"PostgreSQL at {dsn} cannot be reached ({tried}); the PostgreSQL tests need it")


def with_search_path(dsn: str, schema: str) -> str:
    """The DSN whose connections use `schema`."""
    parts = urlsplit(dsn)
    query = "&".join(q for q in (parts.query, urlencode({"search_path": schema})) if q)
    return urlunsplit(parts._replace(query=query))


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    """The PostgreSQL server of the tests, started if needed (a failure, never a skip, if it is gone)."""
    dsn = base_dsn()
    ensure_postgres(dsn)
    return dsn


@pytest.fixture
async def pg_schema_dsn(pg_dsn: str) -> AsyncIterator[str]:
    """A DSN onto a fresh, empty schema, dropped after the test."""
    schema = f"t_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield with_search_path(pg_dsn, schema)
    conn = await asyncpg.connect(pg_dsn)
    try:
        # Other sessions (servers being stopped) may still hold locks for a moment.
        await conn.execute("SET lock_timeout = '10s'")
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()
