"""`tussle export --format markdown|bbcode [--turn N]` (issue 18 item 5): read from the database beside
the running server, it prints what GET /log?format= answers, for the whole log and for each turn."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from events.common import COMMON_EVENTS
from projections.forum_export import POST_SEPARATOR, VERIFYING_DOC
from rules.interface import Ruleset
from server.guides.guide import published
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
        at = ("--base-url", server.base_url)  # the URL the server's own answers link to
        async with aiohttp.ClientSession() as session:
            enc = await play(TussleClient(server.base_url, session, db), load(name))
            turns = sorted({e["turn"] for e in (await enc.get("/log?limit=10000")).body["entries"]})
            for fmt in ("markdown", "bbcode"):
                whole = (await enc.get(f"/log?format={fmt}&limit=10000")).body
                assert export(db, enc.id, "--format", fmt, *at) == whole
                # The last post links to how to verify it (issue 25 item 8): the server's own copy.
                assert f"{server.base_url}/verifying" in whole.split(POST_SEPARATOR)[-1]
                for turn in turns:
                    excerpt = (await enc.get(f"/log?format={fmt}&turn={turn}")).body
                    assert export(db, enc.id, "--format", fmt, "--turn", str(turn), *at) == excerpt, (
                        fmt,
                        turn,
                    )
            small = (await enc.get("/log?format=markdown&limit=10000&max_chars=300")).body
            assert export(db, enc.id, "--format", "markdown", "--max-chars", "300", *at) == small
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


# What each ruleset's forum post leaves out (said by the sentence named with it) and keeps.
FOLDED = {
    "rogue-trader-manual-devil": {
        "left out": [
            "standing order answers the charge",
            "Unit T is in coherency",
            "T2 is out of the fight",
            "T2 leaves the encounter",
        ],
        "kept": ["Devil holds.", "T2 is slain.", "Round 1: unit dv caused 3 wounds"],
    },
    "skirmish-manual-e1": {
        "left out": ["answers for the defender", "1 wound level for Sgt Hale"],
        "kept": ["Pvt Voss chooses to parry.", "Sgt Hale is now lightly wounded"],
    },
}


@pytest.mark.parametrize("name", sorted(FOLDED))
async def test_a_forum_post_folds_the_rulesets_bookkeeping(tmp_path, name):
    """Issue 18 item 4: what another sentence already says is marked aside in /log and left out of the post."""
    db = str(tmp_path / "folded.db")
    server = await RunningServer(db, rate_reads=0, rate_commands=0).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await play(TussleClient(server.base_url, session, db), load(name))
            entries = (await enc.get("/log?limit=10000")).body["entries"]
            asides = [e["text"] for e in entries if e.get("aside")]
            for fmt in ("markdown", "bbcode"):
                post = (await enc.get(f"/log?format={fmt}&limit=10000")).body
                for words in FOLDED[name]["left out"]:
                    assert any(words in text for text in asides), (words, asides)
                    assert words not in post, (fmt, words)
                for words in FOLDED[name]["kept"]:
                    assert words in post, (fmt, words)
    finally:
        await server.stop()


def test_every_ruleset_with_events_of_its_own_says_which_are_bookkeeping():
    """A ruleset's bookkeeping (its `bookkeeping` types, or its own `aside`) is what forum posts fold (the
    installed rulesets: the tests' probe has no log of its own)."""
    silent = [
        rs.id
        for rs in published().rulesets.values()
        if [e for e in rs.events if e not in COMMON_EVENTS]
        and not rs.bookkeeping
        and type(rs).aside is Ruleset.aside
    ]
    assert silent == []


async def test_every_export_links_to_the_verifying_docs_the_server_serves(tmp_path):
    """Issue 25 item 8: the JSONL/NDJSON trailer names where the checks are written (GET /verifying, which
    serves docs/verifying.md), and so does the last forum post; `tussle export` without --base-url names
    the document in the sources."""
    db = str(tmp_path / "export.db")
    server = await RunningServer(db).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await play(TussleClient(server.base_url, session, db), load("freeform-server-dice"))
            async with session.get(
                f"{server.base_url}{enc.path}/events",
                headers={"Authorization": f"Bearer {enc.gm_token}", "Accept": "application/x-ndjson"},
            ) as r:
                trailer = json.loads((await r.read()).splitlines()[-1])["trailer"]
            assert trailer["verifying"] == f"{server.base_url}/verifying"
            async with session.get(trailer["verifying"]) as r:
                assert r.status == 200 and r.headers["Content-Type"].startswith("text/markdown")
                assert await r.text() == (Path(__file__).parent.parent / "docs" / "verifying.md").read_text()
            bbcode = (await enc.get("/log?format=bbcode&limit=10000")).body
            assert f"[url={server.base_url}/verifying]" in bbcode.split(POST_SEPARATOR)[-1]
            async with session.get(
                f"{server.base_url}{enc.path}/log?format=markdown",
                headers={"Authorization": f"Bearer {enc.gm_token}", "Accept": "application/json"},
            ) as r:
                page = await r.json()
            assert f"(<{server.base_url}/verifying>)" in page["posts"][-1]
    finally:
        await server.stop()
    jsonl = export(db, enc.id)
    assert json.loads(jsonl.splitlines()[-1])["trailer"]["verifying"] == VERIFYING_DOC
    assert VERIFYING_DOC in export(db, enc.id, "--format", "markdown")
