"""GET /verify checks only what came after its last check (issue 32 item 4): the same verdict as a full
check, a write to the SQLite file behind the server's back makes the next check full again, `?full=1`
asks for one. And the verifier resumed from any point of a stream, honest or forged, reaches the verdict
of the whole check (server/audit/verifying.py Checkpoint)."""

from __future__ import annotations

import copy
import json
import sqlite3
from typing import Any

import aiohttp
import asyncpg

from events.envelope import event_hash
from server.audit.verifying import parse_export
from server.audit.whole_stream import verify_report
from tests.support.client import PgServer, TussleClient
from tests.support.forged_corpus import CASES, UNLIMITED, fight
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse
from tests.web.conftest import Api

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}

# What only says how the report was made, not what it found.
HOW = ("checked", "from_seq")


def verdict(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in HOW}


async def rolled(enc, n: int) -> None:
    for i in range(n):
        await enc.ok("roll", expression="2d6", purpose=f"check {i}", combatant="ann")


async def test_a_second_check_reads_only_the_new_events_and_says_what_the_full_one_says(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    await rolled(enc, 3)
    first = (await enc.get("/verify")).body
    assert (first["checked"], first["from_seq"], first["ok"]) == ("full", 1, True)
    await rolled(enc, 2)
    await enc.ok("rotate_seed")  # reveals the seed of every roll so far: the prefix's rolls are settled now
    await enc.ok("note", text="after the rotation")
    await rolled(enc, 1)
    second = (await enc.get("/verify")).body
    assert (second["checked"], second["from_seq"]) == ("incremental", first["head"]["seq"] + 1)
    assert second["ok"] and second["rolls_checked"] == 6 and second["rolls_verified"] == 5
    assert second["rolls_not_yet_revealed"] == 1
    full = (await enc.get("/verify?full=1")).body
    assert (full["checked"], full["from_seq"]) == ("full", 1)
    assert verdict(second) == verdict(full)
    again = (await enc.get("/verify")).body  # nothing new: nothing checked, the same verdict
    assert (again["checked"], again["from_seq"]) == ("incremental", full["head"]["seq"] + 1)
    assert verdict(again) == verdict(full)


async def test_a_rewrite_of_an_old_event_in_the_file_is_found_by_the_next_check(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    note = await enc.ok("note", text="the bridge holds")
    await rolled(enc, 2)
    assert (await enc.get("/verify")).body["ok"]
    other = sqlite3.connect(tussle.db_path)  # anyone but the server, with the server running
    with other:
        changed = other.execute(
            "UPDATE events SET data = replace(data, 'the bridge holds', 'the bridge fell') WHERE seq = ?",
            (note["seq"],),
        ).rowcount
    other.close()
    assert changed == 1
    await rolled(enc, 1)
    report = (await enc.get("/verify")).body
    assert report["checked"] == "full" and not report["ok"] and not report["chain_ok"]
    assert report["first_bad_seq"] == note["seq"], report["problems"]


async def test_on_postgresql_a_stream_rewritten_up_to_the_last_check_is_found_by_the_next(pg_schema_dsn):
    """PostgreSQL has no marker of other writers (other processes append legitimately), so a resumed check
    reads the event at its checkpoint again: a forger who rewrote it and sealed it anew, head and all,
    meets the hash this server checked last time."""
    srv = await PgServer(pg_schema_dsn).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await TussleClient(srv.base_url, session, srv.db_path).create()
            await enc.add(ANN)
            await rolled(enc, 1)
            note = await enc.ok("note", text="the bridge holds")
            assert (await enc.get("/verify")).body["ok"]
            conn = await asyncpg.connect(pg_schema_dsn)
            try:
                row = await conn.fetchrow(
                    "SELECT * FROM events WHERE stream = $1 AND seq = $2", enc.id, note["seq"]
                )
                data = row["data"].replace("the bridge holds", "the bridge fell")
                fields = ("stream", "seq", "type", "actor", "command_id", "ts", "prev_hash")
                forged = event_hash(data=json.loads(data), **{k: row[k] for k in fields})
                await conn.execute(
                    "UPDATE events SET data = $1, hash = $2 WHERE stream = $3 AND seq = $4",
                    data,
                    forged,
                    enc.id,
                    note["seq"],
                )
                await conn.execute("UPDATE streams SET hash = $1 WHERE id = $2", forged, enc.id)
            finally:
                await conn.close()
            report = (await enc.get("/verify")).body
    finally:
        await srv.stop()
    assert report["checked"] == "full" and not report["ok"]
    assert report["first_bad_seq"] == note["seq"], report["problems"]
    assert any("this server's last check" in p["message"] for p in report["problems"]), report["problems"]


async def test_full_1_checks_the_whole_stream_and_other_values_are_refused(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    await rolled(enc, 2)
    await enc.get("/verify")
    report = (await enc.get("/verify?full=1")).body
    assert (report["checked"], report["from_seq"], report["ok"]) == ("full", 1, True)
    assert report["events_checked"] == report["head"]["seq"]
    refused = await enc.get("/verify?full=yes")
    assert refused.status == 400 and refused.body["error"]["details"]["field"] == "full"


def test_resuming_at_every_split_of_every_forged_stream_gives_the_whole_checks_verdict(tmp_path):
    served = ServeProcess("--db", str(tmp_path / "tussle.db"), *UNLIMITED)
    try:
        assert served.port is not None, served.stderr
        honest = fight(Api(served.url))
    finally:
        served.stop()
    streams = {"honest": honest.raw}
    for tamper, _ in CASES:
        rows, trailer = parse(honest.raw)
        rows, trailer = copy.deepcopy(rows), copy.deepcopy(trailer)
        tamper(rows, trailer)
        streams[tamper.__name__] = encode(rows, trailer)
    judged = 0
    for name, raw in streams.items():
        events, _, _ = parse_export(raw)
        seqs = [e.seq for e in events]
        if seqs != sorted(set(seqs)):
            continue  # out of order or repeated: no store holds a stream so, and only a full check reads files
        head = (events[-1].seq, events[-1].hash)
        whole, _ = verify_report(events, head)
        for k in range(len(events) + 1):
            _, checkpoint = verify_report(
                events[:k], (events[k - 1].seq, events[k - 1].hash) if k else (0, "0" * 64)
            )
            resumed, _ = verify_report(events[k:], head, resumed=checkpoint)
            assert verdict(resumed) == verdict(whole), (name, k)
        judged += 1
    assert judged >= len(CASES) - 2  # all but the reordered streams
