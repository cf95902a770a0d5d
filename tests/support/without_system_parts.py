"""A pytest plugin: the run sees a machine without PostgreSQL's server binaries and without Chromium.

    python -m pytest -p tests.support.without_system_parts ...

For the tests of the suite's own set-up (tests/test_suite_setup.py); set TUSSLE_TEST_PG_DSN aside too.
"""

from tests.support import needs, postgres

postgres.server_bindir = lambda: None  # type: ignore[assignment]
needs.CHROMIUM = "/nonexistent/chromium"
