"""`tussle export --format markdown|bbcode [--turn N]` (issue 18 item 5): read from the database beside
the running server, it prints what GET /log?format= answers, for the whole log and for each turn."""

from __future__ import annotations

import subprocess
import sys

import aiohttp
import pytest

from tests.golden.scripts import load, play
from tests.support.client import RunningServer, TussleClient


def export(db: str, stream: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "server", "export", stream, "--db", db, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", ["freeform-server-dice", "tft-manual-troll"])
async def test_forum_exports_are_the_logs_forum_text(tmp_path, name):
    db = str(tmp_path / "export.db")
    server = await RunningServer(db, snapshot_every=4, rate_reads=0, rate_commands=0).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await play(TussleClient(server.base_url, session, db), load(name))
            turns = sorted({e["turn"] for e in (await enc.get("/log?limit=10000")).body["entries"]})
            for fmt in ("markdown", "bbcode"):
                whole = (await enc.get(f"/log?format={fmt}&limit=10000")).body
                assert export(db, enc.id, "--format", fmt) == whole
                for turn in turns:
                    excerpt = (await enc.get(f"/log?format={fmt}&turn={turn}")).body
                    assert export(db, enc.id, "--format", fmt, "--turn", str(turn)) == excerpt, (fmt, turn)
            small = (await enc.get("/log?format=markdown&limit=10000&max_chars=300")).body
            assert export(db, enc.id, "--format", "markdown", "--max-chars", "300") == small
    finally:
        await server.stop()


def test_a_turn_of_a_jsonl_export_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "server", "export", "x", "--db", str(tmp_path / "none.db"), "--turn", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--turn needs" in done.stderr
