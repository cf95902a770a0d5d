"""The suite sets up what it needs: its own PostgreSQL, and a clear skip (a failure under CI) without parts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from tests.support.postgres import PrivateServer, server_bindir

REPO = Path(__file__).resolve().parents[1]

NEEDING_TESTS = textwrap.dedent("""
    import pytest

    def test_on_postgres(pg_dsn):
        pass

    @pytest.mark.browser
    def test_in_a_browser():
        pass

    def test_with_chromium(chromium_path):
        pass
""")


def run_without_system_parts(tmp_path: Path, *, ci: bool) -> subprocess.CompletedProcess[str]:
    """A pytest run of three tests (PostgreSQL, a `browser` mark, the `chromium_path` fixture) on a machine
    that has neither PostgreSQL's server binaries nor Chromium."""
    (tmp_path / "test_needing.py").write_text(NEEDING_TESTS)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "TUSSLE_TEST_PG_DSN")}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(REPO / "pyproject.toml"),
            "-p",
            "tests.conftest",
            "-p",
            "tests.support.without_system_parts",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rsf",
            str(tmp_path / "test_needing.py"),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_postgresql_or_chromium_those_tests_skip_saying_what_to_install(tmp_path):
    run = run_without_system_parts(tmp_path, ci=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 skipped" in run.stdout
    assert "install postgresql: apt-get install postgresql" in run.stdout
    assert run.stdout.count("install chromium: apt-get install chromium") == 2


def test_under_ci_a_missing_part_fails_the_run(tmp_path):
    run = run_without_system_parts(tmp_path, ci=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "skipped" not in run.stdout
    assert "install postgresql: apt-get install postgresql" in run.stdout
    assert run.stdout.count("install chromium: apt-get install chromium") >= 2


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        return True
    except OSError:
        return False


async def test_a_private_server_serves_the_test_database_and_leaves_nothing_behind():
    bindir = server_bindir()
    if bindir is None:
        pytest.skip("install postgresql: apt-get install postgresql")
    server = PrivateServer(bindir).start()
    try:
        conn = await asyncpg.connect(server.dsn)
        try:
            assert await conn.fetchval("SELECT current_database()") == "test"
        finally:
            await conn.close()
    finally:
        server.stop()
    assert not os.path.exists(server.root)
    assert not _accepts(server.port)


def test_the_run_uses_the_named_server_or_its_own(pg_dsn):
    named = os.environ.get("TUSSLE_TEST_PG_DSN")
    if named:
        assert pg_dsn == named
    else:
        # Not the machine's own service on the standard port, whether or not that one is up.
        assert urlsplit(pg_dsn).port != 5432
