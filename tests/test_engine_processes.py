"""The real `tussle` command: one server per SQLite file, a restart serving the same stream, export."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import aiohttp

from tests.support.client import TussleClient, free_port


def _serve(db: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "server", "serve", "--db", db, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    import socket

    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return proc
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


async def test_second_server_on_the_same_file_is_refused_and_a_restart_serves_the_same_stream(tmp_path):
    db = str(tmp_path / "fight.db")
    port = free_port()
    first = _serve(db, port)
    try:
        second = _serve(db, free_port())
        out, err = second.communicate(timeout=20)
        assert second.returncode != 0
        assert "another tussle server" in err and f"pid {first.pid}" in err
        async with aiohttp.ClientSession() as session:
            client = TussleClient(f"http://127.0.0.1:{port}", session, db)
            enc = await client.create("freeform")
            await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [2, 3]})
            await enc.ok("roll", expression="3d6")
            await enc.ok("move", combatant="ann", to=[3, 3])
            events_before, state_before = await enc.events(), await enc.state()
    finally:
        _stop(first)
    port2 = free_port()
    again = _serve(db, port2)
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(f"http://127.0.0.1:{port2}", session, db)
            r = await client.request("GET", f"/encounters/{enc.id}/events", token=enc.gm_token)
            assert r.body["events"] == events_before
            r = await client.request("GET", f"/encounters/{enc.id}/state", token=enc.gm_token)
            assert r.body == state_before
        exported = subprocess.run([sys.executable, "-m", "server", "export", enc.id, "--format", "jsonl", "--db", db],
                                  capture_output=True, text=True, timeout=30)
        assert exported.returncode == 0, exported.stderr
        lines = [json.loads(line) for line in exported.stdout.splitlines()]
        assert lines[:-1] == events_before
        trailer = lines[-1]["trailer"]
        assert trailer["head_seq"] == events_before[-1]["seq"] and trailer["head_hash"] == events_before[-1]["hash"]
        assert trailer["commitments"] == [events_before[0]["data"]["commitment"]]
    finally:
        _stop(again)


def test_help_of_each_command():
    for args in (["--help"], ["serve", "--help"], ["export", "--help"]):
        r = subprocess.run([sys.executable, "-m", "server", *args], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and "usage" in r.stdout
