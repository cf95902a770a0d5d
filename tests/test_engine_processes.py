"""The real `tussle` command: one server per SQLite file, a restart serving the same stream, export."""

from __future__ import annotations

import json
import subprocess
import sys

import aiohttp

from tests.support.client import TussleClient
from tests.support.serving import ServeProcess


async def test_second_server_on_the_same_file_is_refused_and_a_restart_serves_the_same_stream(tmp_path):
    db = str(tmp_path / "fight.db")
    first = ServeProcess("--db", db)
    try:
        second = ServeProcess("--db", db)
        err = second.stop()
        assert second.port is None and second.proc.returncode != 0, err
        assert "another tussle server" in err and f"pid {first.proc.pid}" in err
        async with aiohttp.ClientSession() as session:
            client = TussleClient(first.url, session, db)
            enc = await client.create("freeform")
            await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [2, 3]})
            await enc.ok("roll", expression="3d6")
            await enc.ok("move", combatant="ann", to=[3, 3])
            events_before, state_before = await enc.events(), await enc.state()
    finally:
        first.stop()
    again = ServeProcess("--db", db)
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(again.url, session, db)
            r = await client.request("GET", f"/encounters/{enc.id}/events", token=enc.gm_token)
            assert r.body["events"] == events_before
            r = await client.request("GET", f"/encounters/{enc.id}/state", token=enc.gm_token)
            assert r.body == state_before
        exported = subprocess.run(
            [sys.executable, "-m", "server", "export", enc.id, "--format", "jsonl", "--db", db],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert exported.returncode == 0, exported.stderr
        lines = [json.loads(line) for line in exported.stdout.splitlines()]
        assert lines[:-1] == events_before
        trailer = lines[-1]["trailer"]
        assert (
            trailer["head_seq"] == events_before[-1]["seq"]
            and trailer["head_hash"] == events_before[-1]["hash"]
        )
        assert trailer["commitments"] == [events_before[0]["data"]["commitment"]]
    finally:
        again.stop()


def test_help_of_each_command():
    for args in (["--help"], ["serve", "--help"], ["export", "--help"]):
        r = subprocess.run(
            [sys.executable, "-m", "server", *args], capture_output=True, text=True, timeout=30
        )
        assert r.returncode == 0 and "usage" in r.stdout
