"""Webhook delivery across real `tussle serve` processes: kill -9 with deliveries pending, then a
restart, loses none; two PostgreSQL processes send each delivery exactly once."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.support.client import Encounter, TussleClient
from tests.support.receivers import EVENTUALLY_S, Answer, Receiver
from tests.support.serving import ServeProcess

FAST = (
    "--webhook-allow-private",
    "--webhook-retry-s",
    "0.05",
    "--webhook-retry-cap-s",
    "0.2",
    "--rate-commands",
    "0",
)


async def serve(*args: str) -> ServeProcess:
    """`tussle serve` started off the event loop (its start waits), so the receivers here keep answering."""
    proc = await asyncio.to_thread(ServeProcess, *args, *FAST)
    assert proc.port is not None, proc.stderr
    return proc


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


async def subscribe(enc: Encounter, url: str) -> str:
    r = await enc.client.request(
        "POST", f"{enc.path}/webhooks", {"url": url, "deliver": ["events"]}, token=enc.gm_token
    )
    assert r.status == 201, r.body
    return r.body["id"]


async def test_kill_9_with_100_deliveries_pending_then_a_restart_delivers_each_once(tmp_path, session):
    gate = {"open": False}
    rx = await Receiver(lambda n: Answer(200) if gate["open"] else Answer(503)).start()
    db = str(tmp_path / "tussle.db")
    first = await serve("--db", db)
    try:
        client = TussleClient(first.url, session, db)
        enc = await client.create()
        wid = await subscribe(enc, rx.url)
        seqs = []
        for i in range(100):
            seqs.append((await enc.ok("note", text=f"note {i}"))["seq"])
        page = (await enc.get(f"/webhooks/{wid}/deliveries?limit=1000")).body["deliveries"]
        assert len(page) == 100 and {d["status"] for d in page} == {"pending"}
        await rx.until(lambda: len(rx.requests) >= 3, "failed tries")
        gate["open"] = True
        opened_at = len(rx.requests)
        await rx.until(lambda: len(rx.processed) >= 5, "the first deliveries")
        first.proc.send_signal(signal.SIGKILL)  # mid-stream: no cleanup, no goodbye
        await asyncio.to_thread(first.proc.wait)
        acknowledged_before = len(rx.processed)
        second = await serve("--db", db)
        try:
            got = await rx.until_processed(100)
            assert [r.json["data"]["seq"] for r in got] == seqs  # all of them, in order, each processed once
            assert [r.id for r in got] == [f"{wid}.{s}.0" for s in seqs]
            # At least once: of the deliveries acknowledged (every request since the gate opened), at
            # most the one in flight at the kill comes twice (its 2xx reached a process already gone);
            # the receiver's dedup on webhook-id absorbs it.
            acknowledged = [r.id for r in rx.requests[opened_at:]]
            assert len(acknowledged) - len(set(acknowledged)) <= 1, acknowledged
            # The last 2xx reaches the receiver a moment before the server records it: wait for that.
            second_enc = Encounter(TussleClient(second.url, session, db), enc.created)

            async def statuses() -> set[str]:
                page = (await second_enc.get(f"/webhooks/{wid}/deliveries?limit=1000")).body
                return {d["status"] for d in page["deliveries"]}

            deadline = time.monotonic() + EVENTUALLY_S
            while (now := await statuses()) != {"delivered"} and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert now == {"delivered"}
            assert acknowledged_before < 100
        finally:
            await asyncio.to_thread(second.stop)
    finally:
        await asyncio.to_thread(first.stop)
        await rx.stop()


async def test_two_postgresql_processes_send_each_delivery_exactly_once(pg_schema_dsn, session):
    receivers = [await Receiver().start() for _ in range(4)]
    a = await serve("--pg", pg_schema_dsn)
    b = await serve("--pg", pg_schema_dsn)
    try:
        via_a, via_b = TussleClient(a.url, session, ""), TussleClient(b.url, session, "")
        enc = await via_a.create()
        for rx in receivers:
            await subscribe(enc, rx.url)
        other = Encounter(via_b, enc.created)
        last = 0
        for i in range(40):
            last = (await (enc if i % 2 else other).ok("note", text=f"note {i}"))["seq"]
        for n, rx in enumerate(receivers):
            # Webhook n (made at seq 2 + n) gets every later event: the later webhooks' creations, the notes.
            expected = (3 - n) + 40
            got = await rx.until_processed(expected)
            ids = [r.id for r in rx.requests]
            assert len(ids) == len(set(ids)) == expected, "a delivery was sent twice"
            seqs = [r.json["data"]["seq"] for r in got]
            assert seqs == sorted(seqs) and seqs[-1] == last

        async def delivered() -> int:
            """What the two processes counted as delivered (each counts once its record is committed)."""
            total = 0
            for via in (via_a, via_b):
                metrics = (await via.request("GET", "/metrics")).body
                line = next(
                    x
                    for x in metrics.splitlines()
                    if x.startswith('tussle_webhook_deliveries_total{outcome="delivered"}')
                )
                total += int(line.rsplit(" ", 1)[1])
            return total

        sent = sum(len(rx.requests) for rx in receivers)
        deadline = asyncio.get_running_loop().time() + 20
        while await delivered() < sent and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert await delivered() == sent == sum(len(rx.processed) for rx in receivers)  # once each, by one
    finally:
        await asyncio.to_thread(a.stop)
        await asyncio.to_thread(b.stop)
        for rx in receivers:
            await rx.stop()
