"""Issue 33 item 11, the small ones that a set-up or a page header shows."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_the_seed_key_and_the_database_files_are_git_ignored():
    """After the README's set-up `git status` showed `?? tussle.db.seed-key`: a `git add -A` committed
    the key that seals the seeds."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["tussle.db", "tussle.db-wal", "tussle.db-shm", "tussle.db.lock", "tussle.db.seed-key"]
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *names], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert sorted(done.stdout.split()) == sorted(names), done.stdout


def test_the_readme_names_the_python_version_pyproject_needs():
    needs = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = re.fullmatch(r">=(\d+\.\d+)", needs)
    assert version is not None, needs
    readme = (ROOT / "README.md").read_text()
    assert f"Python {version[1]} or newer" in readme
    assert "uuidgen" not in readme  # a fresh machine may lack it


async def test_the_guide_page_sends_the_pages_security_headers(tussle):
    async with tussle.session.get(f"{tussle.base_url}/rulesets/tft/guide") as r:
        assert r.status == 200
        assert r.headers.get("Referrer-Policy") == "no-referrer"
        assert r.headers.get("X-Content-Type-Options") == "nosniff"
        assert "default-src 'none'" in r.headers.get("Content-Security-Policy", "")
