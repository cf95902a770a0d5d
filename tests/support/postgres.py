"""PostgreSQL for the tests: a private server per test run, one fresh schema per test.

Without `TUSSLE_TEST_PG_DSN` the run starts its own PostgreSQL from the installed server binaries
(`pg_config --bindir`, else `/usr/lib/postgresql/*/bin`) in a temporary directory on a free port,
and removes it when the run ends; every test, in-process server and `tussle serve --pg` subprocess
of the run uses that one server. `TUSSLE_TEST_PG_DSN` names a server to use instead.

No binaries: the PostgreSQL tests skip with what to install, except under `CI=true`, where they
fail, so that CI can never pass by skipping them. A server that is there but will not start fails.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from urllib.parse import urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from tests.support.needs import missing

INSTALL_HINT = "install postgresql: apt-get install postgresql"
DB_NAME = "test"
# PostgreSQL refuses to run as root (as CI and containers do): there it runs as the account its
# Debian package creates.
SERVER_ACCOUNT = "postgres"
# Generous: it only decides how long a broken set-up takes to fail. Under eight test runs on two
# cores a start failed once within the defaults (60 s for initdb, the wait and pg_ctl's own -w).
START_TIMEOUT_S = 300


def server_bindir() -> str | None:
    """The directory of the installed PostgreSQL server binaries (pg_ctl, initdb), if any."""
    candidates = []
    if shutil.which("pg_config"):
        # pg_config also comes with the client's development files alone, so its answer is checked.
        run = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=False, timeout=30
        )
        if run.returncode == 0:
            candidates.append(run.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
    for bindir in candidates:
        if all(os.access(os.path.join(bindir, name), os.X_OK) for name in ("pg_ctl", "initdb", "postgres")):
            return bindir
    return None


def _version_key(bindir: str) -> tuple[int, ...]:
    version = os.path.basename(os.path.dirname(bindir))
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateServer:
    """A PostgreSQL cluster in a temporary directory, driven by pytest-postgresql's executor.

    pytest-postgresql's `postgresql_proc` fixture cannot be used as it is: it puts the cluster under
    pytest's base temp (mode 0700, owned by the user running pytest) and runs pg_ctl as that user,
    and when that user is root PostgreSQL refuses to start. Its `PostgreSQLExecutor` (initdb with
    trust auth, start and wait, fast stop, removal of the data directory) is used with a directory
    of our own, and as root with a pg_ctl that runs as the server account.
    """

    def __init__(self, bindir: str):
        from pytest_postgresql.executors import PostgreSQLExecutor

        self.bindir = bindir
        self.root = tempfile.mkdtemp(prefix="tussle-pg-")
        pg_ctl = os.path.join(bindir, "pg_ctl")
        if os.geteuid() == 0:
            account = pwd.getpwnam(SERVER_ACCOUNT)
            os.chown(self.root, account.pw_uid, account.pw_gid)
            pg_ctl = os.path.join(self.root, "pg_ctl")
            with open(pg_ctl, "w") as f:
                f.write(f'#!/bin/sh\nexec runuser -u {SERVER_ACCOUNT} -- "{bindir}/pg_ctl" "$@"\n')
            os.chmod(pg_ctl, stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        self.port = _free_port()
        self.executor = PostgreSQLExecutor(
            executable=pg_ctl,
            host="127.0.0.1",
            port=self.port,
            datadir=os.path.join(self.root, "data"),
            unixsocketdir=self.root,
            logfile=os.path.join(self.root, "postgresql.log"),
            dbname=DB_NAME,
            startparams=f"-w -t {START_TIMEOUT_S}",
            timeout=START_TIMEOUT_S,
            postgres_options="-c listen_addresses=127.0.0.1",
        )
        self.dsn = f"postgresql://postgres@127.0.0.1:{self.port}/{DB_NAME}"

    def start(self) -> PrivateServer:
        try:
            self.executor.start()
            self._createdb()
        except Exception as e:
            log = self._log_tail()
            self.stop()
            raise RuntimeError(f"the tests' own PostgreSQL ({self.bindir}) did not start: {e}\n{log}") from e
        except BaseException:
            self.stop()
            raise
        return self

    def _createdb(self) -> None:
        """createdb, again while the server still says it is starting up (seen under load after pg_ctl -w)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            run = subprocess.run(
                [
                    os.path.join(self.bindir, "createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "postgres",
                    DB_NAME,
                ],
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT_S,
            )
            if run.returncode == 0:
                return
            if "starting up" not in run.stderr or time.monotonic() > deadline:
                raise RuntimeError(f"createdb: {run.stderr.strip()}")
            time.sleep(0.5)

    def _log_tail(self) -> str:
        try:
            with open(self.executor.logfile) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            if self.executor.running():
                self.executor.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


_private: PrivateServer | None = None


def base_dsn() -> str:
    """The PostgreSQL server of this test run: `TUSSLE_TEST_PG_DSN`, else the run's private one.

    The private server starts on first use; without server binaries the calling test skips (fails
    under CI=true) with what to install.
    """
    named = os.environ.get("TUSSLE_TEST_PG_DSN")
    if named:
        return named
    global _private
    if _private is None:
        bindir = server_bindir()
        if bindir is None:
            missing(INSTALL_HINT)
        _private = PrivateServer(bindir).start()
    return _private.dsn


def stop_private_server() -> None:
    global _private
    if _private is not None:
        server, _private = _private, None
        server.stop()


def with_search_path(dsn: str, schema: str) -> str:
    """The DSN whose connections use `schema`."""
    parts = urlsplit(dsn)
    query = "&".join(q for q in (parts.query, urlencode({"search_path": schema})) if q)
    return urlunsplit(parts._replace(query=query))


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    """The PostgreSQL server of the tests (see `base_dsn`)."""
    return base_dsn()


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
