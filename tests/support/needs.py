"""What a test needs from the machine: skip without it, except under CI=true, where it fails.

CI installs everything the suite needs (`.ci/run`), so there a missing part is a broken set-up,
and a run that skipped those tests must not pass.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1")


def missing(install_hint: str) -> NoReturn:
    """End the calling test (or fixture) for want of a system part: a skip, or under CI a failure."""
    if in_ci():
        pytest.fail(f"CI=true and this test's system part is missing: {install_hint}", pytrace=False)
    pytest.skip(install_hint)


# Debian's Chromium: the browser tests drive it through Playwright's `executable_path` (Playwright's
# own browser builds are never downloaded).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_HINT = "install chromium: apt-get install chromium"


def chromium() -> str:
    """The Chromium binary, or the calling test ends (see `missing`)."""
    if not os.access(CHROMIUM, os.X_OK):
        missing(CHROMIUM_HINT)
    return CHROMIUM
