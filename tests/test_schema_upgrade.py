"""A database written before the stores had schema versions is upgraded at start and served as it was.

tests/data/schema_v0.db was written by the server at 5f643b3 (tests/data/make_schema_v0_db.py), and
tests/data/schema_v0.json holds what that server answered for it. Today's server opens a copy: every
stream verifies, and its events, state, log, audit and listing are what they were. The API may add
fields (API.md: "add fields freely, rename none"), so state, log, audit and listing are compared as
"every field recorded then is there, unchanged"; the events and the Markdown log must be identical.
Changed on purpose since: the gurps encounter's log sentences (gurps version 2, issue 18 item 4; only
`text` and the Markdown, its events and state as they were).
The log's sentences are today's rulesets' (the tft encounter's re-read after issue 18 item 4 changed its
sentences on purpose: no guessed pronouns, hexes as [q, r]); the stored events never change. Issue 18's
new-user play-through: the gurps close combat says only Bors is on the ground, and while the GM's question to Bors
waits, `legal_actions` lists only Bors's `respond` (Ana's move and evade would be refused).
Issue 29 item 1: the tft encounter ends at turn 2's TurnStarted, so it is in no phase (`phase` null) and
b1's action commands, refused before the action phase (tft version 4), are no longer in `legal_actions`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from events.store.migrations import MIGRATIONS, VERSION_TABLE, Migration
from tests.support.client import Encounter, RunningServer, TussleClient

DATA = os.path.join(os.path.dirname(__file__), "data")
RECORDED: dict[str, Any] = json.load(open(os.path.join(DATA, "schema_v0.json"), encoding="utf-8"))


def assert_kept(then: Any, now: Any, where: str = "") -> None:
    """Every field of `then` is in `now` with the same value (dicts may have gained fields)."""
    if isinstance(then, dict):
        assert isinstance(now, dict), f"{where}: {now!r} is no longer an object"
        for key, value in then.items():
            assert key in now, f"{where}.{key} is gone"
            assert_kept(value, now[key], f"{where}.{key}")
    elif isinstance(then, list):
        assert isinstance(now, list) and len(now) == len(then), f"{where}: {now!r} != {then!r}"
        for i, (a, b) in enumerate(zip(then, now, strict=True)):
            assert_kept(a, b, f"{where}[{i}]")
    else:
        assert now == then, f"{where}: {now!r} != {then!r}"


@pytest.fixture
async def old_db(tmp_path) -> AsyncIterator[tuple[TussleClient, str]]:
    path = str(tmp_path / "old.db")
    shutil.copy(os.path.join(DATA, "schema_v0.db"), path)
    server = await RunningServer(path).start()
    try:
        async with aiohttp.ClientSession() as session:
            yield TussleClient(server.base_url, session, path), path
    finally:
        await server.stop()


def encounter(client: TussleClient, recorded: dict[str, Any]) -> Encounter:
    return Encounter(client, {"id": recorded["id"], "gm_token": recorded["gm_token"]})


async def test_the_old_database_had_no_schema_version():
    con = sqlite3.connect(f"file:{os.path.join(DATA, 'schema_v0.db')}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()
    assert (
        "schema_migrations" not in tables
        and {"streams", "events", "commands", "dice_seeds", "tokens"} <= tables
    )


async def test_every_old_stream_verifies_and_reads_as_it_did(old_db):
    client, path = old_db
    for rec in RECORDED["encounters"]:
        enc = encounter(client, rec)
        verify = (await enc.get("/verify")).body
        assert verify["ok"] and verify["chain_ok"], (rec["id"], verify)
        assert_kept(rec["verify"], verify, f"{rec['id']}.verify")
        r = await enc.get("/events?limit=10000")
        assert r.body["events"] == rec["events"]["events"] and r.body["head"] == rec["events"]["head"]
        for key, suffix in (
            ("info", ""),
            ("state", "/state"),
            ("log", "/log?format=json"),
            ("audit", "/audit"),
        ):
            r = await enc.get(suffix)
            assert r.status == 200, (suffix, r.body)
            assert_kept(rec[key], r.body, f"{rec['id']}.{key}")
        # As recorded, but for the link to the verifying docs every export now ends with (issue 25 item 8),
        # which is the server's footer, not the stream's.
        markdown = (await enc.get("/log?format=markdown")).body
        kept, link = markdown.rstrip("\n").rsplit("\n\n", 1)
        assert link.startswith("[How to check every roll and the chain yourself](<")
        assert kept + "\n" == rec["log_markdown"]
        await enc.replay_matches_live()
    listed = await client.request("GET", "/encounters")
    assert_kept(RECORDED["public_list"], listed.body, "list")
    con = sqlite3.connect(path)
    try:
        versions = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY version")]
    finally:
        con.close()
    assert versions == list(range(1, len(MIGRATIONS) + 1)), "the server migrated it to its version at start"


async def test_old_tokens_still_work_and_old_fights_go_on(old_db):
    client, _ = old_db
    brawl, duel, alley, _ridge = (encounter(client, rec) for rec in RECORDED["encounters"])
    brawl_rec, duel_rec, alley_rec, _ = RECORDED["encounters"]
    # A seat made then still acts as its seat.
    r = await brawl.command("note", token=brawl_rec["seats"]["Alice"], text="Still here.")
    assert r.status == 201 and r.body["events"][0]["actor"] == "seat:seat-1"
    # The pending question asked then can be answered now, by the seat asked.
    (pending,) = (await alley.state())["pending"]
    r = await alley.command(
        "respond", token=alley_rec["seats"]["Bors's player"], reaction=pending["id"], choice="rise"
    )
    assert r.status == 201, r.body
    assert (await alley.state())["pending"] == []
    # The closed encounter stays closed; its observer token still reads it.
    r = await duel.command("note", text="too late")
    assert r.status == 409 and r.body["error"]["code"] == "closed"
    assert (await duel.get("/state", token=duel_rec["observer"])).status == 200
    for enc in (brawl, alley):
        verify = (await enc.get("/verify")).body
        assert verify["ok"], verify


def test_tussle_serve_refuses_a_database_from_a_newer_release_in_one_line(tmp_path):
    path = str(tmp_path / "newer.db")
    shutil.copy(os.path.join(DATA, "schema_v0.db"), path)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute(VERSION_TABLE["sqlite"])
        con.executemany(
            "INSERT INTO schema_migrations VALUES (?, ?, 'then')",
            [(i, m.name) for i, m in enumerate(MIGRATIONS + [Migration("from_the_future", "", "")], 1)],
        )
    finally:
        con.close()
    run = subprocess.run(
        [sys.executable, "-m", "server", "serve", "--port", "0", "--db", path],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert (
        f"version {len(MIGRATIONS) + 1} (from_the_future)" in run.stderr and "Traceback" not in run.stderr
    ), run.stderr


async def test_an_old_creation_resent_returns_its_encounter_without_a_token(old_db):
    client, _ = old_db
    duel_rec = RECORDED["encounters"][1]
    sent = {
        "name": "Duel at dawn",
        "ruleset": "freeform",
        "dice": "server",
        "public": True,
        "command_id": "v0-freeform-duel",
    }  # as tests/data/make_schema_v0_db.py sent it
    r = await client.request("POST", "/encounters", sent)
    assert r.status == 200 and r.body["id"] == duel_rec["id"] and r.body["gm_token"] is None, r.body
    r = await client.request("POST", "/encounters", {**sent, "name": "Duel at dusk"})
    assert r.status == 409 and r.body["error"]["code"] == "command_id_reused"
    events = await encounter(client, duel_rec).events()
    assert events == duel_rec["events"]["events"], "nothing appended"
