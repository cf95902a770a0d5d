"""The firehose resumes by position across a SIGKILL of the server (issue 30 item 5): over 50 encounters,
40 public and 10 private granted, a reader killed mid-stream resumes on a new process from the last
position it received and ends with every event of every encounter once, in seq order, linked by hash.
And on PostgreSQL with two processes, the events one appends reach the other's firehose."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import aiohttp

from tests.support.client import Encounter, TussleClient
from tests.support.serving import ServeProcess
from tests.support.ws import frame

ADMIN = "admin-" + "k" * 40
ENCOUNTERS, PRIVATE = 50, 10


async def reader_token(client: TussleClient) -> dict[str, Any]:
    r = await client.request("POST", "/firehose-tokens", token=ADMIN)
    assert r.status == 201, r.body
    return r.body


async def firehose(client: TussleClient, token: str, after: int) -> aiohttp.ClientWebSocketResponse:
    ws = await client.session.ws_connect(f"{client.base_url}/firehose?token={token}")
    await ws.send_json({"op": "subscribe", "after": after})
    return ws


async def notes(encounters: list[Encounter], rounds: int, tag: str) -> None:
    """Each round, one note in every encounter at once; stops when the server goes away."""
    for n in range(rounds):
        sent = await asyncio.gather(
            *(e.ok("note", text=f"{tag} {n}") for e in encounters), return_exceptions=True
        )
        failed = [r for r in sent if isinstance(r, BaseException)]
        if failed:
            assert all(isinstance(r, (aiohttp.ClientError, AssertionError)) for r in failed), failed
            return


async def test_a_reader_resumes_after_a_kill_9_with_no_gap_and_no_duplicate(serve_args):
    args = (*serve_args, "--admin-token", ADMIN, "--rate-commands", "0")
    received: list[dict[str, Any]] = []
    first = await asyncio.to_thread(ServeProcess, *args)
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(first.url, session, "")
            reader = await reader_token(client)
            encounters = [
                await client.create(public=i >= PRIVATE, token=ADMIN, name=f"table {i}")
                for i in range(ENCOUNTERS)
            ]
            for enc in encounters[:PRIVATE]:
                r = await client.request(
                    "POST",
                    f"{enc.path}/firehose-grants",
                    {"token_id": reader["token_id"]},
                    token=enc.gm_token,
                )
                assert r.status == 201, r.body
            ws = await firehose(client, reader["token"], after=0)
            writing = asyncio.create_task(notes(encounters, 10, "before"))
            # Kill the server mid-stream: the reader has some frames, the writers are still at work.
            while len(received) < 3 * ENCOUNTERS:
                f = await frame(ws)
                assert f.get("type") in ("event", "caught_up"), f
                if f["type"] == "event":
                    received.append(f)
            first.stop(signal.SIGKILL)
            before_kill = len(received)
            await writing
    finally:
        first.stop(signal.SIGKILL)

    second = await asyncio.to_thread(ServeProcess, *args)
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(second.url, session, "")
            encounters = [Encounter(client, {"id": e.id, "gm_token": e.gm_token}) for e in encounters]
            ws = await firehose(client, reader["token"], after=received[-1]["position"])
            await notes(encounters, 2, "after")
            heads = {e.id: (await e.get("")).body["head"]["seq"] for e in encounters}
            last_seen = {e.id: 0 for e in encounters}
            for f in received:
                last_seen[f["encounter"]] = max(last_seen[f["encounter"]], f["seq"])
            while any(last_seen[i] < heads[i] for i in heads):
                f = await frame(ws)
                if f.get("type") == "caught_up":
                    continue
                assert f.get("type") == "event", f
                received.append(f)
                last_seen[f["encounter"]] = max(last_seen[f["encounter"]], f["seq"])
            await ws.close()

            positions = [f["position"] for f in received]
            assert positions == sorted(set(positions)), "positions repeat or go back"
            for enc in encounters:
                mine = [f for f in received if f["encounter"] == enc.id]
                stored = await enc.events()
                assert [f["seq"] for f in mine] == list(range(1, heads[enc.id] + 1)), enc.id
                assert [f["event"]["hash"] for f in mine] == [e["hash"] for e in stored]
                assert all(f["event"]["seq"] == f["seq"] and f["event"]["stream"] == enc.id for f in mine)
            assert before_kill < len(received) == sum(heads.values())
    finally:
        second.stop()


async def test_another_processes_appends_reach_the_firehose(pg_schema_dsn):
    """On one PostgreSQL database, a reader on process A sees what is appended through process B."""
    args = ("--pg", pg_schema_dsn, "--admin-token", ADMIN)
    a, b = await asyncio.to_thread(ServeProcess, *args), await asyncio.to_thread(ServeProcess, *args)
    try:
        async with aiohttp.ClientSession() as session:
            on_a, on_b = TussleClient(a.url, session, ""), TussleClient(b.url, session, "")
            reader = await reader_token(on_a)
            ws = await firehose(on_a, reader["token"], after=0)
            assert (await frame(ws))["type"] == "caught_up"
            enc = await on_b.create(public=True, token=ADMIN)
            note = await enc.ok("note", text="from B")
            seen = [await frame(ws), await frame(ws)]
            assert [(f["encounter"], f["seq"]) for f in seen] == [(enc.id, 1), (enc.id, 2)]
            assert seen[1]["event"]["hash"] == note["hash"]
            await ws.close()
    finally:
        a.stop()
        b.stop()
