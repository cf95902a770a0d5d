"""Several server processes on one PostgreSQL database: real `tussle serve --pg` processes, a real feed.

Each test gets a fresh schema (`pg_schema_dsn`) on the run's PostgreSQL server (tests/support/postgres.py),
which every process of a test shares.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from events.dice import derive_face
from events.envelope import Event, first_broken_link
from events.store.port import Append
from events.store.postgres import PostgresStore
from rules.registry import Registry
from server.app import ENCOUNTERS, make_app
from server.encounters.feed import LiveFeed
from server.live.pg_listener import PgFeedListener
from tests.support import serving
from tests.support.appends import command, creation
from tests.support.client import Encounter, TussleClient, listen
from tests.support.postgres import with_search_path

# Generous bounds for "eventually": they only decide how long a broken build takes to fail.
EVENTUALLY_S = 20.0


class ServeProcess(serving.ServeProcess):
    """`tussle serve --pg DSN` (or with TUSSLE_PG_DSN) in a subprocess, on a port the system picks."""

    def __init__(self, dsn: str, *args: str, via_env: bool = False):
        env = dict(os.environ)
        if via_env:
            env["TUSSLE_PG_DSN"] = dsn
            super().__init__(*args, env=env)
        else:
            super().__init__("--pg", dsn, *args, env=env)
        assert self.port is not None, f"tussle serve --pg exited: {self.stderr}"


class InProcessServer:
    """The same server as `tussle serve --pg`, in this process, so a test can watch its LiveFeed."""

    def __init__(self, dsn: str):
        self.store = PostgresStore(dsn)
        self.app = make_app(self.store, Registry.discover())
        self.port = 0  # known once started
        self.runner = web.AppRunner(self.app, access_log=None)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def feed(self) -> LiveFeed:
        return self.app[ENCOUNTERS].feed

    async def start(self) -> InProcessServer:
        await self.runner.setup()
        self.port = await listen(self.runner)
        return self

    async def stop(self) -> None:
        await self.runner.cleanup()


@pytest.fixture
async def processes(pg_schema_dsn: str) -> AsyncIterator[Callable[..., ServeProcess]]:
    started: list[ServeProcess] = []

    def start(*args: str, **kw: Any) -> ServeProcess:
        p = ServeProcess(pg_schema_dsn, *args, **kw)
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


async def eventually(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + EVENTUALLY_S
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def collect(feed: LiveFeed, stream: str) -> list[Event]:
    got: list[Event] = []
    feed.subscribe(stream, lambda events, _states: got.extend(events))
    return got


def as_events(envelopes: list[dict[str, Any]]) -> list[Event]:
    return [Event(**e) for e in envelopes]


# ---- through real processes --------------------------------------------------------------------


async def test_a_command_through_one_process_reaches_the_feed_of_another_once(
    pg_schema_dsn, processes, session
):
    outside = processes()
    inside = await InProcessServer(pg_schema_dsn).start()
    try:
        via_outside = TussleClient(outside.url, session, "")
        via_inside = TussleClient(inside.url, session, "")
        enc = await via_outside.create("freeform")
        got = collect(inside.feed, enc.id)
        await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
        enc_inside = Encounter(via_inside, enc.created)
        for i in range(4):
            await enc.ok("roll", expression="1d6", command_id=f"out-{i}")
            await enc_inside.ok("roll", expression="1d6", command_id=f"in-{i}")
        # The last event comes through the other process, after every event of this one: the feed is
        # in commit order, so once it has arrived, any event delivered twice has arrived too.
        last = (await enc.ok("note", text="the end", command_id="out-end"))["seq"]
        await eventually(
            lambda: bool(got) and got[-1].seq >= last, "every event reached the other process's feed"
        )
        stored = as_events(await enc.events())
        # Each event once, in seq order, whichever process appended it (the creation may have been
        # published before the subscription began).
        assert got[0].seq <= 2 and got == stored[got[0].seq - 1 :]
    finally:
        await inside.stop()


async def test_commands_through_either_process_reach_a_websocket_on_the_other_once(processes, session):
    first, second = processes(), processes()
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    enc_two = Encounter(two, enc.created)
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    async with session.ws_connect(
        f"{second.url}/encounters/{enc.id}/ws", headers={"Authorization": f"Bearer {enc.gm_token}"}
    ) as ws:
        await ws.send_json({"op": "subscribe", "projection": "events", "after": 0})
        frames: list[dict[str, Any]] = []

        async def until_seq(seq: int) -> None:
            while not frames or frames[-1].get("seq", 0) < seq or frames[-1]["type"] != "event":
                frames.append(await ws.receive_json(timeout=EVENTUALLY_S))

        await until_seq(2)
        for i in range(3):
            await enc.ok("roll", expression="1d6", command_id=f"via-one-{i}")
            await enc_two.ok("note", text=f"via two {i}", command_id=f"via-two-{i}")
        last = (await enc.ok("note", text="the end", command_id="via-one-end"))["seq"]
        await until_seq(last)
        # And nothing after it: one more event must be the very next frame (frames come in commit
        # order, so an event sent twice would come before it).
        marker = (await enc.ok("note", text="marker", command_id="via-one-marker"))["seq"]
        frames.append(await ws.receive_json(timeout=EVENTUALLY_S))
        assert frames[-1]["type"] == "event" and frames[-1]["seq"] == marker == last + 1, frames[-1]
    events = [f["event"] for f in frames if f["type"] == "event"]
    assert [e["seq"] for e in events] == list(range(1, marker + 1))
    assert all(b["prev_hash"] == a["hash"] for a, b in zip(events, events[1:], strict=False))
    assert events == await enc.events()


async def test_two_processes_racing_on_one_encounter_all_land_with_one_chain(processes, session):
    first, second = processes(), processes(via_env=True)
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    enc_two = Encounter(two, enc.created)
    n = 15
    results = await asyncio.gather(
        *(
            enc.command(
                "roll", expression="2d6", command_id=f"one-{i}", entropy=f"entropy-one-{i}-0123456789"
            )
            for i in range(n)
        ),
        *(
            enc_two.command(
                "roll", expression="2d6", command_id=f"two-{i}", entropy=f"entropy-two-{i}-0123456789"
            )
            for i in range(n)
        ),
    )
    assert [r.status for r in results] == [201] * (2 * n), [r.body for r in results if r.status != 201]
    stored = as_events(await enc_two.events())
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert first_broken_link(stored) is None
    rolls = [e for e in stored if e.type == "DieRolled"]
    assert sorted(e.command_id for e in rolls) == sorted(
        [f"one-{i}" for i in range(n)] + [f"two-{i}" for i in range(n)]
    )
    # A resend through the other process is the same command: same events, nothing appended.
    again = await enc_two.command(
        "roll", expression="2d6", command_id="one-0", entropy="entropy-one-0-0123456789"
    )
    assert again.status == 200 and again.body["events"] == results[0].body["events"]
    # The dice stay keyed on the command, however many conflicts a command was retried through.
    closed = await enc.ok("close")
    seed = bytes.fromhex(
        next(e["data"]["revealed_seed"] for e in closed["events"] if e["type"] == "DiceSeedRotated")
    )
    for e in rolls:
        faces = [derive_face(seed, enc.id, e.command_id, d, 6, e.data["entropy"]) for d in e.data["draws"]]
        assert faces == e.data["faces"]


async def metric(url: str, session: aiohttp.ClientSession, name: str) -> float:
    async with session.get(f"{url}/metrics") as r:
        text = await r.text()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))


async def test_fifty_writers_through_two_processes_never_get_seq_conflict(processes, session):
    """Issue 33 item 5: without expected_seq a command is never answered seq_conflict. Deciding is
    serialised per encounter (a transaction-level advisory lock), so a command is decided on the head
    it appends after: no race is lost, so no retry can run out."""
    # No rate limit: 300 commands under one GM token in a burst is the point here, not a 429.
    first, second = processes("--rate-commands", "0"), processes("--rate-commands", "0")
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    enc_two = Encounter(two, enc.created)
    writers, each = 50, 6

    async def writer(w: int) -> list[int]:
        target = enc if w % 2 else enc_two
        return [(await target.command("note", text=f"writer {w} note {i}")).status for i in range(each)]

    statuses = [s for got in await asyncio.gather(*(writer(w) for w in range(writers))) for s in got]
    assert statuses == [201] * (writers * each), sorted(set(statuses))
    stored = as_events(await enc_two.events())
    assert [e.seq for e in stored] == list(range(1, writers * each + 2))
    assert first_broken_link(stored) is None
    # Not one race was lost and decided again, in either process.
    for p in (first, second):
        assert await metric(p.url, session, "tussle_append_conflicts_total") == 0


async def test_a_pinned_expected_seq_gets_the_conflict_from_the_other_process(processes, session):
    first, second = processes(), processes()
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    enc_two = Encounter(two, enc.created)
    head = (await enc_two.state())["seq"]
    await enc.ok("note", text="first")
    r = await enc_two.command("note", text="second", expected_seq=head)
    assert r.status == 409 and r.body["error"]["code"] == "seq_conflict"
    assert r.body["error"]["details"] == {"expected": head, "actual": head + 1}
    # The second process serves the first one's encounter, state and tokens alike.
    assert (await enc_two.state())["seq"] == head + 1
    listed = await two.request("GET", "/encounters", token=None)
    assert listed.status == 200


async def test_a_token_revoked_through_one_process_is_refused_at_once_by_the_other(processes, session):
    """Each process caches live tokens (events/store/notified_caches.py); a command's append checks its
    token again inside the transaction, so the other process refuses the very next command."""
    first, second = processes(), processes()
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    enc_two = Encounter(two, enc.created)
    token = await enc.seat("Ann's player", ["ann"])
    for round_ in range(5):
        # The seat's token works through the second process (and is now in its cache) ...
        r = await enc_two.command("note", text=f"round {round_}", token=token)
        assert r.status == 201, r.body
        assert (await enc_two.get("/state", token=token)).status == 200
        # ... until the first process rotates it: the second refuses the old one's next command.
        rotated = await one.request("POST", f"{enc.path}/seats/seat-1/token", token=enc.gm_token)
        assert rotated.status == 201, rotated.body
        refused = await enc_two.command("note", text="too late", token=token)
        assert refused.status == 401 and refused.body["error"]["code"] == "unauthenticated", refused.body
        # Reads with it stop as soon as the second process hears of the rotation (a notification).
        deadline = time.monotonic() + EVENTUALLY_S
        while (await enc_two.get("/state", token=token)).status != 401:
            assert time.monotonic() < deadline, "the second process kept serving a revoked token"
            await asyncio.sleep(0.01)
        token = rotated.body["token"]
    revoked = await one.request("DELETE", f"{enc.path}/seats/seat-1", token=enc.gm_token)
    assert revoked.status == 204
    r = await enc_two.command("note", text="gone", token=token)
    assert r.status == 401, r.body
    notes = [e for e in await enc_two.events() if e["type"] == "NotePosted"]
    assert [e["data"]["text"] for e in notes] == [f"round {i}" for i in range(5)]


async def test_a_command_through_one_process_after_appends_through_the_other_sees_the_new_head(
    processes, session
):
    """Each process trusts its cached state while notifications say no other process moved the head;
    a command decided on a head just moved elsewhere is decided again on the stored one."""
    first, second = processes(), processes()
    one, two = TussleClient(first.url, session, ""), TussleClient(second.url, session, "")
    enc = await one.create("freeform")
    enc_two = Encounter(two, enc.created)
    await enc_two.state()  # the second process has it cached
    for round_ in range(8):
        # A pinned expected_seq at the head the first process just made is accepted by the second ...
        head = (await enc.ok("note", text=f"one {round_}"))["seq"]
        pinned = await enc_two.command("note", text=f"two {round_}", expected_seq=head)
        assert pinned.status == 201 and pinned.body["seq"] == head + 1, pinned.body
        # ... a stale one is a 409 naming the real head, and an unpinned command lands after it.
        stale = await enc.command("note", text="stale", expected_seq=head)
        assert stale.status == 409 and stale.body["error"]["details"] == {
            "expected": head,
            "actual": head + 1,
        }
        # A command that is only valid after the other process's last append is not refused.
        await enc.add({"id": f"c{round_}", "name": f"C{round_}", "side": "red", "position": [round_, 0]})
        moved = await enc_two.command("move", combatant=f"c{round_}", to=[round_, 1])
        assert moved.status == 201, moved.body
    stored = as_events(await enc_two.events())
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1)) and first_broken_link(stored) is None
    assert len(stored) == 1 + 8 * 4


async def test_export_reads_an_encounter_from_postgres(pg_schema_dsn, processes, session):
    served = processes()
    enc = await TussleClient(served.url, session, "").create("freeform")
    await enc.ok("roll", expression="3d6")
    events = await enc.events()
    exported = subprocess.run(
        [sys.executable, "-m", "server", "export", enc.id, "--pg", pg_schema_dsn],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert lines[:-1] == events and lines[-1]["trailer"]["head_hash"] == events[-1]["hash"]
    missing = subprocess.run(
        [sys.executable, "-m", "server", "export", "nope", "--pg", pg_schema_dsn],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 1 and "no encounter 'nope'" in missing.stderr


# ---- the listener itself -----------------------------------------------------------------------


@pytest.fixture
async def pg_stores(pg_schema_dsn: str) -> AsyncIterator[Callable[[], Any]]:
    opened: list[PostgresStore] = []

    async def open_store() -> PostgresStore:
        s = PostgresStore(pg_schema_dsn)
        await s.open()
        opened.append(s)
        return s

    yield open_store
    for s in reversed(opened):
        await s.close()


async def _append_notes(store: PostgresStore, stream: str, start: int, count: int) -> None:
    for i in range(count):
        await store.append(command(stream, start + i, f"{stream}-{start + i}"))


async def test_the_listener_catches_up_after_its_connection_is_lost(pg_stores, pg_dsn):
    reader, writer = await pg_stores(), await pg_stores()
    await writer.append(creation("s"))
    feed = LiveFeed()
    got = collect(feed, "s")
    listener = PgFeedListener(reader, feed, poll_s=30.0, retry_s=0.2)  # a long poll: only LISTEN and catch-up
    await listener.start()
    try:
        await _append_notes(writer, "s", 1, 3)
        await eventually(lambda: len(got) == 3, "the first events")
        killer = await asyncpg.connect(pg_dsn)
        try:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", listener.listen_pid)
        finally:
            await killer.close()
        # Appended while the listener is down or reconnecting: found by the catch-up after re-LISTEN.
        await _append_notes(writer, "s", 4, 3)
        await eventually(lambda: listener.connections >= 2, "a reconnection")
        await eventually(lambda: len(got) == 6, "the events appended while it was away")
        await _append_notes(writer, "s", 7, 2)
        await eventually(lambda: len(got) == 8, "later events through the new LISTEN")
        stored = await writer.read("s", 2)
        assert got == stored
    finally:
        await listener.stop()


async def test_a_lost_notification_is_delivered_by_the_poll(pg_stores):
    reader, writer = await pg_stores(), await pg_stores()
    await writer.append(creation("quiet"))
    feed = LiveFeed()
    got = collect(feed, "quiet")
    listener = PgFeedListener(reader, feed, poll_s=0.2)
    await listener.start()
    try:
        writer.channel = "tussle_nobody_listens"  # this writer's notifications are lost
        await _append_notes(writer, "quiet", 1, 3)
        await eventually(lambda: len(got) == 3, "the poll found the events")
        assert got == await writer.read("quiet", 2)
    finally:
        await listener.stop()


async def test_the_listener_delivers_many_streams_once_each_in_order(pg_stores):
    reader, w1, w2 = await pg_stores(), await pg_stores(), await pg_stores()
    streams = [f"m{i}" for i in range(6)]
    for s in streams:
        await w1.append(creation(s))
    feed = LiveFeed()
    got = {s: collect(feed, s) for s in streams}
    listener = PgFeedListener(reader, feed, batch=7)  # small pages: the catch-up loops
    await listener.start()
    try:
        # Two writers (two processes, as far as the database can tell), three streams each.
        await asyncio.gather(
            *(_append_notes(w1 if i % 2 else w2, s, 1, 8) for i, s in enumerate(streams)),
            reader.append_many([Append("m0", 99, "stale", "b", "gm", [])]),
        )
        await eventually(lambda: all(len(v) == 8 for v in got.values()), "every stream's events")
        for s in streams:
            assert got[s] == await reader.read(s, 2)
    finally:
        await listener.stop()


async def test_the_schema_named_by_the_dsn_is_created_once_and_reused(pg_dsn):
    schema = f"t_made_{secrets.token_hex(4)}"
    dsn = with_search_path(pg_dsn, schema)
    try:
        first, second = PostgresStore(dsn), PostgresStore(dsn)
        await asyncio.gather(first.open(), second.open())  # two processes starting at once
        try:
            await first.append(creation("kept"))
            assert first.schema == second.schema == schema
            assert [e.seq for e in await second.read("kept")] == [1]
        finally:
            await first.close()
            await second.close()
        again = PostgresStore(dsn)
        async with again:
            assert (await again.stream_info("kept")).seq == 1
    finally:
        conn = await asyncpg.connect(pg_dsn)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await conn.close()
