"""`tussle demo`: plays its script on a running server, or straight into a database, and prints URLs."""

from __future__ import annotations

import re

from tests.test_verify_tamper import tussle_cli


async def test_demo_on_a_running_server(tussle):
    code, out = await tussle_cli("demo", "--url", tussle.base_url)
    assert code == 0, out
    stream = re.search(r"Encounter (\w+)", out).group(1)
    assert f"{tussle.base_url}/encounters/{stream}/state" in out
    assert f"{tussle.base_url}/encounters/{stream}/log" in out
    assert f"ws://{tussle.base_url[7:]}/encounters/{stream}/ws" in out
    log = (await tussle.request("GET", f"/encounters/{stream}/log")).body  # public: no token needed
    texts = [e["text"] for e in log["entries"]]
    assert any(t.startswith("The troll rolls 1d6 for the troll's HTH defence: ") for t in texts)
    assert (await tussle.request("GET", f"/encounters/{stream}/verify")).body["ok"]


async def test_demo_into_a_database_no_server_holds(tmp_path):
    db = str(tmp_path / "demo.db")
    code, out = await tussle_cli("demo", "--db", db)
    assert code == 0, out
    assert "/encounters/" in out and db in out


async def test_demo_says_when_no_server_answers():
    code, out = await tussle_cli("demo", "--url", "http://127.0.0.1:9")
    assert code == 1 and "no server answers" in out
